#!/usr/bin/env bash
# What isolation costs, and clings beside its peers, in one run:
#  1. warm `clings test` on the whole course (reference solutions in place), isolated by
#     bubblewrap, by the container tier (CLINGS_ISOLATION=container: Landlock) and with
#     CLINGS_ISOLATION=none;
#  2. the 20 shared check_win boards (../shared/bench): warm `clings test check_win`
#     (isolated, sanitizers on; with the course's strict tier, and without it), the plain
#     gcc + diff loop (no sanitizer, no isolation) and check50 --dev;
#  3. cold start: `clings test` with an empty build cache (in a fresh clone, and on a new
#     machine), beside the same compiles (UBSan build and the AddressSanitizer build of
#     the strict tier) run by hand, one after another and on every core.
# Then the figures issue 39 asks for, from the same runs (bench/ratios.py): the boards warm
# against the loop and check50, the course isolated against none, each tier's cost; and one
# warm `clings test` with CLINGS_TIMINGS=1: where its time goes.
#
# Needs hyperfine and bubblewrap; CHECK50 names check50 (default: `check50` on PATH; the
# row is skipped without it); BEFORE names another clings binary (an earlier revision's
# release build), measured beside this one in sections 1 and 2, in the same hyperfine runs.
# Usage: bench/isolation.sh [RUNS]   (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
shared=$(cd ../shared/bench && pwd)
check50=${CHECK50:-$(command -v check50 || true)}
cargo build --release --quiet
clings="${CARGO_TARGET_DIR:-$PWD/target}/release/clings"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The course, solved.
course=$work/course
mkdir "$course"
cp -r info.toml exercises solutions fixtures skeletons referees bots "$course"
cp solutions/*.c "$course/exercises/"
# The 20 boards: the same course with check_win's cases replaced, and the peers' student.
boards=$work/boards
cp -r "$course" "$boards"
rm "$boards"/fixtures/check_win/*
cp "$shared"/check50/check_win/boards/*.in "$shared"/check50/check_win/boards/*.out "$boards/fixtures/check_win/"
cp "$shared/check50/check_win_ref.c" "$boards/exercises/check_win.c"
mkdir "$work/student"
cp "$shared/check50/check_win_ref.c" "$work/student/check_win.c"
# The same boards without the strict tier's AddressSanitizer runs.
lenient=$work/lenient
cp -r "$boards" "$lenient"
sed -i 's/^strict_sanitizers = .*/strict_sanitizers = []/' "$lenient/info.toml"

echo "# $(nproc) cores, $(gcc -dumpfullversion | sed 's/^/gcc /'), $(bwrap --version), $(uname -sr)"
echo "# course: $(find fixtures -name '*.out' | wc -l) cases; boards: $(find "$boards/fixtures/check_win" -name '*.out' | wc -l)"
before=${BEFORE:-}
for binary in "$clings" ${before:+"$before"}; do
  (cd "$course" && "$binary" test >/dev/null)
  (cd "$boards" && "$binary" test check_win >/dev/null)
  (cd "$lenient" && "$binary" test check_win >/dev/null)
done

echo "## 1. whole course, warm"
course_rows=(-n "isolated (bubblewrap)" "$clings test"
  -n "container tier" "env CLINGS_ISOLATION=container $clings test"
  -n "CLINGS_ISOLATION=none" "env CLINGS_ISOLATION=none $clings test")
if [[ -n $before ]]; then
  course_rows+=(-n "BEFORE, isolated" "$before test"
    -n "BEFORE, CLINGS_ISOLATION=none" "env CLINGS_ISOLATION=none $before test")
fi
(cd "$course" && hyperfine -N --warmup 3 --runs "$runs" --export-markdown "$work/course.md" \
  --export-json "$work/course.json" \
  "${course_rows[@]}" >/dev/null)
tail -n +3 "$work/course.md"

echo "## 2. 20 check_win boards, warm"
peers=(-n "clings test check_win (isolated, UBSan, strict tier)" "$clings test check_win"
  -n "the same without the strict tier" "bash -c 'cd $lenient && exec $clings test check_win'"
  -n "the container tier, strict tier" "env CLINGS_ISOLATION=container $clings test check_win"
  -n "CLINGS_ISOLATION=none, strict tier" "env CLINGS_ISOLATION=none $clings test check_win"
  -n "gcc + diff loop" "$shared/naive.sh $work/student/check_win.c")
if [[ -n $before ]]; then
  peers+=(-n "BEFORE, strict tier" "$before test check_win"
    -n "BEFORE, without the strict tier" "bash -c 'cd $lenient && exec $before test check_win'")
fi
if [[ -n $check50 ]]; then
  peers+=(-n "check50 --dev" "bash -c 'cd $work/student && $check50 --dev $shared/check50/check_win -o json --output-file $work/c50.json'")
