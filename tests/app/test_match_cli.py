"""``laugh match`` (issue 14): a whole Inter-Livery match played through pipes with its score
sheet (terminal and HTML), quit mid-match and resumed to the same end, Ctrl-D saving what is
finished, a stakes match with running totals, and bad choices or saved files in one line."""

from __future__ import annotations

import argparse
import io
import json
import os
import re

import pytest
from rich.console import Console
from support import ROOT, laugh_process
from test_play import EngineLearner

from tutor.app.commands import match as M
from tutor.app.learner_io import ScriptedIO
from tutor.app.matches import load_match
from tutor.app.play import DealPlayer

#: Samples a deal for the reviews after each deal: enough to name the costliest decisions
#: (test_play_review.py checks the reviews themselves at the full count).
REVIEW = 8


def laugh(args, home, stdin="", timeout=120):
    env = dict(
        os.environ,
        LAUGH_HOME=str(home),
        PYTHONIOENCODING="utf-8",
        COLUMNS="80",
        PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    )
    env.pop("NO_COLOR", None)
    return laugh_process(list(args), stdin, env, timeout=timeout)


def scripted(home, monkeypatch, **options):
    """Play a match in-process with an engine learner; returns the learner's lines, the index
    of the first line of each deal, the output and the saved match."""
    monkeypatch.setenv("LAUGH_HOME", str(home))
    holder, starts = {}, []
    learner = EngineLearner(holder, claims=False, watch=False)  # piped: in step at turns

    class Hooked(DealPlayer):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            holder["player"] = self
            starts.append(len(learner.answers))

    args = argparse.Namespace(
        **{
            **dict(
                ruleset=None,
                players=None,
                deals=None,
                seat=None,
                level="club",
                seed=7,
                pace=0.0,
                resume=None,
                sheet=None,
                review_samples=REVIEW,
            ),
            **options,
        }
    )
    out = Console(file=io.StringIO(), width=80, color_system=None)
    assert M.run(args, io=ScriptedIO(learner, out), make_player=Hooked) == 0
    saved = json.loads(next((home / "matches").glob("match-*.json")).read_text())
    return learner.answers, starts, out.file.getvalue(), saved


