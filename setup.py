"""Build the Cython extensions.  ``BRISQUE_DEBUG=1`` turns the safety checks back on."""
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
EXTENSIONS = [
    Extension("solver._bits", ["src_cython/_bits.pyx"], extra_compile_args=["-O3"]),
    Extension("solver._engine", ["src_cython/_engine.pyx"], extra_compile_args=["-O3", *ARCH_FLAGS]),
]

setup(ext_modules=cythonize(EXTENSIONS, compiler_directives=DIRECTIVES))
