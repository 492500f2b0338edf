"""The lab: the measurements, experiments, training and report behind the package.

It lives beside the package, not in it (``pip install`` ships ``solver`` alone), and reaches
the package only through its public API, as a chess engine's training and testing live
beside the engine.  Every script runs from the repository's root as a module, with the
package installed (``pip install -e '.[test,bench]'``) or on ``PYTHONPATH``::

    python -m benchmarks.research --suite whole-deals --quick
    python -m benchmarks.run_all --report-only
    python -m benchmarks.training.labels --help

:mod:`benchmarks.harness` holds what the scripts share: seeded positions, the timing loop,
paired matches, the deal-record reader, result files and the report's sections.
``brisque bench`` (the standard suites and their signature) stays in the package.
"""
