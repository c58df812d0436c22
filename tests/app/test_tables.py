"""The live table without sockets: the table state machine on a test's clock, the message
schema, the per-seat observations, and a tournament's rounds (issue 22).

Every time here is a number the test passes: the table never reads a clock."""

from __future__ import annotations

import itertools
import json
import re
import time

import pytest

from tutor.app.tables import protocol as P
from tutor.app.tables.table import (
    EVERYONE,
    FALSE_CLAIM_TEXT,
    LOG,
    PUBLIC,
    STATE,
    Settings,
    Table,
    bot_name,
)
from tutor.app.tables.tournament import Tournament
from tutor.engine import race as R
from tutor.engine.cards import code, pretty
from tutor.engine.levels import level
from tutor.engine.observe import Observation, hidden_cards, observe, observe_public
from tutor.engine.records import action_to_json, check_record, to_record


def _settings(rulesets, rid="parlett", players=3, lv="club", **kw):
    kw.setdefault("pace", 0.5)
    kw.setdefault("gap", 1.0)
    kw.setdefault("seed", 7)
    return Settings(rulesets[rid], players, level(lv), **kw)


def _msg(kind, **kw):
    return P.client_message({"v": 1, "type": kind, **kw})


_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")
_PRETTY = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")


def _cards_in(message) -> set[str]:
    """Every card named in a message (codes and suit symbols), as codes."""
    text = json.dumps({k: v for k, v in message.items() if k != "token"}, ensure_ascii=False)
    found = set(_CARD.findall(text))
    for p in _PRETTY.findall(text):
        found.add(p[:-1].replace("10", "T") + "CDHS"["♣♦♥♠".index(p[-1])])
    return found


class Driver:
    """Plays the people's seats of a table on a test clock: each person makes their first
    legal move, ``think`` seconds after their turn came."""

    def __init__(self, table: Table, people: dict[int, str], think: float = 0.2):
        self.t = table
        self.people = people
        self.think = think
        self.now = 0.0
        self.sent: list[tuple] = []  # (target, message, hidden cards per seat then)

    def drain(self):
        d = self.t.deal
        out, self.t.outbox = self.t.outbox, []
        for target, m in out:
            if target == STATE:
                hidden = {s: hidden_cards(d, s) for s in m["views"]} if d else {}
                for s, obs in m["views"].items():
                    self.sent.append((s, {"type": "state", "obs": obs.to_json()}, hidden[s]))
                continue
            hidden = {s: hidden_cards(d, s) for s in list(self.people) + [None]} if d else {}
            for s in [target] if isinstance(target, int) else list(self.people) + [None]:
                if target == PUBLIC and s is not None:
                    continue
                self.sent.append((s, m, hidden.get(s, frozenset())))
        if self.t.changed and d is not None:
            for s in list(self.people) + [None]:
                obs = self.t.view(s)
                self.sent.append((s, {"type": "state", "obs": obs.to_json()}, hidden_cards(d, s)))
            self.t.changed = False

    def step(self) -> bool:
        t = self.t
        d = t.deal
        if t.playing and d.to_move in self.people and t.seats[d.to_move].connected:
            q = d.to_move
            self.now = max(self.now, t.turn_since) + self.think
            a = observe(d, q).turn_moves()[0]
            t.act(q, _msg("act", text=a.notation(), seq=len(d.history)), self.now)
            self.drain()
            return True
        w = t.next_wake()
        if w is None:
            return False
        self.now = max(self.now, w)
        t.tick(self.now)
        self.drain()
        return True

    def run(self, until=lambda: False, limit=5000):
        for _ in range(limit):
            if until() or not self.step():
                return
        raise AssertionError("the table did not come to rest")


def _joined(rulesets, people=("Ann", "Bob"), **kw):
    t = Table(
        1,
        "ABCD2345",
        _settings(rulesets, **kw),
        token=iter([f"tok{k}" for k in range(100)]).__next__,
    )
    seats = {}
    for name in people:
        seats[t.join(name, None, 0.0).seat] = name
    return t, Driver(t, seats)


def test_a_match_with_people_and_computer_players_is_refereed_to_the_end(rulesets):
    t, drv = _joined(rulesets, deals=3, lv="beginner")
    drv.run(lambda: t.over)
    assert len(t.match.deals) == 3 and all(d.is_terminal() for d in t.match.deals)
    for d in t.match.deals:
        check_record(to_record(d))
    names = t.names
    assert sorted(n for n in names if "(computer)" not in n) == ["Ann", "Bob"]
    kinds = [m["type"] for _, m, _ in drv.sent]
    assert kinds.count("deal_over") == 3 * 3  # each person's with their review, and public
    reviews = [m for s, m, _ in drv.sent if m["type"] == "deal_over" and "review" in m]
    assert len(reviews) == 6 and all(
        s in drv.people for s, m, _ in drv.sent if m["type"] == "deal_over" and "review" in m
    )
    over = [m for s, m, _ in drv.sent if m["type"] == "match_over" and "scores" in m]
    assert len(over) == 2 and all(len(m["scores"]) == 3 for m in over)


