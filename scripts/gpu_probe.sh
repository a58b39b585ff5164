#!/usr/bin/env bash
# On a lent GPU machine: scripts/gpu_probe.py on the shipped nets, then scripts/speed_pair.py with
# the float net (on the GPU when onnxruntime's CUDA provider works) alone and as 4 and 8 processes
# side by side (a match's concurrency shares the one GPU).
#   scripts/gpu_probe.sh OUT_DIR
set -uo pipefail
out=$1
mkdir -p "$out"
source "$(dirname "$0")/gpu_env.sh"
nvidia-smi -L
python3 scripts/gpu_probe.py models/pbrain-renju-v3.onnx models/pbrain-renju-v3-int8.onnx 2>&1 | tee "$out/probe.txt"
for n in 1 4 8; do
    echo "== $n speed_pair processes"
    for i in $(seq "$n"); do
        python3 scripts/speed_pair.py --model models/pbrain-renju-v3.onnx --repeats 2 >"$out/speed-$n-$i.txt" 2>&1 &
    done
    wait
    cat "$out/speed-$n-1.txt"
    tail -n 3 "$out/speed-$n-$n.txt"
done 2>&1 | tee "$out/speed.txt"
rm -f "$out"/speed-*-*.txt
