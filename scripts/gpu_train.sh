#!/usr/bin/env bash
# Continue a training run on a machine with a GPU and many cores: self-play workers on every
# core (one-thread onnxruntime sessions each), the learner on the GPU (docs/training.md).
#
#   scripts/gpu_train.sh RUN_DIR BUDGET_S OUT_DIR [python -m engine.train flags...]
#
# The machine's setup: scripts/gpu_env.sh. The run's files, less its replay buffer, end up
# in OUT_DIR/run.tgz, the buffer in 15 MB pieces beside it (cat them back together).
# Pace seen there (one H100, 16 cores, 2026-11-26): 800-playout self-play 1.5-1.8 games a second.
set -euo pipefail
run=$1 budget=$2 out=$3
shift 3
mkdir -p "$out"
source "$(dirname "$0")/gpu_env.sh"
status=0
python3 -m engine.train --run "$run" --budget-s "$budget" --workers "$(nproc)" --inference local "$@" 2>&1 \
    | tee "$out/train.log" || status=$?
tar czf "$out/run.tgz" --exclude buffer.npz "$run"
[ -f "$run/buffer.npz" ] && split -b 15M "$run/buffer.npz" "$out/buffer.npz.part-"
exit $status