def test_no_message_names_a_card_its_receiver_cannot_see(rulesets):
    t, drv = _joined(rulesets, deals=2, lv="beginner", players=5, rid="porges")
    drv.run(lambda: t.over)
    checked = 0
    for seat, m, hidden in drv.sent:
        leaked = _cards_in(m) & {code(c) for c in hidden}
        assert not leaked, (seat, m["type"], leaked)
        checked += 1
    assert checked > 100


def test_an_observation_holds_no_claim_and_no_other_hand(rulesets):
    t, drv = _joined(rulesets, deals=4, lv="beginner", players=5, rid="porges")
    opened = 0
    while not t.over and drv.step():
        if t.playing and t.watch.open:
            opened += 1
            for seat in range(5):
                obs = observe(t.deal, seat)
                assert all(a.kind != "claim" for a in obs.moves)
                assert not (obs.visible_cards() & hidden_cards(t.deal, seat))
                back = Observation.from_json(json.loads(json.dumps(obs.to_json())))
                assert back == obs
            pub = observe_public(t.deal)
            assert pub.hand == () and pub.moves == ()
            assert not (pub.visible_cards() & hidden_cards(t.deal, None))
    assert opened, "no oversight opened in four deals of careless computer players"


def _open_oversight(rulesets, people=("Ann", "Bob"), lv="beginner", **kw):
    """A table (seed searched) where an oversight is open that some person may claim."""
    for seed in range(1, 60):
        t, drv = _joined(
            rulesets, people=people, lv=lv, seed=seed, players=5, rid="porges", deals=1, **kw
        )
        while not t.over and drv.step():
            if t.playing:
                for w in t.watch.open.values():
                    takers = [q for q in drv.people if w.may_claim(q)]
                    if takers:
                        return t, drv, w, takers
    raise AssertionError("no oversight in 60 deals")


def test_a_false_claim_reads_the_same_whatever_is_open(rulesets):
    t, drv, w, takers = _open_oversight(rulesets)
    q = takers[0]
    ov = w.oversight
    wrong = next(
        r
        for r in ("kings", "queens", "twos")
        if {"kings": 12, "queens": 11, "twos": 1}[r] != ov.rank
    )
    t.claim(q, _msg("claim", text=wrong, seq=1), drv.now)
    replies = [m for s, m in t.outbox if s == q and m["type"] == "reply"]
    assert replies[-1]["text"] == FALSE_CLAIM_TEXT and not replies[-1]["ok"]
    t.outbox.clear()
    # the same words when nothing at all is open (a fresh table, play begun)
    t2, drv2 = _joined(rulesets, players=5, rid="porges", deals=1, seed=3)
    drv2.run(lambda: t2.playing and t2.deal.started and not t2.watch.open)
    seat = next(iter(drv2.people))
    t2.claim(seat, _msg("claim", text="kings", seq=1), drv2.now)
    assert [m["text"] for s, m in t2.outbox if m["type"] == "reply"][-1] == FALSE_CLAIM_TEXT
    for _, m in t.outbox + t2.outbox:
        assert "oversight covers" not in json.dumps(m) and "nothing to claim" not in json.dumps(m)


def test_claims_race_by_arrival_on_the_servers_clock(rulesets):
    t, drv, w, takers = _open_oversight(rulesets, lv="club")
    q = takers[0]
    ov = w.oversight
    rivals = w.rivals()
    first = rivals[0][1] if rivals else 10.0
    cards = " ".join(code(c) for c in ov.cards[: ov.take])
    # the claim arrives before any computer player's: it takes the cards
    at = w.opened_at + first / 2
    t.claim(q, _msg("claim", text=cards, seq=5), at)
    reply = [m for s, m in t.outbox if s == q and m["type"] == "reply"][-1]
    assert reply["ok"] and reply["text"].startswith("You claimed first")
    hit = [o for o in t.watch.outcomes if o.result == R.HIT and o.seat == q]
    assert hit and abs(hit[0].seconds - first / 2) < 1e-9
    assert t.deal.history[-1].kind == "claim" and t.deal.history[-1].player == q
    # a second claim of it, later, is too late
    other = [p for p in takers if p != q]
    if other:
        t.claim(other[0], _msg("claim", text=cards, seq=6), at + 0.5)
        late = [m for s, m in t.outbox if s == other[0] and m["type"] == "reply"][-1]
        assert late["text"].startswith("Too late") and "claimed it first" in late["text"]


