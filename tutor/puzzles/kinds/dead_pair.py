"""``dead-pair``: may you declare your pair now as a dead pair?

A pair is dead when the other two cards of its rank are among anyone's won cards (the engine
counts the holder's own won cards too, RULES.md 6); the answer is the ranks of the
``declare_dead_pair`` actions among the seat's legal actions now (under ``hand_plays: turn``
only on its turn).  About half the puzzles have no declarable pair (the decoys).

Not for a ruleset without the dead-pair declaration, nor one where any pair may be declared
(``declarations`` with ``pair``, RULES.md 3.6): there whether a pair is dead does not matter.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tutor.engine.cards import (
    RANK_PLURALS,
    CardSet,
    codes,
    parse_rank,
    pretty_cards,
    rank_code,
    rank_of,
    sets_of,
)
from tutor.engine.deal import Action, Deal
from tutor.engine.errors import AmbiguousAction, IllegalAction, InvalidAction
from tutor.engine.parameters import status_mark
from tutor.engine.reasons import Reason, as_reason
from tutor.engine.rulesets import Ruleset
from tutor.engine.seats import seat_names
from tutor.engine.values import Declaration
from tutor.puzzles.base import (
    Candidate,
    Ctx,
    Plan,
    PuzzleKind,
    Verdict,
    join,
    library,
)
from tutor.puzzles.model import AnswerError, Definition, Puzzle
from tutor.puzzles.reader import NOTHING_WORDS, YES_WORDS, read

_WORDS = {
    **{w: "no" for w in NOTHING_WORDS},
    **{w: "yes" for w in YES_WORDS},
    "not": "no",
    "now": "",
}


def declarable_dead_pairs(deal: Deal, seat: int) -> list[int]:
    """Ranks of the dead pairs ``seat`` may declare now (its legal ``declare_dead_pair``
    actions, engine)."""
    return sorted(
        {
            rank_of(a.cards[0])
            for a in deal.legal_actions(seat)  # the pair's rank
            if a.kind == "declare_dead_pair"
        }
    )


def pairs_held(deal: Deal, seat: int) -> list[int]:
    """Ranks of which ``seat`` holds a pair (exactly two cards: :func:`sets_of`)."""
    return [r for r, s in sets_of(deal.hand(seat)).items() if s is CardSet.PAIR]


def _not_now(deal: Deal, seat: int, rank: int, why: Reason) -> Reason:
    """The engine's verdict that ``seat``'s pair of ``rank`` may not be declared now, ``why``
    in brackets (:meth:`~tutor.engine.deal.Deal.why_not_declarable`)."""
    verdict = deal.why_not_declarable(seat, rank, why)
    assert verdict is not None  # a reason given is always said
    return verdict


class DeadPair(PuzzleKind):
    name = "dead-pair"

    def why_not(self, rs: Ruleset) -> str | None:
        game = rs.game()
        if game.declares(Declaration.PAIR):
            return "any pair may be declared under it, dead or not"
        if not game.declares(Declaration.DEAD_PAIR):
            return "it has no dead-pair declaration"
        return None

    def plan(
        self, base: random.Random, rs: Ruleset, players: int, seed: int, defn: Definition
    ) -> Plan:
        return {"variant": "live" if base.random() < defn.decoy_rate else "dead"}

    def plan_may_fit(self, plan: Plan, theme: str) -> bool:
        if theme == "decoy":
            return plan["variant"] == "live"
        if theme == "declare":
            return plan["variant"] == "dead"
        return True

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        return {"dead_pairs": [rank_code(r) for r in declarable_dead_pairs(deal, seat)]}

    def build(self, ctx: Ctx) -> Candidate | None:
        rng = ctx.rng
        variant = ctx.plan["variant"]
        found: list[tuple[Deal, int]] = []

        def observer(d: Deal, a: Action) -> None:
            if d.phase != "play":
                return
            for q in range(d.players):
                if d.is_out(q) or q == a.player and a.kind == "declare_dead_pair":
                    continue
                pairs = pairs_held(d, q)
                if not pairs or len(pairs) > 3:
                    continue
                dead = declarable_dead_pairs(d, q)
                if bool(dead) == (variant == "dead"):
                    found.append((d.clone(), q))

        ctx.play(
            ctx.new_pack(), rng.randrange(ctx.players), ctx.bots(rng.uniform(0.3, 0.7)), observer
        )
        if not found:
            return None
        if variant == "live":
            # prefer tempting pairs: the other two visible on the table or won, or not your turn
            def tempting(item: tuple[Deal, int]) -> bool:
                d, q = item
                for r in pairs_held(d, q):
                    if d.unseen(q, r) < 2:
                        return True
                return bool(d.dead_pairs(q))

            pick = [f for f in found if tempting(f)]
            found = pick or found
        deal, seat = rng.choice(found)
        pairs = pairs_held(deal, seat)
        dead = declarable_dead_pairs(deal, seat)
        lines: list[str] = []
        tags: set[str] = set()
        n = ctx.players
        hand = deal.hand(seat)
        for r in pairs:
            mine = [c for c in hand if rank_of(c) == r]
            word = deal.dead_pair_reason(seat, r)  # the engine's word on the pair
            if word.code == "declarable":
                if seat in word.seat_groups["holders"]:
                    tags.add("own_twin")
                # the seats named as puzzles name them: "you (Player 1)"
                lines.append(
                    f"- {pretty_cards(mine)}: {word.words(None, seat_names(n, seat))}: declare it."
                )
            else:
                lines.append(
                    f"- {pretty_cards(mine)}: not now: {word.words(seat, seat_names(n))}. (Of "
                    f"the other two: {deal.won_count(r)} won, {deal.table_count(r)} on the "
                    f"table, {deal.unseen(seat, r)} unseen.)"
                )
                if r in deal.dead_pairs(seat):
                    tags.add("not_your_turn")
        if dead:
            accepted = [" ".join(codes(c for c in hand if rank_of(c) in dead))]
            accepted.append(", ".join(RANK_PLURALS[r] for r in dead))
            accepted.append("declare " + " ".join(rank_code(r) for r in dead))
            if len(pairs) == 1:
                accepted.append("yes")
        else:
            accepted = ["no", "none", "nothing"]
        held = [pretty_cards(c for c in hand if rank_of(c) == r) for r in pairs]
        # the rule said with its status, as the lessons mark it (stated, read, chosen)
        timing = deal.game.declaration_timing  # the rule in the Game's words
        mark = status_mark(library().parameter(ctx.rs.id, "hand_plays").status)
        rule = as_reason(timing).words(capital=True) + mark + "."
        facts = {
            "pairs": join(held),
            "reasons": "\n".join(lines),
            "hand_plays": rule,
            "npairs": len(pairs),
        }
        is_tempting = any(deal.unseen(seat, r) < 2 and r not in dead for r in pairs)
        features = {
            "pairs": len(pairs),
            "live": float(not dead),
            "tempting": float(is_tempting),
            "won_cards": float(sum(len(deal.won_cards(q)) for q in range(n))),
            "not_your_turn": float("not_your_turn" in tags),
            "own_twin": float("own_twin" in tags),
        }
        themes = ["dead-pair", "declaration"] + (["decoy"] if not dead else [])
        if deal.to_move != seat and deal.dead_pairs(seat):
            themes.append("out-of-turn")
        return Candidate(
            deal=deal,
            seat=seat,
            variant=variant,
            answer=self.solve(deal, seat, {}, ctx.rs, n),
            accepted=accepted,
            facts=facts,
            features=features,
            themes=themes,
            tags=tags,
            theme="declare" if dead else "decoy",
            data={"pairs": [rank_code(r) for r in pairs]},
            question_key="one" if len(pairs) == 1 else "several",
        )

    # -- answers ----------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        r = read(
            text,
            words=_WORDS,
            expected="name the pair you may declare (its cards or rank), or answer `no`",
        )
        deal = p.position
        pairs = [parse_rank(x) for x in p.data["pairs"]]
        hand = set(deal.hand(p.seat))
        off = [c for c in r.cards if c not in hand]
        if off:
            raise AnswerError(
                f"{pretty_cards(off)}: not in your hand. Name the pair you may "
                "declare, or answer `no`."
            )
        per_rank = dict.fromkeys(rank_of(c) for c in r.cards)  # the ranks named, in order
        for rank in per_rank:
            held = {c for c in hand if rank_of(c) == rank}
            if rank in pairs and not held <= set(r.cards):  # one card of a pair named
                both = " ".join(codes(held))
                raise AnswerError(
                    f"which cards? a pair is declared with both its cards "
                    f"(`{both}`), or name the rank alone"
                )
        named = set(per_rank) | set(r.ranks)
        words = set(w for w in r.words if w)
        if "yes" in words and "no" in words:
            raise AnswerError("yes or no?")
        if not named:
            if "yes" in words:
                if len(pairs) != 1:
                    raise AnswerError(
                        "you hold more than one pair: say which (for example "
                        f"`{rank_code(pairs[0])}`), or `no`"
                    )
                named = {pairs[0]}
            elif "no" not in words:
                raise AnswerError(
                    "answer with the pair you may declare (its cards or rank), or `no`"
                )
        elif "no" in words:
            raise AnswerError("name the pairs you may declare, or answer `no`, not both")
        stray = [x for x in named if x not in pairs]
        if stray:
            raise AnswerError(
                f"you do not hold a pair of {RANK_PLURALS[stray[0]]}; your pairs: "
                + ", ".join(RANK_PLURALS[x] for x in pairs)
            )
        right = {parse_rank(x) for x in p.answer["dead_pairs"]}
        declared: set[int] = set()
        refused: dict[int, Reason] = {}  # the engine's verdict on each pair refused
        for x in sorted(named):
            try:  # the engine reads each declaration on the position
                act = deal.parse_action(f"declare {rank_code(x)}", p.seat)
            except IllegalAction as exc:
                word = deal.dead_pair_reason(p.seat, x)  # the pair first, then the refusal
                if word.code == "declarable":
                    word = exc.reason
                refused[x] = _not_now(deal, p.seat, x, word)
                continue
            except (AmbiguousAction, InvalidAction) as exc:
                raise AnswerError(exc.reason) from None
            if act.kind == "declare_dead_pair":
                declared.add(x)
            else:
                refused[x] = _not_now(
                    deal, p.seat, x, Reason(f"that would be {act.declared}, not a dead pair")
                )
        if declared == right and not refused:
            if right:
                return Verdict(
                    True,
                    "Right: declare "
                    + ", ".join(f"the {RANK_PLURALS[x]}" for x in sorted(right))
                    + ".",
                )
            return Verdict(True, "Right: not now.")
        parts = [why.words(p.seat, seat_names(deal.n)) for _, why in sorted(refused.items())]
        for x in sorted(right - named):
            verdict = deal.dead_pair_declarable(p.seat, x)
            assert verdict is not None  # the answer's pairs are the declarable ones
            parts.append(verdict.words(p.seat))
        return Verdict(
            False,
            "Not quite: " + "; ".join(parts) + ".",
            retry=self._nudge(p, deal, refused, right - named),
        )

    @staticmethod
    def _nudge(p: Puzzle, deal: Deal, refused: dict[int, Reason], missed: set[int]) -> str:
        """What was wrong, without the answer: a declaration that takes a turn under this
        ruleset when it is not the learner's, one that is free and need not wait, a pair named
        that is not dead, or one refused for another reason (the engine's word on it,
        :meth:`~tutor.engine.deal.Deal.dead_pair_reason`)."""
        game = deal.game
        turn = game.declarations_are_turns
        mine = deal.to_move == p.seat
        dead = set(deal.dead_pairs(p.seat))
        if refused and any(x in dead for x in refused) and turn and not mine:
            return f"Not yet: {game.declaration_timing}, and it is not your turn."
        if missed and not mine and not turn:
            return f"Not yet: {game.declaration_timing}."
        words = {x: deal.dead_pair_reason(p.seat, x) for x in sorted(refused)}
        if any(w.code == "live_pair" for w in words.values()):
            return (
                "Not yet: a pair you named is not dead. Where are the other two cards of its rank?"
            )
        if refused:  # dead, and refused for another reason: the engine's, or not a dead pair
            _, why = next(iter(sorted(refused.items())))
            return f"Not yet: {why.words(p.seat, seat_names(deal.n))}."
        return "Not yet. For each pair, find where the other two cards of its rank are."

    def answer_words(self, p: Puzzle) -> list[str]:
        return ["hint", "quit", "yes", "no"] + codes(p.position.hand(p.seat))

    def wrong_answer(self, p: Puzzle) -> str | None:
        return "no" if p.answer["dead_pairs"] else p.data["pairs"][0]
