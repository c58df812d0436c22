"""Live tables without sockets, issue 31: seats that belong to their people, a seed a table and
duplicate play, move clocks and time-outs, seating that is fair to late comers, liveries, and
the hints' budget.  Every time here is a number the test passes: the table never reads a
clock."""

from __future__ import annotations

import pytest
from test_tables import Driver, _joined, _msg, _settings  # noqa: F401

from tutor.app.tables import protocol as P
from tutor.app.tables.table import LOG, REJOIN_BURST, Settings, Table
from tutor.app.tables.tournament import Tournament
from tutor.engine.observe import observe


def test_a_seat_is_taken_back_by_its_token_alone(rulesets):
    """Victor's connection is down: his name alone never takes his seat (nor his hand, nor his
    code); his seat code takes back his seat only, under his name, however it is typed; the
    organiser may release the seat, which hands it a new code (issue 41 finding 6: never the
    name alone)."""
    t = Table(1, "C0DE", _settings(rulesets, players=3, deals=2))
    victor = t.join("Victor", None, 0.0)
    ann = t.join("Ann", None, 0.0)
    assert len(victor.token) == P.SEAT_CODE and set(victor.token) <= set(P.CODE_LETTERS)
    t.leave(victor.seat, 1.0)
    for name in ("Victor", "victor", "VICTOR"):
        with pytest.raises(P.Refused, match="kept for"):
            t.join(name, None, 2.0)
    assert not t.seats[victor.seat].connected
    with pytest.raises(P.Refused, match="takes back the seat of Ann: join as Ann"):
        t.join("Victor", ann.token, 2.0)  # a code takes its own seat, by its name
    with pytest.raises(P.Refused, match="takes back the seat of Victor"):
        t.join("Mallory", victor.token, 2.0)
    with pytest.raises(P.WrongSeatCode):
        t.join("Victor", "ABCDEFGHJK", 2.0)
    typed = " " + P.spaced(victor.token).lower() + " "
    back = t.join("victor", typed, 3.0)
    assert (back.seat, back.back, back.token) == (victor.seat, True, victor.token)
    assert t.codes() == [None] * 3  # no code for the organiser to give
    t.leave(victor.seat, 4.0)
    who, code = t.release(victor.seat)
    assert who == "Victor" and code != victor.token and t.codes()[victor.seat] == code
    with pytest.raises(P.Refused):
        t.join("Victor", victor.token, 5.0)  # the old code no longer works
    with pytest.raises(P.Refused, match="kept for"):
        t.join("Victor", None, 5.0)  # nor the name: the new code alone
    again = t.join(None, code, 5.0)
    assert again.seat == victor.seat and again.token == code and again.back
    assert t.codes() == [None] * 3  # used: no longer on the organiser's page


def test_tokens_are_compared_in_constant_time_for_every_seat(rulesets, monkeypatch):
    import hmac

    calls = []
    real = hmac.compare_digest
    monkeypatch.setattr(hmac, "compare_digest", lambda a, b: calls.append((a, b)) or real(a, b))
    t = Table(1, "C0DE", _settings(rulesets, players=5, deals=1))
    first = t.join("Ann", None, 0.0)
    t.join("Bob", None, 0.0)
    calls.clear()
    t.join("Ann", first.token, 1.0)
    assert len(calls) == 10  # each seat's token and incoming token, no shortcut


def test_two_tables_never_share_a_pack_unless_duplicate(rulesets):
    for duplicate in (False, True):
        s = _settings(rulesets, players=4, deals=4, duplicate=duplicate, seed=3)
        tables = [Table(n, f"T{n}", s) for n in (1, 2, 3)]
        seeds = [t.match.seed for t in tables]
        packs = [[t.match.new_deal().pack] for t in tables]
        for t in tables:
            for _ in range(3):
                t.match.record_deal(_played(t.match.new_deal()))
                packs[t.number - 1].append(t.match.new_deal().pack)
        if duplicate:
            assert len(set(seeds)) == 1 and all(p == packs[0] for p in packs)
            assert len({t.match.first for t in tables}) == 1
        else:
            assert len(set(seeds)) == 3 and seeds[0] != s.seed  # each its own, recorded
            flat = [tuple(p) for ps in packs for p in ps]
            assert len(set(flat)) == len(flat)  # no pack twice anywhere


