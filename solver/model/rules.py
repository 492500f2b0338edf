"""The rules of the three games: frozen presets with every option of RULES.md.

>>> r = Rules.parse("brisque(target=300)")
>>> r.target, str(r)
(300, 'brisque(target=300)')
>>> str(Rules.preset("briscan"))
'briscan'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from solver.errors import ArgumentTypeError, RulesError
from solver.model.ranges import MAX_EXCHANGE_POINTS, MAX_TARGET, short, short_value, whole_number

GAMES = ("brisque", "briscan", "petite")
# each game as reports, pictures and the board name it
GAME_NAMES = {"brisque": "Brisque", "briscan": "Briscan", "petite": "Petite Brisque"}

OptionValue = int | bool | str
"""The value of a rules option (its ``kind``)."""


@dataclass(frozen=True)
class _Option:
    name: str
    kind: type[OptionValue]  # int, bool or str
    choices: tuple[str, ...] = ()  # for str options
    games: tuple[str, ...] = GAMES  # the games where the option means something
    doc: str = ""


# Printing order of the BPN rules field is this order.
OPTIONS: tuple[_Option, ...] = (
    _Option("target", int, doc="game target: 500 Brisque, 600 Briscan, 3 deals in Petite Brisque"),
    _Option("exchange", bool, doc="the trump-7 exchange is allowed"),
    _Option("exchange_points", int, doc="points scored by the exchange (0; 10 in some sources)"),
    _Option(
        "quartet_win",
        str,
        ("game", "deal"),
        ("brisque",),
        doc="four kings/queens win the game at once (game) or only the deal's remaining points (deal)",
    ),
    _Option(
        "final_declarations",
        bool,
        games=("brisque", "briscan"),
        doc="declarations are allowed in the final phase too",
    ),
    _Option(
        "one_declaration_per_turn",
        bool,
        games=("brisque", "briscan"),
        doc="at most one declaration at each turn",
    ),
    _Option(
        "final_follow",
        str,
        ("head", "follow"),
        ("brisque", "briscan"),
        doc="the follower's duty in the final phase: head the trick if he can (head), or only "
        "follow suit, else trump (follow, as in the German Mariage sources and Brusquembille)",
    ),
    _Option(
        "declare",
        str,
        ("after_draw", "before_draw"),
        ("brisque", "briscan"),
        doc="declarations on lead after the draw (after_draw), or right after winning the trick, "
        "before drawing (before_draw: the card just drawn cannot be part of them)",
    ),
    _Option(
        "draw",
        bool,
        games=("petite",),
        doc="Petite Brisque draws from the talon as Briscan does (5 cards, 16 tricks)",
    ),
    _Option(
        "next_dealer",
        str,
        ("alternate", "winner"),
        doc="the deal alternates (alternate) or the winner of a deal deals next (winner)",
    ),
    _Option(
        "objective",
        str,
        ("margin", "tricks"),
        doc="what the solver optimises: final score margin, or trick margin",
    ),
)
_BY_NAME = {o.name: o for o in OPTIONS}

_DEFAULTS: dict[str, dict[str, OptionValue]] = {
    "brisque": dict(target=500, objective="margin"),
    "briscan": dict(target=600, objective="margin"),
    "petite": dict(target=3, objective="tricks"),
}

# every option's value where _DEFAULTS does not set one (an option that does not apply to a
# game keeps this value there)
_BASE: dict[str, OptionValue] = dict(
    target=500,
    exchange=True,
    exchange_points=0,
    quartet_win="game",
    final_declarations=True,
    one_declaration_per_turn=False,
    final_follow="head",
    declare="after_draw",
    draw=False,
    next_dealer="alternate",
    objective="margin",
)


class _GameDefault:
    """The default of every option of :class:`Rules`: the game's own default, resolved when
    the rules are made (no option keeps it)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<the game's default>"


_GAME_DEFAULT: Any = _GameDefault()  # (Any: it stands for a value of each option's type)


def _game_name(game: object) -> str:
    """``game`` as one of :data:`GAMES` (case and spaces aside), else a RulesError quoting it."""
    g = game.strip().lower() if isinstance(game, str) else None
    if g not in GAMES:
        raise RulesError(f"unknown game {short_value(game)}: expected one of {', '.join(GAMES)}")
    return g


