"""``score-sheet``: a whole match under a ruleset with a tournament sheet (``match_format``):
fill in the sheet's totals from the points of each game.

The match is played by computer players (:class:`tutor.engine.match.Match`: the first dealer by
the ruleset's rule, the deal passing left, the games of its format, the practice games not
scored); the learner is one seat, shown the points that seat won in each game (the practice
game's too, as it was played) and asked for the sheet's totals: each round's, and the
cumulative score over both.  The sheet leaves open whether its practice game is game 1 of round
1 or a game played before it (lesson 11: "agree which before you start"); the question says
which the match took, so one reading is asked, and said.  The answer is the engine's: the match's games and their results.
Only for rulesets with a ``match_format``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tutor.engine.deal import Deal
from tutor.engine.match import Match
from tutor.engine.rulesets import Ruleset
from tutor.puzzles.base import Candidate, Ctx, PuzzleKind, Verdict
from tutor.puzzles.model import AnswerError, Puzzle
from tutor.puzzles.reader import read

_WORDS = {
    "round": "",
    "rounds": "",
    "total": "",
    "totals": "",
    "cumulative": "",
    "score": "",
    "points": "",
    "point": "",
    "game": "",
    "games": "",
    "is": "",
    "both": "",
}


def sheet(match: Match, seat: int) -> list[dict[str, Any]]:
    """``seat``'s sheet: one ``{round, number, practice, points}`` per game, in order."""
    return [
        {"round": g.round, "number": g.number, "practice": g.practice, "points": v}
        for g, v in match.scores(seat)
    ]


def totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The sheet's totals: ``rounds`` (each round's scored points, in order) and ``cumulative``
    (their sum); practice games are not scored."""
    by_round: dict[int, int] = {}
    for r in rows:
        by_round.setdefault(r["round"], 0)
        if not r["practice"]:
            by_round[r["round"]] += r["points"]
    rounds = [by_round[k] for k in sorted(by_round)]
    return {"rounds": rounds, "cumulative": sum(rounds)}


class ScoreSheet(PuzzleKind):
    name = "score-sheet"

    def why_not(self, rs: Ruleset) -> str | None:
        if not rs.game().has_match_format:
            return "it has no tournament score sheet (no match format)"
        return None

    def solve(
        self, deal: Deal | None, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        return {
            **totals(data["sheet"]),
            "seat": data["seat"],
            "sheet": [dict(r) for r in data["sheet"]],
        }

    def build(self, ctx: Ctx) -> Candidate | None:
        rng = ctx.rng
        n = ctx.players
        seed = rng.randrange(1 << 30)
        match = Match.start(ctx.rs, n, seed)
        match.play(len(match.games), ctx.bots(rng.uniform(0.1, 0.5)), random.Random(f"{seed}:play"))
        seat = rng.randrange(n)
        rows = sheet(match, seat)
        if not any(r["practice"] for r in rows):
            return None
        data = {"sheet": rows, "seat": seat, "position": False}
        ans = self.solve(None, seat, data, ctx.rs, n)
        lines = []
        for r in rows:
            lines.append(f"Round {r['round']}, game {r['number']}: {r['points']}")
        rounds = ans["rounds"]
        canonical = " ".join(str(x) for x in rounds + [ans["cumulative"]])
        told = []
        for k, total in enumerate(rounds, 1):
            games = [r for r in rows if r["round"] == k]
            scored = [str(r["points"]) for r in games if not r["practice"]]
            skipped = [r for r in games if r["practice"]]
            note = (
                f" (game {skipped[0]['number']}, the practice game, is not scored)"
                if skipped
                else ""
            )
            told.append(f"- Round {k}: {' + '.join(scored)} = {total}{note}.")
        told.append(
            f"- Cumulative score over both rounds: "
            f"{' + '.join(str(x) for x in rounds)} = {ans['cumulative']}."
        )
        deal = Deal(ctx.rs, n, match.first, ctx.new_pack())
        example = " ".join(str(x + 3) for x in rounds + [ans["cumulative"]])
        first = next(r for r in rows if r["practice"])
        # the sheet leaves open which game is the practice game (lesson 11): say the match's
        practice = (
            f"game {first['number']} of round {first['round']}"
            if first["number"] == 1 and first["round"] == 1
            else f"round {first['round']}, game {first['number']}"
        )
        facts = {
            "games": "\n".join(lines),
            "told": "\n".join(told),
            "you": f"Player {seat}",
            "practice": practice,
            "example": example,
            "rounds": len(rounds),
        }
        features = {"rounds": float(len(rounds))}
        return Candidate(
            deal=deal,
            seat=seat,
            variant="default",
            answer=ans,
            accepted=[canonical, ", ".join(canonical.split())],
            facts=facts,
            features=features,
            themes=["score-sheet", "practice-game"],
            theme="score-sheet",
            data=data,
        )

    # -- answers ---------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        rounds, cum = p.answer["rounds"], p.answer["cumulative"]
        need = len(rounds) + 1
        got = read(
            text.replace(":", " "),
            words=_WORDS,
            cards=False,
            ranks=False,
            numbers=True,
            expected=f"give {need} numbers: each round's total, then the cumulative score",
        )
        nums = [v for what, v in got.items if what == "number"]
        if len(nums) != need:
            raise AnswerError(
                f"give {need} numbers in order: "
                + ", ".join(f"round {k}" for k in range(1, need))
                + ", then the cumulative score"
            )
        want = rounds + [cum]
        if nums == want:
            return Verdict(
                True,
                "Right: "
                + ", ".join(f"round {k} {v}" for k, v in enumerate(rounds, 1))
                + f", cumulative {cum}.",
            )
        rows = p.data["sheet"]
        practice = [r for r in rows if r["practice"]]
        wrong = [k for k in range(need) if nums[k] != want[k]]
        nudge = "Not yet: "
        with_practice = [
            want[k] + sum(r["points"] for r in practice if r["round"] == k + 1)
            for k in range(len(rounds))
        ]
        if any(nums[k] == with_practice[k] != want[k] for k in range(len(rounds))):
            nudge += "a round total counts the practice game, which the sheet does not score."
        elif wrong == [need - 1]:
            nudge += "the round totals are right; the cumulative score is their sum."
        else:
            nudge += (
                "the total of "
                + ", ".join(f"round {k + 1}" if k < len(rounds) else "both rounds" for k in wrong)
                + " is off. Add the scored games again."
            )
        return Verdict(
            False,
            "Not quite: "
            + "; ".join(
                (f"round {k + 1}" if k < len(rounds) else "the cumulative score")
                + f": you said {nums[k]}, it is {want[k]}"
                for k in wrong
            )
            + ".",
            credit=1 - len(wrong) / need,
            retry=nudge,
        )

    def answer_words(self, p: Puzzle) -> list[str]:
        return ["hint", "quit"]

    def wrong_answer(self, p: Puzzle) -> str | None:
        a = p.answer
        return " ".join(str(x + 1) for x in a["rounds"] + [a["cumulative"]])