def _played(deal):
    import random

    from tutor.engine.bots import play_out
    from tutor.engine.rule_bots import RandomBot

    play_out(deal, [RandomBot() for _ in range(deal.n)], random.Random(1))
    return deal


def test_duplicate_play_keeps_the_tables_a_deal_apart_and_scores_against_the_same_cards(rulesets):
    s = _settings(rulesets, players=3, deals=3, duplicate=True, start=0.0, wait=0.1, pace=0.0)
    fast, slow = Table(1, "A", s), Table(2, "B", s)
    tour = Tournament([fast, slow])
    for t in (fast, slow):
        t.gate = tour.gate
        t.on_finished = lambda *a: tour.finished(a[0])
    slow.settings = Settings(**{**s.__dict__, "pace": 0.5})
    now = 0.0
    while not (fast.over and slow.over):
        wakes = [w for w in (t.next_wake() for t in (fast, slow)) if w is not None]
        assert wakes
        now = min(wakes)
        for t in (fast, slow):
            t.tick(now)
        assert len(fast.match.deals) <= len(slow.match.deals) + 1  # never a deal ahead more
        if fast.playing:
            assert fast.match.next_game.index <= len(slow.match.deals)
    for k in range(3):
        assert fast.match.deals[k].pack == slow.match.deals[k].pack
    rows = tour.standings()
    for r in rows:
        t = (fast, slow)[r["table"] - 1]
        mine = [d.returns()[r["seat"]] for d in t.match.deals]
        both = [
            (a.returns()[r["seat"]] + b.returns()[r["seat"]]) / 2
            for a, b in zip(fast.match.deals, slow.match.deals)
        ]
        assert r["dup"] == pytest.approx(sum(m - b for m, b in zip(mine, both)))
    assert sum(r["dup"] for r in rows) == pytest.approx(0)
    for group in (True, False):  # the people first, ranked apart from the computers
        dups = [r["dup"] for r in rows if r["person"] == group]
        assert dups == sorted(dups, reverse=True)
    assert [r["person"] for r in rows] == sorted((r["person"] for r in rows), reverse=True)


def test_a_present_player_who_does_not_move_times_out_and_the_log_says_so(rulesets):
    t, drv = _joined(rulesets, people=("Ann",), deals=1, move_time=5.0, reserve=3.0)
    q = next(iter(drv.people))
    drv.run(lambda: t.playing and t.deal.to_move == q)
    start = t.turn_since
    c = t.clock(start + 1.0)
    assert c["seat"] == q and c["kind"] == "move" and c["left"] == pytest.approx(7.0)
    assert c["move_left"] == pytest.approx(4.0) and c["reserve"][q] == pytest.approx(3.0)
    assert t.next_wake() == pytest.approx(start + 8.0)  # move time, then the reserve
    n = len(t.deal.history)
    t.tick(start + 7.9)
    assert len(t.deal.history) == n and t.seats[q].connected
    t.tick(start + 8.0)
    assert len(t.deal.history) > n and t.deal.history[n].player == q
    said = [m["text"] for _, m in t.outbox if m["type"] == "say"]
    assert "Ann's time ran out: a computer player moves for them." in said
    logged = [m for target, m in t.outbox if target == LOG and m["event"] == "time_out"]
    assert len(logged) == 1 and logged[0]["seat"] == q and logged[0]["action"] == n
    assert t.reserve_left[q] == 0.0 and t.notes[q].timed_out == 1
    # her next move has the move time alone; one made in time keeps what reserve is left
    drv.run(lambda: t.playing and t.deal.to_move == q)
    assert t.next_wake() == pytest.approx(t.turn_since + 5.0)


def test_a_move_past_its_time_is_paid_from_the_reserve(rulesets):
    t, drv = _joined(rulesets, people=("Ann",), deals=1, move_time=2.0, reserve=10.0)
    q = next(iter(drv.people))
    drv.run(lambda: t.playing and t.deal.to_move == q)
    a = observe(t.deal, q).turn_moves()[0]
    t.act(q, _msg("act", text=a.notation(), seq=1), t.turn_since + 5.5)
    assert t.reserve_left[q] == pytest.approx(6.5)
    assert not [m for target, m in t.outbox if target == LOG and m["event"] == "time_out"]


