"""``best-move``: it is your turn; of the moves listed, which is clearly the best?

Positions come from real deals played by computer players.  A candidate position is one where
the player to move has from two to ``max_options`` different plays (options that are the same
play up to suits count once, :func:`~tutor.puzzles.base.turn_options`) and no free action
waiting (no claim or declaration to weigh against the turn).  The engine's analysis
(:mod:`tutor.engine.analysis`) values every option from that seat's own view: ``samples``
deals of the cards it cannot see to the other hands, every option played out to the end by
``counter`` players with common random numbers.  The budget is a number of samples and the seed
is derived from the puzzle's id (never a time budget), so the figures, and with them the answer
and the margin, are the same on any machine.

A position is kept only when one option is clearly best (the lichess rule for puzzles: one
clearly best answer), and that holds twice:

1. the selection: ``samples`` deals (seeded from the id) find the best option's mean result ahead
   of the second best's by at least ``margin`` (half a stake; half a point under pairs scoring, a
   point being a pair won), with 95% intervals that do not overlap;
2. the confirmation: a second analysis of ``confirm`` fresh deals, with a seed of its own and so
   independent of the one that chose the position, finds the same best option, clearly best
   (every other play's 95% interval on its difference from it below zero) and still ahead by at
   least ``margin``.  The figures the puzzle states (every option's value and the margin) are
   the confirmation's, so the margin is not the selection's luck.

And a person must be able to follow it: a principle separates the best move from every other
(:func:`tutor.engine.analysis.explain.principles`: take a lone table card you can match before
someone else does; hold back where two or three lie on the table; take all three; keep a
capture for later; stay in to be last in), said with the position's cards and counts.  Where no
principle separates them, the puzzle is not posed.  After a wrong answer the learner is shown one
sample play-out of their move against the best (:func:`tutor.engine.analysis.sample_playout`),
as lichess shows the refutation.

The search is bounded: each attempt plays one deal, screens at most ``screens`` of its
candidate positions with a short analysis (the first ``screen`` samples of the full one: the
same seed), analyses in full at most ``analyses`` of those where it looks :func:`promising`,
then gives up on the deal (the next attempt plays another).  Many positions
are decided whatever the player does (every option gives the same result in every sample): the
screen drops them for a fifth of the cost.  For variety the plan (:data:`CASES`, cycled by the
seed) says which positions to look at first: ``at-risk``, those where the player can make a
capture that is at risk and also something else (about half of them have a clearly best move,
nearly always the capture at risk), or ``other``, the rest (about one in ten has one, half of
them a capture that could have waited, or ending the turn where that is a choice); after
:data:`OTHER_ATTEMPTS` deals without one, ``other`` looks at the ``at-risk`` positions first too.
Most of the generation time is in the analyses (``benchmarks/bench_puzzles.py``).

The answer and the margin are fixed at generation and stored in the puzzle with every option's
figures, the confirmation's seed and budget (so the analysis can be rerun and checked), the
selection's, and the principles.
:meth:`BestMove.solve` checks by engine queries that the listed moves are exactly the seat's
options in the replayed position, one for each class, and reads the answer from the figures.
The explanation gives the principle against each other move, every option's value, and the
engine's counting for each capture.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tutor.engine.analysis import (
    Analysis,
    OptionValue,
    Principle,
    decision_options,
    option_class,
    principles,
    sample_playout,
)
from tutor.engine.analysis.fast import covers
from tutor.engine.bots import make_bot
from tutor.engine.cards import RANK_PLURALS
from tutor.engine.deal import Action, Deal
from tutor.engine.records import action_from_json, action_to_json
from tutor.engine.rulesets import Ruleset
from tutor.puzzles.base import (
    LETTERS,
    Candidate,
    Ctx,
    Plan,
    PuzzleKind,
    Verdict,
    option_label,
    set_place,
    text_seed,
    turn_analysis,
    turn_options,
)
from tutor.puzzles.board import action_text
from tutor.puzzles.model import AnswerError, Definition, Puzzle, definition
from tutor.puzzles.reader import letters_answer

#: Which positions a puzzle analyses first, in the order the seeds cycle through them (see
#: the module docstring).
CASES = ("at-risk", "other", "at-risk")
#: Deals a puzzle planned ``other`` plays before it looks at the ``at-risk`` positions first.
OTHER_ATTEMPTS = 4
#: Draws of the ``counter`` player's choice that say whether its rules (an at-risk capture
#: first, then a declaration, then by the count of table cards) find the best move.
ADVICE_DRAWS = 16
#: Actions of each line shown in a sample play-out (after the move itself) before "...".
PLAYOUT_ACTIONS = 8


def number(x: float) -> str:
    """``+1.25``, ``−0.40`` or ``0.00`` (a true minus sign), for figures in stakes."""
    s = f"{x:+.2f}"
    if s in ("+0.00", "-0.00"):
        return "0.00"
    return s.replace("-", "−")


def runner_up(an: Analysis) -> OptionValue | None:
    """The best option of the analysis ``an`` that is not the same play as its best, or None."""
    return an.runner_up


def lead(an: Analysis) -> float:
    """How far the analysis ``an``'s best option is ahead of the :func:`runner_up`, in the
    deal's unit (0 when every option is the same play)."""
    second = runner_up(an)
    return 0.0 if second is None else an.best.mean - second.mean


