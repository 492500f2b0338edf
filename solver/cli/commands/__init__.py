"""The commands of ``brisque``, one module each; :data:`solver.cli.COMMANDS` names them,
and the group imports each only when it runs."""