def test_a_table_waits_for_its_people_or_the_organiser(rulesets):
    t = Table(1, "C", _settings(rulesets, players=3, deals=2, people=2))
    t.join("Ann", None, 0.0)
    assert t.next_wake() is None and t.waiting() == "for 1 more person"
    t.join("Bob", None, 5.0)
    assert t.next_wake() == pytest.approx(6.0) and t.waiting() is None
    held = Table(1, "C", _settings(rulesets, players=3, deals=2, hold=True))
    held.join("Ann", None, 0.0)
    held.join("Bob", None, 0.0)
    assert held.next_wake() is None and held.waiting() == "for the organiser to start it"
    assert held.start(9.0) and held.next_wake() == 9.0 and not held.start(9.5)


def test_a_deal_counts_for_a_person_only_from_the_deal_they_play(rulesets):
    t, drv = _joined(rulesets, people=("Ann",), deals=3, lv="beginner")
    tour = Tournament([t])
    drv.run(lambda: t.playing)
    late = t.join("Bob", None, drv.now)  # mid-deal: from the next one
    drv.people[late.seat] = "Bob"
    drv.run(lambda: t.over)
    assert t.seats[late.seat].since == 1
    bob = next(r for r in tour.standings() if r["name"] == "Bob")
    assert bob["games"] == 2
    assert bob["score"] == sum(d.returns()[late.seat] for d in t.match.deals[1:])
    over = [m for _, m, _ in drv.sent if m["type"] == "match_over" and m.get("seat") == late.seat]
    assert over[0]["scores"][0] is None and over[0]["since"] == 1
    assert over[0]["scores"][1:] == [d.returns()[late.seat] for d in t.match.deals[1:]]


def test_the_named_first_dealer_is_kept_the_first_dealers_seat(rulesets):
    """Issue 41 finding 6: with ``--first-dealer Victor`` the name on the organiser's screen
    never takes the Team Leader's seat; the seat code the organiser gives does (and it is
    shown to the organiser alone until it is used)."""
    s = _settings(rulesets, rid="inter-livery-2018", players=5, first_dealers=("Victor",))
    t = Table(1, "C", s)
    code = t.codes()[t.match.first]
    assert code and [c for c in t.codes() if c] == [code]
    others = [t.join(n, None, 0.0).seat for n in ("Ann", "Bob", "Cat", "Dan")]
    assert t.match.first not in others
    with pytest.raises(P.Refused, match="full"):
        t.join("Eve", None, 0.0)
    for typed in ("victor", "Victor", "VICTOR"):  # the name alone, as anyone may type it
        with pytest.raises(P.Refused, match="seat code the organiser gives"):
            t.join(typed, None, 0.0)
    with pytest.raises(P.Refused, match="join as Victor"):
        t.join("Mallory", code, 0.0)  # the code is Victor's, under his name
    got = t.join(None, code.lower(), 0.0)
    assert (got.seat, got.now, got.back) == (t.match.first, True, False)
    assert t.names[got.seat] == "Victor" and t.codes() == [None] * 5
    t.leave(got.seat, 1.0)
    with pytest.raises(P.Refused, match="kept for"):
        t.join("Victor", None, 2.0)
    assert t.join("Victor", code, 2.0).back  # his code takes it back, as any seat's


def test_the_named_seat_s_code_survives_a_resume(rulesets, tmp_path):
    from tutor.app.tables._state import load_state, state_json

    s = _settings(rulesets, rid="inter-livery-2018", players=5, first_dealers=("Victor",))
    t = Table(1, "CXDECXDECX", s)
    code = t.codes()[t.match.first]
    (tmp_path / "server.json").write_text(
        __import__("json").dumps(state_json([t], "ADMXNCXDE234", 0))
    )
    (tmp_path / "table-1.match.json").write_text(t.match.dumps())
    (back,), _, _ = load_state(tmp_path, rulesets)
    assert back.codes() == t.codes() and back.join(None, code, 0.0).seat == t.match.first


def test_liveries_are_kept_and_totalled(rulesets):
    from tutor.app.tables.tournament import teams

    t, drv = _joined(rulesets, people=(), deals=2, lv="beginner", players=4)
    for name, livery in (("Ann", "Cutlers"), ("Bob", "Cutlers"), ("Cat", "Vintners")):
        drv.people[t.join(name, None, 0.0, livery).seat] = name
    drv.run(lambda: t.over)
    rows = Tournament([t]).standings()
    got = {x["livery"]: x for x in teams(rows)}
    assert got["Cutlers"]["people"] == 2 and got["Cutlers"]["score"] == sum(
        r["score"] for r in rows if r["livery"] == "Cutlers"
    )
    assert got["Vintners"]["people"] == 1 and not any(r["livery"] for r in rows if not r["person"])


