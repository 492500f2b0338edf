"""``brisque bench``: the standard benchmarks, run from the installed package."""

from __future__ import annotations

import json
from typing import Any

import click

from solver.bench.suites import (
    check_comparable,
    check_saved,
    compare,
    figures,
    not_compared,
    run,
    side_figures,
    side_label,
)
from solver.cli.exits import BrisqueCommandError
from solver.cli.options import json_option, quiet_option
from solver.errors import ArgumentError

# the suites that left the package for the lab: named, they get where to run them instead
# of a bare "not one of"
RESEARCH_SUITES = ("reference", "enhancements", "whole-deals", "sampling-workers", "matches", "research")


class SuiteChoice(click.Choice):  # type: ignore[type-arg]  # (generic in click 8.2, not subscriptable before)
    """The standard suites; a research suite's name says where it is run now.

    >>> SuiteChoice(["deep"]).convert("whole-deals", None, None)
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: 'whole-deals' is a research suite of the lab, not shipped with the package: run it from a checkout of the repository with python -m benchmarks.research --suite whole-deals
    """

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value in RESEARCH_SUITES:
            self.fail(
                f"{value!r} is a research suite of the lab, not shipped with the package: run it from a "
                f"checkout of the repository with python -m benchmarks.research --suite {value}",
                param,
                ctx,
            )
        return super().convert(value, param, ctx)


@click.command("bench")
@click.option(
    "--suite",
    "suites",
    multiple=True,
    # (the names of solver.bench.suites.SUITES: tests/cli/test_bench.py checks them)
    type=SuiteChoice(["final-phase", "deep", "sampling", "batch", "chance"]),
    help="A suite to run (repeatable; default the five standard ones).",
)
@click.option(
    "--quick", is_flag=True, help="A few positions of each suite: a quick check, not figures to publish."
)
@json_option("One JSON object: machine, suites, signature.")
@click.option(
    "--compare",
    "compare_to",
    type=click.Path(exists=True, dir_okay=False),
    help="A saved run (the --json of an earlier bench): each figure beside it, as a ratio; the suites run that it lacks are named.",
)
@quiet_option(
    "No progress lines on standard error (the standard suites write none: accepted for the scripts that pass it)."
)
def bench_cmd(
    suites: tuple[str, ...], quick: bool, as_json: bool, compare_to: str | None, quiet: bool
) -> None:
    """Run the standard benchmarks from the installed package and print their figures.

    The standard suites, run by default (about a minute): final-phase (every
    move's value of 1000 positions at the start of Brisque's final phase, one
    batch), deep (exact values with 2 to 5 talon tricks left), sampling (PIMC
    analyses of six views), batch (the solve - path in this process), chance
    (every move with 2 and 3 talon tricks left, double dummy beside the
    expectimax over the draws, and their ratio).  Their positions ship with the
    package.  The run ends with a signature: the total
    node count of the final-phase and deep suites.  The search is deterministic,
    so the signature changes exactly when the search does, on any machine.

    The research suites behind BENCHMARKS.md (reference, enhancements,
    whole-deals, sampling-workers, matches) are not shipped: they are the lab's,
    run from a checkout of the repository with python -m benchmarks.research
    --suite NAME (see benchmarks/research.py).

    \b
    Examples:
      brisque bench
      brisque bench --suite final-phase --suite deep --json > run.json
      brisque bench --compare run.json
    """
    old = _saved_run(compare_to, quick) if compare_to else None
    result = run(list(suites) or None, quick=quick)
    nothing = "" if old is None else _compare(result, old, str(compare_to))
    if as_json:
        click.echo(json.dumps(result))
        if nothing:
            click.echo(f"brisque bench: {nothing}", err=True)
        return
    click.echo("\n".join(_text(result, old, quick, compare_to, nothing)))


def _saved_run(compare_to: str, quick: bool) -> dict[str, Any]:
    """The run saved by ``brisque bench --json`` to compare with, checked before the run (a
    whole run can take an hour, to be refused at its end)."""
    try:
        with open(compare_to, encoding="utf-8") as f:
            old = json.load(f)
        if not isinstance(old, dict) or not isinstance(old.get("suites"), list):
            raise ValueError("no 'suites' list")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise BrisqueCommandError(
            f"cannot compare with {compare_to!r}: expected the JSON of brisque bench --json ({exc})"
        ) from None
    try:
        check_saved(old)
        check_comparable(old, quick)
    except ArgumentError as exc:
        raise BrisqueCommandError(f"cannot compare with {compare_to!r}: {exc}") from None
    return old


def _compare(result: dict[str, Any], old: dict[str, Any], compare_to: str) -> str:
    """Add the comparison with the saved run ``old`` to ``result``; why nothing was compared
    (said rather than a silent exit 0), or ""."""
    try:
        result["compare"] = compare(result, old)
    except ArgumentError as exc:
        raise BrisqueCommandError(str(exc)) from None
    result["compare_signature"] = old.get("signature")
    result["compare_missing"] = not_compared(result, old)
    if result["compare"]:
        return ""
    saved = ", ".join(r["name"] for r in old["suites"]) or "no suite"
    missing = result["compare_missing"]
    return f"nothing to compare with {compare_to!r}: " + (
        f"the suites run ({', '.join(missing)}) are not in it (it holds {saved})"
        if len(missing) == len(result["suites"])
        else f"it holds no figure of the suites run other than 0 (it holds {saved})"
    )


def _text(
    result: dict[str, Any], old: dict[str, Any] | None, quick: bool, compare_to: str | None, nothing: str
) -> list[str]:
    """The lines of a run in words: the machine, each suite's figures, the comparison and
    the signature."""
    out = [f"Machine: {result['machine']}{' (quick)' if quick else ''}"]
    for r in result["suites"]:
        out.append(f"  {r['name']:12} {figures(r, skip=())}")
        for k, level in r.get("levels", {}).items():
            out.append(
                f"    {k} talon tricks left: {level['positions']} positions, median {level['median_ms']} ms, {level['nodes']} nodes"
            )
        for side in r.get("sides", []):
            out.append(f"    {side_label(side)}: {side['positions']} positions, {side_figures(side)}")
    for row in result.get("compare", []):
        out.append(
            f"  vs saved: {row['suite']} {row['figure']}: {row['new']} / {row['old']} = {row['ratio']}"
        )
    if nothing:
        out.append(f"  vs saved: {nothing}")
    elif result.get("compare_missing"):
        out.append(f"  vs saved: not in {compare_to!r}: {', '.join(result['compare_missing'])}")
    if result["signature"] is not None:
        same = ""
        if old is not None and isinstance(old.get("signature"), int):
            same = (
                " (the same search)"
                if old["signature"] == result["signature"]
                else f" (saved: {old['signature']}: the search changed)"
            )
        out.append(f"Signature: {result['signature']}{same}")
    return out
