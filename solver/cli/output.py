"""Terminal output: the progress line on standard error, and output files checked before
any work is done."""

from __future__ import annotations

import os
import sys
from typing import Any

from solver.cli.exits import BrisqueCommandError


class StatusLine:
    """A progress line on standard error, rewritten in place with ``\\r``: each text is padded
    with spaces over what the longer one before it showed.  It shows only on a terminal
    (``enabled``); elsewhere (a log file, a pipe) it writes nothing.

    >>> import io
    >>> out = io.StringIO()
    >>> line = StatusLine(True, out)
    >>> line.show("20 worlds, best KS +3.0"); line.show("30/400 worlds"); line.end()
    >>> out.getvalue()
    '\\r20 worlds, best KS +3.0\\r30/400 worlds          \\n'
    """

    def __init__(self, enabled: bool, stream: Any = None) -> None:
        self.enabled = enabled
        self.stream = stream
        self.width = 0  # the length of the line on the screen

    def _write(self, text: str) -> None:
        stream = self.stream if self.stream is not None else sys.stderr
        stream.write(text)
        stream.flush()

    def show(self, text: str) -> None:
        """Show ``text`` in place of the line shown before."""
        if self.enabled:
            self._write("\r" + text.ljust(self.width))
            self.width = len(text)

    def clear(self) -> None:
        """Wipe the line (before other output is written to the terminal)."""
        if self.enabled and self.width:
            self._write("\r" + " " * self.width + "\r")
            self.width = 0

    def end(self) -> None:
        """Leave the last line shown on the screen, and go to the next."""
        if self.enabled and self.width:
            self._write("\n")
            self.width = 0


def on_terminal(quiet: bool, as_json: bool = False) -> bool:
    """Whether progress is shown: on a terminal, and not asked away (-q, or --json)."""
    return not quiet and not as_json and sys.stderr.isatty()


def writable_file(path: str, what: str) -> None:
    """Refuse, before any work is done, an output file that cannot be written."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BrisqueCommandError(f"cannot write the {what} to {path!r}: no folder {folder!r}")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise BrisqueCommandError(f"cannot write the {what} to {path!r}: permission denied")
