"""Errors with ``--json``: a JSON object on standard output, naming the position when there is one."""

from __future__ import annotations

import json

import pytest

VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "bad", "--json"],
        ["solve", "--json", "bad"],
        ["solve", "--nodes", "5", "bad", "--json"],
        ["show", "bad", "--json"],
        ["analyse", "--worlds", "3", "bad", "--json"],
        ["line", "bad", "QD", "--json"],
    ],
)
def test_the_json_error_of_a_malformed_position_names_it_in_bpn(brisque, args):
    # {"error": ...} without "bpn" when the BPN had no space, unlike a bad line of solve -
    r = brisque(*args)
    assert r.returncode == 2
    answer = json.loads(r.stdout)
    assert answer["bpn"] == "bad" and "bad BPN 'bad'" in answer["error"]


def test_the_json_error_without_a_position_has_no_bpn(brisque):
    r = brisque("line", "--record", "nonexistent.jsonl", "--json")
    assert r.returncode == 2 and "bpn" not in json.loads(r.stdout)


def test_deal_json_error_is_an_object_too(brisque):
    res = brisque("deal", "--seed", "1", "--at", "17", "--json")  # (past any deal: the option's range)
    assert res.returncode == 2
    assert json.loads(res.stdout) == {
        "error": "Invalid value for '--at': '17' is not a whole number from 1 to 16"
    }
    res = brisque("deal", "--seed", "1", "--at", "6", "--rules", "petite", "--json")
    assert res.returncode == 2
    assert json.loads(res.stdout) == {"error": "--at 6: a deal of petite has 5 tricks"}


def test_with_json_an_error_is_a_json_object_too(brisque, tmp_path):
    res = brisque.raw("solve", "brisque x", "--json", cwd=tmp_path)
    assert res.returncode == 2
    answer = json.loads(res.stdout)
    assert answer["bpn"] == "brisque x" and "bad BPN" in answer["error"]
    res = brisque.raw("analyse", VIEW, "--worlds", "x", "--json", cwd=tmp_path)
    assert res.returncode == 2 and "whole number" in json.loads(res.stdout)["error"]


def test_a_command_without_json_writes_no_json_error(brisque, tmp_path):
    # (tree writes a graph, not an answer; deal, the example here before, has --json now)
    res = brisque.raw("tree", "brisque x", "--json", cwd=tmp_path)
    assert res.returncode == 2 and res.stdout == b"" and b"No such option" in res.stderr