def test_a_hint_is_one_a_turn_and_a_few_a_deal(rulesets):
    t, drv = _joined(rulesets, people=("Ann",), deals=1, hint=True, hints=2)
    q = next(iter(drv.people))
    assert t.hint_refusal(q).startswith("A hint answers your move")
    drv.run(lambda: t.playing and t.deal.to_move == q)
    assert t.hint_refusal(q) is None
    t.hint_taken(q)
    assert t.hint_refusal(q) == "One hint a turn: you have had this turn's."
    for _ in range(2):
        drv.think = 0.1
        a = observe(t.deal, q).turn_moves()[0]
        t.act(q, _msg("act", text=a.notation(), seq=9), t.turn_since + 0.1)
        drv.run(lambda: t.over or (t.playing and t.deal.to_move == q))
        if t.over:
            pytest.skip("the deal ended before the third turn")
        if t.hint_refusal(q) is None:
            t.hint_taken(q)
    assert t.hint_refusal(q) == "2 hints a deal: you have had this deal's."


def test_the_hint_seed_is_drawn_from_what_the_seat_sees_alone(rulesets):
    """Two positions alike from seat 0's view (its hand, the table) but with the other two
    hands swapped: the same seed for seat 0, and not for seat 1, whose hand differs."""
    import random

    from tutor.app.play.review import view_seed
    from tutor.engine.cards import cards_of
    from tutor.engine.deal import Deal, new_deal

    rs = rulesets["parlett"]
    d = new_deal(rs, 3, 2, random.Random(4))
    h = [cards_of(m) for m in d.hands]
    assert len(h[1]) == len(h[2])
    a = Deal.from_position(rs, 3, 2, hands=h, table=cards_of(d.table))
    b = Deal.from_position(rs, 3, 2, hands=[h[0], h[2], h[1]], table=cards_of(d.table))
    assert view_seed(a, 0) == view_seed(b, 0)
    assert view_seed(a, 1) != view_seed(b, 1)


def test_a_save_that_fails_is_said_kept_and_tried_again(rulesets, tmp_path):
    """The records file cannot be written (a folder stands at its path): the failure is said
    at once with the time of the next try, nothing is half written, the match waits for its
    record, and the next try, once the path is free, writes both and says so."""
    import json
    import os

    from tutor.app.tables._server_files import ServerFiles, journal_path, records_path

    said, later = [], []
    files = ServerFiles(tmp_path, said.append, lambda s, fn: later.append((s, fn)))
    t, drv = _joined(rulesets, people=("Ann",), deals=2, lv="beginner")
    t.on_progress = lambda tb, d, new: files.journal(1, len(tb.match.deals), d, new)
    t.on_finished = lambda tb, d, at: files.finished(1, d, tb.match.dumps)
    records_path(tmp_path, 1).mkdir()
    drv.run(lambda: len(t.match.deals) == 1)
    assert (
        said and said[0].startswith("could not save table 1:") and "trying again in 1 s" in said[0]
    )
    assert later and later[0][0] == 1.0 and files.pending
    assert not (tmp_path / "table-1.match.json").exists()  # never before its record
    assert journal_path(tmp_path, 1).exists()  # the deal is still there
    os.rmdir(records_path(tmp_path, 1))
    assert later[0][1]() is True and not files.pending
    assert said[-1].startswith("saved everything that was waiting (after 1 failed try)")
    lines = records_path(tmp_path, 1).read_text().splitlines()
    saved = json.loads((tmp_path / "table-1.match.json").read_text())
    assert len(lines) == len(saved["deals"]) == 1
    files.close()


def test_the_reserve_gives_a_save_its_descriptors_when_none_are_left(tmp_path):
    """Every descriptor the process may open is taken (as a flood of connections would take
    them): a save still succeeds, from the reserve."""
    import os
    import resource

    from tutor.app.tables._server_files import ServerFiles

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    files = ServerFiles(tmp_path, print)
    held = []
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 256), hard))
        while True:
            try:
                held.append(os.open(os.devnull, os.O_RDONLY))
            except OSError:
                break
        with pytest.raises(OSError):
            open(tmp_path / "x", "w")
        assert files.save_state({"format": "x"})
        assert (tmp_path / "server.json").exists()
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        files.close()


