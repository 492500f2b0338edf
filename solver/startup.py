"""Ctrl-C while the ``brisque`` command starts.

Loading the package and the command line takes a tenth of a second, before the command
installs its own handler (``solver.cli``): Python's default handler would raise
KeyboardInterrupt in the middle of an import, and the user would see a traceback of the
imports.  So the first module the package runs notes a Ctrl-C instead, when this process
is the command (its console script, or ``python -m solver.cli``), and the command, once
started, ends as it does for a later one: "interrupted" and status 130.  A second Ctrl-C
during the start ends it at once.  A program that imports the package is left alone, and
so is a process started with SIGINT ignored (a background job keeps ignoring it).

Only :mod:`sys` and :mod:`os`, which every interpreter has loaded, are used unless this
is the command: ``import solver`` pays nothing for it.
"""

from __future__ import annotations

import os
import sys

COMMAND = "brisque"  # the console script's name (pyproject.toml, [project.scripts])

# the signals noted while the command started (at most one: a second one ends it)
_noted: list[int] = []


def is_the_command() -> bool:
    """Whether this process is the ``brisque`` command starting: its console script run as
    the main program, or ``python -m solver.cli`` (while the package loads, ``sys.argv[0]``
    is ``-m``).  Not a program that imports the package, nor a process that multiprocessing
    starts from the command (its main module is ``__mp_main__``)."""
    first = sys.argv[0] if sys.argv else ""
    if first == "-m":
        return any(a in ("solver.cli", "-msolver.cli") for a in sys.orig_argv)
    name = os.path.basename(first)
    for tail in ("-script.pyw", "-script.py", ".exe"):  # (the console script on Windows)
        name = name.removesuffix(tail)
    return name == COMMAND and getattr(sys.modules.get("__main__"), "__name__", None) == "__main__"


def _note(signum: int, frame: object) -> None:
    """The start's SIGINT handler: note the first, end at once on the second."""
    if _noted:
        try:
            os.write(2, b"interrupted\n")
        finally:
            os._exit(128 + signum)
    _noted.append(signum)


# the signals that came once the command had done its work (a second one ends it)
_late: list[int] = []
_guarded: list[bool] = []  # [True] once guard() found this process to be the command


def _note_late(signum: int, frame: object) -> None:
    """The ending command's handler: the first signal changes nothing (the output is
    written, the status set), a second ends at once (an exit that hangs)."""
    if _late:
        os._exit(128 + signum)
    _late.append(signum)


def _quiet_teardown() -> None:
    """The command's last exit step: ignore SIGINT and SIGTERM while the interpreter tears
    down.  Python gives them back their default action then, so a signal in those last
    milliseconds would end a finished command by the signal instead of its status."""
    import signal

    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) is _note_late:
            signal.signal(sig, signal.SIG_IGN)


def guard() -> None:
    """In the command, from its first import: note Ctrl-C, until the command installs its
    own handler and asks :func:`interrupted`; elsewhere, nothing."""
    if not is_the_command():
        return
    import atexit
    import signal

    _guarded.append(True)
    atexit.register(_quiet_teardown)  # (the first registered: it runs last)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # (not when ignored)
        signal.signal(signal.SIGINT, _note)


def ending(handler: object) -> None:
    """In the command, once its work is done: SIGINT and SIGTERM, where ``handler`` (the
    command's) has them, are noted and no longer interrupt, so that a signal as it exits
    is neither a traceback nor a status other than its own; a second one ends it.  A
    program that runs the command's ``main`` keeps the command's handler."""
    if not _guarded:
        return
    import signal

    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) is handler:
            signal.signal(sig, _note_late)


def interrupted() -> int:
    """The signal noted while the command started, or 0."""
    return _noted[0] if _noted else 0