def test_a_claim_race_between_two_people_is_logged_with_both_names_and_the_margin(rulesets):
    """Issue 41, finding 9: before, only the loser heard of a race between two people
    (privately: "Too late: Bob claimed it first"); the table's line and the organiser's log
    named computer rivals alone.  Now the table and the log hear the loser's claim too, with
    the winner's name and the milliseconds between."""
    t, drv, w, takers = _open_oversight(rulesets, people=("Ann", "Bob", "Cat"), lv="club")
    assert len(takers) >= 2, takers
    first, second = takers[:2]
    ov = w.oversight
    rivals = w.rivals()
    soon = min([rivals[0][1]] if rivals else [10.0]) / 4
    cards = " ".join(code(c) for c in ov.cards[: ov.take])
    t.outbox.clear()
    t.claim(first, _msg("claim", text=cards, seq=5), w.opened_at + soon)
    t.claim(second, _msg("claim", text=cards, seq=6), w.opened_at + soon + 0.0125)
    late = [m for s, m in t.outbox if s == second and m["type"] == "reply"][-1]
    assert late["text"].startswith("Too late")
    names = t.names
    logged = [m for s, m in t.outbox if s == LOG and m["event"] == "claim"]
    said = [m["text"] for s, m in t.outbox if s == EVERYONE and m["type"] == "say"]
    race = [m for m in logged if m["seat"] == second]
    assert len(race) == 1, logged
    text = race[0]["text"]
    assert names[second] in text and names[first] in text and "13 ms after" in text, text
    assert race[0]["winner"] == first and race[0]["margin"] == pytest.approx(12.5)
    assert any(names[second] in x and names[first] in x and "13 ms after" in x for x in said)
    assert any(m["seat"] == first for m in logged)  # the winner's line, as before
    # the organiser's view reads it as the server sends it
    from tutor.app.tables.messages import Log

    assert Log.model_validate({**race[0], "v": 1}).margin == pytest.approx(12.5)


def test_a_claim_after_the_computer_players_reaction_comes_too_late(rulesets):
    t, drv, w, takers = _open_oversight(rulesets, lv="club")
    rivals = w.rivals()
    if not rivals:
        pytest.skip("no computer player was to claim this one")
    q = takers[0]
    ov = w.oversight
    cards = " ".join(code(c) for c in ov.cards[: ov.take])
    t.claim(q, _msg("claim", text=cards, seq=5), w.opened_at + rivals[0][1] + 0.01)
    reply = [m for s, m in t.outbox if s == q and m["type"] == "reply"][-1]
    assert reply["text"].startswith("Too late")
    assert t.deal.history[-1].player == rivals[0][0]


def test_an_action_for_another_seat_is_refused_and_changes_nothing(rulesets):
    t, drv = _joined(rulesets, deals=1)
    drv.run(lambda: t.playing)
    me = next(iter(drv.people))
    other = (me + 1) % 3
    before = len(t.deal.history)
    legal = t.deal.legal_actions()
    forged = legal[0]._replace(player=other) if legal[0].player != other else legal[0]
    with pytest.raises(P.Refused, match=f"you sit at seat {me}"):
        t.act(
            me,
            P.read_client(json.dumps({"v": 1, "type": "act", "action": action_to_json(forged)})),
            drv.now,
        )
    with pytest.raises(P.Refused):
        t.claim(
            me,
            P.read_client(
                json.dumps(
                    {
                        "v": 1,
                        "type": "claim",
                        "action": {
                            "player": other,
                            "action": "claim",
                            "oversight": "split_prial",
                            "cards": ["7H", "7S"],
                        },
                    }
                )
            ),
            drv.now,
        )
    assert len(t.deal.history) == before


def test_an_absent_players_turn_waits_then_a_computer_player_moves_for_them(rulesets):
    t, drv = _joined(rulesets, people=("Ann",), deals=1, wait=5.0)
    q = next(iter(drv.people))
    drv.run(lambda: t.playing and t.deal.to_move == q)
    t.leave(q, drv.now)
    since = max(t.turn_since, drv.now)
    assert t.next_wake() == pytest.approx(since + 5.0)
    n = len(t.deal.history)
    t.tick(since + 4.9)
    assert len(t.deal.history) == n  # still waiting
    t.tick(since + 5.0)
    assert len(t.deal.history) > n and t.deal.history[n].player == q
    said = [m["text"] for _, m in t.outbox if m["type"] == "say"]
    assert any("Ann has left the table" in s for s in said)
    assert any("Ann is away: a computer player moves for them" in s for s in said)
    assert t.seats[q].stood_in == 1
    # back with the token: the same seat, the deal where it stands
    back = t.join("Ann", t.seats[q].token, since + 6)
    assert back.seat == q and back.back and t.seats[q].connected
    assert len(t.view(q).history) == len(t.deal.history)


def test_joins_names_tokens_and_a_seat_handed_over_between_deals(rulesets):
    t = Table(1, "C0DE", _settings(rulesets, players=3, deals=2))
    a = t.join("Ann", None, 0.0)
    with pytest.raises(P.Refused, match="kept for ann: it is taken back with its seat code"):
        t.join("ann", None, 0.1)
    with pytest.raises(P.Refused, match="takes back no seat"):
        t.join("Ann", "wrong-token-000000", 0.1)
    drv = Driver(t, {a.seat: "Ann"})
    drv.run(lambda: t.playing)
    late = t.join("Cat", None, drv.now)
    assert not late.now and t.seats[late.seat].name is None  # a computer player plays on
    assert not t.seated(late.seat, "Cat")
    drv.people[late.seat] = "Cat"
    drv.run(lambda: len(t.match.deals) == 1 and t.playing)
    assert t.seated(late.seat, "Cat") and t.names[late.seat] == "Cat"
    assert t.seats[late.seat].since == 1 and t.seats[a.seat].since == 0
    t.join("Dan", None, drv.now)
    with pytest.raises(P.Refused, match="full"):
        t.join("Eve", None, drv.now)
    assert bot_name(1) == "Ralph (computer)"


