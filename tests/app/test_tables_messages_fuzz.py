"""Fuzzing a live table's client messages: any JSON object with a known type, keys drawn from
every message's keys and a few strangers, values of any JSON kind.  ``read_client`` gives a
checked message or one-line :class:`Refused`, never a pydantic error or a traceback.

Short by default; ``pytest -m fuzz`` runs the long profile (see tests/conftest.py)."""

from __future__ import annotations

import json
import re

import pytest
from fuzzing import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from tutor.app.tables import protocol as P

pytestmark = pytest.mark.fuzz

KEYS = sorted(set().union(*P.CLIENT_KEYS.values()) | {"zz", "v"})
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=60),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["player", "action", "cards", "hand", "table", "oversight"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=6,
)


@fuzz_settings(cost=0.001, short=200)
@given(
    kind=st.sampled_from(P.CLIENT_TYPES),
    body=st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=5),
)
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
@given(
    kind=st.sampled_from(P.SERVER_TYPES),
    body=st.dictionaries(st.sampled_from(SERVER_KEYS), VALUES, max_size=8),
)
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
    with pytest.raises(
        P.Refused,
        match=r"^the server sent a message this client cannot read: "
        r"state: clock\.left: must be a number$",
    ):
        P.read_server(
            json.dumps(
                {
                    "v": 1,
                    "type": "state",
                    "table": 1,
                    "deal": 1,
                    "game": "",
                    "names": [],
                    "totals": [],
                    "away": [],
                    "cause": None,
                    "played": 0,
                    "games": 1,
                    "seated": True,
                    "clock": {
                        "seat": 0,
                        "kind": "move",
                        "deadline": 1.0,
                        "left": "soon",
                        "move_left": None,
                        "reserve": [],
                    },
                    "obs": {},
                }
            )
        )


def _an_observation():
    import random

    from tutor.engine.deal import new_deal
    from tutor.engine.observe import observe
    from tutor.engine.sources import default_library

    rs = default_library().ruleset("parlett", 4)
    d = new_deal(rs, 4, 0, random.Random(5))
    for _ in range(9):
        d.apply(d.legal_actions()[0])
    return observe(d, 1)


@fuzz_settings(cost=0.002, short=150)
@given(key=st.sampled_from(sorted(_an_observation().to_json())), value=VALUES)
def test_an_observation_with_a_bad_value_is_read_or_refused_in_one_line(key, value):
    """An observation on the wire (a state's ``obs``) with any one value replaced: read, or
    refused as a RecordError of one line that names the key."""
    from tutor.engine.errors import RecordError
    from tutor.engine.observe import Observation

    obj = {**_an_observation().to_json(), key: value}
    try:
        Observation.from_json(json.loads(json.dumps(obj)))
    except RecordError as exc:
        assert "\n" not in str(exc) and "pydantic" not in str(exc)
        assert str(exc).split(":")[0].split(".")[0].split("[")[0] in (key, "history", "moves"), exc


def test_an_observations_refusal_names_its_key():
    from tutor.engine.errors import RecordError
    from tutor.engine.observe import Observation

    good = _an_observation().to_json()
    assert Observation.from_json(json.loads(json.dumps(good))) == _an_observation()
    for bad, said in (
        ({"players": 60}, "players: must be at most 52"),
        ({"seat": 7}, "seat: must be a seat from 0 to 3"),
        ({"hand": ["7H", "ZZ"]}, "hand: "),
        ({"payments": [[0, "nobody", 1]]}, "payments[0][1]"),
        ({"zz": 1}, "zz: is not a key here"),
    ):
        with pytest.raises(RecordError, match="^" + re.escape(said)):
            Observation.from_json({**good, **bad})


def test_the_settlement_row_model_has_the_engines_fields():
    """The wire's settlement row (messages.SettlementRow) names the engine's SeatSettlement
    fields, in order: a field added to the engine fails here, not at a client."""
    from tutor.app.tables.messages import SettlementRow
    from tutor.engine.deal import SeatSettlement

    assert tuple(SettlementRow.model_fields) == SeatSettlement._fields


def test_the_server_standings_shape_is_the_clients_model():
    """tournament.StandingData (what the server builds) and messages.StandingRow (what a client
    reads) hold the same keys: the two declarations cannot drift apart."""
    from tutor.app.tables.messages import StandingRow, TeamRow
    from tutor.app.tables.tournament import StandingData, TeamData

    assert set(StandingData.__annotations__) == set(StandingRow.model_fields)
    assert set(TeamData.__annotations__) == set(TeamRow.model_fields)