def promising(an: Analysis, margin: float) -> bool:
    """Whether a short analysis ``an`` is worth following with the full one: its leader is
    ahead by at least half of ``margin``, with a 95% interval on the paired difference that
    excludes zero."""
    second = runner_up(an)
    return second is not None and lead(an) >= margin / 2 and second.diff + second.diff_ci95 < 0


def clear_best(an: Analysis, margin: float) -> bool:
    """True when the analysis ``an`` has one clearly best option: it beats the
    :func:`runner_up` by at least ``margin`` and the two 95% intervals do not overlap."""
    best, second = an.best, runner_up(an)
    return (
        second is not None
        and best.mean - second.mean >= margin
        and best.mean - best.ci95 > second.mean + second.ci95
    )


def confirmed(deal: Deal, selection: Analysis, confirmation: Analysis, margin: float) -> bool:
    """True when the second, independent analysis ``confirmation`` agrees with ``selection``:
    the same best play, clearly best (:attr:`Analysis.separated`: every other play's interval
    on its difference from it below zero), ahead of the next by at least ``margin``."""
    return (
        confirmation.separated
        and lead(confirmation) >= margin
        and option_class(deal, confirmation.best.action)
        == option_class(deal, selection.best.action)
    )


def _mixed(deal: Deal, seat: int) -> bool:
    """The seat can make a capture that is at risk, and something else too (engine counting)."""
    risky = sum(o.at_risk for o in deal.capture_options(seat))
    return 0 < risky < len(turn_options(deal, seat))


def risk_tag(deal: Deal, seat: int, a: Action) -> str:
    """The theme of the best move ``a``: ``capture-at-risk`` (it takes a rank that could be gone
    by the seat's next turn), ``capture-safe`` (a rank that would wait), ``declaration`` or
    ``end-turn``."""
    if a.kind in ("capture", "play_on_capture"):
        opts = {o.rank: o for o in deal.capture_options(seat)}
        o = opts.get(a.rank) if a.rank is not None else None
        return "capture-at-risk" if o is not None and o.at_risk else "capture-safe"
    if a.kind == "end_turn":
        return "end-turn"
    return "declaration"


def advice_share(deal: Deal, seat: int, best_action: Action | None) -> float:
    """The share of :data:`ADVICE_DRAWS` choices of the ``counter`` player at this position that
    are the best move (up to suits): how far the usual advice finds it."""
    legal = deal.legal_actions()
    bot = make_bot("counter")
    key = option_class(deal, best_action)
    hits = sum(
        option_class(deal, bot.choose(deal, legal, random.Random(k))) == key
        for k in range(ADVICE_DRAWS)
    )
    return hits / ADVICE_DRAWS


def _result_words(x: int, unit: str) -> str:
    word = unit[:-1] if abs(x) == 1 else unit
    return f"{number(x)[:-3]} {word}"


