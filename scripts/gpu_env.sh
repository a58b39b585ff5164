# Sourced by the scripts that run on a lent GPU machine (torch and onnxruntime there, not this
# project): wheels in .whl/ (cffi for its Python 3.12) installed to /tmp/site, and the C core
# built in place when engine/_native is missing. The C core builds as abi3, so carrying
# engine/_native.abi3.so from here skips the compile there. The wheels, fetched here:
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#       --platform manylinux2014_x86_64 -d .whl cffi==1.17.1 pycparser==2.22
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
