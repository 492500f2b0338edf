"""Fixtures, hypothesis profiles and pytest configuration of the test suite.

The tests import the *installed* package ``solver`` (there is deliberately no
``tests/__init__.py``), so run ``pip install .`` after changing the code.  Helper functions
shared by the test modules are in helpers.py (``from helpers import make``).
"""

from __future__ import annotations

import os
import signal

import pytest
from click.testing import CliRunner, Result
from helpers import NOTATION_EXAMPLES, Brisque
from hypothesis import HealthCheck, settings

from solver import Position
from solver.cli import main

# The Ctrl-C tests send SIGINT to the commands they start.  A suite started in the
# background by a shell without job control (nohup, some CI runners) inherits SIGINT
# ignored, and an ignored signal stays ignored across exec: Python would then install no
# KeyboardInterrupt handler in those commands.  A handler here (before xdist starts its
# workers) gives every process started from now on SIGINT at its default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# HYPOTHESIS_PROFILE=deep runs the property tests with many more examples.
_HEALTH = [HealthCheck.too_slow, HealthCheck.filter_too_much]
settings.register_profile(
    "suite", deadline=None, max_examples=200, database=None, suppress_health_check=_HEALTH
)
settings.register_profile(
    "deep", deadline=None, max_examples=20000, database=None, suppress_health_check=_HEALTH
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


@pytest.fixture
def example_positions():
    return [Position(b) for b in NOTATION_EXAMPLES]


@pytest.fixture
def brisque(tmp_path):
    """Run the command line in a subprocess, from tmp_path (outside the checkout)."""
    return Brisque(tmp_path)


@pytest.fixture(scope="module")
def invoke():
    """Run the command line in this process through click's CliRunner; standard error kept apart."""
    try:  # (click < 8.2 mixes standard error into the output by default)
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        runner = CliRunner()

    def run(*args: object, input: str | None = None) -> Result:
        return runner.invoke(main, [str(a) for a in args], input=input)

    return run
