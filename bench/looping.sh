#!/usr/bin/env bash
# A program that loops on every case (bench/looping_check_win.c: `while (scanf(...))`,
# the lesson's most common bug): the time to its full report, for this checkout and for
# an earlier revision that ran every case to its time limit, in one hyperfine run each:
#   - `clings run check_win` (a student; 44 cases),
#   - `clings test check_win --submission` (CI),
#   - `clings grade` on five students, one of whom loops.
# Watch mode's figure (a fix saved during the looping run, to its result on screen) is
# bench/watch_latency.py --looping.
# Usage: bench/looping.sh [BASE_REVISION]   (default: 542e9d8, before the loop stop)
# Environment: BASE_CLINGS, the base revision's release binary if already built.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-542e9d8}
cargo build --release --quiet
new="${CARGO_TARGET_DIR:-$PWD/target}/release/clings"
work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
if [[ -n ${BASE_CLINGS:-} ]]; then
  old=$BASE_CLINGS # the base revision, already built
else
  git worktree add --quiet --detach "$work/base" "$base"
  CARGO_TARGET_DIR="$work/target" cargo build --release --quiet --manifest-path "$work/base/Cargo.toml"
  old="$work/target/release/clings"
fi

# Each binary grades with its own revision's course files (their format changed).
course="$work/course"
mkdir "$course"
cp -r info.toml exercises skeletons solutions fixtures "$course"
old_course="$work/old-course"
mkdir "$old_course"
git archive "$base" info.toml exercises solutions fixtures | tar -x -C "$old_course"
for dir in "$course" "$old_course"; do
  cp solutions/print_board.c "$dir/exercises/"
  cp bench/looping_check_win.c "$dir/exercises/check_win.c"
done
# A submission that loops, and a class of five: four right, one looping.
mkdir -p "$work/submission" "$work/class"
cp bench/looping_check_win.c "$work/submission/check_win.c"
for student in ana ben cai dan; do
  mkdir "$work/class/$student"
  cp solutions/print_board.c solutions/check_win.c solutions/gomoku.c "$work/class/$student/"
done
mkdir "$work/class/eve"
cp solutions/print_board.c solutions/gomoku.c "$work/class/eve/"
cp bench/looping_check_win.c "$work/class/eve/check_win.c"

run() {
  hyperfine -N --time-unit second --runs "$1" --export-markdown "$work/$2.md" "${@:3}" >/dev/null
  tail -n +3 "$work/$2.md"
}
echo "| Command | Mean [s] | Min [s] | Max [s] | Relative |"
echo "|:---|---:|---:|---:|---:|"
cd "$course"
"$new" run check_win >/dev/null || true # builds the program once
run 5 run-new -n "clings run check_win, this checkout" "$new run check_win" -i
run 3 ci-new -n "clings test check_win --submission, this checkout" \
  "$new test check_win --submission $work/submission" -i
run 2 grade-new -n "clings grade, 5 students (1 loops), this checkout" \
  "$new grade $work/class --out $work/book-new" -i
cd "$old_course"
"$old" run check_win >/dev/null || true
run 2 run-old -n "clings run check_win, $base" "$old run check_win" -i
run 2 ci-old -n "clings test check_win --submission, $base" \
  "$old test check_win --submission $work/submission" -i
run 1 grade-old -n "clings grade, 5 students (1 loops), $base" \
  "$old grade $work/class --out $work/book-old" -i