@pytest.fixture(scope="module")
def inter_livery(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    try:
        return scripted(tmp_path_factory.mktemp("il"), mp, ruleset="inter-livery-2018")
    finally:
        mp.undo()


def test_an_inter_livery_match_through_pipes_ends_with_the_score_sheet(inter_livery, tmp_path):
    lines, starts, _, saved = inter_livery
    assert len(starts) == 10 and len(saved["deals"]) == 10
    sheet = tmp_path / "sheet.html"
    proc = laugh(
        [
            "match",
            "--ruleset",
            "inter-livery-2018",
            "--level",
            "club",
            "--seed",
            "7",
            "--review-samples",
            str(REVIEW),
            "--sheet",
            str(sheet),
        ],
        tmp_path,
        "\n".join(lines) + "\n",
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "2 rounds of 5 games (the first a practice game, not scored)." in out
    assert out.count("Settlement") == 10 and out.count("Review of your play") == 10
    assert out.count("Your costliest decisions") == 10  # the engine's review, as in play
    assert "Match totals after 1 deal (the practice game not scored)" in out
    assert "Match totals after 10 deals (the practice game not scored)" in out
    assert "Practice game (1 of 10)" in out and "Game 5, round 2 (10 of 10)" in out
    # the score sheet: the learner's points per game, the practice game in brackets
    points = [d["result"]["points"][0] for d in saved["deals"]]
    assert f"({points[0]}) practice" in out
    assert f"Cumulative score over both rounds: {sum(points[1:])}" in out
    assert f"Total score │ {sum(points[1:5]):>14} │ Total score │ {sum(points[5:]):>14}" in out
    assert "First: " in out and "The match is over." in out
    page = sheet.read_text(encoding="utf-8")
    assert page.count('<div class="sheet">') == 5  # one a player
    assert "Cumulative Score over both rounds: " + str(sum(points[1:])) in page
    assert page.index("Name: <b>You</b>") < page.index("Name: <b>Anne</b>")
    # the saved match replays and agrees with the piped one
    (saved_path,) = (tmp_path / "matches").glob("match-*.json")
    assert json.loads(saved_path.read_text())["deals"] == saved["deals"]


def test_quit_mid_match_then_resume_ends_as_if_never_stopped(inter_livery, tmp_path):
    lines, starts, _, saved = inter_livery
    k = starts[3]  # the first line of the fourth deal
    first = laugh(
        [
            "match",
            "--ruleset",
            "inter-livery-2018",
            "--level",
            "club",
            "--seed",
            "7",
            "--review-samples",
            str(REVIEW),
        ],
        tmp_path,
        "\n".join(lines[: k + 2] + ["quit"]) + "\n",
    )
    assert first.returncode == 0, first.stderr[-2000:]
    said = [line for line in first.stdout.splitlines() if line.startswith("Match saved")]
    assert said == ["Match saved after 3 of 10 deals; laugh match --resume plays on."]
    (path,) = (tmp_path / "matches").glob("match-*.json")
    assert len(json.loads(path.read_text())["deals"]) == 3
    again = laugh(
        ["match", "--resume", "--review-samples", str(REVIEW), "--sheet", str(tmp_path / "s.html")],
        tmp_path,
        "\n".join(lines[k:]) + "\n",
    )
    assert again.returncode == 0, again.stderr[-2000:]
    assert "Resumed after 3 of 10 deals." in again.stdout
    assert again.stdout.count("Settlement") == 7 and "The match is over." in again.stdout
    assert json.loads(path.read_text())["deals"] == saved["deals"]  # the same ten deals
    assert (tmp_path / "s.html").is_file()
    # over: nothing left to resume, and the finished file shows its results
    none = laugh(["match", "--resume"], tmp_path)
    assert none.returncode == 2 and none.stderr.startswith("laugh: no unfinished match")
    shown = laugh(["match", "--resume", str(path)], tmp_path)
    assert shown.returncode == 0 and "This match is over (10 deals)" in shown.stdout
    assert "Cumulative score over both rounds" in shown.stdout


def test_end_of_input_mid_deal_saves_what_is_finished(inter_livery, tmp_path):
    lines, starts, _, _ = inter_livery
    proc = laugh(
        [
            "match",
            "--ruleset",
            "inter-livery-2018",
            "--level",
            "club",
            "--seed",
            "7",
            "--review-samples",
            str(REVIEW),
        ],
        tmp_path,
        "\n".join(lines[: starts[2] + 1]) + "\n",
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert proc.stdout.rstrip().endswith(
        "Match saved after 2 of 10 deals; laugh match --resume plays on."
    )


def test_a_stakes_match_shows_running_totals_and_the_deal_passing_left(tmp_path, monkeypatch):
    lines, starts, out, saved = scripted(
        tmp_path / "in", monkeypatch, ruleset="parlett", players=4, deals=3, seed=11
    )
    assert len(saved["deals"]) == 3
    dealers = [d["dealer"] for d in saved["deals"]]
    assert dealers == [(saved["first_dealer"] + k) % 4 for k in range(3)]
    proc = laugh(
        [
            "match",
            "--ruleset",
            "parlett",
            "--players",
            "4",
            "--deals",
            "3",
            "--level",
            "club",
            "--seed",
            "11",
            "--review-samples",
            str(REVIEW),
            "--sheet",
            str(tmp_path / "deals.html"),
        ],
        tmp_path / "out",
        "\n".join(lines) + "\n",
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    for k in (1, 2, 3):
        assert f"Match totals after {k} deal{'s' if k > 1 else ''}\n" in proc.stdout
    nets = [d["result"]["net"][0] for d in saved["deals"]]
    assert f"You{sum(nets):+d}".replace(" ", "") in proc.stdout.replace(" ", "")
    assert "Score sheet: You" not in proc.stdout and "Deal by deal" in proc.stdout
    page = (tmp_path / "deals.html").read_text(encoding="utf-8")
    assert page.count("<tr><td>Deal ") == 3 and '<tr class="total">' in page


@pytest.mark.parametrize(
    "args,status,needle",
    [
        (["match", "--resume", "--ruleset", "parlett"], 2, "leave out --ruleset"),
        (["match", "--resume"], 2, "no unfinished match to resume"),
        (
            ["match", "--ruleset", "inter-livery-2018", "--deals", "3"],
            2,
            "2 rounds of 5 games (10 deals), not 3",
        ),
        (["match", "--players", "9"], 2, "choose from"),
        (["match", "--seat", "5"], 2, "--seat must be from 0 to 4"),
        (["match", "--level", "grandmaster"], 2, "levels: beginner, casual"),
    ],
)
def test_bad_choices_are_one_line(tmp_path, args, status, needle):
    proc = laugh(args, tmp_path)
    assert proc.returncode == status and needle in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "content,needle",
    [
        ("{not json", "not a saved match"),
        (
            '{"format": "laugh-and-lie-down/match@1", "meta": '
            + "[" * 100_000
            + "]" * 100_000
            + "}",
            "not a saved match: nested too deeply",
        ),  # a RecursionError before (issue 23)
        (
            json.dumps(
                {
                    "format": "laugh-and-lie-down/match@1",
                    "ruleset": "parlett",
                    "players": 5,
                    "seed": 1,
                    "first_dealer": 0,
                    "cuts": [],
                    "deals_planned": 5,
                    "meta": {"seat": 0, "level": "club"},
                    "deals": [{"ruleset": "parlett"}],
                }
            ),
            "the saved match cannot be resumed",
        ),
        (
            json.dumps(
                {
                    "format": "laugh-and-lie-down/match@1",
                    "ruleset": "parlett",
                    "players": 5,
                    "seed": 1,
                    "first_dealer": 0,
                    "cuts": [],
                    "deals_planned": 5,
                    "meta": {"seat": 9},
                    "deals": [],
                }
            ),
            "meta.seat: must be a seat from 0 to 4",
        ),
    ],
)
def test_a_damaged_saved_match_is_one_line(tmp_path, content, needle):
    folder = tmp_path / "matches"
    folder.mkdir()
    bad = folder / "match-20260101-000000-parlett-seed1.json"
    bad.write_text(content)
    proc = laugh(["match", "--resume"], tmp_path)
    assert proc.returncode == 1 and needle in proc.stderr and str(bad) in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_the_sheet_follows_the_engines_plan_and_adds_up_for_every_seat(rulesets):
    import random

    from tutor.app.match_sheet import round_scores, sheet_html, sheet_renderable
    from tutor.engine.bots import make_bot
    from tutor.engine.match import Match

    m = Match.start(rulesets["inter-livery-2018"], 5, seed=3, meta={"seat": 0, "level": "club"})
    m.play(6, [make_bot("willughby") for _ in range(5)], random.Random(1))
    for seat in range(5):
        rounds = round_scores(m, seat)
        assert [len(r) for r in rounds] == [5, 5]
        assert [g.number for g, _ in rounds[0]] == [1, 2, 3, 4, 5]
        assert rounds[0][0][0].practice and not any(g.practice for g, _ in rounds[1])
        assert [s for _, s in rounds[1]] == [m.deals[5].returns()[seat], None, None, None, None]
        scored = sum(s for r in rounds for g, s in r if s is not None and not g.practice)
        assert scored == m.totals[seat]  # the practice game left out
    out = Console(file=io.StringIO(), width=80, color_system=None)
    out.print(sheet_renderable(m, 0, "You"))
    text = out.file.getvalue()
    assert "Game ┃ Round 1 scores ┃" in text and "Round 2 scores" in text
    assert f"({m.deals[0].returns()[0]}) practice" in text
    assert f"Cumulative score over both rounds: {m.totals[0]}" in text
    names = ["<b>You</b>", "Anne & co", "Ralph", "Mary", "<script>x</script>"]
    page = sheet_html(m, names, 0)
    assert "<script>x" not in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert "Name: <b>&lt;b&gt;You&lt;/b&gt;</b>" in page and "Anne &amp; co" in page
    assert (
        page.count("<h1>Score sheet (The first game is for practice only and is not scored)</h1>")
        == 5
    )


def test_the_home_screen_starts_a_match_and_resumes_the_unfinished_one(tmp_path):
    first = laugh([], tmp_path, "m\nquit\nq\n")
    assert first.returncode == 0, first.stderr[-2000:]
    assert "m Match" in first.stdout  # on the menu
    assert "Match · Parlett after Willughby · 5 players" in first.stdout
    assert "Match saved after 0 of 5 deals; laugh match --resume plays on." in first.stdout
    (path,) = (tmp_path / "matches").glob("match-*.json")
    again = laugh([], tmp_path, "m\nquit\nq\n")  # the same match again
    assert again.returncode == 0, again.stderr[-2000:]
    # the heading names the ruleset by its title, and may wrap at 80 columns
    seed = re.search(r"·\s+seed (\d+)", first.stdout).group(1)
    assert re.search(rf"·\s+seed {seed}\b", again.stdout), again.stdout[-3000:]
    assert list((tmp_path / "matches").glob("match-*.json")) == [path]
    assert "Traceback" not in first.stderr + again.stderr


def test_a_damaged_saved_match_does_not_lock_the_home_screen_out_of_matches(tmp_path):
    (tmp_path / "matches").mkdir(parents=True)
    bad = tmp_path / "matches" / "match-20260101-000000-parlett-seed1.json"
    bad.write_text("{bad", encoding="utf-8")
    proc = laugh([], tmp_path, "m\nquit\nq\n")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    flat = " ".join(proc.stdout.split())
    assert "not a saved match" in flat and "; starting a new match instead." in flat
    assert "Match saved after 0 of 5 deals" in flat
    assert bad.read_text(encoding="utf-8") == "{bad"  # left where it was
    assert len(list((tmp_path / "matches").glob("match-*.json"))) == 2


# -- issue 23: the deal-by-deal table at 40 columns, the round subtotal, tampered matches -----


def _finished(rulesets, rid, players, seed=4):
    import random

    from tutor.engine.bots import make_bot
    from tutor.engine.match import Match

    rs = rulesets[rid]
    m = Match.start(rs, players, seed=seed, deals=None if rs.match_format else players)
    m.play(len(m.games), [make_bot("counter") for _ in range(players)], random.Random(1))
    return m


@pytest.mark.parametrize(
    "rid,players,width",
    [
        ("inter-livery-2018", 5, 40),
        ("inter-livery-2018", 5, 80),
        ("parlett", 6, 40),
        ("parlett", 6, 30),
        ("inter-livery-2018", 5, 24),
    ],
)
def test_the_deal_by_deal_table_shows_every_player_and_number_at_any_width(
    rulesets, rid, players, width
):
    """At 40 columns the table used to lose every player column (issue 23)."""
    from tutor.app.match_sheet import deals_renderable
    from tutor.engine.levels import seat_names

    m = _finished(rulesets, rid, players)
    names = seat_names(players, 0)
    out = Console(file=io.StringIO(), width=width, color_system=None)
    out.print(deals_renderable(m, names))
    text = out.file.getvalue()
    assert max(len(line) for line in text.splitlines()) <= width
    flat = " ".join(text.split())
    stakes = m.ruleset.scoring != "pairs"
    shown = [f"{v:+d}" if stakes else str(v) for v in m.totals]
    assert "…" not in text.splitlines()[-2] or width > 30  # no total cut short
    for name in names:
        assert name[:3] in text
    totals_line = [line for line in text.splitlines() if line.startswith("Total")]
    assert totals_line, text
    for v in shown:  # every total, in the order of the seats
        assert v in flat
    for d in m.deals:  # every deal's every result
        for v in d.returns():
            assert (f"{v:+d}" if stakes else str(v)) in flat


def test_round_one_ends_with_its_subtotal(inter_livery):
    """An Inter-Livery match said only "Match totals after 5 deals" after game 5 (issue 23)."""
    _, _, out, saved = inter_livery
    flat = " ".join(out.split())
    at = flat.index("Round 1 totals (4 games scored; the practice game not scored)")
    assert flat.index("Round 1 is over; round 2 begins.") > at
    assert flat.index("Match totals after 5 deals") > at > flat.index("Match totals after 4 deals")
    assert "Round 2 totals (5 games)" in flat and flat.count("Round 1 totals") == 1
    # the subtotal is the sum of games 2 to 5 for every player, as the engine settled them
    from tutor.engine.levels import seat_names
    from tutor.engine.match import Match
    from tutor.engine.sources import default_library

    m = Match.from_json(saved, default_library().rulesets)
    names = seat_names(5, saved["meta"]["seat"])
    block = out[out.index("Round 1 totals") : out.index("Round 1 is over")]
    for q, name in enumerate(names):
        want = sum(d.returns()[q] for d in m.deals[1:5])
        assert re.search(rf"^{re.escape(name)}\s+{want}\s*$", block, re.M), block


@pytest.mark.parametrize(
    "change",
    [
        {"deals_planned": "6"},
        {"deals_planned": 6.5},
        {"players": 3},
        {"meta": {"seat": 0, "level": "casual", "pace": "fast"}},
        {"meta": {"seat": 0, "level": "casual", "pace": 1e9}},
        {"deals_planned": 10**12},
    ],
)
def test_the_home_screen_reports_a_tampered_match_and_starts_a_new_one(tmp_path, change):
    """Each of these used to end the home screen's m in a traceback (TypeError, IndexError),
    or wait for ever (pace 1e9)."""
    folder = tmp_path / "matches"
    folder.mkdir(parents=True)
    good = {
        "format": "laugh-and-lie-down/match@1",
        "ruleset": "parlett",
        "players": 5,
        "seed": 3,
        "first_dealer": 4,
        "cuts": [{"0": 7, "1": 34, "2": 9, "3": 41, "4": 1}],
        "deals_planned": 2,
        "meta": {"seat": 0, "level": "casual", "pace": 0.0},
        "deals": [],
    }
    bad = folder / "match-20200101-000000-parlett-seed3.json"
    bad.write_text(json.dumps({**good, **change}), encoding="utf-8")
    proc = laugh([], tmp_path, "m\nquit\nq\n", timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr + proc.stdout
    flat = " ".join(proc.stdout.split())
    key = next(iter(change))
    assert f"{bad.name}: " in flat and "; starting a new match instead." in flat
    assert (f"{key}: " if key != "meta" else "meta.pace: ") in flat
    assert "Match saved after 0 of 5 deals" in flat
    direct = laugh(["match", "--resume", str(bad)], tmp_path, "", timeout=60)
    assert direct.returncode == 1 and len(direct.stderr.splitlines()) == 1
    assert "start a new one with laugh match" in direct.stderr


def test_the_score_sheet_goes_with_the_match_and_is_never_stale(inter_livery, tmp_path):
    """Issue 34, finding 4: ``--sheet`` at the start, Ctrl-D after deal 1, ``--resume`` (no
    ``--sheet``) to deal 3 and then to the end: the sheet follows every deal; and ``--resume
    --sheet`` after the match is over writes the finished match's sheet."""
    lines, starts, _, saved = inter_livery
    sheet = tmp_path / "sheet.html"
    points = [d["result"]["points"][0] for d in saved["deals"]]

    def sheet_says(page, played):
        assert f"{played} of 10 games played" in page
        assert f"Cumulative Score over both rounds: {sum(points[1:played])}" in page

    first = laugh(
        [
            "match",
            "--ruleset",
            "inter-livery-2018",
            "--level",
            "club",
            "--seed",
            "7",
            "--review-samples",
            str(REVIEW),
            "--sheet",
            str(sheet),
        ],
        tmp_path,
        "\n".join(lines[: starts[1] + 1]) + "\n",
    )  # end of input in deal 2
    assert first.returncode == 0, first.stderr[-2000:]
    assert "Match saved after 1 of 10 deals" in first.stdout
    sheet_says(sheet.read_text(encoding="utf-8"), 1)
    # resumed without --sheet, stopped after deal 3: the sheet kept with the match follows
    again = laugh(
        ["match", "--resume", "--review-samples", str(REVIEW)],
        tmp_path,
        "\n".join(lines[starts[1] : starts[3]] + ["quit"]) + "\n",
    )
    assert again.returncode == 0, again.stderr[-2000:]
    assert f"The score sheet {sheet} is rewritten after every deal." in " ".join(
        again.stdout.split()
    )
    sheet_says(sheet.read_text(encoding="utf-8"), 3)
    # and on to the end
    end = laugh(
        ["match", "--resume", "--review-samples", str(REVIEW)],
        tmp_path,
        "\n".join(lines[starts[3] :]) + "\n",
    )
    assert end.returncode == 0 and "The match is over." in end.stdout, end.stderr[-2000:]
    assert f"Score sheet written to {sheet}." in " ".join(end.stdout.split())
    sheet_says(sheet.read_text(encoding="utf-8"), 10)
    # over: --resume --sheet writes the last match's sheet elsewhere
    other = tmp_path / "x.html"
    done = laugh(["match", "--resume", "--sheet", str(other)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "This match is over (10 deals)" in done.stdout
    sheet_says(other.read_text(encoding="utf-8"), 10)
    none = laugh(["match", "--resume"], tmp_path)
    assert none.returncode == 2 and none.stderr.startswith("laugh: no unfinished match")


@pytest.mark.parametrize("value", ["relative.html", "/tmp/x.txt", 3, "/tmp/a\0.html"])
def test_a_saved_match_names_its_sheet_as_a_full_html_path(tmp_path, value):
    """A saved match's ``meta.sheet`` is checked with the rest of the file: a full path to
    an .html file, else the file is refused in one line naming the key."""
    from tutor.engine.errors import LaughError
    from tutor.engine.match import Match
    from tutor.engine.sources import default_library

    rs = default_library().rulesets["inter-livery-2018"]
    m = Match.start(rs, 5, 7, meta={"seat": 0, "level": "club", "pace": 0.0, "sheet": value})
    path = tmp_path / "m.json"
    path.write_text(m.dumps(), encoding="utf-8")
    with pytest.raises(LaughError, match="meta.sheet: must be the full path of an HTML file"):
        load_match(path)