@dataclass(frozen=True)
class Rules:
    """One game and its options.  Build with :meth:`preset` or :meth:`parse`, or as
    ``Rules(game, option=value, ...)``, which is the same: each option not given takes the
    game's default, and each given one is checked as :meth:`preset` checks it.

    >>> Rules(game="petite") == Rules.preset("petite"), Rules("briscan", target=300).target
    (True, 300)
    >>> Rules(target=-1)
    Traceback (most recent call last):
    ...
    solver.errors.RulesError: option target: '-1' is out of range: expected a whole number from 1 to 1000000
    """

    game: str = "brisque"
    target: int = _GAME_DEFAULT
    exchange: bool = _GAME_DEFAULT
    exchange_points: int = _GAME_DEFAULT
    quartet_win: str = _GAME_DEFAULT
    final_declarations: bool = _GAME_DEFAULT
    one_declaration_per_turn: bool = _GAME_DEFAULT
    final_follow: str = _GAME_DEFAULT
    declare: str = _GAME_DEFAULT
    draw: bool = _GAME_DEFAULT
    next_dealer: str = _GAME_DEFAULT
    objective: str = _GAME_DEFAULT

    def __post_init__(self) -> None:
        """Resolve the game's defaults and check every option given (the one place where
        rules are checked: :meth:`preset`, :meth:`parse` and :meth:`replace` come here)."""
        g = _game_name(self.game)
        object.__setattr__(self, "game", g)
        for opt in OPTIONS:
            value = getattr(self, opt.name)
            if value is _GAME_DEFAULT:
                value = _DEFAULTS[g].get(opt.name, _BASE[opt.name])
            elif g not in opt.games:
                raise RulesError(
                    f"option {short(opt.name)} does not apply to {g} (only to {', '.join(opt.games)}); "
                    f"valid options are {', '.join(valid_options(g))}"
                )
            else:
                value = _coerce(opt, value)
            object.__setattr__(self, opt.name, value)

    # ---- construction -------------------------------------------------
    @classmethod
    def preset(cls, game: str = "brisque", /, **options: object) -> Rules:
        """The rules of ``game`` with its defaults, overridden by ``options``."""
        g = _game_name(game)
        for name in options:
            if name not in _BY_NAME:
                raise RulesError(
                    f"unknown option {short(name)} for {g}: valid options are {', '.join(valid_options(g))}"
                )
        return cls(g, **options)  # type: ignore[arg-type]  # (each value checked by __post_init__)

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Parse the BPN rules field: ``brisque``, ``briscan(target=300,exchange=no)``.
        (Rules are frozen, so each text is parsed once: a batch of BPNs shares them.)
        Anything but a string is an :class:`~solver.errors.ArgumentTypeError` quoting it."""
        if not isinstance(text, str):
            raise ArgumentTypeError(
                f"rules={short_value(text)}: expected a rules string such as 'brisque(target=300)', "
                f"not {type(text).__name__}"
            )
        return _parse_rules(text)

    @staticmethod
    def _parse(text: str) -> Rules:
        t = text.strip()
        if t.count("(") > 1 or t.count(")") > 1 or t.count(")") > t.count("("):
            # (else the extra one was read as part of a name or a value: "'300)' is not a
            # whole number")
            raise _bad_rules(
                text,
                "the parentheses do not match: expected "
                "'game(option=value,...)', one '(' after the game and one ')' at the end",
            )
        if "(" in t:
            if not t.endswith(")"):
                raise _bad_rules(text, "expected 'game(option=value,...)' with a closing ')'")
            game, _, inner = t[:-1].partition("(")
            options: dict[str, str] = {}
            for item in filter(None, (s.strip() for s in inner.split(","))):
                name, eq, value = item.partition("=")
                if not eq:
                    raise _bad_rules(text, f"option {short(item)} should be name=value")
                name = name.strip().lower()
                if name in options:
                    raise _bad_rules(text, f"option {short(name)} given twice")
                options[name] = value.strip()
        else:
            game, options = t, {}
        try:
            return Rules.preset(game, **options)
        except RulesError as exc:
            if not options:  # (the message quotes the game, which is the whole text: kept)
                raise _bad_rules(
                    text, f"unknown game: expected one of {', '.join(GAMES)}", str(exc)
                ) from None
            raise _bad_rules(text, str(exc)) from None

    # ---- printing ------------------------------------------------------
    def changed(self) -> dict[str, OptionValue]:
        """Options that differ from the game's defaults, in printing order."""
        base = Rules.preset(self.game)
        return {
            o.name: getattr(self, o.name) for o in OPTIONS if getattr(self, o.name) != getattr(base, o.name)
        }

    def __str__(self) -> str:
        return _rules_text(self)

    def _text(self) -> str:
        changed = self.changed()
        if not changed:
            return self.game
        items = ",".join(f"{k}={_format_value(v)}" for k, v in changed.items())
        return f"{self.game}({items})"

    def replace(self, **options: object) -> Rules:
        """A copy with some options changed (validated like :meth:`preset`)."""
        current: dict[str, object] = {o.name: getattr(self, o.name) for o in OPTIONS if self.game in o.games}
        current.update(options)
        return Rules.preset(self.game, **current)

    # ---- facts derived from the game ----------------------------------
    @property
    def hand_size(self) -> int:
        return 6 if self.game == "brisque" else 5

    @property
    def draws(self) -> bool:
        """Whether cards are drawn from the talon after tricks."""
        return self.game != "petite" or self.draw

    @property
    def talon_size(self) -> int:
        """Face-down cards under/over the turnup at the deal (dead cards in Petite)."""
        return 32 - 2 * self.hand_size - 1

    @property
    def tricks_per_deal(self) -> int:
        return 16 if self.draws else self.hand_size

    @property
    def talon_tricks(self) -> int:
        """Tricks after which cards are drawn (10 Brisque, 11 Briscan)."""
        return (self.talon_size + 1) // 2 if self.draws else 0

    @property
    def has_declarations(self) -> bool:
        return self.game != "petite"

    @property
    def last_pickup_window(self) -> bool:
        """Brisque's exchange window after trick 10's last draw."""
        return self.game == "brisque" and self.exchange

    @property
    def exchange_on_lead_only(self) -> bool:
        return self.game == "briscan"

    @property
    def must_beat(self) -> bool:
        """The final-phase follow rule obliges the follower to head the trick."""
        return self.game != "petite" and self.final_follow == "head"

    @property
    def forced_follow_from_start(self) -> bool:
        return self.game == "petite"

    @property
    def last_trick_bonus(self) -> int:
        return 0 if self.game == "petite" else 10


