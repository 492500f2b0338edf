"""The standard benchmarks, shipped with the package (``brisque bench``): suites and their
positions (:mod:`solver.bench.suites`).  The research suites are the lab's, in a checkout
(``python -m benchmarks.research``)."""
