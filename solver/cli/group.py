"""The command group: it loads a command's module only when that command runs (``brisque
--help`` lists the commands from their table), and it ends every command the same way: a
signal with the shells' status, a click error in the command's words (and as JSON with
``--json``), a closed pipe with SIGPIPE's status, a full disk or an exhausted memory as an
error, never a traceback."""

from __future__ import annotations

import importlib
import json
import signal
import sys
from typing import Any, NamedTuple

import click

from solver import startup
from solver.cli.exits import (
    QUOTE_HINT,
    SIGNALS,
    SIGPIPE,
    USAGE_ERROR,
    BrisqueCommandError,
    CommandFailed,
    OutOfMemory,
    forget_handled_interrupts,
    interrupted_exit,
    io_failure,
    on_signal,
    option_words,
    silence_stdout,
)
from solver.model.ranges import unicode_text

BPN_COMMANDS = ("show", "solve", "analyse", "line", "tree")  # (their first argument is a BPN)
READS_LINES = ("solve", "analyse")  # (they read one BPN a line from standard input for -)


class Subcommand(NamedTuple):
    """A command of the table: where it is (``module:attribute``) and the one line that
    ``brisque --help`` shows for it (its help's first sentence)."""

    target: str
    summary: str


def first_argument(argv: list[str], command: click.Command | None) -> str | None:
    """The command's first argument in ``argv`` (its name first), skipping the options and
    the values of those that take one; None when there is none."""
    valued = {
        name
        for p in (command.params if command is not None else [])
        if isinstance(p, click.Option) and not p.is_flag and not p.count
        for name in p.opts
    }
    args = iter(argv[1:])
    for a in args:
        if a == "--":
            return next(args, None)
        if a.startswith("-") and a != "-":
            if a in valued:
                next(args, None)  # (its value)
            continue
        return a
    return None


def json_error(argv: list[str], message: str, command: click.Command | None = None) -> None:
    """With --json, an error is also a JSON object on standard output, as a bad line of a
    batch gets: {"bpn": ..., "error": ...} (the bpn when the command has one, as given but
    for a byte that is no UTF-8, written ``\\xff`` as the message quotes it: the object is
    valid Unicode, which a lone surrogate ``\\udcff`` is not)."""
    if "--json" not in argv:
        return
    error: dict[str, str] = {}
    if argv and argv[0] in BPN_COMMANDS:
        if command is not None:  # (the BPN argument as given, even a malformed one)
            bpn = first_argument(argv, command)
        else:
            bpn = next((a for a in argv[1:] if " " in a or a == "-"), None)  # (a BPN has spaces)
        if bpn is not None:
            error["bpn"] = unicode_text(bpn)
    error["error"] = message
    click.echo(json.dumps(error))


def extra_argument_hint(argv: list[str], message: str) -> str:
    """The hint for click's "Got unexpected extra argument(s) (...)": quote a BPN (its
    fields became arguments), or, when an extra argument is itself a whole BPN (it has
    spaces: it was quoted), give the BPNs one a line on standard input.

    >>> S = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
    >>> extra_argument_hint(["solve", S, S], f"Got unexpected extra argument ({S})")[:51]
    'brisque solve takes one BPN: for several, give - an'
    """
    # (imported here: the rules load the model's modules, which brisque --help and every
    # command's start do without until they read a position)
    from solver.model.rules import GAMES

    listed = message[message.find("(") + 1 : message.rfind(")")]
    extras = next(
        (argv[-k:] for k in range(1, len(argv)) if " ".join(argv[-k:]) == listed), []
    )  # (the arguments left over: the end of the command line)
    if argv and any(" " in a.strip() and a.split()[0].split("(")[0] in GAMES for a in extras):
        command = argv[0]
        if command in READS_LINES:
            return (
                f"brisque {command} takes one BPN: for several, give - and one BPN a line on standard input "
                f'(printf \'%s\\n\' "$S1" "$S2" | brisque {command} -)'
            )
        return f"brisque {command} takes one BPN: run it once for each"
    return QUOTE_HINT


