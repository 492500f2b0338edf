"""Training the package's learned data: the labels and the network of the learned horizon
(:mod:`~benchmarks.training.labels`, :mod:`~benchmarks.training.train`), the linear
horizon (:mod:`~benchmarks.training.fit_horizon`), the inference's temper
(:mod:`~benchmarks.training.fit_inference`) and the table of deal outcomes
(:mod:`~benchmarks.training.deal_outcomes`).  Run from the repository's root, e.g.
``python -m benchmarks.training.labels --help``.
"""
