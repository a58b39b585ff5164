#!/usr/bin/env bash
# Matches against alphabeta on a lent GPU machine's CPU cores (the net runs on onnxruntime's CPU
# provider there, as in Gomocup): one game at a time per physical core but one, since a game has
# one engine thinking at a time and Gomocup gives each engine one core. Each seed's match gets its
# share of the cores and they run side by side, stopped at the budget so that the call's time limit
# never loses the games already played (each game's record is written when it ends).
#
#   [ODDS=F] scripts/gpu_match.sh BUDGET_S OUT_DIR NAME MODEL SEED...
#
# ODDS=F gives NAME F times alphabeta's time a move (the match's --odds).
#
# Writes OUT_DIR/cpu.txt (lscpu) and OUT_DIR/NAME-SEED.tar.gz per seed: the match folder (games/,
# and results.json/results.txt when the match finished) and its log. A match cut by the budget
# leaves only its finished games' records (games/*.txt).
set -euo pipefail
budget=$1 out=$2 name=$3 model=$4
shift 4
mkdir -p "$out"
source "$(dirname "$0")/gpu_env.sh"
lscpu >"$out/cpu.txt"
cores=$(lscpu -p=CORE,SOCKET | grep -v '^#' | sort -u | wc -l)
per=$(((cores - 1) / $#))
((per >= 1)) || per=1
echo "physical cores $cores, $# matches of concurrency $per"
odds=()
[[ -n "${ODDS:-}" ]] && odds=(--odds "$name=$ODDS")
work=$(mktemp -d)
for seed in "$@"; do
    timeout "$budget" python3 -m engine.match --engine "$name=python3 -m engine --model $PWD/$model" \
        --engine alphabeta --games 100 --tc 1000 --rule renju --openings renju26 --concurrency "$per" \
        --seed "$seed" "${odds[@]}" --out "$work/$name-$seed" >"$work/$name-$seed.log" 2>&1 &
done
wait || true
for seed in "$@"; do
    tail -n 8 "$work/$name-$seed.log"
    echo "$name-$seed: $(ls "$work/$name-$seed/games" 2>/dev/null | grep -c '\.txt$') games recorded"
    tar czf "$out/$name-$seed.tar.gz" -C "$work" "$name-$seed" "$name-$seed.log"
done
