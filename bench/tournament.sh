#!/usr/bin/env bash
# Battles and a class tournament, timed: games per second of two course bots (`clings
# battle`, one game after another), and a round robin of PLAYERS players (each pair twice,
# colours swapped) with 1 and 2 jobs. The class mixes the reference solution, the course's
# bots handed in as students' files, and the known-wrong players. Every game runs three
# sandboxed programs (two players and the referee).
# Usage: bench/tournament.sh [PLAYERS] [GAMES]   (defaults 30 and 20)
#        WELL_BEHAVED=1 bench/tournament.sh     (players that never time out: the solution
#                                                and the bots, no known-wrong program)
#        ENGINES=1 bench/tournament.sh          (and three Gomocup engines among the players:
#                                                the tests' engine, one that names the time, and
#                                                one given as a folder, which plays one game at
#                                                a time in a sandbox of its own)
set -euo pipefail
cd "$(dirname "$0")/.."
players=${1:-30}
games=${2:-20}
cargo build --release --quiet 2>/dev/null
clings="${CARGO_TARGET_DIR:-$PWD/target}/release/clings"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/course" "$work/class"
cp -r info.toml exercises solutions fixtures skeletons referees bots "$work/course"

sources=(solutions/ai.c bots/random.c bots/priorities.c bots/strong.c)
if [ -z "${WELL_BEHAVED:-}" ]; then
  # Some of these lose on time or do not stop: their games last 1 to 3 s.
  sources+=(solutions/wrong/ai/*.c)
fi
for ((i = 0; i < players; i++)); do
  source=${sources[$((i % ${#sources[@]}))]}
  mkdir -p "$work/class/$(printf 'student%02d' "$i")/exercises"
  cp "$source" "$work/class/$(printf 'student%02d' "$i")/exercises/ai.c"
done

engines=()
with_engines=""
if [ -n "${ENGINES:-}" ]; then
  with_engines=" and 3 engines"
  cp tests/programs/gomocup/engine.c tests/programs/gomocup/names_the_time.c "$work"
  mkdir "$work/folder_brain"
  gcc -std=c99 -O2 -o "$work/folder_brain/pbrain-folder" tests/programs/gomocup/folder_brain.c
  echo weights >"$work/folder_brain/weights.txt"
  engines=(--engine "$work/engine.c" --engine "$work/names_the_time.c" --engine "$work/folder_brain")
fi

cd "$work/course"
echo "$(nproc) cores; builds cached by a first run"
"$clings" battle strong priorities --games 1 --out "$work/warm" >/dev/null
start=$(date +%s.%N)
"$clings" battle strong priorities --games "$games" --out "$work/battle" >/dev/null
end=$(date +%s.%N)
echo "battle strong v priorities: $games games in $(echo "$end - $start" | bc) s, $(echo "scale=1; $games / ($end - $start)" | bc) games/s"

"$clings" tournament "$work/class" ${engines[@]+"${engines[@]}"} --jobs 2 --out "$work/warm-t" >/dev/null 2>&1 || true
for jobs in 1 2; do
  start=$(date +%s.%N)
  "$clings" tournament "$work/class" ${engines[@]+"${engines[@]}"} --jobs "$jobs" --out "$work/t$jobs" >"$work/t$jobs.log" 2>&1
  end=$(date +%s.%N)
  count=$(grep -c '^\[[0-9]*/[0-9]*] game ' "$work/t$jobs.log")
  echo "tournament of $players players$with_engines, $count games, --jobs $jobs: $(echo "$end - $start" | bc) s, $(echo "scale=1; $count / ($end - $start)" | bc) games/s"
done
cmp "$work/t1/standings.csv" "$work/t2/standings.csv" && echo "the same standings with 1 and 2 jobs"
head -8 "$work/t2/standings.csv"
