"""``end-of-play``: the action that ends play has just been made: who is last in, and who takes
the leftovers?

The position is a real deal played by computer players, cut just before the action after which
at most one player holds cards (RULES.md 3.4); the question describes that action.  The answer
is the engine's: the deal's result once that action is applied (:attr:`DealResult.last_in`,
:attr:`DealResult.leftovers_to`: under ``last_in_plays_on`` the last player first captures
alone, and the leftovers are what is left after that; under ``leftovers_to: nobody`` they count
for no one).  Works under every ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tutor.engine.deal import Action, Deal
from tutor.engine.errors import LaughError
from tutor.engine.parameters import status_mark, value_who
from tutor.engine.records import action_from_json, action_to_json, replay, to_record
from tutor.engine.rulesets import Ruleset
from tutor.puzzles.base import Candidate, Ctx, PuzzleKind, Verdict, library, player_name
from tutor.puzzles.model import AnswerError, Puzzle
from tutor.puzzles.reader import read

_WORDS = {
    "nobody": "nobody",
    "none": "nobody",
    "noone": "nobody",
    "no-one": "nobody",
    "nothing": "nobody",
    "no": "nobody",
    "you": "you",
    "me": "you",
    "player": "",
    "players": "",
    "p": "",
    "seat": "",
    "last": "",
    "in": "",
    "leftovers": "",
    "leftover": "",
    "is": "",
    "go": "",
    "goes": "",
    "to": "",
    "takes": "",
    "take": "",
}


class EndOfPlay(PuzzleKind):
    name = "end-of-play"

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        after = deal.clone()
        after.apply(action_from_json(data["final"], 0))
        if after.phase == "play":
            raise LaughError("end-of-play puzzle: the action does not end play")
        while not after.is_terminal():  # the last player plays on alone
            caps = after.legal_actions()
            after.apply(caps[0])
        r = after.final_result()
        return {"final": dict(data["final"]), "last_in": r.last_in, "leftovers_to": r.leftovers_to}

    def build(self, ctx: Ctx) -> Candidate | None:
        rng = ctx.rng
        n = ctx.players
        ends: list[int] = []

        def observer(d: Deal, a: Action) -> None:
            if not ends and d.phase != "play":
                ends.append(len(d.history))

        full = ctx.play(ctx.new_pack(), rng.randrange(n), ctx.bots(rng.uniform(0.1, 0.5)), observer)
        if not ends:
            return None
        k = ends[0]
        final = full.history[k - 1]
        if final.kind not in ("capture", "lie_down") and not final.kind.startswith("declare"):
            return None
        record = to_record(full, with_result=False)
        actions = record["actions"]
        assert isinstance(actions, list)  # a record's actions: a list
        record["actions"] = actions[: k - 1]
        deal = replay(record)
        if deal.phase != "play":
            return None
        data = {"final": action_to_json(final)}
        seat = rng.randrange(n)
        answer = self.solve(deal, seat, data, ctx.rs, n)
        last, left = answer["last_in"], answer["leftovers_to"]
        names = [f"Player {q}" for q in range(n)]
        names[seat] = f"Player {seat} (you)"
        action = final.describe(True, names)
        rs = ctx.rs
        plays_on = bool(rs.last_in_plays_on)
        # each rule said with its status, as the lessons mark it (stated, read, chosen)
        lib = library()
        marks = {
            name: status_mark(lib.parameter(rs.id, name).status)
            for name in ("last_in_plays_on", "leftovers_to")
        }
        lines = [
            f"- Last in: {player_name(last, seat)}, the one player still holding cards "
            "once that action is made: play is over."
        ]
        if plays_on:
            lines.append(
                "- Under this ruleset the last player in first goes on capturing "
                "alone, as long as a card in hand matches the table"
                f"{marks['last_in_plays_on']}."
            )
        where = value_who("leftovers_to", rs.leftovers_to)
        if left is None:
            lines.append(
                "- The leftovers (the last hand and the table cards) count for no "
                f"one: under this ruleset they go to nobody{marks['leftovers_to']}."
            )
        else:
            lines.append(
                f"- The leftovers (the last hand and the table cards) go to "
                f"{where}{marks['leftovers_to']}: {player_name(left, seat)}."
            )
        canonical = f"{last} {left if left is not None else 'nobody'}"
        accepted = [
            canonical,
            f"last in {last}, leftovers {left if left is not None else 'nobody'}",
        ]
        facts = {
            "action": action,
            "lines": "\n".join(lines),
            "plays_on": (
                " The last player in first captures alone whatever they still "
                "can, as this ruleset allows."
            )
            if plays_on
            else "",
            "example": f"{(last + 1) % n} {(last + 2) % n}",
            "leftovers_rule": "the leftovers go to " + where,
        }
        themes = ["end-of-play", "last-in", "leftovers"] + (["play-on"] if plays_on else [])
        features = {
            "play_on": float(plays_on),
            "not_dealer": float(left not in (None, deal.dealer)),
            "nobody": float(left is None),
            "players": float(n),
        }
        return Candidate(
            deal=deal,
            seat=seat,
            variant="default",
            answer=answer,
            accepted=accepted,
            facts=facts,
            features=features,
            themes=themes,
            theme="last-in",
            data=data,
        )

    # -- answers -----------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        got = read(
            text.replace(":", " "),
            words=_WORDS,
            cards=False,
            ranks=False,
            numbers=True,
            expected="give two players: who is last in, and who takes the leftovers (or `nobody`)",
        )
        vals: list[int | None] = []
        for what, v in got.items:
            if what == "number":
                vals.append(v)
            elif v == "nobody":
                vals.append(None)
            elif v == "you":
                vals.append(p.seat)
        if len(vals) != 2:
            raise AnswerError(
                "give two players, in order: who is last in, then who takes the "
                "leftovers (a number, or `nobody`)"
            )
        bad = [v for v in vals if v is not None and not 0 <= v < p.players]
        if bad:
            raise AnswerError(f"there is no player {bad[0]} here: players are 0 to {p.players - 1}")
        last, left = vals
        if last is None:
            raise AnswerError("someone is always last in: give a player for it")
        ok_last = last == p.answer["last_in"]
        ok_left = left == p.answer["leftovers_to"]
        right_left = p.answer["leftovers_to"]
        shown = "nobody" if right_left is None else f"Player {right_left}"
        if ok_last and ok_left:
            return Verdict(
                True,
                f"Right: Player {p.answer['last_in']} is last in, and the leftovers go to {shown}.",
            )
        parts = []
        if not ok_last:
            parts.append(f"the last player in is Player {p.answer['last_in']}, not Player {last}")
        if not ok_left:
            said = "nobody" if left is None else f"Player {left}"
            parts.append(f"the leftovers go to {shown}, not {said}")
        if not ok_last:
            nudge = (
                "Not yet: who is last in is wrong. Once this action is made, who still holds cards?"
            )
        else:
            nudge = (
                "Not yet: who is last in is right, but not who takes the leftovers. Where "
                "does this ruleset send them?"
            )
        return Verdict(
            False,
            "Not quite: " + "; ".join(parts) + ".",
            credit=0.5 if (ok_last or ok_left) else 0.0,
            retry=nudge,
        )

    def answer_words(self, p: Puzzle) -> list[str]:
        return ["hint", "quit", "nobody"]

    def wrong_answer(self, p: Puzzle) -> str | None:
        a = p.answer
        return f"{(a['last_in'] + 1) % p.players} {a['leftovers_to'] if a['leftovers_to'] is not None else 'nobody'}"
