"""``capture-now``: your turn, several captures possible; which of them cannot wait?

Each capture option is at risk or safe as the engine counts it
(:meth:`tutor.engine.deal.Deal.capture_options`, RULES.md 8).  The answer is the set of at-risk
ranks, which may be empty.  Positions are chosen by design to spread over four cases (the plan
draws one from the seed, :data:`CASES`): exactly one at risk, all safe, several at risk, and the
endgame exception (a lone card that would be at risk is safe because play ends before your next
turn).  The endgame case is rare in play (about one deal in 150), so one attempt at it plays up
to :data:`ENDGAME_DEALS` deals, counting only where the hands have the shape it needs; after
:data:`ENDGAME_ATTEMPTS` attempts it settles for an all-safe position (a puzzle's main theme is
always the case it has).  The
explanation gives the engine's verdict and reason for every option.  The last hint, worked out
only when it is shown (:func:`analysis_hint`), gives the capture the engine's analysis rates best
and its margin in stakes.

Not for a ruleset without one-for-one captures (no lone table card is ever at risk), nor one
where a player may capture again in the same turn (``captures_per_turn: any``: nothing has to
wait).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tutor.engine.cards import RANK_PLURALS, codes, pretty_cards, rank_code, rank_of
from tutor.engine.deal import Action, CaptureOption, Deal
from tutor.engine.reasons import NO_CAPTURE_NAMED
from tutor.engine.rulesets import Ruleset
from tutor.engine.values import CaptureForm
from tutor.puzzles.base import (
    Candidate,
    Ctx,
    Plan,
    PuzzleKind,
    Verdict,
    join,
    option_label,
    set_place,
    text_seed,
    turn_analysis,
)
from tutor.puzzles.model import AnswerError, Definition, Puzzle, definition
from tutor.puzzles.reader import NOTHING_WORDS, read

#: The cases a puzzle is aimed at, in the order the seeds cycle through them (see
#: :meth:`CaptureNow.cases` for when the endgame is left out).
CASES = (
    "one-at-risk",
    "all-safe",
    "several-at-risk",
    "one-at-risk",
    "endgame",
    "one-at-risk",
    "all-safe",
    "several-at-risk",
    "one-at-risk",
    "all-safe",
)
#: Deals one attempt plays looking for the endgame case (about one deal in 150 has it), and
#: the attempts that look for it before settling for an all-safe position.
ENDGAME_DEALS = 8
ENDGAME_ATTEMPTS = 10
_WORDS = {w: "none" for w in NOTHING_WORDS}


def option_theme(o: CaptureOption) -> str:
    """How an option is judged: ``at-risk``; safe because two or three lie on the table
    (``hold-back``), because every other card of the rank is in sight (``counting``), or
    because nobody can take it before your next turn (``endgame``)."""
    if o.at_risk:
        return "at-risk"
    if o.table >= 2:
        return "hold-back"
    if o.unseen == 0:
        return "counting"
    return "endgame"


def _mover(deal: Deal) -> int:
    """The seat to move (a position collected always has one)."""
    seat = deal.to_move
    assert seat is not None
    return seat


def case_of(opts: Sequence[CaptureOption]) -> str:
    """The case of a position's capture options (see :data:`CASES`)."""
    risky = sum(o.at_risk for o in opts)
    if risky >= 2:
        return "several-at-risk"
    if risky == 1:
        return "one-at-risk"
    if any(option_theme(o) == "endgame" for o in opts):
        return "endgame"
    return "all-safe"


def analysis_hint(p: Puzzle) -> str:
    """The last hint of a capture-now puzzle, worked out when it is shown: which capture the
    engine's analysis (:func:`tutor.puzzles.base.turn_analysis`: ``hint_samples`` deals of the
    cards the seat cannot see, played out by ``counter`` players, seeded from the puzzle's id)
    rates best, and by how much (the paired difference from the next best, with its 95%
    interval), or that none is clearly best, or that they are all worth the same.  Wording from
    ``words`` of ``capture-now.yaml``."""
    defn = definition("capture-now")
    samples = int(defn.options.get("hint_samples", 200))
    deal = p.deal()
    an = turn_analysis(deal, p.seat, text_seed(f"{p.id}/hint"), samples)
    best = an.best
    second = next(o for o in an.options if o.group != best.group)
    lead = max(0.0, -second.diff)
    if second.diff + second.diff_ci95 < 0:
        key = "analysis_hint"
    elif lead < 0.005 and second.diff_ci95 < 0.005:
        key = "analysis_hint_equal"  # the same result in every deal played out
    else:
        key = "analysis_hint_close"
    facts = {
        "best": option_label(best.action),
        "second": option_label(second.action),
        "margin": f"{lead:.2f}",
        "ci": f"{second.diff_ci95:.2f}",
        "unit": an.unit,
        "samples": samples,
    }
    return defn.fill(defn.word(key), facts, f"words.{key}")