class BrisqueGroup(click.Group):
    """The ``brisque`` group: its commands, from ``subcommands`` (name: :class:`Subcommand`),
    are imported on first use (click's "lazily loading subcommands"); a signal ends any
    command with the shells' status, no traceback."""

    def __init__(self, *args: Any, subcommands: dict[str, Subcommand] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.subcommands = dict(subcommands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.subcommands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.subcommands:
            module, _, attribute = self.subcommands[cmd_name].target.partition(":")
            command = getattr(importlib.import_module(module), attribute)
            if not isinstance(command, click.Command):
                raise TypeError(f"{self.subcommands[cmd_name].target} is not a click command")
            self.commands[cmd_name] = command
        return self.commands.get(cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            name = getattr(exc, "command_name", None)  # (click's NoSuchCommand, from click 8.4)
            if name is None:
                raise
            # (its "Did you mean ...?" looks among the commands loaded: offer it the table's)
            no_such_command: Any = type(exc)
            raise no_such_command(name, possibilities=self.list_commands(ctx), ctx=exc.ctx) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their summaries, from the table: no command module is imported."""
        rows = [(name, self.subcommands[name].summary) for name in self.list_commands(ctx)]
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            # (shortened as click shortens a command's own help: the same help text)
            shown = [(name, click.Command(name, help=text).get_short_help_str(limit)) for name, text in rows]
            with formatter.section("Commands"):
                formatter.write_dl(shown)

    def _json_error(self, ctx: click.Context, message: str) -> None:
        argv: list[str] = ctx.meta.get("argv", [])
        command = self.get_command(ctx, argv[0]) if argv else None
        if command is not None and any("--json" in getattr(o, "opts", ()) for o in command.params):
            json_error(argv, message, command)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["argv"] = list(args)  # (for the JSON form of an error)
        rest = super().parse_args(ctx, args)
        if args and args[0] in self.subcommands:
            # the command's module is imported now, while a Ctrl-C is only noted by the start's
            # handler (solver.startup): once the command's own handler is in place, a Ctrl-C
            # that cuts an import short would print a traceback from inside importlib
            self.get_command(ctx, args[0])
        return rest

    def invoke(self, ctx: click.Context) -> Any:
        signal.signal(signal.SIGTERM, on_signal)
        # a process started with SIGINT ignored (a background job of a script, nohup) keeps
        # ignoring it, as the shells expect: Ctrl-C in that terminal is for the foreground
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            signal.signal(signal.SIGINT, on_signal)
        try:
            if startup.interrupted():  # (Ctrl-C while the command loaded: it ends as later)
                SIGNALS["received"] = startup.interrupted()
                raise KeyboardInterrupt
            return super().invoke(ctx)
        except click.UsageError as exc:
            text = option_words(exc.format_message())  # (a huge input is quoted cut)
            if "unexpected extra argument" in text:
                text = f"{text}. {extra_argument_hint(ctx.meta.get('argv', []), exc.format_message())}"
            self._json_error(ctx, text)
            if text == exc.format_message():
                raise
            raise click.UsageError(text, ctx=exc.ctx) from None
        except click.ClickException as exc:
            text = option_words(exc.format_message())
            self._json_error(ctx, text)
            if text == exc.format_message():
                raise
            if exc.exit_code == USAGE_ERROR:
                raise BrisqueCommandError(text) from None
            raise CommandFailed(text) from None
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            argv: list[str] = ctx.meta.get("argv", [])
            if "-" not in argv[1:]:  # (a batch's answers so far stand as they are)
                # a script reading --json gets an object for the answer it will not get
                self._json_error(ctx, "interrupted")
            interrupted_exit()
        except BrokenPipeError:
            # The reader went away (brisque puzzles FILE | head): stop quietly, with the status
            # of a process that SIGPIPE ends (as `yes | head` reports it), not click's 1, which
            # here means a failed puzzle or batch line.
            silence_stdout()
            sys.exit(128 + SIGPIPE)
        except OSError as exc:  # (a write that failed: a full disk under -o FILE or > FILE)
            raise CommandFailed(io_failure(exc)) from None
        except MemoryError as exc:  # (a table too big for the machine: an error, not a traceback)
            failure = OutOfMemory(
                f"out of memory: {str(exc) or 'an allocation failed'} (a smaller --table-bits, or fewer workers, needs less)"
            )
            self._json_error(ctx, failure.format_message())
            raise failure from None
        finally:
            startup.ending(on_signal)  # (a signal from now on changes nothing)
            forget_handled_interrupts()  # (the command's status is its own: 130, 0 ...)
