#!/usr/bin/env bash
# The class report of a big class. Grades a real class of the Gomoku course
# (make_class.sh, then the second chapter's solutions added) with `--html`, copies its
# students' results under new names up to STUDENTS, and draws that with `clings report`.
# Prints each page's size and the time headless Chromium takes to open it and take a
# screenshot, beside an empty page (the browser's own start), and the time from
# navigation to the page's load event. Writes the README's
# screenshot, docs/class-report.png, from the graded class's page. Needs chromium.
# Usage: bench/class_report.sh [GRADED] [STUDENTS]   (default 40 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
graded=${1:-40}
students=${2:-1000}
cargo build --release --quiet 2>/dev/null
clings="${CARGO_TARGET_DIR:-$PWD/target}/release/clings"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/course" "$work/class"
cp -r info.toml exercises solutions fixtures skeletons "$work/course"
bench/make_class.sh "$graded" "$work/class"
for dir in "$work"/class/*/exercises; do cp -n solutions/*.c "$dir"; done
(cd "$work/course" && "$clings" grade ../class --out ../book --html "../class-$graded.html" >/dev/null 2>&1)
python3 - "$work/book/grades.json" "$students" "$work/big.json" <<'PY'
import json, sys
book = json.load(open(sys.argv[1]))
want, graded = int(sys.argv[2]), book["students"]
copies = (graded * (want // len(graded) + 1))[:want]
book["students"] = [dict(s, name=f"{s['name']}-{n // len(graded):03d}") for n, s in enumerate(copies)]
json.dump(book, open(sys.argv[3], "w"))
PY
"$clings" report "$work/big.json" --html "$work/class-$students.html" >/dev/null
echo '<!DOCTYPE html><html><body></body></html>' >"$work/empty.html"

# Milliseconds for headless Chromium to open PAGE and write its screenshot: the median of 5.
open_ms() {
  local times=()
  for _ in 1 2 3 4 5; do
    local start end
    start=$(date +%s%N)
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
      --user-data-dir="$work/profile" --window-size=1280,2000 \
      --screenshot="$work/shot.png" "file://$1" >/dev/null 2>&1
    end=$(date +%s%N)
    times+=($(((end - start) / 1000000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 3p
}

# The page's own time: from navigation to its load event (its script has run and laid the
# page out by then), read by a copy of the page that writes it into the DOM.
load_ms() {
  python3 - "$1" "$work/probe.html" <<'PY'
import sys
probe = ("<script>addEventListener('load',function(){document.body.setAttribute("
         "'data-load-ms',Math.round(performance.now()));});</script>")
page = open(sys.argv[1]).read().replace("<body>", "<body>" + probe, 1)
open(sys.argv[2], "w").write(page)
PY
  for _ in 1 2 3; do
    chromium --headless --no-sandbox --no-first-run --user-data-dir="$work/profile" \
      --dump-dom "file://$work/probe.html" 2>/dev/null | grep -o 'data-load-ms="[0-9]*"' |
      grep -o '[0-9]*'
  done | sort -n | sed -n 2p
}

empty=$(open_ms "$work/empty.html")
echo "$(nproc) cores; an empty page: ${empty} ms (the browser's start)"
for n in "$graded" "$students"; do
  page="$work/class-$n.html"
  rendered=$(chromium --headless --no-sandbox --no-first-run --user-data-dir="$work/profile" \
    --dump-dom "file://$page" 2>/dev/null | grep -o 'data-rendered="[^"]*"' || echo "NOT RENDERED")
  ms=$(open_ms "$page")
  echo "$n students: $(du -k "$page" | cut -f1) KiB, loaded in $(load_ms "$page") ms (median of 3)," \
    "opened and drawn in ${ms} ms ($((ms - empty)) ms past the empty page), $rendered"
done
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --user-data-dir="$work/profile" --window-size=1280,1800 \
  --screenshot="$PWD/docs/class-report.png" "file://$work/class-$graded.html" >/dev/null 2>&1
echo "docs/class-report.png: the page of the $graded graded students"
