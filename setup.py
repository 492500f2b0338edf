"""Build the Cython extensions.  ``BRISQUE_DEBUG=1`` turns the safety checks back on.

Four compiled modules, all in ``solver.native``: ``constants`` (the numbers shared with
the model), ``bits`` (card-set operations for the model), ``engine`` (the search) and
``bpnline`` (the batch path's native lane: BPN lines to JSON answers through the engine).
Every .pxd file is in src_cython/, beside the sources, which is the include path: the
engine's seams by their plain names (``cimport context``), and the interfaces of the
compiled modules under their package path (src_cython/solver/native/engine.pxd: the
engine's public C API, which solver.native.bpnline cimports as solver.native.engine).
"""

import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = bool(os.environ.get("BRISQUE_DEBUG"))
# hardware popcount where the processor family has it (every x86-64 since 2008)
ARCH_FLAGS = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
}
# no contracted multiply-adds: the learned evaluation gives the numbers of its plain Python twin
FLAGS = ["-O3", "-ffp-contract=off", *ARCH_FLAGS]
EXTENSIONS = [
    Extension("solver.native.constants", ["src_cython/py_constants.pyx"], extra_compile_args=FLAGS),
    Extension("solver.native.bits", ["src_cython/bits.pyx"], extra_compile_args=FLAGS),
    Extension("solver.native.engine", ["src_cython/engine.pyx"], extra_compile_args=FLAGS),
    Extension("solver.native.bpnline", ["src_cython/bpnline.pyx"], extra_compile_args=FLAGS),
]

setup(ext_modules=cythonize(EXTENSIONS, compiler_directives=DIRECTIVES, include_path=["src_cython"]))
