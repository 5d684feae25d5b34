#!/usr/bin/env bash
# One game of the `ai` exercise outside clings: the referee and a player joined by two named
# pipes, as the lesson's section 7.1 joins two players.
#
#   bench/battle.sh CASE.in PLAYER [ARG...]
#
# PLAYER is a C file (built here with the course's flags) or a program; ARGs go to it
# (a bot's seed). Prints the referee's exit code (42 accepted, 43 wrong answer), its
# teammessage and, with VERBOSE=1, the game. FEEDBACK=DIR keeps the feedback files there.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 CASE.in PLAYER [ARG...]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")/.." && pwd)
case_in=$1
player=$2
shift 2
cc=${CC:-gcc}
flags=(-std=c99 -Wall -Wextra -O2)
build=${BUILD:-$(mktemp -d)}
[ -n "${BUILD:-}" ] || trap 'rm -rf "$build"' EXIT

# Build a C file once per BUILD directory (the sweep in bench/ai-course.sh shares one).
built() {
  local src=$1 out
  out="$build/$(echo "$src" | tr / _ | sed 's/\.c$//')"
  if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
    "$cc" "${flags[@]}" ${SANITIZE:+-fsanitize=$SANITIZE} -o "$out" "$src" || return 1
  fi
  echo "$out"
}
referee=$(built "$here/referees/gomoku.c") || exit 2
case $player in
  *.c) player=$(built "$(cd "$(dirname "$player")" && pwd)/$(basename "$player")") || exit 2 ;;
esac

run=$(mktemp -d)
feedback=${FEEDBACK:-$run/feedback}
mkdir -p "$feedback"
mkfifo "$run/to_player" "$run/to_referee"
out=${case_in%.in}.out
[ -f "$out" ] || out=/dev/null
"$referee" "$case_in" "$out" "$feedback" <"$run/to_referee" >"$run/to_player" &
referee_pid=$!
# Opening a FIFO waits for its other end, so the two must not both open their reading end
# first (the lesson's "< p1 > p2" and "< p2 > p1" wait for each other for ever): the player
# opens its writing end first.
"$player" "$@" >"$run/to_referee" <"$run/to_player" 2>"$run/stderr" &
player_pid=$!
code=0
wait "$referee_pid" || code=$?
# The runner stops a player that goes on after the game; here it gets 2 s, then is killed.
for _ in $(seq 20); do
  kill -0 "$player_pid" 2>/dev/null || break
  sleep 0.1
done
kill -KILL "$player_pid" 2>/dev/null || true
player_code=0
wait "$player_pid" 2>/dev/null || player_code=$?
verdict=rejected
[ "$code" = 42 ] && verdict=accepted
[ "$player_code" = 137 ] && player_code="137 (killed)"
echo "referee $code ($verdict), player exit $player_code: $(cat "$feedback/teammessage.txt" 2>/dev/null)"
if [ "${VERBOSE:-0}" = 1 ]; then
  cat "$feedback/judgemessage.txt"
  head -c 2000 "$run/stderr"
fi
rm -rf "$run"
