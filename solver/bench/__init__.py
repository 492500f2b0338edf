"""The standard benchmarks, shipped with the package (``brisque bench``): suites and their
positions (:mod:`solver.bench.suites`)."""
