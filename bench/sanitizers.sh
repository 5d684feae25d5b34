#!/usr/bin/env bash
# Measures what each sanitizer choice costs per run and what it catches on the lesson's
# programs: the reference check_win, and the classic mistake of reading board[nr][nc]
# before the bounds check. Needs gcc and hyperfine (apt install hyperfine).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

base="-std=c99 -Wall -Wextra -g"
declare -A modes=(
  [plain]=""
  [ubsan_bounds]="-fsanitize=undefined -fsanitize=bounds-strict -fno-sanitize-recover=all"
  [asan]="-fsanitize=address -fno-sanitize-recover=all"
)
board=fixtures/check_win/01_empty_board.in
buggy=solutions/wrong/check_win/bounds_checked_after_access.c

for mode in plain ubsan_bounds asan; do
  gcc $base ${modes[$mode]} solutions/check_win.c -o "$work/ref_$mode"
  gcc $base ${modes[$mode]} "$buggy" -o "$work/bug_$mode" 2>/dev/null
done

echo "## start-up and run cost per case (solutions/check_win.c on $board)"
# hyperfine subtracts the cost of the shell that does the redirection.
hyperfine --warmup 20 --runs 300 --export-markdown "$work/times.md" \
  -n plain "$work/ref_plain < $board" \
  -n "undefined+bounds-strict" "$work/ref_ubsan_bounds < $board" \
  -n address "$work/ref_asan < $board" >/dev/null
cat "$work/times.md"

echo
echo "## cases where $buggy is caught by a sanitizer report (of $(ls fixtures/check_win/*.out | wc -l))"
for mode in plain ubsan_bounds asan; do
  caught=0 wrong=0
  for input in fixtures/check_win/*.in; do
    expected="${input%.in}.out"
    if ! UBSAN_OPTIONS=exitcode=86 ASAN_OPTIONS=exitcode=86:detect_leaks=0 \
        "$work/bug_$mode" <"$input" >"$work/out" 2>"$work/err"; then
      grep -qE 'runtime error|AddressSanitizer' "$work/err" && caught=$((caught + 1))
    elif ! diff -q <(sed 's/[[:space:]]*$//' "$work/out") <(sed 's/[[:space:]]*$//' "$expected") >/dev/null; then
      wrong=$((wrong + 1))
    fi
  done
  echo "$mode: $caught caught by the sanitizer, $wrong more give a wrong answer"
done
