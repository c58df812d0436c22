"""Fuzzing a live table's client messages: any JSON object with a known type, keys drawn from
every message's keys and a few strangers, values of any JSON kind.  ``read_client`` gives a
checked message or one-line :class:`Refused`, never a pydantic error or a traceback.

Short by default; ``pytest -m fuzz`` runs the long profile (see tests/conftest.py)."""

from __future__ import annotations

import json

import pytest
from fuzzing import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from tutor.app.tables import protocol as P

pytestmark = pytest.mark.fuzz

KEYS = sorted(set().union(*P.CLIENT_KEYS.values()) | {"zz", "v"})
VALUES = st.recursive(st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False, allow_infinity=False)
                      | st.text(max_size=60),
                      lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(["player", "action", "cards", "hand",
                                                          "table", "oversight"]), inner,
                                        max_size=4), max_leaves=6)


@fuzz_settings(cost=0.001, short=200)
@given(kind=st.sampled_from(P.CLIENT_TYPES),
       body=st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=5))
def test_a_hostile_message_is_read_or_refused_in_one_line(kind, body):
    obj = {"v": 1, **body, "type": kind}
    try:
        m = P.read_client(json.dumps(obj))
    except P.Refused as exc:
        assert "\n" not in str(exc) and "pydantic" not in str(exc)
        return
    assert m.type == kind and set(body) - {"v"} <= P.CLIENT_KEYS[kind]


#: Every key a server's message may carry, and a stranger.
SERVER_KEYS = sorted(set().union(*(a | b for a, b in P.SERVER_KEYS.values())) | {"zz"})


@fuzz_settings(cost=0.001, short=200)
@given(kind=st.sampled_from(P.SERVER_TYPES),
       body=st.dictionaries(st.sampled_from(SERVER_KEYS), VALUES, max_size=8))
def test_a_malformed_server_message_is_read_or_refused_in_one_line(kind, body):
    """The other direction: what a client reads from a server (a hostile one, or one of
    another version) is its type's model or one line naming the key at fault."""
    obj = {**body, "v": 1, "type": kind}
    try:
        m = P.read_server(json.dumps(obj))
    except P.Refused as exc:
        assert "\n" not in str(exc) and "pydantic" not in str(exc)
        assert str(exc).startswith("the server sent")
        return
    assert m.type == kind


def test_a_server_message_of_the_wrong_shape_names_its_key():
    with pytest.raises(P.Refused, match=r"^the server sent a message this client cannot read: "
                                        r"state: clock\.left: must be a number$"):
        P.read_server(json.dumps({
            "v": 1, "type": "state", "table": 1, "deal": 1, "game": "", "names": [],
            "totals": [], "away": [], "cause": None, "played": 0, "games": 1, "seated": True,
            "clock": {"seat": 0, "kind": "move", "deadline": 1.0, "left": "soon",
                      "move_left": None, "reserve": []}, "obs": {}}))
