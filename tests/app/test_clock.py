"""The clocks' parts that need no terminal: the countdown line a timed prompt shows, and how a
scripted learner on a test clock fires events and times out."""

from __future__ import annotations

import pytest

from tutor.app.clock import Countdown, FakeClock, VirtualClock, countdown_line
from tutor.app.learner_io import ScriptedIO


@pytest.mark.parametrize("width", [20, 30, 40, 60, 80, 120])
def test_countdown_line_fits_and_says_the_time_left(width):
    cd = Countdown("Streak 3", deadline=20.0, total=20.0, progress=(4, 10))
    line = countdown_line(cd, 7.65, width, symbols=True)
    assert len(line) <= width - 1
    assert "12.3 s left" in line
    if width >= 40:
        assert "Streak 3" in line and "4 of 10" in line


def test_countdown_line_bars_minutes_and_the_end():
    cd = Countdown("Storm · score 2", deadline=180.0, total=180.0)
    line = countdown_line(cd, 90.0, 80, symbols=False)
    assert "1:30.0 left" in line
    bar = line.split("left ")[1]
    assert set(bar) == {"#", "."} and bar.count("#") == bar.count(".")  # half the time
    assert "time is up" in countdown_line(cd, 200.0, 80)


def test_fake_clock_fires_events_in_time_and_an_event_may_close_the_prompt():
    fired = []
    clock = FakeClock([2.0, 2.0])
    io = ScriptedIO(["a", "b"], clock=clock)
    # an event at 1.0 s fires before the line (2.0 s) is read; the prompt stays open
    reply = io.read("> ", None, events=[(1.0, lambda: fired.append(clock.now()))])
    assert (reply.text, reply.at, reply.key) == ("a", 2.0, None)
    assert fired == [1.0] and clock.now() == 2.0
    # an event that returns True closes the prompt at its time; the line is not consumed
    assert io.read("> ", 5.0, events=[(3.0, lambda: True)]) is None
    assert clock.now() == 3.0 and clock.reads[-1] == ("> ", 5.0, 2.0, True)
    assert io.log == ["> a"]
    # the countdown a read showed
    io.read("> ", 4.0, label="Settle", progress=(2, 10))
    cd = clock.shown[-1]
    assert (cd.label, cd.deadline, cd.total, cd.progress) == ("Settle", 7.0, 4.0, (2, 10))


def test_a_scripted_key_is_a_line_holding_its_word_timed_by_the_clock():
    clock = FakeClock([0.7, 0.4])
    io = ScriptedIO(["claim", "7h 7s"], clock=clock)
    key = io.read("watch> ", 1.0, keys={" ": "claim"})
    assert (key.text, key.key, key.at) == ("claim", " ", 0.7)
    line = io.read("claim: which cards?> ", None, keys={" ": "claim"})
    assert (line.text, line.key) == ("7h 7s", None) and line.at == pytest.approx(1.1)


def test_piped_input_has_no_clock_and_no_events():
    clock = VirtualClock()
    assert clock.piped and not clock.realtime
    fired = []
    io = ScriptedIO(["x"], clock=clock)
    reply = io.read("> ", 0.5, events=[(0.1, lambda: fired.append(1) or True)], label="Streak 0")
    assert reply.text == "x" and reply.at == 0.0
    assert fired == [] and clock.now() == 0.0
