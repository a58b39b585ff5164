# cffi's setuptools hook still needs setup.py to declare cffi_modules; everything else lives in
# pyproject.toml.
from setuptools import setup

setup(cffi_modules=["native/build_ffi.py:ffibuilder"])
