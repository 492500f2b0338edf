"""The one harness the lab's scripts share.

* :mod:`~benchmarks.harness.positions`: seeded positions and views, the same on every machine;
* :mod:`~benchmarks.harness.timing`: the timing loop (a warm-up, calls timed one by one,
  wall and CPU seconds), the figures of a run, quantiles and a run's spread;
* :mod:`~benchmarks.harness.matches`: paired duplicate matches (complete pairs, a match's
  summary from its records, two matches on the same deals compared pair by pair);
* :mod:`~benchmarks.harness.records`: the reader of deal records (JSON Lines, as
  ``brisque match --records`` writes them);
* :mod:`~benchmarks.harness.console`: a script's command line and what it prints (JSON or a
  fixed-width table);
* :mod:`~benchmarks.harness.builds`: another build's answer, from a process of its own;
* :mod:`~benchmarks.harness.result_files`: result files in ``benchmarks/results/`` with their meta
  (machine, date);
* :mod:`~benchmarks.harness.sections`: the report's sections (a heading, the source line, a table).

Its examples run from the repository's root:
``python -m pytest --doctest-modules benchmarks/harness -p no:cacheprovider -n 0``.
"""
