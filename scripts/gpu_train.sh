#!/usr/bin/env bash
# Continue a training run on a machine with a GPU and many cores: self-play workers on every
# core (one-thread onnxruntime sessions each), the learner on the GPU (docs/training.md).
#
#   scripts/gpu_train.sh RUN_DIR BUDGET_S OUT_DIR [python -m engine.train flags...]
#
# For a machine that has torch and onnxruntime but not this project installed (a lent GPU box):
# wheels in .whl/ (cffi for its Python) are installed to /tmp/site first, and the C core is
# built in place when engine/_native is missing. The run's files, less its replay buffer, end up
# in OUT_DIR/run.tgz, the buffer in 15 MB pieces beside it (cat them back together).
# The wheels, fetched on the machine that sends the run (the lent machine's Python is 3.12; the
# C core builds as abi3, so carrying engine/_native.abi3.so from here skips the compile there):
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#       --platform manylinux2014_x86_64 -d .whl cffi==1.17.1 pycparser==2.22
# Pace seen there (one H100, 16 cores, 2026-11-26): 800-playout self-play 1.5-1.8 games a second.
set -euo pipefail
run=$1 budget=$2 out=$3
shift 3
mkdir -p "$out"
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
if compgen -G ".whl/*.whl" >/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
    export PYTHONPATH="/tmp/site:$PYTHONPATH"
fi
if ! compgen -G "engine/_native*.so" >/dev/null; then
    python3 -c "import sys; sys.path.insert(0, 'native'); from build_ffi import ffibuilder; ffibuilder.compile()"
fi
python3 -c "import os, engine.native, onnxruntime as ort, torch
print('cores', os.cpu_count(), 'onnxruntime', ort.__version__, 'torch', torch.__version__,
      'cuda', torch.cuda.is_available() and torch.cuda.get_device_name(0))"
status=0
python3 -m engine.train --run "$run" --budget-s "$budget" --workers "$(nproc)" --inference local "$@" 2>&1 \
    | tee "$out/train.log" || status=$?
tar czf "$out/run.tgz" --exclude buffer.npz "$run"
[ -f "$run/buffer.npz" ] && split -b 15M "$run/buffer.npz" "$out/buffer.npz.part-"
exit $status