def _endgame_shape(deal: Deal, p: int) -> bool:
    """Cheap test before counting: ``p`` holds two cards or more and every other player one at
    most (the shape the endgame exception needs, RULES.md 8)."""
    if len(deal.hand(p)) < 2:
        return False
    return all(len(deal.hand(q)) <= 1 for q in range(deal.players) if q != p)


class CaptureNow(PuzzleKind):
    name = "capture-now"

    def why_not(self, rs: Ruleset) -> str | None:
        game = rs.game()
        if not game.allows(CaptureForm.ONE_FOR_ONE):
            return "without one-for-one captures no lone table card is ever at risk"
        if game.any_captures_per_turn:
            return "a player may make every capture in one turn there, so none has to wait"
        return None

    def cases(self, rs: Ruleset, players: int) -> tuple[str, ...]:
        """The cases the seeds cycle through under ``rs`` with ``players``: no endgame case with
        three players (it hardly ever arises) or where the last player plays on (the exception
        does not hold there, RULES.md 8)."""
        if players > 3 and not rs.last_in_plays_on:
            return CASES
        return tuple(c for c in CASES if c != "endgame")

    def plan(
        self, base: random.Random, rs: Ruleset, players: int, seed: int, defn: Definition
    ) -> Plan:
        cases = self.cases(rs, players)
        return {
            "variant": "default",
            "case": cases[set_place(seed, len(cases)) % len(cases)],
            "prefer": base.choice(["counting", "hold-back", "any", "any"]),
        }

    def plan_may_fit(self, plan: Plan, theme: str) -> bool:
        return theme not in CASES or plan["case"] == theme

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        opts = deal.capture_options(seat)
        return {
            "at_risk": [rank_code(o.rank) for o in opts if o.at_risk],
            "safe": [rank_code(o.rank) for o in opts if not o.at_risk],
        }

    def _collect(self, ctx: Ctx, case: str) -> list[Deal]:
        """Positions of ``case`` from one deal played by computer players."""
        found: list[Deal] = []
        endgame = case == "endgame"

        def observer(d: Deal, a: Action) -> None:
            p = d.to_move
            if d.phase != "play" or p is None or a.kind == "claim":
                return
            if endgame and (found or not _endgame_shape(d, p)):
                return
            opts = d.capture_options(p)
            if len(opts) >= 2 and case_of(opts) == case:
                found.append(d.clone())

        ctx.play(ctx.new_pack(), ctx.rng.randrange(ctx.players), ctx.bots(0.1), observer)
        return found

    def build(self, ctx: Ctx) -> Candidate | None:
        case = ctx.plan["case"]
        if case == "endgame" and ctx.attempt >= ENDGAME_ATTEMPTS:
            case = "all-safe"
        found = []
        for _ in range(ENDGAME_DEALS if case == "endgame" else 1):
            found = self._collect(ctx, case)
            if found:
                break
        if not found:
            return None
        rng = ctx.rng
        prefer = ctx.plan["prefer"]
        themed = [
            d for d in found if any(option_theme(o) == prefer for o in d.capture_options(_mover(d)))
        ]
        deal = rng.choice(themed or found)
        seat = _mover(deal)
        opts = deal.capture_options(seat)
        risky = [o for o in opts if o.at_risk]
        safe = [o for o in opts if not o.at_risk]
        caps = [
            a
            for a in deal.legal_actions()
            if a.kind == "capture" and a.rank in {o.rank for o in risky}
        ]
        if risky:
            canonical = join([RANK_PLURALS[o.rank] for o in risky])
            accepted = [canonical, " ".join(rank_code(o.rank) for o in risky)]
            if len(risky) == 1:
                accepted += [a.notation() for a in caps]
        else:
            accepted = ["none", "nothing"]
        lines = []
        for o in opts:
            verdict = "cannot wait" if o.at_risk else "can wait"
            lines.append(
                f"- {RANK_PLURALS[o.rank].capitalize()} ({o.table} on the table, "
                f"{o.hand} in your hand, {o.unseen} unseen): {verdict}: {o.reason}."
            )
        kinds = sorted({option_theme(o) for o in opts})
        if len(risky) == 1:
            cap = next(a for a in caps if a.rank == risky[0].rank)
            verdict = (
                f"Take the {RANK_PLURALS[risky[0].rank]} now ({pretty_cards(cap.cards)} "
                f"takes {pretty_cards(cap.table)}); the {join([RANK_PLURALS[o.rank] for o in safe])} "
                "can wait."
            )
        elif risky:
            verdict = (
                f"The {join([RANK_PLURALS[o.rank] for o in risky])} are "
                f"{'both' if len(risky) == 2 else 'all'} at risk, "
                f"and {deal.game.capture_limit}: take one of them now and "
                "you may lose the other"
                + ("s" if len(risky) > 2 else "")
                + (f"; the {join([RANK_PLURALS[o.rank] for o in safe])} can wait." if safe else ".")
            )
        else:
            safe_all = deal.nothing_at_risk(seat)
            assert safe_all is not None  # captures, none at risk
            verdict = f"None of them is at risk: {safe_all.words(seat)}."
        example = next(
            RANK_PLURALS[r]
            for r in (6, 8, 3, 10, 1, 4, 11, 0, 2, 5, 7, 9, 12)
            if r not in {o.rank for o in opts}
        )
        facts = {
            "verdict": verdict,
            "counting": "\n".join(lines),
            "options": len(opts),
            "option_ranks": join([RANK_PLURALS[o.rank] for o in opts]),
            "example": example,
        }
        features = {
            "many_options": float(len(opts) >= 3),
            "counting": float(any(option_theme(o) == "counting" for o in safe)),
            "endgame": float(any(option_theme(o) == "endgame" for o in safe)),
            "several": float(len(risky) >= 2),
        }
        tags = set(kinds)
        if any(o.table == 3 for o in opts):
            tags.add("table_prial")
        return Candidate(
            deal=deal,
            seat=seat,
            variant="default",
            answer=self.solve(deal, seat, {}, ctx.rs, ctx.players),
            accepted=accepted,
            facts=facts,
            features=features,
            themes=["capture", "counting-risk", case] + kinds,
            theme=case,
            tags=tags,
        )

    # -- answers ----------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        r = read(
            text,
            words=_WORDS,
            expected="name the ranks that cannot wait (for example `sevens`), or answer `none`",
        )
        deal = p.position
        hand, table = set(deal.hand(p.seat)), set(deal.table_cards())
        off = [c for c in r.cards if c not in hand and c not in table]
        if off:
            raise AnswerError(
                f"{pretty_cards(off)}: not in your hand or on the table. Name the "
                "ranks that cannot wait, for example `sevens`, or `none`."
            )
        named = {rank_of(c) for c in r.cards} | set(r.ranks)
        says_none = "none" in r.words
        if says_none and named:
            raise AnswerError("name the ranks that cannot wait, or answer `none`, not both")
        if not named and not says_none:
            raise AnswerError(
                "name the ranks that cannot wait (for example `sevens`), or "
                "answer `none` if every capture can wait"
            )
        opts = {o.rank: o for o in deal.capture_options(p.seat)}
        right = {o.rank for o in opts.values() if o.at_risk}
        if named == right:
            if not right:
                return Verdict(True, "Right: none of your captures is at risk.")
            return Verdict(
                True,
                "Right: "
                + "; ".join(
                    f"the {RANK_PLURALS[x]} cannot wait ({opts[x].reason})" for x in sorted(right)
                )
                + ".",
            )
        parts = []
        for x in sorted(named - right):
            why = deal.why_no_capture(p.seat, x)
            if why is None:
                parts.append(f"the {RANK_PLURALS[x]} can wait ({opts[x].reason})")
            else:
                parts.append(why.words(p.seat))
        for x in sorted(right - named):
            parts.append(f"the {RANK_PLURALS[x]} cannot wait ({opts[x].reason})")
        if not right:
            parts.append("none of your captures is at risk")
        hits = len(named & right)
        union = len(named | right)
        bits = []
        if named - right:
            bits.append(
                "you named a capture that can wait"
                if (named - right) & set(opts)
                else f"you named {NO_CAPTURE_NAMED}"
            )
        if right - named:
            bits.append("you left out a capture that cannot wait")
        return Verdict(
            False,
            "Not quite: " + "; ".join(parts) + ".",
            credit=hits / union if union else 0.0,
            retry="Not yet: " + " and ".join(bits or ["look again"]) + ". For each "
            "rank you can capture, ask: could an opponent take the table cards "
            "before your next turn?",
        )

    def late_hints(self, p: Puzzle) -> list[Callable[[], str]]:
        return [lambda: analysis_hint(p)]

    def answer_words(self, p: Puzzle) -> list[str]:
        deal = p.position
        return ["hint", "quit", "none"] + codes(set(deal.hand(p.seat)) | set(deal.table_cards()))

    def wrong_answer(self, p: Puzzle) -> str | None:
        a = p.answer
        first: str = a["safe"][0] if a["safe"] else "none"
        return first if a["at_risk"] else a["safe"][0]
