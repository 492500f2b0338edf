"""The one harness the lab's scripts share.

* :mod:`~benchmarks.harness.positions`: seeded positions and views, the same on every machine;
* :mod:`~benchmarks.harness.timing`: the timing loop, quantiles and a run's spread;
* :mod:`~benchmarks.harness.records`: the reader of deal records (JSON Lines, as
  ``brisque match --records`` writes them) and paired deal pairs;
* :mod:`~benchmarks.harness.results`: result files in ``benchmarks/results/`` with their meta
  (machine, date);
* :mod:`~benchmarks.harness.sections`: the report's sections (a heading, the source line, a table).

Its examples run from the repository's root:
``python -m pytest --doctest-modules benchmarks/harness -p no:cacheprovider -n 0``.
"""
