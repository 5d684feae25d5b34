#!/usr/bin/env bash
# `clings test` on the whole Gomoku course (reference solutions in place), cold and warm,
# in every isolation tier, beside the plain shell loop a teacher would write: gcc with the
# same sanitizer flags, then each case's input through the program and diff (no isolation,
# no strict tier; the refereed `ai` exercise is left out of the loop, and the cases that
# need arguments or given files fail in it, as fast as they pass). Then the figures of
# issue 39 from the same runs: warm against the loop, isolated against none, each tier's
# cost. The boards against the shared naive loop and check50 are in bench/isolation.sh.
# Needs hyperfine and bubblewrap. BEFORE names another clings binary (an earlier
# revision's release build), measured beside this one in the same hyperfine run.
# Usage: bench/runner.sh [RUNS]   (default 15)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-15}
cargo build --release --quiet
clings="${CARGO_TARGET_DIR:-$PWD/target}/release/clings"
before=${BEFORE:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
course=$work/course
mkdir "$course"
cp -r info.toml exercises solutions fixtures skeletons referees bots "$course"
cp solutions/*.c "$course/exercises/"
cases=$(find fixtures -name '*.out' | wc -l)

flags="-std=c99 -Wall -Wextra -g -fsanitize=undefined -fsanitize=bounds-strict -fno-sanitize-recover=all"
cat >"$work/naive.sh" <<SH
#!/usr/bin/env bash
# compile each exercise, run every case, compare ignoring trailing blanks
cd "$course"
compile=\${1:-yes}
for dir in fixtures/*/; do
  name=\$(basename "\$dir")
  [ "\$name" = ai ] && continue
  [ "\$compile" = yes ] && gcc $flags exercises/\$name.c -o $work/naive_\$name -lm
  for out in "\$dir"*.out; do
    input=\${out%.out}.in; [ -f "\$input" ] || input=/dev/null
    timeout 2 $work/naive_\$name <"\$input" | diff -Z -q - "\$out" >/dev/null || echo "FAIL \$out"
  done
done
SH
chmod +x "$work/naive.sh"

echo "# $cases cases, $(nproc) cores, $(gcc -dumpfullversion | sed 's/^/gcc /'), $(uname -sr)"
cd "$course"
for binary in "$clings" ${before:+"$before"}; do "$binary" test >/dev/null || true; done
"$work/naive.sh" yes >/dev/null
# -N: no shell in between, so only the command itself is timed. A single --prepare
# would apply to every command, so the cold run is measured on its own.
hyperfine -N --warmup 1 --runs "$((runs / 3 + 1))" --export-markdown "$work/cold.md" \
  -n "clings test, cold cache" --prepare "rm -rf .clings" "$clings test" >/dev/null
rows=(-n "clings test, warm" "$clings test"
  -n "clings test, warm, --jobs 1" "$clings --jobs 1 test"
  -n "clings test, warm, the container tier" "env CLINGS_ISOLATION=container $clings test"
  -n "clings test, warm, no isolation" "env CLINGS_ISOLATION=none $clings test"
  -n "shell loop: gcc + diff" "$work/naive.sh yes"
  -n "shell loop: diff only (precompiled)" "$work/naive.sh no")
if [[ -n $before ]]; then
  rows+=(-n "BEFORE, warm" "$before test" -n "BEFORE, warm, no isolation" "env CLINGS_ISOLATION=none $before test")
fi
hyperfine -N --warmup 2 --runs "$runs" --export-markdown "$work/warm.md" \
  --export-json "$work/warm.json" "${rows[@]}" >/dev/null
cat "$work/cold.md"
tail -n +3 "$work/warm.md"
echo "## the figures (issue 39), from the runs above"
cd - >/dev/null
python3 bench/ratios.py "$work/warm.json" -- \
  "whole course warm against the gcc + diff loop=clings test, warm/shell loop: gcc + diff" \
  "whole course warm against the loop without its compiles=clings test, warm/shell loop: diff only (precompiled)" \
  "whole course isolated against none=clings test, warm/clings test, warm, no isolation<=0.7" \
  "the container tier against none=clings test, warm, the container tier/clings test, warm, no isolation" \
  "the container tier against bubblewrap=clings test, warm, the container tier/clings test, warm" \
  ${before:+"against BEFORE=clings test, warm/BEFORE, warm"}
