"""Deal records: a start position and the moves, enough to replay every position."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypedDict

from solver.errors import PositionError, RecordError
from solver.model.moves import parse_move
from solver.model.position import Position


@dataclass(kw_only=True)
class DealRecord:
    """A played deal: the starting position and the moves, enough to replay every position."""

    start: str
    moves: list[str] = field(default_factory=list)
    players: tuple[str, str] = ("?", "?")
    # a deal of a whole game to the target (brisque play): its moves are graded by the chance
    # of winning the game, from the start's game totals, not of winning the deal
    whole_game: bool = False

    def replay(self) -> list[Position]:
        """Every position of the deal, from the start to the end."""
        p = Position(self.start)
        out = [p.copy()]
        for i, text in enumerate(self.moves):
            try:
                p.push(parse_move(text))
            except (PositionError, ValueError) as exc:
                raise PositionError(f"move {i + 1} ({text!r}) of the record does not replay: {exc}") from None
            out.append(p.copy())
        return out

    def bpns(self) -> list[str]:
        """The BPN of every position of the deal, from the start to the end."""
        return [p.bpn() for p in self.replay()]

    def final(self) -> Position:
        """The position at the end of the record."""
        return self.replay()[-1]

    def to_json(self) -> str:
        """One JSON object: ``start``, ``moves`` and ``players``, and ``"whole_game": true``
        for a deal of a whole game (read by :meth:`from_json`)."""
        d: dict[str, object] = {"start": self.start, "moves": self.moves, "players": list(self.players)}
        if self.whole_game:
            d["whole_game"] = True
        return json.dumps(d)

    @classmethod
    def from_json(cls, text: str) -> DealRecord:
        """The record of a JSON object as :meth:`to_json` writes it (``players`` optional);
        anything else raises :class:`RecordError` quoting the text.

        >>> DealRecord.from_json('{"start": "brisque ...", "moves": ["QD"]}').moves
        ['QD']
        """
        shown = text.strip() if len(text.strip()) <= 80 else text.strip()[:77] + "..."
        expected = (
            'expected a JSON object {"start": BPN, "moves": [MOVE, ...]} as brisque match --records writes'
        )
        try:
            d = json.loads(text)
        except (ValueError, RecursionError):  # (RecursionError: nested beyond any record)
            raise RecordError(f"not a deal record: {shown!r} is not JSON; {expected}") from None
        if not isinstance(d, dict):
            raise RecordError(f"not a deal record: {shown!r}; {expected}")
        missing = [k for k in ("start", "moves") if k not in d]
        if missing:
            raise RecordError(
                f"not a deal record: {shown!r} has no {' nor '.join(repr(k) for k in missing)}; {expected}"
            )
        start, moves, players = d["start"], d["moves"], d.get("players", ["?", "?"])
        if not isinstance(start, str):
            raise RecordError(f"not a deal record: 'start' is {start!r}, not a BPN string")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError(f"not a deal record: 'moves' is {moves!r}, not a list of move strings")
        if (
            not isinstance(players, list | tuple)
            or len(players) != 2
            or not all(isinstance(x, str) for x in players)
        ):
            raise RecordError(f"not a deal record: 'players' is {players!r}, not two player names")
        whole = d.get("whole_game", False)
        if not isinstance(whole, bool):
            raise RecordError(f"not a deal record: 'whole_game' is {whole!r}, not true or false")
        return cls(start=start, moves=list(moves), players=(players[0], players[1]), whole_game=whole)


class MatchRecord(TypedDict):
    """One deal of a duplicate match, as ``brisque match --records`` writes it (a JSON object)."""

    pair: int  # the deal pair (the same shuffle played twice)
    deal_seed: int
    first_at: str  # the seat of the first player named, a or b
    players: list[str]  # the player specs at a and at b
    start: str  # the BPN of the deal
    moves: list[str]
    score: list[int]
    tricks: list[int]
    win: str | None  # the seat that won the game outright, if any
    margin_first: int  # the deal's value for the first player named


def record_to_deal(rec: MatchRecord) -> DealRecord:
    """A match record as a :class:`DealRecord` (for ``brisque line --record``)."""
    at_a, at_b = rec["players"]
    return DealRecord(start=rec["start"], moves=list(rec["moves"]), players=(at_a, at_b))


def write_records(path: str, records: Iterable[MatchRecord]) -> None:
    """Write match records as JSON Lines, one object a line."""
    with open(path, "w", encoding="utf-8") as f:
        for rec in records:
            f.write(json.dumps(rec) + "\n")


__all__ = ["DealRecord", "MatchRecord", "record_to_deal", "write_records"]