def test_a_tournament_keeps_its_rounds_together_and_publishes_standings(rulesets):
    st = [
        Settings(
            rulesets["inter-livery-2018"],
            5,
            level("club"),
            pace=p,
            gap=0.5,
            seed=4,
            start=0.0,
            wait=0.2,
        )
        for p in (0.1, 0.4)
    ]
    tables = [Table(1, "AAAA", st[0]), Table(2, "BBBB", st[1])]
    tour = Tournament(tables)
    people = {}  # two people a table, drawn a seat, then away (a bot moves)
    for tb in tables:
        for name in ("Ann", "Bob"):
            j = tb.join(name, None, 0.0)
            people[(tb.number, name)] = j.seat
            tb.seats[j.seat].played = True  # they moved before going (else: squatters,
            tb.leave(j.seat, 0.0)  # whose seats are free again, issue 41)
    published = []
    for tb in tables:
        tb.gate = tour.gate

        def finished(tb_, deal, at):
            msg = tour.finished(tb_)
            if msg:
                published.append((at, msg))

        tb.on_finished = finished
    assert tour.rounds == 2 and tour.per_round == 5
    now = 0.0
    waited = False
    while not all(tb.over for tb in tables):
        wakes = [w for w in (tb.next_wake() for tb in tables) if w is not None]
        assert wakes, "the tables stopped"
        now = min(wakes)
        for tb in tables:
            tb.tick(now)
        fast, slow = tables
        if len(fast.match.deals) == 5 and len(slow.match.deals) < 5:
            waited = True
            assert not fast.playing and fast.next_wake() is None  # waits for the round
    assert waited
    assert [m["round"] for _, m in published] == [1, 2] and published[-1][1]["final"]
    rows = published[0][1]["rows"]
    assert len(rows) == 10 and {r["table"] for r in rows} == {1, 2}
    for r in rows:  # round 1 scores: games 2-5 (the first is practice)
        tb = tables[r["table"] - 1]
        assert r["score"] == sum(d.returns()[r["seat"]] for d in tb.match.deals[1:5])
        assert r["games"] == 4
    persons = [r["person"] for r in rows]  # the people first, ranked apart
    assert persons == sorted(persons, reverse=True) and sum(persons) == 4
    for group in (True, False):
        scores = [r["score"] for r in rows if r["person"] == group]
        assert scores == sorted(scores, reverse=True)
        assert [r["place"] for r in rows if r["person"] == group][0] == 1
    # seats drawn once and kept through both rounds; the deal passes left across the rounds
    for (number, name), seat in people.items():
        tb = tables[number - 1]
        assert tb.names[seat] == name and tb.person(seat)
        assert {
            r["seat"] for r in tour.standings() if r["name"] == name and r["table"] == number
        } == {seat}
        dealers = [d.dealer for d in tb.match.deals]
        assert len(dealers) == 10
        assert all(b == (a + 1) % 5 for a, b in zip(dealers, dealers[1:]))


# -- the message schema ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, says",
    [
        (b"\x00\x01", "binary frames"),
        ("x" * (P.MAX_MESSAGE_BYTES + 1), "message too large"),
        ("{{{", "not a message: not JSON"),
        ("[1, 2]", "one JSON object"),
        ('{"v": 2, "type": "ping"}', "protocol version 2"),
        ('{"v": 1, "type": "shout"}', "unknown message type"),
        ('{"v": 1, "type": "ping", "extra": 1}', "has no key 'extra'"),
        ('{"v": 1, "type": "join", "code": "A", "name": ""}', "name: 1 to 24"),
        ('{"v": 1, "type": "join", "code": "A", "name": "a\\u001bb"}', "control characters"),
        ('{"v": 1, "type": "act", "text": "7h", "action": {}}', "one of them"),
        ('{"v": 1, "type": "act", "action": {"player": 0, "action": "fly"}}', "unknown action"),
        (
            '{"v": 1, "type": "claim", "action": {"player": 0, "action": "lie_down", "cards": []}}',
            "carries a claim",
        ),
        ('{"v": 1, "type": "act", "text": "7h", "seq": -1}', "seq"),
        ('{"v": 1, "type": "ping", "seq": 1' + "0" * 40 + "}", "digits"),
        ("[" * 50 + "]" * 50, "nested too deeply"),
    ],
)
def test_malformed_messages_are_refused_in_one_line(data, says):
    with pytest.raises(P.Refused) as exc:
        P.read_client(data)
    assert says in str(exc.value) and "\n" not in str(exc.value)


