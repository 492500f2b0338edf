"""Build the Cython extensions.  ``BRISQUE_DEBUG=1`` turns the safety checks back on."""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = bool(os.environ.get("BRISQUE_DEBUG"))
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
}
EXTENSIONS = [
    Extension("solver._bits", ["src_cython/_bits.pyx"], extra_compile_args=["-O3"]),
    Extension("solver._engine", ["src_cython/_engine.pyx"], extra_compile_args=["-O3"]),
]

setup(ext_modules=cythonize(EXTENSIONS, compiler_directives=DIRECTIVES))
