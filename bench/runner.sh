#!/usr/bin/env bash
# `clings test` on the whole Gomoku course (reference solutions in place), cold and warm,
# beside the plain shell loop a teacher would write: gcc, then each case through diff.
# Both use the same compiler flags, sanitizers included. Needs hyperfine (and bubblewrap
# for the isolated rows; CLINGS_ISOLATION=none measures the limits alone).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
clings="$PWD/target/release/clings"
course=$(mktemp -d)
trap 'rm -rf "$course"' EXIT
cp -r info.toml exercises solutions fixtures "$course"
for name in print_board check_win gomoku; do cp "solutions/$name.c" "$course/exercises/"; done
cases=$(ls fixtures/*/*.out | wc -l)

flags="-std=c99 -Wall -Wextra -g -fsanitize=undefined -fsanitize=bounds-strict -fno-sanitize-recover=all"
cat >"$course/naive.sh" <<SH
#!/usr/bin/env bash
# compile each exercise, run every case, compare ignoring trailing blanks
cd "$course"
compile=\${1:-yes}
for name in print_board check_win gomoku; do
  [ "\$compile" = yes ] && gcc $flags exercises/\$name.c -o /tmp/naive_\$name -lm
  for out in fixtures/\$name/*.out; do
    input=\${out%.out}.in; [ -f "\$input" ] || input=/dev/null
    timeout 2 /tmp/naive_\$name <"\$input" | diff -Z -q - "\$out" >/dev/null || echo "FAIL \$out"
  done
done
SH
chmod +x "$course/naive.sh"

echo "$cases cases, $(nproc) cores"
cd "$course"
"$clings" test >/dev/null || true
# -N: no shell in between, so only the command itself is timed. A single --prepare
# would apply to every command, so the cold run is measured on its own.
hyperfine -N --warmup 2 --runs 15 --export-markdown cold.md \
  -n "clings test, cold cache" --prepare "rm -rf .clings" "$clings test" >/dev/null
hyperfine -N --warmup 2 --runs 15 --export-markdown warm.md \
  -n "clings test, warm cache" "$clings test" \
  -n "clings test, warm, --jobs 1" "$clings --jobs 1 test" \
  -n "clings test, warm, no isolation" "env CLINGS_ISOLATION=none $clings test" \
  -n "shell loop: gcc + diff" "./naive.sh yes" \
  -n "shell loop: diff only (precompiled)" "./naive.sh no" >/dev/null
cat cold.md
tail -n +3 warm.md