def valid_options(game: str) -> list[str]:
    """The options that mean something in ``game``, in printing order.

    >>> valid_options("petite")
    ['target', 'exchange', 'exchange_points', 'draw', 'next_dealer', 'objective']
    """
    return [o.name for o in OPTIONS if game in o.games]


def option_help() -> list[tuple[str, str, str, str]]:
    """(name, games, default per game, description) rows for documentation."""
    rows: list[tuple[str, str, str, str]] = []
    for o in OPTIONS:
        defaults = "/".join(str(_format_value(getattr(Rules.preset(g), o.name))) for g in o.games)
        rows.append((o.name, ",".join(o.games), defaults, o.doc))
    return rows


_TRUE = {"1", "true", "yes", "on", "y", "t"}
_FALSE = {"0", "false", "no", "off", "n", "f"}


# the ranges of the whole-number options (what the engine's value encoding can carry)
_INT_RANGES = {"target": (1, MAX_TARGET), "exchange_points": (0, MAX_EXCHANGE_POINTS)}


def _coerce(opt: _Option, value: object) -> OptionValue:
    if opt.kind is bool:
        if isinstance(value, bool):
            return value
        v = str(value).strip().lower()
        if v in _TRUE:
            return True
        if v in _FALSE:
            return False
        raise RulesError(f"option {opt.name}={short(str(value))}: expected yes or no")
    if opt.kind is int:
        if isinstance(value, bool):
            raise RulesError(f"option {opt.name}={short(str(value))}: expected a whole number")
        low, high = _INT_RANGES[opt.name]
        try:
            return whole_number(str(value), low, high)
        except ValueError as exc:
            raise RulesError(f"option {opt.name}: {exc}") from None  # (it quotes the value)
    v = str(value).strip().lower()
    if v not in opt.choices:
        raise RulesError(f"option {opt.name}={short(str(value))}: expected one of {', '.join(opt.choices)}")
    return v


def _format_value(v: object) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _bad_rules(text: str, reason: str, message: str | None = None) -> RulesError:
    """The error of the rules string ``text``: ``message``, by default ``bad rules 'TEXT':
    REASON``, with ``reason`` kept apart (see :class:`~solver.errors.RulesError`)."""
    exc = RulesError(message or f"bad rules {short(text)}: {reason}")
    exc.reason = reason
    return exc


@functools.lru_cache(maxsize=1024)
def _parse_rules(text: str) -> Rules:
    return Rules._parse(text)


def as_rules(rules: Rules | str | None, name: str = "rules") -> Rules:
    """``rules`` itself, the rules its string names (``'briscan(target=300)'``), or the
    default Brisque rules for ``None``: what every function that takes rules accepts.
    Anything else is an :class:`~solver.errors.ArgumentTypeError` that quotes it.

    >>> as_rules("petite").game, as_rules(None).game
    ('petite', 'brisque')
    >>> as_rules(3)
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentTypeError: rules=3: expected a Rules or a rules string such as 'brisque(target=300)', not int
    """
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.parse(rules)
    raise ArgumentTypeError(
        f"{name}={short_value(rules)}: expected a Rules or a rules string such as "
        f"'brisque(target=300)', not {type(rules).__name__}"
    )


@functools.lru_cache(maxsize=1024)
def _rules_text(rules: Rules) -> str:
    return rules._text()


__all__ = [
    "GAMES",
    "GAME_NAMES",
    "OPTIONS",
    "Rules",
    "RulesError",
    "as_rules",
    "option_help",
    "valid_options",
]
