"""Running the work on a Dask distributed cluster (the extra ``cluster``).

:func:`open_executor` turns ``--scheduler ADDRESS`` (or ``local:N``) into a
``concurrent.futures`` executor whose tasks run on the cluster's workers; the analyses, the
matches, the puzzle checks and the batch solver take any such executor, so the results are
those of a local run with the same seed (docs/cluster.md).
"""

from solver.cluster.scheduler import ClusterExecutor, open_executor, parse_scheduler

__all__ = ["ClusterExecutor", "open_executor", "parse_scheduler"]
