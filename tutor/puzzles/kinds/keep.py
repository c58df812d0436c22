"""``keep``: you cannot capture and must lie down: what do you keep, and what goes onto the
table?

The position is a real deal played by computer players, cut just before the learner's seat must
lie down, with play going on after it (two other players still hold cards), nothing the seat
could declare first, won cards of two ranks or more, and a pair in the hand (a pair that goes
onto the table with the rest).  The answer is the engine's
(:func:`tutor.engine.keeping.lie_down_keeping`: the won cards stay, the whole hand goes onto the
table; RULES.md 1, 3.4).  Four answers, each a split of the seat's won cards and hand into what
it keeps and what goes onto the table, all in the same words (every one names the table).  The
right answer keeps whole pairs only, so the wrong ones do too: one or two keep as many cards
(a won pair given up for the hand's pair), half the time one keeps the won cards and the hand's
pair; the rest keep more or fewer cards, either at even odds.  So neither an answer's place,
its size nor its pairs point to it (``tests/puzzles/test_keep.py`` plays the learners who go by
them).  Works under every ruleset but those where any pair may be declared (house rules).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tutor.engine.cards import pretty_cards, rank_of
from tutor.engine.deal import Action, Deal
from tutor.engine.errors import UsageError
from tutor.engine.keeping import lie_down_keeping
from tutor.engine.rulesets import Ruleset
from tutor.engine.values import Declaration
from tutor.puzzles.base import LETTERS, Candidate, Ctx, OneLetterKind, Verdict
from tutor.puzzles.model import Puzzle


def _position(deal: Deal) -> bool:
    """The seat to move must lie down now, has nothing to declare first, at least two won cards
    and two in hand, and play goes on after it."""
    p = deal.to_move
    if p is None or deal.phase != "play" or deal.has_declaration(p):
        return False
    acts = deal.legal_actions(p)
    if [a.kind for a in acts] != ["lie_down"]:
        return False
    hand = deal.hand(p)
    won_ranks = {rank_of(c) for c in deal.won_cards(p)}
    if len(won_ranks) < 2 or len({rank_of(c) for c in hand}) == len(hand):
        return False  # (a pair in the hand: it goes onto the table too)
    return sum(1 for q in range(deal.n) if deal.hand(q)) > 2


def _parts(won: tuple[int, ...], hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The won cards rank by rank, the hand's pairs rank by rank, and its other cards in two
    halves: the pieces every answer is made of."""
    parts: dict[tuple[str, int], list[int]] = {}
    for c in won:
        parts.setdefault(("won", rank_of(c)), []).append(c)
    singles = []
    for r in sorted({rank_of(c) for c in hand}):
        of = [c for c in hand if rank_of(c) == r]
        if len(of) >= 2:
            parts[("hand", r)] = of
        else:
            singles += of
    half = (len(singles) + 1) // 2
    out = [tuple(v) for v in parts.values()]
    return out + [tuple(x) for x in (singles[:half], singles[half:]) if x]


def _whole_pairs(cards: tuple[int, ...]) -> bool:
    """Every rank among ``cards`` comes two or four times (and there is a card)."""
    return bool(cards) and all(
        sum(1 for d in cards if rank_of(d) == rank_of(c)) % 2 == 0 for c in cards
    )


TIES = 2


def _distractors(
    rng: random.Random, parts: list[tuple[int, ...]], right: tuple[int, ...]
) -> list[tuple[int, ...]] | None:
    """Three wrong answers, each the cards kept (a union of ``parts`` that is not ``right``), or
    None when the position has too few.  ``right`` (the won cards) keeps whole pairs only, so
    whole pairs are offered as wrong answers too: as many cards as ``right`` (a won pair given
    up for the hand's pair: one or two of them), more (the won cards and the hand's pair, half
    the time) or fewer; the rest, answers that keep more or fewer cards, drawn so that neither
    the size of an answer nor its pairs point to it."""
    n = len(right)
    buckets: dict[str, list[tuple[int, ...]]] = {}
    for mask in range(1 << len(parts)):
        kept = tuple(sorted(c for i, part in enumerate(parts) if mask >> i & 1 for c in part))
        if kept != right:
            size = "more" if len(kept) > n else ("same" if len(kept) == n else "fewer")
            buckets.setdefault(("whole-" if _whole_pairs(kept) else "") + size, []).append(kept)
    ties = buckets.get("whole-same", [])
    if not ties:
        return None
    pick = rng.sample(ties, min(len(ties), TIES))
    if rng.random() < 0.5 and buckets.get("whole-more"):
        pick.append(rng.choice(buckets["whole-more"]))
    while len(pick) < 3:
        key = rng.choice(("more", "fewer"))
        options = [
            x for x in buckets.get(key, []) + buckets.get("whole-" + key, []) if x not in pick
        ]
        if not options:
            return None
        pick.append(rng.choice(options))
    return pick if len(pick) == 3 else None


