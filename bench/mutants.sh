#!/usr/bin/env bash
# Mutation testing of one module: cargo-mutants breaks one expression of MODULE_FILE at a
# time and runs the tests that cover it; a mutant no test notices ("missed") is behaviour
# the suite does not pin down. Too slow for CI; run it by hand when a module's tests change.
#
#   bench/mutants.sh src/verdict/judge.rs            # unit tests, then integration tests
#   bench/mutants.sh src/store/progress.rs --re 'save'      # extra args go to cargo-mutants
#
# Each module gets the unit tests, then the integration tests that check its promises
# (see `integration_tests_for`); anything after the module is passed to cargo-mutants
# before the test arguments (`--timeout 60`, `--re REGEX`, `--list`). Environment: CARGO_MUTANTS_JOBS (mutants built and tested at
# once, default 1), CARGO_BUILD_JOBS (rustc processes per build), MUTANTS_TARGET_DIR (where
# mutants are built, default target/mutants: kept apart from your own builds), MUTANTS_MIN
# (the lowest caught ratio, in percent, that exits 0; default 90).
#
# Output: mutants.out/<module, / as ->/mutants.out/ (ignored by git); the summary at the end
# counts caught, missed, unviable (does not build) and timeouts (made the tests hang); the
# ratio is caught / (caught + missed). Missed mutants that bench/mutants-harmless.txt
# names as equivalent to the original are marked so.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=27.1.0

if (($# < 1)) || [[ ! -f $1 ]]; then
  echo "usage: $0 MODULE_FILE [cargo-mutants args...]   (e.g. src/verdict/judge.rs)" >&2
  exit 2
fi
module=$1
shift

# Two rounds. First the unit tests (`--bins`: clings has no library target), which run in
# about a second and catch at least 90% of the mutants of compare, judge, diff and progress
# (whose locking and merging they test in a temporary course). Then, for the modules that
# keep most of their promises where only the real binary shows them (the compiler, the
# sandbox, watch mode), the mutants the unit tests missed meet the integration tests that
# check those promises (`--iterate`: about a minute a mutant).
integration_tests_for() {
  case $1 in
    src/compile/toolchain.rs) echo "sealed_compile:: verdicts:: commands::" ;;
    src/watch/*) echo "watch::" ;;
    src/sandbox/relay.rs) echo "interactive:: battle::" ;;
    src/sandbox/files.rs | src/sandbox/helper.rs) echo "files:: hostile:: verdicts:: robustness:: sealed_compile:: watch:: dev:: checker:: interactive::" ;;
    src/sandbox/*) echo "hostile:: verdicts:: robustness:: sealed_compile:: watch:: dev:: checker:: interactive::" ;;
    *) echo "" ;;
  esac
}

if [[ $(cargo mutants --version 2>/dev/null) != "cargo-mutants $VERSION" ]]; then
  echo "installing cargo-mutants $VERSION (a few minutes)" >&2
  cargo install --locked --version "$VERSION" cargo-mutants
fi

name=${module#src/}
name=${name%.rs}
out=mutants.out/${name//\//-}
mkdir -p "$out"
export CARGO_TARGET_DIR=${MUTANTS_TARGET_DIR:-$PWD/target/mutants}
# A test that lacks what it needs fails rather than skips: a mutant that breaks making
# cgroups would otherwise make the cgroup tests skip, and pass.
export CI=true
results=$out/mutants.out
count() { grep -c . "$results/$1.txt" 2>/dev/null || true; }

# 0: all caught; 2: some missed; 3: some timed out. Anything else (1: usage, 4: the
# unmutated tree fails its tests) means there are no results to count.
round() {
  local status=0
  cargo mutants --file "$module" --output "$out" "$@" || status=$?
  case $status in
    0 | 2 | 3) ;;
    *) exit "$status" ;;
  esac
  if [[ ! -f $results/outcomes.json ]]; then
    exit "$status" # --list and other runs that test nothing
  fi
}

start=$SECONDS
round "$@" -- --bins
read -r -a integration <<<"$(integration_tests_for "$module")"
caught_by_units=0
unviable=$(count unviable)
if ((${#integration[@]} > 0 && $(count missed) + $(count timeout) > 0)); then
  caught_by_units=$(count caught)
  # The units missed these already: this round runs the integration test binary alone,
  # filtered to the modules that hold the promises (libtest takes several filters).
  round --iterate "$@" -- --test integration -- "${integration[@]}"
  unviable=$((unviable + $(count unviable)))
fi
elapsed=$((SECONDS - start))
caught=$((caught_by_units + $(count caught)))
missed=$(count missed)
timeout=$(count timeout)
total=$((caught + missed + unviable + timeout))

echo
echo "== $module: $total mutants in ${elapsed}s: $caught caught, $missed missed, $unviable unviable, $timeout timeouts"
ratio=100
if ((caught + missed > 0)); then
  ratio=$((caught * 100 / (caught + missed)))
fi
echo "caught ratio: $ratio% (caught / (caught + missed))"
# Mutants named harmless (equivalent to the original), without line and column, which
# move as the file is edited: "src/verdict/judge.rs: replace >= with > in judge  # why".
harmless=$(sed -e 's/ *#.*//' -e '/^$/d' bench/mutants-harmless.txt)
if ((missed > 0)); then
  echo "missed:"
  while IFS= read -r mutant; do
    if grep -qxF "$module: ${mutant#*: }" <<<"$harmless"; then
      echo "  $mutant  (harmless: see bench/mutants-harmless.txt)"
    else
      echo "  $mutant"
    fi
  done <"$results/missed.txt"
fi
if ((ratio < ${MUTANTS_MIN:-90})); then
  echo "below ${MUTANTS_MIN:-90}%" >&2
  exit 1
fi
