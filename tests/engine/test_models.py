"""The one way a model's refusal becomes a line: FILE:LINE: KEY.PATH: message."""

import pytest

from tutor.engine import yamlfile
from tutor.engine.errors import DataError, RecordError
from tutor.engine.models import Model, validate


class Seat(Model):
    name: str
    seats: list[int]


class Table(Model):
    title: str
    players: list[Seat]


def test_a_yaml_refusal_names_the_file_the_line_and_the_key():
    text = "title: x\nplayers:\n  - name: a\n    seats: [1, 2]\n  - name: b\n    seats: [1, two]\n"
    data, doc = yamlfile.load(text, "f.yaml")
    with pytest.raises(DataError) as err:
        validate(Table, data, doc=doc)
    assert str(err.value) == "f.yaml:6: players[1].seats[1]: must be a whole number"


def test_a_missing_key_and_an_unknown_key_are_said_in_our_words():
    with pytest.raises(DataError) as err:
        validate(Table, {"title": "t"}, where="m.json")
    assert str(err.value) == "m.json: players: is missing"
    with pytest.raises(DataError) as err:
        validate(Table, {"title": "t", "players": [], "colour": 1}, where="m.json")
    assert str(err.value) == "m.json: colour: is not a key here"


def test_no_string_is_taken_for_a_number_and_the_error_class_is_the_callers():
    with pytest.raises(RecordError) as err:
        validate(Seat, {"name": "a", "seats": ["1"]}, where="message", error=RecordError)
    assert str(err.value) == "message: seats[0]: must be a whole number"
    assert validate(Seat, {"name": "a", "seats": [1]}).seats == [1]


def test_a_yaml_refusal_tells_the_keys_a_place_takes_and_a_bound_is_said():
    from typing import Annotated

    from pydantic import Field

    from tutor.engine.models import refusal

    class Dial(Model):
        turns: Annotated[int, Field(ge=1, le=5)]

    class Box(Model):
        dials: list[Dial] | None = None

    data, doc = yamlfile.load("dials:\n  - turns: 2\n  - turns: 2\n    colour: red\n", "b.yaml")
    with pytest.raises(DataError) as err:
        validate(Box, data, doc=doc)
    assert str(err.value) == "b.yaml:4: dials[1].colour: is not a key here (keys: turns)"
    data, doc = yamlfile.load("dials:\n  - 7\n", "b.yaml")
    with pytest.raises(DataError) as err:
        validate(Box, data, doc=doc)
    assert str(err.value) == "b.yaml:2: dials[0]: must be a mapping of keys (turns)"
    data, doc = yamlfile.load("dials:\n  - turns: 0\n", "b.yaml")
    with pytest.raises(DataError) as err:
        validate(Box, data, doc=doc)
    assert str(err.value) == "b.yaml:2: dials[0].turns: must be at least 1"
    assert str(refusal(doc, "too many", "dials", 0)) == "b.yaml:2: dials[0]: too many"


def test_lengths_are_said_in_our_words():
    from typing import Annotated

    from pydantic import Field

    class Name(Model):
        text: Annotated[str, Field(min_length=1, max_length=3)]
        tags: Annotated[list[str], Field(max_length=1)] = []

    for value, said in (
        ({"text": ""}, "text: must not be empty"),
        ({"text": "abcd"}, "text: must be text of at most 3 characters"),
        ({"text": "a", "tags": ["x", "y"]}, "tags: must hold at most 1 entry"),
    ):
        with pytest.raises(DataError) as err:
            validate(Name, value, where="n.json")
        assert str(err.value) == f"n.json: {said}"
