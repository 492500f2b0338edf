"""The command line's behaviour on a fixed set of command lines, recorded and compared.

A change that should not change what ``brisque`` does (a move of code, a rename, a split)
is checked by recording every command line's standard output, standard error and exit
status before and after, timings aside, and comparing the two records::

    python -m benchmarks.behaviour record before.json     # on the commit before
    python -m benchmarks.behaviour record after.json      # on the change
    python -m benchmarks.behaviour compare before.json after.json

Each command line runs in a shell (pipes and ``$(...)`` as a user writes them) in a
temporary folder holding the puzzle collections, with ``brisque`` from ``PATH``.

>>> normalise("990 nodes, 2.5 ms")
'990 nodes, <time>'
>>> normalise('{"seconds": 0.0031, "value": 44}')
'{"seconds": <time>, "value": 44}'
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

P_FINAL = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
P_FINAL_KD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"
P_HIDDEN = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"
P_PETITE_EQ = "petite K...9/?2 TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H"

#: The command lines: each runs in a shell, in a folder holding ``positions/``.
COMMANDS: list[str] = [
    # show
    f'brisque show "{P_FINAL}"',
    f'brisque show "{P_FINAL}" --json',
    f'brisque show "{P_FINAL_KD}"',
    f'brisque show "{P_FINAL}" --svg',
    f'brisque show "{P_FINAL}" --svg --pov b --highlight 7S --arrow QD',
    f'brisque show "{P_HIDDEN}"',
    f'brisque show "{P_HIDDEN}" --json',
    'brisque show "$(brisque deal --seed 3 --at 5)"',
    'brisque show "$(brisque deal --seed 7 --rules briscan --at 9)" --json',
    'brisque show "$(brisque deal --seed 5 --rules petite --at 3)"',
    'brisque show "brisque AK9.97..9/7..KQ9.A7 D 0"',
    'brisque show "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 bogus=1"',
    'brisque show "brisque AKA.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"',
    f'brisque show "{P_FINAL}" --pov a',
    "brisque show positions/brisque-endgames.bpd",
    # deal
    "brisque deal --seed 7",
    "brisque deal --seed 7 --rules briscan --at 12",
    "brisque deal --seed 7 --at 11 --json",
    "brisque deal --seed 4 --at 5 --view turn",
    "brisque deal --seed 4 --at 5 --view a --json",
    "brisque deal --seed 9 --rules petite",
    "brisque deal --seed 9 --rules 'brisque(target=300)' --at 3",
    "brisque deal --seed -1",
    "brisque deal --seed 7 --rules nope",
    "brisque deal --seed 7 --at 99",
    "brisque deal",
    # solve
    f'brisque solve "{P_FINAL}"',
    f'brisque solve "{P_FINAL}" --json',
    f'brisque solve "{P_FINAL_KD}"',
    "brisque deal --seed 3 --at 11 | brisque solve -",
    "brisque deal --seed 3 --at 11 | brisque solve - --json",
    "for s in 1 2 3 4 5; do brisque deal --seed $s --at 12; done | brisque solve -",
    "for s in 1 2 3; do brisque deal --seed $s --rules briscan --at 12; done | brisque solve -",
    "printf '# a comment\\n\\n' | brisque solve -",
    'brisque solve "$(brisque deal --seed 3 --at 9)"',
    'brisque solve "$(brisque deal --seed 3 --at 9)" --json',
    'brisque solve "$(brisque deal --seed 3 --rules briscan --at 10)" --json',
    'brisque solve "$(brisque deal --seed 3 --rules petite)"',
    'brisque solve "$(brisque deal --seed 3 --rules petite --at 4)" --json',
    'brisque solve "$(brisque deal --seed 3 --at 5)" --nodes 20000',
    'brisque solve "$(brisque deal --seed 3 --at 5)" --nodes 20000 --json',
    'brisque solve "$(brisque deal --seed 3 --at 6)" --depth 2',
    f'brisque solve "{P_HIDDEN}"',
    'brisque solve "brisque AK9.97..9/7..KQ9.A7 D"',
    f'brisque solve "{P_FINAL}" --nodes 0',
    f'brisque solve "{P_FINAL}" --depth x',
    f'brisque solve "{P_FINAL}" --seconds -1',
    "brisque solve positions/brisque-endgames.bpd",
    f"brisque solve {P_FINAL}",
    # analyse
    f'brisque analyse "{P_HIDDEN}" --worlds 50 --seed 1',
    f'brisque analyse "{P_HIDDEN}" --worlds 50 --seed 1 --json',
    f'brisque analyse "{P_HIDDEN}" --worlds 30 --seed 2 --world-search quick',
    f'brisque analyse "{P_HIDDEN}" --worlds 30 --seed 2 --world-search handmade:2 --json',
    'brisque analyse "$(brisque deal --seed 4 --at 5 --view turn)" --worlds 40 --seed 3',
    'brisque analyse "$(brisque deal --seed 4 --at 5 --view turn)" --worlds 40 --seed 3 --workers 2 --json',
    'brisque analyse "$(brisque deal --seed 4)" 7H 9H 9D JD JH TH 7D --worlds 40 --seed 1',
    'brisque analyse "$(brisque deal --seed 4)" 7H 9H 9D JD JH TH 7D --worlds 40 --seed 1 --inference off',
    'brisque analyse "$(brisque deal --seed 6 --rules briscan --at 8 --view turn)" --worlds 30 --seed 5',
    'brisque analyse "$(brisque deal --seed 6 --rules petite --at 6 --view turn)" --worlds 30 --seed 5 --json',
    f'brisque analyse "{P_PETITE_EQ}" --method equilibrium',
    f'brisque analyse "{P_PETITE_EQ}" --method equilibrium --json',
    f'brisque analyse "{P_PETITE_EQ}" --method equilibrium --worlds 5',
    f'brisque analyse "{P_FINAL}"',
    f'brisque analyse "{P_FINAL}" --worlds 5',
    f'brisque analyse "{P_HIDDEN}" --worlds 0',
    f'brisque analyse "{P_HIDDEN}" --world-search nonsense',
    f'brisque analyse "{P_HIDDEN}" --seed 99999999999999999999999',
    f'brisque analyse "{P_HIDDEN}" QX',
    "brisque deal --seed 4 --at 5 --view turn | brisque analyse - --worlds 20 --seed 1",
    # puzzles
    "brisque puzzles positions/brisque-endgames.bpd",
    "brisque puzzles positions/briscan-endgames.bpd --json",
    "brisque puzzles positions/petite-deals.bpd",
    "brisque puzzles positions/double-dummy.bpd",
    "brisque deal --seed 3 --at 11 | brisque puzzles -",
    "brisque puzzles missing.bpd",
    "printf 'not a bpn ; bm QD\\n' | brisque puzzles -",
    "printf 'not a bpn ; bm QD\\n' | brisque puzzles - --json",
    # line
    f'brisque line "{P_FINAL}" QD 9C',
    f'brisque line "{P_FINAL}" QD 9C --json',
    f'brisque line "{P_FINAL}" QD XX',
    'brisque line "$(brisque deal --seed 3 --at 10)" $(brisque solve "$(brisque deal --seed 3 --at 10)" --json'
    " | python3 -c \"import json,sys; print(*json.load(sys.stdin)['pv'][:6])\")",
    "brisque match greedy random --deals 2 --seed 1 --records deals.jsonl -q && brisque line --record deals.jsonl --deal 1 -q",
    "brisque match greedy random --deals 2 --seed 1 --records deals.jsonl -q && brisque line --record deals.jsonl --deal 2 --json -q",
    "brisque match greedy random --deals 2 --seed 1 --records deals.jsonl -q && "
    "brisque line --record deals.jsonl --deal 1 --view own --worlds 8 --seed 1 -q",
    "brisque line --record missing.jsonl",
    "printf '{broken\\n' > bad.jsonl; brisque line --record bad.jsonl",
    # tree
    f'brisque tree "{P_FINAL_KD}" --format dot',
    f'brisque tree "{P_FINAL_KD}" --format json --depth 2',
    'brisque tree "$(brisque deal --seed 2 --at 13)" --depth 2 -o tree.graphml && wc -c < tree.graphml',
    f'brisque tree "{P_FINAL_KD}" --format gexf --depth 1',
    f'brisque tree "{P_FINAL_KD}" --format nope',
    f'brisque tree "{P_FINAL_KD}" --depth 0',
    # match
    "brisque match greedy random --deals 6 --seed 1",
    "brisque match greedy random --deals 6 --seed 2 --rules briscan --json",
    "brisque match greedy random --deals 4 --seed 2 --rules petite",
    "brisque match pimc:4 greedy --deals 2 --seed 3 --json",
    "brisque match humanlike:4:2 greedy --deals 2 --seed 3",
    "brisque match greedy nobody --deals 2 --seed 1",
    "brisque match greedy random --deals 0 --seed 1",
    # help and misuse
    "brisque --help",
    "brisque --version",
    "brisque show --help",
    "brisque deal --help",
    "brisque solve --help",
    "brisque analyse --help",
    "brisque puzzles --help",
    "brisque line --help",
    "brisque tree --help",
    "brisque match --help",
    "brisque bench --help",
    "brisque serve --help",
    "brisque play --help",
    "brisque nosuchcommand",
    "brisque solve",
    f'brisque solve "{P_FINAL}" --json --bogus',
    # bench: the standard suites' signature
    "brisque bench --suite final-phase --suite deep --json | python3 -c "
    "\"import json,sys; d=json.load(sys.stdin); print(d['signature'])\"",
]

_TIME = re.compile(
    r"(?P<key>\"[a-z_]*seconds[a-z_]*\": )-?[0-9.e+-]+|[0-9]+(?:\.[0-9]+)? ?(?:µs|us|ms|s|min)\b(?! [a-z]*ched)"
)


def normalise(text: str) -> str:
    """``text`` with its timings replaced by ``<time>``."""
    return _TIME.sub(lambda m: (m.group("key") or "") + "<time>", text)


def record(out: Path) -> None:
    """Run every command line and write what each printed and its exit status to ``out``."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(ROOT / "positions", Path(tmp) / "positions")
        for i, command in enumerate(COMMANDS, 1):
            print(f"[{i}/{len(COMMANDS)}] {command[:100]}", file=sys.stderr)
            done = subprocess.run(
                command,
                shell=True,
                cwd=tmp,
                capture_output=True,
                text=True,
                env={**os.environ, "COLUMNS": "80"},
            )
            results.append(
                {
                    "command": command,
                    "status": done.returncode,
                    "stdout": normalise(done.stdout),
                    "stderr": normalise(done.stderr),
                }
            )
    out.write_text(json.dumps(results, indent=1) + "\n")


def compare(before: Path, after: Path) -> int:
    """Print each command line whose output or status differs; 0 when none does."""
    a = {r["command"]: r for r in json.loads(before.read_text())}
    b = {r["command"]: r for r in json.loads(after.read_text())}
    differ = 0
    for command in a:
        if command not in b:
            print(f"missing after: {command}")
            differ += 1
            continue
        for field in ("status", "stdout", "stderr"):
            if a[command][field] != b[command][field]:
                differ += 1
                print(
                    f"differs ({field}): {command}\n  before: {a[command][field]!r:.400}\n  after:  {b[command][field]!r:.400}"
                )
    print(f"{len(a)} command lines, {differ} differences", file=sys.stderr)
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="verb", required=True)
    sub.add_parser("record").add_argument("out", type=Path)
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.verb == "record":
        record(args.out)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