def _text(kept: tuple[int, ...], table: tuple[int, ...]) -> str:
    return (
        f"you keep {pretty_cards(kept) if kept else 'no card'}; onto the table: "
        f"{pretty_cards(table) if table else 'no card'}"
    )


class Keep(OneLetterKind):
    name = "keep"

    def why_not(self, rs: Ruleset) -> str | None:
        if rs.game().declares(Declaration.PAIR):
            return "any pair may be declared under it, so no position has a pair to lie down with"
        return None

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        k = lie_down_keeping(deal, seat)
        choices = [dict(c) for c in data["choices"]]
        return {
            "choices": choices,
            "kept": list(k.kept),
            "to_table": list(k.to_table),
            "right": [
                c["letter"]
                for c in choices
                if sorted(c["kept"]) == list(k.kept) and sorted(c["to_table"]) == list(k.to_table)
            ],
        }

    def build(self, ctx: Ctx) -> Candidate | None:
        rng, n = ctx.rng, ctx.players
        found: list[Deal] = []

        def observer(d: Deal, a: Action) -> None:
            if _position(d):
                found.append(d.clone())

        ctx.play(ctx.new_pack(), rng.randrange(n), ctx.bots(rng.uniform(0.1, 0.5)), observer)
        if not found:
            return None
        deal = rng.choice(found)
        seat = deal.to_move
        assert seat is not None
        try:
            k = lie_down_keeping(deal, seat)
        except UsageError:
            return None
        won, hand = deal.won_cards(seat), deal.hand(seat)
        wrong = _distractors(rng, _parts(won, hand), k.kept)
        if wrong is None:
            return None
        options = [
            (kept, tuple(sorted(c for c in won + hand if c not in kept))) for kept in wrong
        ] + [(k.kept, k.to_table)]
        rng.shuffle(options)
        choices = [
            {
                "letter": LETTERS[i],
                "kept": list(kept),
                "to_table": list(table),
                "text": _text(kept, table),
            }
            for i, (kept, table) in enumerate(options)
        ]
        data = {"choices": choices}
        answer = self.solve(deal, seat, data, ctx.rs, n)
        if len(answer["right"]) != 1:
            return None
        right = answer["right"][0]
        facts = {
            "options": "\n".join(f"{c['letter']}) {c['text']}" for c in choices),
            "right": right,
            "won": pretty_cards(k.kept),
            "hand": pretty_cards(k.to_table),
            "claims": (
                ", and you may still claim the others' mistakes"
                if ctx.rs.game(n).lists_oversights
                else ""
            ),
        }
        return Candidate(
            deal=deal,
            seat=seat,
            variant="default",
            answer=answer,
            accepted=[right],
            facts=facts,
            features={"players": float(n), "won": float(len(won))},
            themes=["keep", "lie-down"],
            theme="keep",
            data=data,
            explain_key="default",
        )

    # -- answers -----------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        got, right, chosen = self.read_letter(p, text)
        if got == right:
            return Verdict(True, f"Right: {right}.")
        won_ok = set(p.answer["kept"]) <= set(chosen["kept"])
        nudge = (
            "Not yet: lying down, does any card of your hand stay with you?"
            if won_ok
            else "Not yet: what happens to the cards you have already won?"
        )
        return Verdict(False, f"Not quite: it is {right}, not {got}.", retry=nudge)
