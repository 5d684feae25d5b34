#!/usr/bin/env bash
# What the strict tier costs (info.toml's `strict_sanitizers = ["address"]`: a program that
# passes every case is built again with AddressSanitizer and runs them all again):
# `clings test` on the whole course, solutions in place so that every exercise reaches the
# strict tier, warm (both builds cached) and cold (empty cache), with and without it, in
# one hyperfine run each. The per-run cost of each sanitizer is bench/sanitizers.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
clings="${CARGO_TARGET_DIR:-$PWD/target}/release/clings"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for variant in strict fast; do
  course="$work/$variant"
  mkdir "$course"
  cp -r info.toml exercises skeletons solutions fixtures "$course"
  for name in print_board check_win gomoku; do cp "solutions/$name.c" "$course/exercises/"; done
done
sed -i '/^strict_sanitizers = /d' "$work/fast/info.toml"
for variant in strict fast; do (cd "$work/$variant" && "$clings" test >/dev/null); done

(cd "$work/strict" && hyperfine -N --warmup 2 --runs 15 --export-markdown "$work/warm-strict.md" \
  -n "clings test, warm, with the strict tier" "$clings test" >/dev/null)
(cd "$work/fast" && hyperfine -N --warmup 2 --runs 15 --export-markdown "$work/warm-fast.md" \
  -n "clings test, warm, without it" "$clings test" >/dev/null)
(cd "$work/strict" && hyperfine -N --warmup 1 --runs 8 --prepare "rm -rf .clings" \
  --export-markdown "$work/cold-strict.md" \
  -n "clings test, cold, with the strict tier" "$clings test" >/dev/null)
(cd "$work/fast" && hyperfine -N --warmup 1 --runs 8 --prepare "rm -rf .clings" \
  --export-markdown "$work/cold-fast.md" \
  -n "clings test, cold, without it" "$clings test" >/dev/null)
head -n 2 "$work/warm-strict.md"
for table in warm-strict warm-fast cold-strict cold-fast; do tail -n +3 "$work/$table.md"; done

