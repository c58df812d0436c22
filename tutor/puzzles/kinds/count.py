"""``count``: how many cards of some ranks can you not see, and where can they only be?

Unseen = 4 − (table + won piles + set aside + your own hand) of a rank (RULES.md 8): the engine
counts it (:meth:`tutor.engine.deal.Deal.rank_count`); every unseen card is in the hand of an
opponent still holding cards.  Works under every ruleset (counting does not depend on the rules
of play).

Difficulty (``puzzles/count.yaml``): the number of ranks asked, plus one when an asked rank's
cards in sight lie in three or more places, plus one when some of them reached the table in a
hand laid down; so one rank is at most three stars and three ranks at least three.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from tutor.engine.cards import RANK_NAMES, RANK_PLURALS, parse_rank, rank_code, rank_of
from tutor.engine.deal import Action, Deal, RankCount
from tutor.engine.errors import NotationError
from tutor.engine.observe import observe
from tutor.engine.rulesets import Ruleset
from tutor.puzzles.base import Candidate, Ctx, Plan, PuzzleKind, Verdict, join, player_name
from tutor.puzzles.model import AnswerError, Definition, Puzzle
from tutor.puzzles.reader import clean, heard, read

_RANK_PAIR = re.compile(
    r"(10|[2-9atjqk]|aces?|twos?|threes?|fours?|fives?|sixes|six|sevens?|"
    r"eights?|nines?|tens?|jacks?|queens?|kings?)\s*[:=]\s*(\d+)",
    re.IGNORECASE,
)
_COUNT_WORDS = {"unseen": "", "cards": "", "card": "", "none": "zero", "nil": "zero"}


def _places(c: RankCount) -> int:
    """In how many places the seen cards of a rank lie (table, each won pile, set aside, hand)."""
    return bool(c.table) + sum(1 for w in c.won if w) + bool(c.set_aside) + bool(c.hand)


def _names(codes: list[str]) -> str:
    """Ranks given by their codes, in words: ``sevens and nines``."""
    return join([RANK_PLURALS[parse_rank(c)] for c in codes])


def _one(code: str) -> str:
    """The rank ``code`` in the singular: ``seven``."""
    return RANK_NAMES[parse_rank(code)]


class Count(PuzzleKind):
    name = "count"

    def plan(
        self, base: random.Random, rs: Ruleset, players: int, seed: int, defn: Definition
    ) -> Plan:
        return {"variant": "default", "ranks": base.choice(defn.options.get("ranks", [1, 2, 3]))}

    def plan_may_fit(self, plan: Plan, theme: str) -> bool:
        want = {"one-rank": 1, "two-ranks": 2, "three-ranks": 3}.get(theme)
        return want is None or plan["ranks"] == want

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        return {"unseen": {r: deal.unseen(seat, parse_rank(r)) for r in data["ranks"]}}

    def build(self, ctx: Ctx) -> Candidate | None:
        rng = ctx.rng
        found = []

        def observer(d: Deal, a: Action) -> None:
            if d.phase == "play" and len(d.history) >= 4:
                found.append(d.clone())

        ctx.play(ctx.new_pack(), rng.randrange(ctx.players), ctx.bots(0.2), observer)
        if not found:
            return None
        deal = rng.choice(found)
        n = ctx.players
        seat = rng.choice([q for q in range(n) if not deal.is_out(q)] or list(range(n)))
        view = observe(deal, seat)
        # ranks with something to count: some cards seen, not all
        interesting = [
            r
            for r in range(13)
            if 0 < view.unseen[r] < 4 or (view.unseen[r] == 0 and view.count(r).table)
        ]
        k = ctx.plan["ranks"]
        if len(interesting) < k:
            return None
        ranks = sorted(rng.sample(interesting, k))
        lines = []
        counts = [view.count(r) for r in ranks]
        for c in counts:
            t, w, s, h, u = c.table, c.won_total, c.set_aside, c.hand, c.unseen
            if 4 - t - w - s - h != u:
                return None  # the explanation's sum must agree with the engine
            aside = f" − {s} set aside" if s else ""
            lines.append(
                f"- {RANK_PLURALS[c.rank].capitalize()}: 4 − {t} on the table − {w} won"
                f"{aside} − {h} in your hand = {u} unseen."
            )
        holders = [q for q in range(n) if q != seat and view.hand_sizes[q]]
        if any(c.unseen for c in counts):
            if len(holders) == 1:
                where = (
                    f"They can only be in {player_name(holders[0])}'s hand: every other "
                    "player is out."
                )
            else:
                where = (
                    "They can only be in the hands of the players still holding cards: "
                    f"{join([player_name(q) for q in holders])}."
                )
        else:
            where = "Every card of them is in sight: none is hidden in anyone's hand."
        answer_ranks = [rank_code(r) for r in ranks]
        values = [c.unseen for c in counts]
        accepted = [
            " ".join(map(str, values)),
            ", ".join(f"{rc}: {v}" for rc, v in zip(answer_ranks, values)),
        ]
        laid = {x for a in deal.history if a.kind == "lie_down" for x in a.cards}
        laid_down = any(c in laid for c in view.table if rank_of(c) in ranks)
        # an example of the ranks asked that reads but is never the answer, and tells nothing
        # of it: every rank asked has a card in sight, so its first count, 4, is always wrong
        facts = {
            "ranks": join([RANK_PLURALS[r] for r in ranks]),
            "counting": "\n".join(lines),
            "where": where,
            "k": k,
            "example_pairs": ", ".join(f"{rc}: {v}" for rc, v in zip(answer_ranks, (4, 2, 0))),
        }
        features = {
            "ranks": k,
            "spread": float(any(_places(c) >= 3 for c in counts)),
            "laid_down": float(laid_down),
        }
        theme = {1: "one-rank", 2: "two-ranks", 3: "three-ranks"}[k]
        return Candidate(
            deal=deal,
            seat=seat,
            variant="default",
            answer=self.solve(deal, seat, {"ranks": answer_ranks}, ctx.rs, n),
            accepted=accepted,
            facts=facts,
            features=features,
            themes=["counting", "unseen"],
            theme=theme,
            data={"ranks": answer_ranks, "holders": holders},
            question_key="one" if k == 1 else "several",
        )

    # -- answers ----------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        asked = list(p.answer["unseen"])
        right = p.answer["unseen"]
        t = clean(text)
        said: dict[str, int] = {}
        pairs = _RANK_PAIR.findall(t)
        if pairs:
            for rk, v in pairs:
                try:
                    code = rank_code(parse_rank(rk))
                except NotationError:
                    raise AnswerError(f"{rk!r} is not a rank") from None
                if code in said:
                    raise AnswerError(f"{RANK_PLURALS[parse_rank(rk)]} are given twice")
                said[code] = int(v)
            read(_RANK_PAIR.sub(" ", t), words=_COUNT_WORDS, cards=False, ranks=False)
            stray = [k for k in said if k not in asked]
            if stray:
                raise AnswerError(f"the question asks about the {_names(asked)} only")
            if set(said) != set(asked):
                raise AnswerError(f"give a number for each of the {_names(asked)}")
            heard("counts", tuple(sorted(said.items())))  # what the pairs said, read
        else:
            got = read(
                t,
                words=_COUNT_WORDS,
                cards=False,
                ranks=False,
                numbers=True,
                expected=f"give {len(asked)} number{'s' if len(asked) > 1 else ''}",
            )
            nums = [
                0 if v == "zero" else v for what, v in got.items if what == "number" or v == "zero"
            ]
            if len(nums) != len(asked):
                raise AnswerError(
                    f"give {len(asked)} number{'s' if len(asked) > 1 else ''}, "
                    f"in the order asked (the {_names(asked)})"
                    + (", or `7: 2, 9: 0`" if len(asked) > 1 else "")
                )
            said = dict(zip(asked, nums))
        bad = [v for v in said.values() if not 0 <= v <= 4]
        if bad:
            raise AnswerError("a rank has four cards: each count is from 0 to 4")
        wrong = [k for k in asked if said[k] != right[k]]
        if not wrong:
            return Verdict(
                True,
                "Right: "
                + ", ".join(
                    f"{right[k]} {RANK_PLURALS[parse_rank(k)] if right[k] != 1 else _one(k)} unseen"
                    for k in asked
                )
                + ".",
            )
        k = wrong[0]
        how = "too high" if said[k] > right[k] else "too low"
        retry = (
            f"Not yet: your count of the {RANK_PLURALS[parse_rank(k)]} is {how}"
            + (f" ({len(wrong)} of your {len(asked)} counts are off)" if len(wrong) > 1 else "")
            + ". Count the table, every won pile and your own hand again."
        )
        return Verdict(
            False,
            "Not quite: "
            + "; ".join(
                f"{RANK_PLURALS[parse_rank(k)]}: you said {said[k]}, {right[k]} unseen"
                for k in wrong
            )
            + ".",
            credit=1 - len(wrong) / len(asked),
            retry=retry,
        )

    def wrong_answer(self, p: Puzzle) -> str | None:
        return " ".join(str((v + 1) % 5) for v in p.answer["unseen"].values())