fi
(cd "$boards" && hyperfine -N --warmup 2 --runs "$runs" --export-markdown "$work/boards.md" \
  --export-json "$work/boards.json" "${peers[@]}" >/dev/null)
tail -n +3 "$work/boards.md"

echo "## 3. cold start: empty build cache"
flags="-std=c99 -Wall -Wextra -g"
# The builds clings makes, with its flags and each exercise's own (info.toml's flags):
# each exercise with UBSan (its runtime linked in) and with AddressSanitizer (strict tier),
# and the referee with UBSan, once with the flags of each exercise it judges. Listed here,
# so that the timed script below only runs them.
ubsan="-fsanitize=undefined -fsanitize=bounds-strict -fno-sanitize-recover=all -static-libubsan -static-libgcc"
link="-Wl,--as-needed -lm"
python3 - "$course/info.toml" >"$work/exercises.txt" <<'PY'
import sys, tomllib
for exercise in tomllib.load(open(sys.argv[1], "rb"))["exercises"]:
    fields = [exercise["name"], exercise["path"], " ".join(exercise.get("flags", [])), exercise.get("referee", "")]
    print("|".join(fields))
PY
while IFS='|' read -r name path own referee; do
  [[ -n $referee ]] && echo "gcc $flags $own $ubsan $referee -o $work/referee_$name $link"
  echo "gcc $flags $own $ubsan $path -o $work/ub_$name $link"
  echo "gcc $flags $own -fsanitize=address -fno-sanitize-recover=all $path -o $work/asan_$name $link"
done <"$work/exercises.txt" >"$work/builds.txt"
cat >"$work/compile.sh" <<SH
#!/usr/bin/env bash
# The builds of $work/builds.txt, \$1 at a time (default 1: one after another).
cd "$course"
xargs -P "\${1:-1}" -I{} sh -c {} <"$work/builds.txt"
SH
chmod +x "$work/compile.sh"
# clings' errors, kept: a failed run is shown, not only its exit status.
cat >"$work/clings-logged" <<SH
#!/usr/bin/env bash
exec "$clings" "\$@" 2>>"$work/cold-errors.log"
SH
chmod +x "$work/clings-logged"
trap 'cat "$work/cold-errors.log" >&2 2>/dev/null; rm -rf "$work"' EXIT
# A fresh clone: the course's build cache is empty; what clings knows of the machine (which
# sanitizers gcc supports, that bubblewrap works) is kept in the user's cache. The first
# run on a new machine has neither.
(cd "$course" && hyperfine -N --warmup 1 --runs "$((runs / 2 + 1))" --export-markdown "$work/cold.md" \
  -n "clings test, fresh clone" --prepare "rm -rf $course/.clings" "$work/clings-logged test" \
  -n "clings test, fresh clone, new machine" \
  --prepare "rm -rf $course/.clings $work/user-cache" "env XDG_CACHE_HOME=$work/user-cache $work/clings-logged test" >/dev/null)
hyperfine -N --warmup 1 --runs "$((runs / 2 + 1))" --export-markdown "$work/compile.md" \
  -n "the same gcc builds, one after another" "$work/compile.sh 1" \
  -n "the same gcc builds, $(nproc) at a time" "$work/compile.sh $(nproc)" >/dev/null
tail -n +3 "$work/cold.md"
tail -n +3 "$work/compile.md"

echo "## the figures (issue 39), from the runs above"
strict="clings test check_win (isolated, UBSan, strict tier)"
python3 bench/ratios.py "$work/course.json" "$work/boards.json" -- \
  "boards warm against the gcc + diff loop=$strict/gcc + diff loop<=0.25" \
  "check50 --dev against the boards warm=check50 --dev/$strict>=60" \
  "whole course isolated against none=isolated (bubblewrap)/CLINGS_ISOLATION=none<=0.7" \
  "whole course, the container tier against none=container tier/CLINGS_ISOLATION=none" \
  "whole course, the container tier against bubblewrap=container tier/isolated (bubblewrap)" \
  "boards, bubblewrap against none=$strict/CLINGS_ISOLATION=none, strict tier" \
  "boards, the container tier against none=the container tier, strict tier/CLINGS_ISOLATION=none, strict tier" \
  "boards, the strict tier's cost=$strict/the same without the strict tier" \
  ${before:+"whole course against BEFORE=isolated (bubblewrap)/BEFORE, isolated"} \
  ${before:+"boards against BEFORE=$strict/BEFORE, strict tier"}

echo "## where a warm \`clings test\` spends its time"
(cd "$course" && CLINGS_TIMINGS=1 "$clings" test >/dev/null 2>"$work/timings.txt")
cat "$work/timings.txt"
