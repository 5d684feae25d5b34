#!/usr/bin/env bash
# Whether the memory limit holds for a run as a whole, every time: tests/hostile/many_hogs.c
# with 16 processes touching 200 MiB each, under the default 256 MiB, graded RUNS times (a
# case per run) in each tier: bubblewrap (a cgroup per run, as root here), the container
# tier as root in a container-like run (no CAP_SYS_ADMIN, no cgroups: the helper's watch)
# and the container tier as nobody (no cgroup). Prints how many runs ended `memory_limit`
# and every other verdict seen. A benchmark-style loop, not a timed test.
# Usage: bench/memory_limit.sh [RUNS]   (default 50)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-50}
cargo build --release --quiet
clings="${CARGO_TARGET_DIR:-$PWD/target}/release/clings"
course=$(mktemp -d)
trap 'rm -rf "$course"' EXIT
mkdir -p "$course/exercises" "$course/fixtures/many_hogs"
cp tests/hostile/many_hogs.c "$course/exercises/"
printf 'format_version = 1\n\n[defaults]\ntime_limit_ms = 10000\n\n[[exercises]]\nname = "many_hogs"\ntitle = "many_hogs"\npath = "exercises/many_hogs.c"\n' >"$course/info.toml"
for i in $(seq -w 1 "$runs"); do
  echo "hogs 16 200" >"$course/fixtures/many_hogs/$i.in"
  echo "finished 15" >"$course/fixtures/many_hogs/$i.out"
done
chmod -R a+rwX "$course"
cd "$course"
verdicts() { python3 -c '
import collections, json, sys
cases = json.load(sys.stdin)["exercises"][0]["cases"]
count = collections.Counter(case["verdict"] for case in cases)
held = count.pop("memory_limit", 0)
print(f"  memory_limit in {held} of {len(cases)} runs", dict(count) or "")'; }
echo "# $(nproc) cores, $(uname -sr), $runs runs of 16 processes x 200 MiB under 256 MiB"
echo "bubblewrap, as root:"
CLINGS_ISOLATION=bubblewrap "$clings" --jobs 1 test --format json 2>/dev/null | verdicts
if command -v unshare >/dev/null && command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
  echo "the container tier, as root in a container (no CAP_SYS_ADMIN, no cgroups):"
  # shellcheck disable=SC2016 # expanded by the inner shell
  unshare --mount --propagation private -- sh -c \
    'mount -t tmpfs -o ro,size=4k tmpfs /sys/fs/cgroup && exec setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin -- "$@"' \
    container "$clings" --jobs 1 test --format json 2>/dev/null | verdicts
  echo "the container tier, as nobody (no cgroup):"
  setpriv --reuid=65534 --regid=65534 --clear-groups -- env HOME="$course" CLINGS_ISOLATION=container \
    "$clings" --jobs 1 test --format json 2>/dev/null | verdicts
fi