def playout_lines(
    deal: Deal,
    seat: int,
    worse: Action,
    better: Action,
    seed: int,
    labels: Mapping[tuple[object, ...] | None, str],
) -> list[str]:
    """One sample play-out of ``worse`` against ``better`` in words: a line for each, the
    moves after it up to :data:`PLAYOUT_ACTIONS` and the seat's final result."""
    po = sample_playout(deal, seat, worse, better, seed)
    names = ["You" if q == seat else f"Player {q}" for q in range(deal.n)]
    unit = deal.ruleset.unit
    out = []
    for a, line, res in zip(po.options, po.lines, po.results):
        moves = [action_text(b, names, seat, True).plain for b in line[1 : PLAYOUT_ACTIONS + 1]]
        more = "; and so on to the end" if len(line) > PLAYOUT_ACTIONS + 1 else ""
        then = ("then " + "; ".join(moves) + more + ". ") if moves else ""
        out.append(
            f"- {labels[option_class(deal, a)]}: {then}You end with {_result_words(res, unit)}."
        )
    return out


class BestMove(PuzzleKind):
    name = "best-move"
    analysed = True

    def plan(
        self, base: random.Random, rs: Ruleset, players: int, seed: int, defn: Definition
    ) -> Plan:
        return {"variant": "default", "prefer": CASES[set_place(seed, len(CASES)) % len(CASES)]}

    def plan_may_fit(self, plan: Plan, theme: str) -> bool:
        return theme != "capture-safe" or plan["prefer"] == "other"

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        if deal.to_move != seat or deal.free_actions(seat):
            return {}
        listed = []
        for c in data["choices"]:
            a = action_from_json(c["move"], 0)
            if deal.why_illegal(a) is not None:
                return {}
            listed.append(option_class(deal, a))
        classes = [option_class(deal, a) for a, _ in turn_options(deal, seat)]
        if len(listed) != len(classes) or set(listed) != set(classes):
            return {}
        keys = ("best", "margin", "margin_ci95", "unit", "policy", "samples", "seed", "selection")
        return {
            "choices": [dict(c) for c in data["choices"]],
            **{k: data[k] for k in keys},
            "principles": [dict(p) for p in data["principles"]],
        }

    def build(self, ctx: Ctx) -> Candidate | None:
        opts = ctx.defn.options
        samples = int(opts.get("samples", 400))
        confirm = int(opts.get("confirm", 2000))
        if not covers(ctx.rs, ctx.players):  # rules only the pure engine plays: smaller budgets
            samples = int(opts.get("samples_pure", samples))
            confirm = int(opts.get("confirm_pure", confirm))
        margin = float(opts.get("margin", 0.5))
        max_options = int(opts.get("max_options", 6))
        budget = int(opts.get("analyses", 4))
        screens = int(opts.get("screens", 12))
        screen = int(opts.get("screen", 32))
        policy = str(opts.get("policy", "counter"))
        spots: list[tuple[Deal, int]] = []  # (a position, the seat to move)

        def observer(d: Deal, a: Action) -> None:
            p = d.to_move
            if d.phase != "play" or p is None or d.free_actions(p):
                return
            if 2 <= len(turn_options(d, p)) <= max_options:
                spots.append((d.clone(), p))

        ctx.play(ctx.new_pack(), ctx.rng.randrange(ctx.players), ctx.bots(0.1), observer)
        rng = ctx.rng
        rng.shuffle(spots)
        at_risk = ctx.plan["prefer"] == "at-risk" or ctx.attempt >= OTHER_ATTEMPTS
        spots.sort(key=lambda spot: _mixed(*spot) != at_risk)
        where = f"{ctx.kind}.{ctx.rs.id}.{ctx.players}.{ctx.seed}/v{ctx.defn.generator_version}"
        for k, (deal, seat) in enumerate(spots[:screens]):
            seed = text_seed(f"{where}/{ctx.attempt}/{k}")
            if not promising(turn_analysis(deal, seat, seed, screen, policy), margin):
                continue
            an = turn_analysis(deal, seat, seed, samples, policy)
            if clear_best(an, margin) and principles(deal, seat, an) is not None:
                cseed = text_seed(f"{where}/{ctx.attempt}/{k}/confirm")
                conf = turn_analysis(deal, seat, cseed, confirm, policy)
                found = principles(deal, seat, conf)
                if confirmed(deal, an, conf, margin) and found is not None:
                    return self._candidate(
                        ctx,
                        deal,
                        seat,
                        conf,
                        found,
                        {"seed": cseed, "samples": confirm},
                        {"seed": seed, "samples": samples},
                        policy,
                    )
            budget -= 1
            if budget <= 0:
                break
        return None

    def _candidate(
        self,
        ctx: Ctx,
        deal: Deal,
        seat: int,
        an: Analysis,
        found: list[tuple[Action, Principle]],
        budget: dict[str, int],
        selection: dict[str, int],
        policy: str,
    ) -> Candidate:
        entries = turn_options(deal, seat)
        ctx.rng.shuffle(entries)
        # each option shown as one of its class drawn at random, not the engine's first: the
        # first is the lowest suit, so a club said "another of this rank is in your hand" and
        # a spade "none" (issue 42: the suits told the partial-input learner as much as "or
        # the same with other suits" did)
        members: dict[tuple[object, ...] | None, list[Action]] = {}
        for m in decision_options(deal, seat, "turn"):
            assert m is not None  # (a turn option is an action, never hold)
            members.setdefault(option_class(deal, m), []).append(m)
        best = an.best
        assert best.action is not None  # (principles found: the best is an action)
        best_key = option_class(deal, best.action)
        second = runner_up(an)
        assert second is not None  # (clear_best: another play is listed)
        unit = an.unit
        choices: list[dict[str, Any]] = []
        best_letter = ""
        letter_of: dict[tuple[object, ...] | None, str] = {}
        for i, (first, _alike) in enumerate(entries):
            v = an.value_of(first)  # every option of a class is worth the same
            a = ctx.rng.choice(members[option_class(deal, first)])
            letter = LETTERS[i]
            letter_of[option_class(deal, a)] = letter
            if option_class(deal, a) == best_key:
                best_letter = letter
            choices.append(
                {
                    "letter": letter,
                    "move": action_to_json(a),
                    # every option worded alike: the same play with other suits is
                    # said once, in the question, not after some options (issue 42:
                    # "or the same with other suits" was right 0.28 of the time, its
                    # absence 0.48, and the partial-input learner went by it)
                    "text": option_label(a),
                    "mean": round(v.mean, 4),
                    "ci95": round(v.ci95, 4),
                    "diff": round(v.diff, 4),
                    "diff_ci95": round(v.diff_ci95, 4),
                }
            )
        by_letter = {c["letter"]: c for c in choices}
        runner = by_letter[letter_of[option_class(deal, second.action)]]
        ahead = round(-second.diff, 4)
        against = sorted(
            (
                {
                    "letter": letter_of[option_class(deal, o)],
                    "key": p.key,
                    "advice": p.advice,
                    "quote": p.quote,
                    "text": p.text,
                }
                for o, p in found
            ),
            key=lambda x: x["letter"],
        )
        data = {
            "choices": choices,
            "best": best_letter,
            "margin": ahead,
            "margin_ci95": round(second.diff_ci95, 4),
            "unit": unit,
            "policy": policy,
            "samples": budget["samples"],
            "seed": budget["seed"],
            "selection": selection,
            "principles": against,
        }
        answer = self.solve(deal, seat, data, ctx.rs, ctx.players)
        b = by_letter[best_letter]
        lines = []
        for c in choices:
            head = f"- {c['letter']}) {c['text']}: {number(c['mean'])} ± {c['ci95']:.2f} {unit}"
            if c["letter"] == best_letter:
                lines.append(head + ": the best.")
            else:
                lines.append(
                    head + f": {-c['diff']:.2f} ± {c['diff_ci95']:.2f} less than {best_letter}."
                )
        counting = []
        for o in deal.capture_options(seat):
            verdict = "at risk" if o.at_risk else "can wait"
            counting.append(
                f"- {RANK_PLURALS[o.rank].capitalize()} ({o.table} on the table, "
                f"{o.hand} in your hand, {o.unseen} unseen): {verdict}: {o.reason}."
            )
        defn = ctx.defn
        why = [
            f"- Against {p['letter']}) {by_letter[p['letter']]['text']}: "
            f"{p['advice'][0].upper()}{p['advice'][1:]}. {p['text']}"
            for p in against
        ]
        facts = {
            "options": "\n".join(f"{c['letter']}) {c['text']}" for c in choices),
            "values": "\n".join(lines),
            "verdict": (
                f"{best_letter}) {b['text']} is the best move: {ahead:.2f} ± "
                f"{data['margin_ci95']:.2f} {unit} ahead of the next best, "
                f"{runner['letter']}) {runner['text']}."
            ),
            "principles": (defn.word("principles_lead", "Why:") + "\n" + "\n".join(why)),
            "counting": (defn.word("counting_lead", "The counting:") + "\n" + "\n".join(counting))
            if counting
            else "",
            "samples": budget["samples"],
            "unit": unit,
            "selection_samples": selection["samples"],
            "min_margin": f"{float(ctx.defn.options.get('margin', 0.5)):g}",
            "policy": defn.word_map("policies").get(policy, policy),
            "count": len(choices),
        }
        share = advice_share(deal, seat, best.action)
        tag = risk_tag(deal, seat, best.action)
        tags = {tag} | {p["key"] for p in against}
        if share == 0:
            tags.add("against-advice")
        features = {
            "options": float(len(choices) - 2),
            "close": float(ahead < 1.0),
            "against_advice": 1.0 - share,
        }
        return Candidate(
            deal=deal,
            seat=seat,
            variant="default",
            answer=answer,
            accepted=[best_letter, best_letter.lower()],
            facts=facts,
            features=features,
            themes=["best-move", tag] + (["against-advice"] if share == 0 else []),
            theme="best-move",
            tags=tags,
            data=data,
            quotes=list(dict.fromkeys(p["quote"] for p in against)),
        )

    # -- answers ----------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        choices = p.answer["choices"]
        letters = "".join(c["letter"] for c in choices)
        span = f"{letters[0]} to {letters[-1]}"
        picked = letters_answer(text, letters, expected=f"answer with one letter from {span}")
        if not picked:
            raise AnswerError(f"answer with the letter of the best move ({span})")
        if len(picked) > 1:
            raise AnswerError(f"choose one move: one letter from {span}")
        by_letter = {c["letter"]: c for c in choices}
        best = by_letter[p.answer["best"]]
        unit = p.answer["unit"]
        got = by_letter[picked[0]]
        if got is best:
            return Verdict(
                True,
                f"Right: {best['letter']}) {best['text']} is the best move, "
                f"{p.answer['margin']:.2f} ± {p.answer['margin_ci95']:.2f} "
                f"{unit} ahead of the next best.",
            )
        defn = definition(self.name)
        words = defn.word("retry", "Not yet. Look again, and try once more.")
        message = (
            f"Not the best: {got['letter']}) {got['text']} is worth "
            f"{-got['diff']:.2f} ± {got['diff_ci95']:.2f} {unit} less than "
            f"{best['letter']}) {best['text']}."
        )
        why = next((x for x in p.answer["principles"] if x["letter"] == got["letter"]), None)
        if why is not None:
            message += f" {why['advice'][0].upper()}{why['advice'][1:]}. {why['text']}"
        message += "\n\n" + self.refutation(p, got, best)
        return Verdict(False, message, retry=words)

    def refutation(self, p: Puzzle, got: Mapping[str, Any], best: Mapping[str, Any]) -> str:
        """One sample play-out of the learner's move ``got`` against the ``best`` (choices of
        the puzzle), in words."""
        deal = p.deal()
        worse = action_from_json(got["move"], 0)
        better = action_from_json(best["move"], 0)
        labels = {
            option_class(deal, worse): f"{got['letter']}) {got['text']}",
            option_class(deal, better): f"{best['letter']}) {best['text']}",
        }
        lead = definition(self.name).word(
            "playout_lead",
            "One deal of the cards you could not see, played out both ways by "
            "the same computer players:",
        )
        return "\n".join(
            [lead]
            + playout_lines(deal, p.seat, worse, better, text_seed(f"{p.id}/playout"), labels)
        )

    def answer_words(self, p: Puzzle) -> list[str]:
        return ["hint", "quit"] + [c["letter"] for c in p.answer["choices"]]

    def wrong_answer(self, p: Puzzle) -> str | None:
        letter: str = next(
            c["letter"] for c in p.answer["choices"] if c["letter"] != p.answer["best"]
        )
        return letter