def test_messages_that_are_well_formed_are_read():
    m = P.read_client('{"v": 1, "type": "claim", "text": "nines", "seq": 3}')
    assert (m.type, m.text, m.seq) == ("claim", "nines", 3)
    m = P.read_client(
        json.dumps(
            {
                "v": 1,
                "type": "act",
                "action": {"player": 2, "action": "capture", "hand": ["7H"], "table": ["7S"]},
            }
        )
    )
    assert m.action.player == 2 and m.action.kind == "capture"
    m = P.read_client('{"v": 1, "type": "join", "code": "ab cd", "name": "  Ann   Lee "}')
    assert m.name == "Ann Lee"
    assert json.loads(P.encode({"type": "pong"})) == {"v": 1, "type": "pong"}


def test_a_message_is_one_model_and_a_claim_is_told_from_a_move_once_where_it_is_read():
    """Issue 43 item 3: a message was read into ten models, then a flat all-optional one
    dispatched on strings twice, and a claim classified again by the table.  Now each message
    is one model of a tagged union; a claim is told from a move as it is read (three ways in:
    a claim, an act whose text is a claim line, an act whose action is a claim) and the table
    classifies nothing."""
    import inspect

    from tutor.app.tables import table as T

    m = P.read_client('{"v": 1, "type": "act", "text": "claim 9s 9d", "seq": 4}')
    assert isinstance(m, P.ClaimMessage) and (m.type, m.text, m.seq) == ("claim", "9s 9d", 4)
    m = P.read_client('{"v": 1, "type": "claim", "text": "c nines", "seq": 5}')
    assert isinstance(m, P.ClaimMessage) and m.text == "nines"
    m = P.read_client(
        json.dumps(
            {
                "v": 1,
                "type": "act",
                "action": {
                    "player": 1,
                    "action": "claim",
                    "oversight": "split_prial",
                    "cards": ["7H", "7S"],
                },
            }
        )
    )
    assert isinstance(m, P.ClaimMessage) and m.action.kind == "claim" and m.text is None
    m = P.read_client('{"v": 1, "type": "act", "text": "7h 7s", "seq": 6}')
    assert isinstance(m, P.ActMessage) and m.text == "7h 7s"
    assert isinstance(P.read_client('{"v": 1, "type": "ready"}'), P.ReadyMessage)
    assert not hasattr(P, "CLIENT_MESSAGE_FIELDS") and not inspect.isclass(P.ClientMessage)
    source = inspect.getsource(T)
    assert "classify" not in source and "Too late" not in source


def test_one_wording_of_a_claims_outcome_for_practice_and_the_table():
    """Issue 43 item 3: the practice watch and the table worded a claim's outcome each its
    own way; now :func:`tutor.app.play.mistakes.claim_words` does, for both."""
    import inspect

    from tutor.app.play import mistakes, watching
    from tutor.engine import race as R
    from tutor.engine.reasons import Reason, false_claim_words

    names = ["Ann", "Ralph", "Anne"]
    why = Reason("no open oversight covers 9s 9d")
    words = {
        r: mistakes.claim_words(R.Outcome(0, 1.0, r, reason=why), 0, names)
        for r in (R.FALSE_CLAIM, R.TOO_LATE, R.UNREAD, R.INCOMPLETE)
    }
    assert words[R.FALSE_CLAIM] == false_claim_words(why.words(0, names)) + "."
    assert words[R.TOO_LATE] == f"Too late: {why.words(0, names)}."
    assert words[R.UNREAD] == why.words(0, names) + "."
    assert words[R.INCOMPLETE] == mistakes.NAME_ALL
    table = mistakes.claim_words(R.Outcome(0, 1.0, R.FALSE_CLAIM, reason=why), 0, names, table=True)
    assert table == FALSE_CLAIM_TEXT and "9s 9d" not in table  # blind: no reason passed on
    with pytest.raises(ValueError):
        mistakes.claim_words(R.Outcome(0, 1.0, R.HIT), 0, names)
    from tutor.app.tables import table as T

    for module in (watching, T):
        source = inspect.getsource(module)
        assert "Too late" not in source and "false_claim_words" not in source


def test_the_rate_limit_refuses_a_flood_and_says_so_once_a_second():
    lim = P.RateLimit(rate=20, burst=40, now=0.0)
    taken = sum(lim.allow(0.001 * k) for k in range(1000))  # a thousand in a second
    assert 40 <= taken <= 62
    assert lim.notice_due(1.0) == 1000 - taken and lim.notice_due(1.5) == 0
    assert lim.allow(10.0)  # the bucket fills again


