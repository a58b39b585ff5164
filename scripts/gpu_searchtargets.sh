#!/usr/bin/env bash
# The engine's search as training targets (engine.train.searchtargets) on every core of a lent
# GPU machine, stopped by its budget so that the call's time limit never loses the work.
#
#   scripts/gpu_searchtargets.sh BUDGET_S OUT_DIR [python -m engine.train.searchtargets flags...]
#
# Writes OUT_DIR/targets.npz and OUT_DIR/searchtargets.log (the machine's setup: gpu_env.sh).
set -euo pipefail
budget=$1 out=$2
shift 2
mkdir -p "$out"
source "$(dirname "$0")/gpu_env.sh"
python3 -m engine.train.searchtargets --out "$out/targets.npz" --budget-s "$budget" --workers "$(nproc)" "$@" 2>&1 \
    | tee "$out/searchtargets.log"
