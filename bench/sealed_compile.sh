#!/usr/bin/env bash
# What sealing the compile step costs: `clings test` on the whole course with an empty
# build cache (three sanitizer builds, then 70 cases), for this checkout and for an
# earlier revision whose compiler ran unsandboxed, in one hyperfine run; beside gcc alone
# on the same three files with the same flags (the floor).
# Usage: bench/sealed_compile.sh [BASE_REVISION]   (default: 07d7803, before the sealing)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-07d7803}
cargo build --release --quiet
new="$PWD/target/release/clings"
work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --quiet --detach "$work/base" "$base"
CARGO_TARGET_DIR="$work/target" cargo build --release --quiet --manifest-path "$work/base/Cargo.toml"
old="$work/target/release/clings"

course="$work/course"
mkdir "$course"
cp -r info.toml exercises solutions fixtures "$course"
for name in print_board check_win gomoku; do cp "solutions/$name.c" "$course/exercises/"; done
flags="-std=c99 -Wall -Wextra -g -fsanitize=undefined -fsanitize=bounds-strict -fno-sanitize-recover=all"
cat >"$course/gcc-only.sh" <<SH
#!/usr/bin/env bash
cd "$course"
for name in print_board check_win gomoku; do gcc $flags exercises/\$name.c -o "$work/\$name" -lm; done
SH
chmod +x "$course/gcc-only.sh"

cd "$course"
"$new" test >/dev/null || true
hyperfine -N --warmup 2 --runs 15 --export-markdown "$work/cold.md" \
  --prepare "rm -rf .clings" \
  -n "clings test, cold, sandboxed compile" "$new test" \
  -n "clings test, cold, $base (compiler unsandboxed)" "$old test" >/dev/null
hyperfine -N --warmup 2 --runs 15 --export-markdown "$work/gcc.md" \
  -n "gcc alone, the three sanitizer builds" "./gcc-only.sh" >/dev/null
cat "$work/cold.md"
tail -n +3 "$work/gcc.md"
