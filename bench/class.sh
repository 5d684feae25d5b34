#!/usr/bin/env bash
# Grades a synthetic class with `clings grade` (1 and 2 jobs) beside a plain shell loop
# that compiles each file with the same flags and diffs each case. The class mixes
# correct, wrong, non-compiling and looping submissions. Needs hyperfine.
# Usage: bench/class.sh [STUDENTS]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
students=${1:-60}
cargo build --release --quiet 2>/dev/null
clings="${CARGO_TARGET_DIR:-$PWD/target}/release/clings"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/course" "$work/class"
cp -r info.toml exercises solutions fixtures skeletons referees bots "$work/course"

bench/make_class.sh "$students" "$work/class"
cases=$(ls fixtures/*/*.out | wc -l)

flags="-std=c99 -Wall -Wextra -g -fsanitize=undefined -fsanitize=bounds-strict -fno-sanitize-recover=all"
cat >"$work/naive.sh" <<SH
#!/usr/bin/env bash
# For every student and exercise: compile, run each case with a time limit, diff.
cd "$work/course"
export UBSAN_OPTIONS=exitcode=86:halt_on_error=1
for student in "$work"/class/*/; do
  for name in print_board check_win gomoku; do
    bin=/tmp/naive_\$\$_\$name
    gcc $flags "\$student/exercises/\$name.c" -o "\$bin" -lm 2>/dev/null || { echo "\$student \$name compile_error"; continue; }
    for out in fixtures/\$name/*.out; do
      input=\${out%.out}.in; [ -f "\$input" ] || input=/dev/null
      timeout 2 "\$bin" <"\$input" 2>/dev/null | head -c 65536 | diff -Z -q - "\$out" >/dev/null || echo "\$student \$out failed"
    done
  done
done >"$work/naive.log"
SH
chmod +x "$work/naive.sh"

echo "$students submissions x $cases cases, $(nproc) cores"
cd "$work/course"
hyperfine -N --runs 3 --export-markdown "$work/report.md" \
  --prepare "rm -rf $work/course/.clings" \
  -n "clings grade --jobs 1" "$clings --jobs 1 grade $work/class --out $work/book1" \
  --prepare "rm -rf $work/course/.clings" \
  -n "clings grade --jobs 2" "$clings --jobs 2 grade $work/class --out $work/book2" \
  --prepare "true" \
  -n "shell loop: gcc + diff" "$work/naive.sh" >/dev/null
cat "$work/report.md"
echo
python3 - "$work/report.md" "$students" "$cases" <<'PY'
import re, sys
students, cases = int(sys.argv[2]), int(sys.argv[3])
scale = 1.0
for line in open(sys.argv[1]):
    if line.startswith("| Command"):
        scale = 1000.0 if "[s]" in line else 1.0  # hyperfine switches units
    m = re.match(r"\| `(.+?)` \| ([\d.]+) ± [\d.]+ \|", line)
    if m:
        ms = float(m.group(2)) * scale
        print(f"{m.group(1)}: {students / (ms / 1000):.2f} submissions/s, "
              f"{ms / (students * cases):.2f} ms of wall time per case run (timeouts included)")
PY
cut -d, -f1,5- "$work/book2/grades.csv" | sed -n '1,12p'
