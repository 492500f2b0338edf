"""``python -m solver.cli``: the ``brisque`` command (solver.startup.is_the_command knows it
by "solver.cli" in the interpreter's arguments)."""

from solver.cli import main

if __name__ == "__main__":  # (not in a worker process that multiprocessing starts from it)
    main()
