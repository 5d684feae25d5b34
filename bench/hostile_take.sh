#!/usr/bin/env bash
# What a hostile run can still take: bench/greedy.c grabs processes, memory (in all its
# processes together) and disk, and prints what it got, under the course's default limits
# (256 MiB, 16 processes, 1 MiB files, 2 s), graded by clings as root with isolation, as
# root without it, as a normal user (nobody) with isolation, and in the container tier: as
# root in a container-like run (no CAP_SYS_ADMIN, no cgroups) and asked for as nobody.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
clings="$PWD/target/release/clings"
course=$(mktemp -d)
trap 'rm -rf "$course"' EXIT
mkdir -p "$course/exercises" "$course/fixtures/greedy"
cp bench/greedy.c "$course/exercises/greedy.c"
printf 'format_version = 1\n\n[[exercises]]\nname = "greedy"\ntitle = "greedy"\npath = "exercises/greedy.c"\n' >"$course/info.toml"
echo "nothing" >"$course/fixtures/greedy/01.out"
chmod -R a+rwX "$course"
cd "$course"
# The program's lines, from the diff of its (always wrong) output; or its verdict.
took() { grep -E '^ +\+(processes|memory|disk):|^  [a-z_]+ +01 ' | sed 's/^ *+/    /' || true; }
echo "as root, isolated (bubblewrap, a cgroup per run where the machine allows one):"
{ "$clings" run greedy || true; } | took
echo "as root, CLINGS_ISOLATION=none (a cgroup per run still):"
{ CLINGS_ISOLATION=none "$clings" run greedy 2>/dev/null || true; } | took
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
  chmod -R a+rwX "$course"
  echo "as nobody, isolated (a user namespace; no cgroup):"
  { setpriv --reuid=65534 --regid=65534 --clear-groups -- env HOME="$course" "$clings" run greedy || true; } | took
fi
if command -v unshare >/dev/null && command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
  echo "as root in a container (no CAP_SYS_ADMIN, cgroups out of reach): the container tier:"
  # shellcheck disable=SC2016 # expanded by the inner shell
  { unshare --mount --propagation private -- sh -c \
      'mount -t tmpfs -o ro,size=4k tmpfs /sys/fs/cgroup && exec setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin -- "$@"' \
      container "$clings" run greedy 2>/dev/null || true; } | took
  echo "as nobody, CLINGS_ISOLATION=container (no cgroup):"
  { setpriv --reuid=65534 --regid=65534 --clear-groups -- env HOME="$course" CLINGS_ISOLATION=container "$clings" run greedy 2>/dev/null || true; } | took
fi
