#!/usr/bin/env bash
# The `ai` exercise checked by hand, until clings runs interactive cases: every case of
# fixtures/ai/ through bench/battle.sh for the reference solution (all accepted), each
# known-wrong program and the skeleton (each rejected somewhere), then the bots' win rates.
#
#   bench/ai-course.sh [GAMES]      GAMES seeded games per pairing and colour (default 20)
#
# SANITIZE=address,undefined builds everything with those sanitizers.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-20}
export BUILD=${BUILD:-$(mktemp -d)}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
status=0

# The referee's opponents and the bots are the same code: every BEGIN/END block must agree.
for bot in bots/*.c; do
  for block in $(grep -o 'BEGIN shared: [a-z]*' "$bot" | cut -d' ' -f3); do
    extract() { sed -n "/BEGIN shared: $block \*\//,/END shared: $block \*\//p" "$1"; }
    if ! diff <(extract referees/gomoku.c) <(extract "$bot") >/dev/null; then
      echo "DIFFERS: the block '$block' of $bot and referees/gomoku.c"
      status=1
    fi
  done
done

# One line per case: NN accepted|rejected: message
sweep() {
  for case_in in fixtures/ai/*.in; do
    name=$(basename "$case_in" .in)
    line=$(bench/battle.sh "$case_in" "$@")
    verdict=$(echo "$line" | sed -n 's/^referee [0-9]* (\([a-z]*\)).*/\1/p')
    echo "  ${name%%_*} $verdict: ${line#*: }"
  done
}

echo "solutions/ai.c (every case accepted):"
sweep solutions/ai.c | tee "$scratch/solution"
grep -q ' rejected: ' "$scratch/solution" && { echo "FAIL: the solution is rejected"; status=1; }

for program in solutions/wrong/ai/*.c skeletons/ai.c; do
  echo "$program: $(head -1 "$program" | sed 's|^/\* *||; s| *\*/$||')"
  sweep "$program" | grep ' rejected: ' | tee "$scratch/rejected" || true
  [ -s "$scratch/rejected" ] || { echo "  FAIL: accepted on every case"; status=1; }
done

# Win rates: a player (a bot, given its seed, or the solution) against the referee's copy of
# a bot, GAMES seeds as X and as O.
rates() {
  local player=$1 opponent=$2 won=0 drawn=0 lost=0 other=0
  for seed in $(seq 1 "$games"); do
    for colour in X O; do
      printf 'player %s\nopponent %s %s\n' "$colour" "$opponent" "$seed" >"$scratch/game.in"
      case $(bench/battle.sh "$scratch/game.in" "$player" "$seed") in
        *"you won"*) won=$((won + 1)) ;;
        *"a draw"*) drawn=$((drawn + 1)) ;;
        *"you lost"*) lost=$((lost + 1)) ;;
        *) other=$((other + 1)) ;;
      esac
    done
  done
  echo "  $player vs $opponent: won $won, drawn $drawn, lost $lost, other $other (of $((2 * games)))"
}
echo "win rates (seeds 1..$games, each as X and as O):"
rates bots/strong.c priorities
rates bots/priorities.c strong
rates bots/strong.c random
rates bots/priorities.c random
rates bots/random.c random
rates solutions/ai.c random
rates solutions/ai.c priorities
rates solutions/ai.c strong
exit $status
