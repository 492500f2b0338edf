"""``brisque puzzles FILE...``: solve every record of puzzle files (.bpd) and check it."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator

import click

from solver.analysis.puzzles import Verdict, check_records
from solver.cli.exits import FAILED, BrisqueCommandError, interrupted_exit
from solver.cli.options import json_option, quiet_option, scheduler_executor, scheduler_option, workers_option
from solver.cli.output import StatusLine, on_terminal
from solver.errors import PuzzleError
from solver.formats.bpd import Record, iter_bpd_lines, read_bpd
from solver.formats.words import plural

ID_WIDTH = 10  # the least width of brisque puzzles' id column (wider for a longer id)
VALUE_WIDTH = 7  # the least width of its value column ('-120.00'; wider for a longer value)


@click.command("puzzles")
@click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, allow_dash=True)
)
@json_option("One JSON object per record.")
@workers_option("Worker processes for the records that need sampling.")
@quiet_option()
@scheduler_option
def puzzles_cmd(
    files: tuple[str, ...], as_json: bool, workers: int, quiet: bool, scheduler: str | None
) -> None:
    """Solve every record of puzzle files (.bpd) and check bm, am, pv, v and ev.

    Positions with every card known are solved exactly, those with hidden cards
    by sampling with the record's worlds and seed.  bm and am moves must be legal;
    a pv must be legal and, with every card known, keep the value at each move
    (with hidden cards: its first move one of the best).  FILE "-" reads standard
    input, each record answered as soon as it is checked.  Prints a line per record
    (status, id, value, best moves, then FILE:LINE and what failed) and a summary
    ("58 of 61 solved, 2 failed, 1 unreadable"; after Ctrl-C, "12 of 12 solved so
    far", marked "interrupted" with --json, exit 130); a record with none of bm, am,
    pv, v, ev is solved but not checked ("--", counted apart).  Exits 1 when any
    record fails or is malformed (a malformed line is reported with its file and
    line, a file that is not text once, and the others still run).  An id given
    twice is warned of on standard error.

    \b
    Examples:
      brisque puzzles positions/brisque-endgames.bpd positions/hidden-cards.bpd
      brisque puzzles positions/*.bpd --scheduler local:2
      brisque deal --seed 3 --at 11 | brisque puzzles -
    """

    # Files are read whole first, so that the id column fits the longest id and the columns
    # after it line up however long an id is.  Standard input is checked as it is read (a
    # pipe's first lines are answered before it ends): there the id column is ID_WIDTH
    # wide, and wider from the first longer id on.
    items: Iterable[Record | PuzzleError]
    if "-" in files:
        items, total_text = (item for path in files for item in _read(path)), ""
    else:
        items = [item for path in files for item in _read(path)]
        if not items:
            raise _nothing_read(files)
        total_text = f"/{len(items)}"
    report = _Report(as_json, items if isinstance(items, list) else [])
    progress = StatusLine(on_terminal(quiet, as_json))

    def started(r: Record) -> None:
        progress.show(f"[{report.done + 1}{total_text}] {r.id}")

    interrupted = False
    try:
        with scheduler_executor(scheduler, workers) as executor:
            for item, verdict in check_records(items, workers=workers, executor=executor, before=started):
                progress.clear()  # (wiped before the record's line)
                report.add(item, verdict)
    except KeyboardInterrupt:  # (the records checked so far stand: their summary follows)
        progress.clear()
        if not report.done:
            raise
        interrupted = True
    if not report.done:  # (standard input that held no record)
        raise _nothing_read(files)
    click.echo(report.summary(interrupted))
    if interrupted:
        whole = f" of {len(items)}" if isinstance(items, list) else ""  # (standard input: not known)
        click.echo(f"interrupted after {plural(report.done, 'record')}{whole}", err=True)
        interrupted_exit()
    if report.failed or report.unreadable:
        sys.exit(FAILED)


def _read(path: str) -> Iterator[Record | PuzzleError]:
    """The records of one file (``-``: standard input), and its unreadable lines."""
    try:
        yield from iter_bpd_lines(sys.stdin.buffer, "stdin") if path == "-" else read_bpd(path)
    except OSError as exc:
        raise BrisqueCommandError(f"cannot read {path!r}: {exc.strerror}") from None


def _nothing_read(files: tuple[str, ...]) -> BrisqueCommandError:
    return BrisqueCommandError(
        f"no puzzle records in {', '.join(files)}: expected lines 'BPN ; op operand ; ...'"
    )


class _Report:
    """The lines of ``brisque puzzles``, a record at a time, and their tallies.

    ``items``: the records read whole (empty for standard input), whose longest id sets
    the width of the id column."""

    def __init__(self, as_json: bool, items: list[Record | PuzzleError]):
        self.as_json = as_json
        self.id_width = max([ID_WIDTH, *(len(r.id) for r in items if isinstance(r, Record))])
        self.value_width = VALUE_WIDTH
        self.solved = self.failed = self.unreadable = self.unchecked = self.done = 0
        self.first_seen: dict[str, str] = {}  # each id given so far, and where (file:line)

    def duplicate(self, rid: str | None, source: str | None) -> str | None:
        """Where ``rid`` was given before ``source``, said on standard error; None for an id
        seen first (or no id)."""
        if rid is None or source is None:
            return None
        first = self.first_seen.setdefault(rid, source)
        if first == source:  # (the first, or the same file given twice: nothing to tell apart)
            return None
        click.echo(f'warning: id "{rid}" at {source} was already given at {first}', err=True)
        return first

    def add(self, item: Record | PuzzleError, verdict: Verdict | str) -> None:
        """Print the line of one record checked (or unreadable, or refused) and count it."""
        self.done += 1
        if isinstance(item, PuzzleError):
            self.unreadable += 1
            before = self.duplicate(item.id, item.source)
            if self.as_json:  # (with its source, file:line, as a record that could be read)
                bad: dict[str, object] = {"id": item.id, "source": item.source, "ok": False}
                bad.update(error=str(item), **({"duplicate_of": before} if before else {}))
                click.echo(json.dumps(bad))
            else:
                click.echo(f"ERROR  {item}")
            return
        self.id_width = max(self.id_width, len(item.id))  # (streamed: from the first longer id on)
        before = self.duplicate(str(item.ops["id"]) if "id" in item.ops else None, item.source)
        also = {"duplicate_of": before} if before else {}
        if isinstance(verdict, str):  # a record the solver refused: the others still run
            self.failed += 1
            error = {"id": item.id, "source": item.source, "ok": False, "error": verdict, **also}
            click.echo(json.dumps(error) if self.as_json else f"ERROR  {verdict}")
            return
        if not verdict.checked:  # nothing to check: neither solved nor failed
            self.unchecked += 1
        elif verdict.ok:
            self.solved += 1
        else:
            self.failed += 1
        click.echo(json.dumps({**verdict.to_dict(), **also}) if self.as_json else self.line(item, verdict))

    def line(self, item: Record, verdict: Verdict) -> str:
        """A checked record's line: status, id, value, best moves, and what failed."""
        a = verdict.answer
        status = "ok   " if verdict.ok else "FAIL "
        # (file:line before what failed: an editor or a terminal opens it there)
        detail = "" if verdict.ok else f"  {item.source}: " + "; ".join(verdict.failures)
        if verdict.ok and not verdict.checked:
            status, detail = "--   ", "  not checked: no bm, am, pv, v or ev"
        if a is None:  # not even solvable: an impossible position
            return f"{status} {item.id:<{self.id_width}}{detail}"
        # the value before the best moves, whose number varies (one to a whole hand
        # and its declarations): the last column, it pushes nothing out of line
        shown = f"{a.value:+.2f}" if a.method == "pimc" else f"{a.value:+d}"
        self.value_width = max(self.value_width, len(shown))
        best = " ".join(str(m) for m in a.best)
        return f"{status} {item.id:<{self.id_width}} value {shown:<{self.value_width}} best {best}{detail}"

    def summary(self, interrupted: bool) -> str:
        """The last line, in words or as JSON (interrupted: a script must not take the
        records checked so far for the files)."""
        if not self.as_json:
            return _puzzles_summary(self.solved, self.failed, self.unreadable, self.unchecked, interrupted)
        # (the records checked: an unchecked one states nothing to solve)
        total = self.solved + self.failed + self.unreadable
        summary = {
            "summary": True,
            "solved": self.solved,
            "total": total,
            "unchecked": self.unchecked,
            "failed": self.failed,
            "unreadable": self.unreadable,
            **({"interrupted": True} if interrupted else {}),
        }
        return json.dumps(summary)


def _puzzles_summary(solved: int, failed: int, unreadable: int, unchecked: int, interrupted: bool) -> str:
    """The last line of ``brisque puzzles``: ``2 of 5 solved, 1 failed, 2 unreadable`` (the
    records checked, failed and unreadable ones included; a count of none is left out).

    >>> _puzzles_summary(2, 1, 2, 0, False)
    '2 of 5 solved, 1 failed, 2 unreadable'
    >>> _puzzles_summary(3, 0, 0, 1, True)
    '3 of 3 solved so far, 1 not checked (no bm, am, pv, v or ev)'
    """
    parts = [f"{solved} of {solved + failed + unreadable} solved{' so far' if interrupted else ''}"]
    if failed:
        parts.append(f"{failed} failed")
    if unreadable:
        parts.append(f"{unreadable} unreadable")
    if unchecked:
        parts.append(f"{unchecked} not checked (no bm, am, pv, v or ev)")
    return ", ".join(parts)