def test_seats_a_guest_took_and_left_are_free_again(rulesets):
    """Issue 41 finding 7: a guest with the code joins three names and goes; the table is not
    "full" for ever.  A seat left on purpose between deals is free at once; one whose person
    went without a word, once they have been gone ``wait`` seconds and played no deal there
    (a phone that drops for a moment keeps its seat)."""
    t = Table(1, "C", _settings(rulesets, players=3, deals=2, hold=True, wait=20.0))
    squat = [t.join(n, None, 0.0) for n in ("Sq1", "Sq2", "Sq3")]
    with pytest.raises(P.Refused, match="full"):
        t.join("Ann", None, 1.0)
    t.leave(squat[0].seat, 1.0, meant=True)  # the leave message
    assert t.join("Ann", None, 1.5).seat == squat[0].seat
    with pytest.raises(P.Refused):
        t.join("Sq1", squat[0].token, 1.6)  # its code took nothing with it
    for j in squat[1:]:
        t.leave(j.seat, 2.0)  # connections lost
    with pytest.raises(P.Refused, match="full"):
        t.join("Bob", None, 10.0)  # gone 8 s: still theirs
    assert t.join("Sq2", squat[1].token, 11.0).back  # and taken back by its code
    assert t.join("Bob", None, 22.5).seat == squat[2].seat  # gone 20.5 s, no deal played
    assert t.names.count("Sq3") == 0 and "that seat code takes back no seat" in str(
        pytest.raises(P.WrongSeatCode, t.join, None, squat[2].token, 23.0).value
    )


def test_the_organiser_empties_a_seat(rulesets):
    t = Table(1, "C", _settings(rulesets, players=3, deals=2, hold=True))
    mal = t.join("Mal", None, 0.0)
    assert t.empty(mal.seat, 1.0) == "Mal"
    assert t.names[mal.seat].endswith("(computer)") and t.codes() == [None] * 3
    with pytest.raises(P.WrongSeatCode):
        t.join(None, mal.token, 2.0)
    with pytest.raises(P.Refused, match="nobody sits"):
        t.empty(mal.seat, 2.0)
    assert t.join("Ann", None, 2.0).seat in range(3)
    said = [m["text"] for _, m in t.outbox if m.get("type") == "say"]
    assert f"The organiser gave seat {mal.seat} (Mal) to a computer player." in said


def test_a_seat_rejoined_in_a_loop_is_refused_for_a_while_and_a_present_one_quietly(rulesets):
    t = Table(1, "C", _settings(rulesets, players=3, deals=2, hold=True))
    mal = t.join("Mal", None, 0.0)
    t.outbox.clear()
    got = [t.join(None, mal.token, 0.01 * k) for k in range(REJOIN_BURST)]
    assert all(j.quiet for j in got) and t.outbox == []  # connected: nothing to tell
    with pytest.raises(P.Refused, match=r"try again in 10 s"):
        t.join(None, mal.token, 0.1)
    assert t.join(None, mal.token, 10.2).back  # one more each 10 s


def test_seats_taken_and_left_before_the_first_deal_are_free_from_the_next(rulesets):
    """The squatters' table began anyway (computer players moving for them): their seats are
    free again from the next deal, since none of them made a move."""
    t = Table(
        1,
        "C",
        _settings(
            rulesets,
            players=3,
            deals=3,
            lv="beginner",
            pace=0.0,
            gap=0.5,
            wait=1.0,
            start=0.0,
            move_time=0.0,
        ),
    )
    for name in ("Sq1", "Sq2", "Sq3"):
        t.leave(t.join(name, None, 0.0).seat, 0.0)
    now, steps = 0.0, 0
    while t.deal_number < 2:  # the second deal has begun
        assert all(n.startswith("Sq") for n in t.names)  # (the first: stood in for them)
        now = t.next_wake()
        t.tick(now, most=1)
        steps += 1
        assert steps < 10_000
    assert all(n.endswith("(computer)") for n in t.names), t.names
    assert t.join("Ann", None, now).seat in range(3)