def test_one_bucket_is_every_limit_of_the_server():
    """Issue 43 item 6: the connections' rate, the guesses at codes, a seat's rejoins, the
    organiser's overview and the log's lines of one kind were two token buckets and two
    throttles written apart; now each is a :class:`~tutor.app.tables._limits.Bucket`."""
    import logging

    from tutor.app.tables import _guard
    from tutor.app.tables._limits import Bucket

    b = Bucket(rate=2.0, burst=3, now=0.0)
    assert [b.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert b.wait(0.0) == 0.5 and not b.take(0.25) and b.take(0.5)  # two a second back
    b.spend(0.5)
    b.spend(0.5)  # never below none
    assert b.tokens == 0.0 and b.wait(0.5) == 0.5
    b.give(5)
    assert b.tokens == 3.0 and b.full(0.5)  # never above the burst
    once = Bucket.every(1.0, now=0.0)  # "at most once a second"
    assert [once.take(t) for t in (0.0, 0.5, 0.999, 1.0, 1.5, 2.0)] == [
        True,
        False,
        False,
        True,
        False,
        True,
    ]
    with pytest.raises(ValueError):
        Bucket(rate=0.0, burst=1, now=0.0)
    clock = [0.0]
    g = _guard.Guard(now=lambda: clock[0])
    q = _guard.Quiet(logging.getLogger("test.bucket"), now=lambda: clock[0])
    lim = P.RateLimit(now=0.0)
    assert q.say("k", logging.INFO, "a") and not q.say("k", logging.INFO, "b")
    g.missed("x")
    assert isinstance(g.shared, Bucket) and isinstance(g.guesses["x"], Bucket)
    assert isinstance(lim.bucket, Bucket) and all(isinstance(x, Bucket) for x in q._budget.values())


def test_the_pretty_card_pattern_reads_what_the_screens_write():
    assert _cards_in({"t": f"claimed {pretty(37)} and 7H"}) == {code(37), "7H"}


def test_a_link_waits_for_the_kinds_asked_passing_over_the_others_and_gives_up_in_time():
    """:meth:`Link.wait_for`, the one wait of a reconnect and an organiser's command: the first
    message of a kind asked, those before it passed over; None once the seconds are spent."""
    from tutor.app.tables._link import Link
    from tutor.app.tables.messages import Log, Overview, Pong, Say

    link = Link("ws://127.0.0.1:1", {"type": "watch", "admin": "X"})  # never started
    for m in (
        Log(table=1, event="joined", text="a", game=0),
        Overview(tables=[], published=0, rounds=1, standings=[], teams=[], duplicate=False),
        Pong(seq=1),
    ):
        link.inbox.put(m)
    assert link.wait_for(("pong", "refused"), 1.0) == Pong(seq=1)
    assert link.inbox.empty()
    link.inbox.put(Say(table=1, text="b"))
    start = time.monotonic()
    assert link.wait_for(("welcome",), 0.2) is None
    assert 0.15 <= time.monotonic() - start < 2.0
    assert link.inbox.empty()


def test_clients_of_a_stopped_server_try_again_spread_out_not_in_step():
    """Issue 43 item 6: every client of a table retried after the same waits (0.5 s, then
    twice as long each time), so a restarted server had them all back in the same instant, try
    after try.  The waits are websockets' own backoff (the ``reconnect_delays`` its
    ``connect`` iterator reconnects by): the first drawn at random, then growing to
    :data:`RETRY_MOST`."""
    from tutor.app.tables import _link

    clients = [list(itertools.islice(_link.retry_delays(), 12)) for _ in range(40)]
    firsts = [w[0] for w in clients]
    assert all(0 <= x < _link.RETRY_FIRST for x in firsts)
    assert len(set(firsts)) > 30  # not in step: each its own
    later = clients[0][1:]
    assert later == sorted(later) and later[-1] == _link.RETRY_MOST
    assert sum(clients[0]) > 60  # twelve tries span a minute and more


def test_websockets_backoff_variables_set_the_waits_and_a_bad_one_leaves_ours(monkeypatch):
    """websockets' documented ``WEBSOCKETS_BACKOFF_*`` environment variables take the place of
    the table's waits, read when the waits start (websockets itself reads them once, when it
    is imported, and the link passes its own); a value that is not a fair number of seconds,
    or factor, leaves ours."""
    from tutor.app.tables import _link

    for name, value in (
        ("WEBSOCKETS_BACKOFF_INITIAL_DELAY", "0.2"),
        ("WEBSOCKETS_BACKOFF_MIN_DELAY", "0.1"),
        ("WEBSOCKETS_BACKOFF_FACTOR", "2"),
        ("WEBSOCKETS_BACKOFF_MAX_DELAY", "0.5"),
    ):
        monkeypatch.setenv(name, value)
    waits = list(itertools.islice(_link.retry_delays(), 6))
    assert 0 <= waits[0] < 0.2 and waits[1:] == [0.1, 0.2, 0.4, 0.5, 0.5]
    for name, bad in (
        ("WEBSOCKETS_BACKOFF_INITIAL_DELAY", "soon"),
        ("WEBSOCKETS_BACKOFF_MIN_DELAY", "-1"),
        ("WEBSOCKETS_BACKOFF_FACTOR", "0.5"),
        ("WEBSOCKETS_BACKOFF_MAX_DELAY", "nan"),
    ):
        monkeypatch.setenv(name, bad)
    ours = list(itertools.islice(_link.retry_delays(), 12))
    assert 0 <= ours[0] < _link.RETRY_FIRST and ours[1] == _link.RETRY_MIN
    assert ours[2] == _link.RETRY_MIN * _link.RETRY_FACTOR and ours[-1] == _link.RETRY_MOST


def test_a_link_takes_the_seat_back_by_itself_with_its_token_after_the_servers_wait():
    """The link reconnects by websockets' ``async for websocket in connect(...)``: after the
    server closes (a restart), it joins again at once with the seat's token; a server that
    asks for a wait ("try again in N s") is waited for, and the welcome back comes to the
    inbox.  Against a WebSocket server in this process, on a port of its own."""
    import asyncio
    import threading

    from websockets.asyncio.server import serve

    from tutor.app.tables._link import Link
    from tutor.app.tables.messages import Closed, Retrying, Welcome

    joins: list[dict] = []
    welcome = {
        "v": 1,
        "type": "welcome",
        "table": 1,
        "seat": 0,
        "token": "TOKENABCDE",
        "name": "Ann",
        "seated": True,
        "back": False,
        "names": ["Ann", "Bob (computer)", "Col (computer)"],
        "ruleset": "parlett",
        "players": 3,
        "level": "club",
        "hint": False,
        "hints": None,
        "wait": 60,
        "move_time": 0,
        "reserve": 0,
        "games": 1,
        "played": 0,
        "duplicate": False,
        "livery": None,
    }
    up, port, stop = threading.Event(), [0], []

    async def answer(ws):
        joins.append(json.loads(await ws.recv()))
        if len(joins) == 1:  # the first join: welcomed, then the server restarts
            await ws.send(json.dumps(welcome))
        elif len(joins) == 2:  # back too often: wait
            await ws.send(json.dumps({"v": 1, "type": "refused", "text": "try again in 1 s"}))
        else:
            await ws.send(json.dumps({**welcome, "back": True}))
            await ws.wait_closed()  # open until the link closes it (a sleep here held the
            # server's own close, which waits for its handlers, for the thread's whole join)
        await ws.close()

    async def main():
        async with serve(answer, "127.0.0.1", 0) as server:
            port[0] = server.sockets[0].getsockname()[1]
            done = asyncio.Event()
            stop.append((asyncio.get_running_loop(), done))
            up.set()
            await done.wait()

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    assert up.wait(10)
    link = Link(f"ws://127.0.0.1:{port[0]}", {"type": "join", "code": "C", "name": "Ann"}, tries=4)
    try:
        link.start()
        got = []
        start = time.monotonic()
        while time.monotonic() - start < 20:
            msg = link.inbox.get(timeout=20)
            got.append(msg)
            if isinstance(msg, Welcome) and msg.back:
                break
        assert isinstance(got[0], Welcome) and not got[0].back
        waits = [m for m in got if isinstance(m, Retrying)]
        assert [(w.attempt, w.delay) for w in waits] == [(1, 0.0), (2, 1.0)]
        assert isinstance(got[-1], Welcome) and got[-1].back
        assert not any(isinstance(m, Closed) for m in got)
        assert joins[0] == {"v": 1, "type": "join", "code": "C", "name": "Ann"}
        assert joins[1:] == [{"v": 1, "type": "join", "code": "C", "token": "TOKENABCDE"}] * 2
    finally:
        link.close()
        loop, done = stop[0]
        loop.call_soon_threadsafe(done.set)
        thread.join(10)
    assert isinstance(link.inbox.get(timeout=5), Closed)  # closed by the player: no more tries


def test_a_piped_line_that_is_not_text_is_said_in_one_line_and_never_sent():
    import queue

    from tutor.app.learner_io import ScriptedIO
    from tutor.app.tables.client import PlayerClient

    class Link:
        inbox: queue.Queue = queue.Queue()
        sent: list = []

        def send(self, message):
            self.sent.append(message)

    seam = ScriptedIO([])
    client = PlayerClient(seam, Link(), "ws://127.0.0.1:1", "CODE", "Ann")
    assert client.ask_server("act", text="7h \udcff") is None  # surrogateescape'd bytes
    client.claim("\udcfe")
    assert Link.sent == []
    out = seam.console.file.getvalue()
    assert out.count("That line is not text (bytes that are not UTF-8): nothing sent.") == 2
    assert client.send("act", text="7h") == 1 and Link.sent[0]["text"] == "7h"


def test_a_claim_typed_while_a_capture_is_chosen_is_sent_and_the_choice_asked_again():
    import queue

    from tutor.app.learner_io import ScriptedIO
    from tutor.app.tables.client import WHICH_PROMPT, PlayerClient
    from tutor.app.tables.messages import Reply

    class Link:
        def __init__(self):
            self.inbox, self.sent = queue.Queue(), []

        def send(self, m):
            self.sent.append(m)
            ask = m["type"] == "act" and m["text"] == "7h"
            self.inbox.put(
                Reply(
                    seq=m["seq"],
                    ok=m["text"] == "7h 7d",
                    to=m["type"],
                    text="" if ask else FALSE_CLAIM_TEXT if m["type"] == "claim" else "taken",
                    choices=["7h 7s", "7h 7d"] if ask else None,
                )
            )

    link = Link()
    seam = ScriptedIO(["claim kings", "2"])
    PlayerClient(seam, link, "ws://127.0.0.1:1", "CODE", "Ann")._act("7h")
    assert [(m["type"], m["text"]) for m in link.sent] == [
        ("act", "7h"),
        ("claim", "kings"),
        ("act", "7h 7d"),
    ]
    assert seam.log == [WHICH_PROMPT + "claim kings", WHICH_PROMPT + "2"]


def test_at_40_columns_a_seat_row_fits_with_computer_players_shortened():
    import io as _io
    import queue

    from rich.console import Console

    from tutor.app.learner_io import ScriptedIO
    from tutor.app.tables.client import PlayerClient

    class Link:
        inbox: queue.Queue = queue.Queue()

        def send(self, message):
            pass

    names = ["Ann", "Bess (computer)", "Anne (computer)", "Ralph (computer)", "Mary (computer)"]
    for width, shown in ((80, "Ralph (computer)"), (40, "Ralph (comp.)")):
        seam = ScriptedIO([], Console(file=_io.StringIO(), width=width, color_system=None))
        client = PlayerClient(seam, Link(), "ws://127.0.0.1:1", "CODE", "Ann")
        client.names, client.seat, client.seated = list(names), 0, True
        got = client.shown_names()
        assert got[0] == "You" and got[3] == shown
    # the table drawn at 40 columns with totals: no seat's row is cut
    import random

    from tutor.engine.deal import new_deal
    from tutor.engine.observe import observe
    from tutor.engine.sources import default_library
    from tutor.puzzles.board import render_observation

    rs = default_library().ruleset("parlett", 5)
    obs = observe(new_deal(rs, 5, 2, random.Random(3)), 0)
    console = Console(file=_io.StringIO(), width=40, color_system=None)
    console.print(render_observation(obs, rs, got, False, totals=[-10, 12, 0, 3, -5]))
    rows = [line for line in console.file.getvalue().splitlines() if " hand " in line]
    assert len(rows) == 5 and any("Ralph (comp.)" in r for r in rows)
    assert all(re.search(r"hand \d+ +won \d+ +\([+-]?\d+\)", r) for r in rows), rows


@pytest.mark.parametrize(
    "data, says",
    [
        ('{"v": 1, "type": "ping", "seq": true}', "seq: must be a whole number from 0 to"),
        ('{"v": 1.0, "type": "ping"}', "protocol version 1.0"),
        ('{"v": 1, "type": "join", "code": "A"}', "name: must be text"),
        ('{"v": 1, "type": "join", "code": "A", "name": "Ralph (Computer)"}', "cannot end in"),
        (
            '{"v": 1, "type": "join", "code": "A", "name": "Ann", "livery": "   "}',
            "livery: 1 to 40 printable",
        ),
        (
            '{"v": 1, "type": "join", "code": 7, "name": "Ann", "zz": 1}',
            "join message has no key 'zz'",
        ),
        ('{"v": 1, "type": "release", "table": 1}', "seat: is missing"),
        ('{"v": 1, "type": "start", "table": 65}', "table: must be a whole number from 1 to 64"),
        ('{"v": 1, "type": "watch", "admin": "' + "A" * 65 + '"}', "admin: at most 64 characters"),
    ],
)
def test_each_kind_of_message_is_checked_by_its_model(data, says):
    with pytest.raises(P.Refused) as exc:
        P.read_client(data)
    assert says in str(exc.value) and "\n" not in str(exc.value)
    # a join by token alone keeps its seat's name; a livery is spaced as a name is
    m = P.read_client('{"v": 1, "type": "join", "code": "A", "token": "t", "livery": " Ye  Olde "}')
    assert (m.name, m.token, m.livery) == (None, "t", "Ye Olde")


def test_computer_players_claim_at_pace_zero(rulesets):
    """Issue 45, finding 10: at ``--pace 0`` the next computer move came at once, before any
    claim was due, so no computer player ever claimed; their claim delay is scaled with the
    pace (never longer than their level's, never infinite)."""
    t = Table(
        1,
        "AAAA",
        _settings(
            rulesets,
            "parlett",
            3,
            "beginner",
            pace=0.0,
            gap=0.0,
            deals=4,
            start=0.0,
            wait=0.2,
            seed=11,
        ),
    )
    j = t.join("Ann", None, 0.0)
    t.leave(j.seat, 0.0)
    now, steps = 0.0, 0
    while not t.over and steps < 20000:
        wake = t.next_wake()
        assert wake is not None, "the table stopped"
        now = max(now, wake)
        t.tick(now)
        t.outbox.clear()
        steps += 1
    claims = [a for d in t.match.deals for a in d.history if a.kind == "claim"]
    assert t.over and claims
