"""AnalyseOptions: the options of analyse as one value, checked where it is made, and the
keyword form built from the same fields."""

import dataclasses

import pytest

import solver
from solver.analysis.analyse_options import DEFAULT_WORLDS, AnalyseOptions
from solver.errors import ArgumentError, ArgumentTypeError
from solver.model.ranges import MAX_WORLDS

VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


def test_the_options_value_and_the_keywords_give_the_same_answer():
    by_value = solver.analyse(VIEW, solver.AnalyseOptions(worlds=12, seed=4))
    by_keywords = solver.analyse(VIEW, worlds=12, seed=4)
    assert by_value.to_dict() | {"seconds": 0} == by_keywords.to_dict() | {"seconds": 0}
    assert by_value.worlds == 12 and by_value.seed == 4


def test_keywords_override_the_fields_of_an_options_value():
    base = AnalyseOptions(worlds=12, seed=4)
    a = solver.analyse(VIEW, base, seed=5)
    assert a.seed == 5 and a.worlds == 12
    assert base.seed == 4  # (the value given is not changed: it is frozen)
    with pytest.raises(dataclasses.FrozenInstanceError):
        base.seed = 6  # type: ignore[misc]


def test_a_keyword_that_is_no_option_is_a_type_error():
    with pytest.raises(ArgumentTypeError, match="unexpected keyword argument 'wrolds'"):
        solver.analyse(VIEW, wrolds=5)
    with pytest.raises(TypeError, match="expected a solver.AnalyseOptions"):
        solver.analyse(VIEW, {"worlds": 5})  # type: ignore[call-overload]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"worlds": 0}, "worlds=0"),
        ({"workers": 0}, "workers=0"),
        ({"seed": -1}, "seed=-1"),
        ({"time_limit": 0}, "time_limit=0"),
        ({"separation": float("nan")}, "separation=nan"),
        ({"think": "soon"}, "soon"),
        ({"world_search": "deep"}, "deep"),
        ({"win_worth": -1}, "win_worth=-1"),
        ({"depth": 3, "world_search": "exact"}, "give one of them"),
        ({"progress": 3}, "progress=3"),
        ({"inference": "yes"}, "inference='yes'"),
        ({"history": "7H 9H"}, "history="),
    ],
)
def test_each_option_is_checked_when_the_options_are_made(fields, message):
    with pytest.raises(ArgumentError, match=message):
        AnalyseOptions(**fields)


def test_the_options_resolve_their_defaults():
    assert AnalyseOptions().target_worlds == DEFAULT_WORLDS
    assert AnalyseOptions(think="1s").target_worlds == MAX_WORLDS
    assert AnalyseOptions(think="500ms").budget == 0.5
    assert str(AnalyseOptions(depth=2).search) == "depth:2"
    assert str(AnalyseOptions(world_search="handmade:3").search) == "handmade:3"
    assert str(AnalyseOptions(win_worth=5).rank) == "5"


def test_given_names_the_fields_that_differ_from_the_defaults():
    assert AnalyseOptions().given() == []
    assert AnalyseOptions(seed=3, world_search="exact").given() == ["seed=3", "world_search='exact'"]
