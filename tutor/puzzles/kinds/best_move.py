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
clearly best answer): the best option's mean result beats the second best's by at least
``margin`` (half a stake; half a point under pairs scoring, a point being a pair won) and the two
options' 95% intervals do not overlap.

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
Generation takes 0.24 s a puzzle (median; p99 0.96 s, max 1.35 s over 200 seeds on a shared
two-core machine: ``benchmarks/bench_puzzles.py``), most of it in the analyses.

The answer and the margin are fixed at generation and stored in the puzzle with every option's
figures, the seed and the budget (so the analysis can be rerun and checked).
:meth:`BestMove.solve` checks by engine queries that the listed moves are exactly the seat's
options in the replayed position, one for each class, and reads the answer from the figures.
The explanation gives every option's value, and the engine's counting for each capture.
"""

from __future__ import annotations

import random

from tutor.engine.analysis import option_class
from tutor.engine.bots import make_bot
from tutor.engine.cards import RANK_PLURALS
from tutor.engine.records import action_from_json, action_to_json
from tutor.puzzles.base import (LETTERS, Candidate, PuzzleKind, Verdict, option_label,
                                set_index, text_seed, turn_analysis, turn_options)
from tutor.puzzles.model import AnswerError, definition
from tutor.puzzles.reader import letters_answer

#: Which positions a puzzle analyses first, in the order the seeds cycle through them (see
#: the module docstring).
CASES = ("at-risk", "other", "at-risk")
#: Deals a puzzle planned ``other`` plays before it looks at the ``at-risk`` positions first.
OTHER_ATTEMPTS = 4
#: Draws of the ``counter`` player's choice that say whether its rules (an at-risk capture
#: first, then a declaration, then by the count of table cards) find the best move.
ADVICE_DRAWS = 16


def number(x: float) -> str:
    """``+1.25``, ``−0.40`` or ``0.00`` (a true minus sign), for figures in stakes."""
    s = f"{x:+.2f}"
    if s in ("+0.00", "-0.00"):
        return "0.00"
    return s.replace("-", "−")


def runner_up(an):
    """The best option of the analysis ``an`` that is not the same play as its best, or None."""
    return next((o for o in an.options if o.group != an.best.group), None)


def lead(an) -> float:
    """How far the analysis ``an``'s best option is ahead of the :func:`runner_up`, in the
    deal's unit (0 when every option is the same play)."""
    second = runner_up(an)
    return 0.0 if second is None else an.best.mean - second.mean


def promising(an, margin: float) -> bool:
    """Whether a short analysis ``an`` is worth following with the full one: its leader is
    ahead by at least half of ``margin``, with a 95% interval on the paired difference that
    excludes zero.  (Measured over 315 positions of eight rulesets: the full analysis finds a
    clearly best move behind 92% of the positions this keeps, and 5% of those it drops; it
    keeps about a quarter of them.)"""
    second = runner_up(an)
    return (second is not None and lead(an) >= margin / 2
            and second.diff + second.diff_ci95 < 0)


def clear_best(an, margin: float) -> bool:
    """True when the analysis ``an`` has one clearly best option: it beats the
    :func:`runner_up` by at least ``margin`` and the two 95% intervals do not overlap."""
    best, second = an.best, runner_up(an)
    return (second is not None and best.mean - second.mean >= margin
            and best.mean - best.ci95 > second.mean + second.ci95)


def _mixed(deal, seat: int) -> bool:
    """The seat can make a capture that is at risk, and something else too (engine counting)."""
    risky = sum(o.at_risk for o in deal.capture_options(seat))
    return 0 < risky < len(turn_options(deal, seat))


def risk_tag(deal, seat: int, a) -> str:
    """The theme of the best move ``a``: ``capture-at-risk`` (it takes a rank that could be gone
    by the seat's next turn), ``capture-safe`` (a rank that would wait), ``declaration`` or
    ``end-turn``."""
    if a.kind in ("capture", "play_on_capture"):
        opts = {o.rank: o for o in deal.capture_options(seat)}
        o = opts.get(a.rank)
        return "capture-at-risk" if o is not None and o.at_risk else "capture-safe"
    if a.kind == "end_turn":
        return "end-turn"
    return "declaration"


def advice_share(deal, seat: int, best_action) -> float:
    """The share of :data:`ADVICE_DRAWS` choices of the ``counter`` player at this position that
    are the best move (up to suits): how far the usual advice finds it."""
    legal = deal.legal_actions()
    bot = make_bot("counter")
    key = option_class(deal, best_action)
    hits = sum(option_class(deal, bot.choose(deal, legal, random.Random(k))) == key
               for k in range(ADVICE_DRAWS))
    return hits / ADVICE_DRAWS


class BestMove(PuzzleKind):
    name = "best-move"
    analysed = True

    def plan(self, base, rs, players, seed, defn):
        return {"variant": "default", "prefer": CASES[set_index(seed) % len(CASES)]}

    def plan_may_fit(self, plan, theme):
        return theme != "capture-safe" or plan["prefer"] == "other"

    def solve(self, deal, seat, data, rs, players):
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
        return {"choices": [dict(c) for c in data["choices"]], "best": data["best"],
                "margin": data["margin"], "unit": data["unit"], "policy": data["policy"],
                "samples": data["samples"], "seed": data["seed"]}

    def build(self, ctx):
        opts = ctx.defn.options
        samples = int(opts.get("samples", 200))
        margin = float(opts.get("margin", 0.5))
        max_options = int(opts.get("max_options", 6))
        budget = int(opts.get("analyses", 4))
        screens = int(opts.get("screens", 12))
        screen = int(opts.get("screen", 32))
        policy = str(opts.get("policy", "counter"))
        spots = []

        def observer(d, a) -> None:
            p = d.to_move
            if d.phase != "play" or p is None or d.free_actions(p):
                return
            if 2 <= len(turn_options(d, p)) <= max_options:
                spots.append(d.clone())

        ctx.play(ctx.new_pack(), ctx.rng.randrange(ctx.players), ctx.bots(0.1), observer)
        rng = ctx.rng
        rng.shuffle(spots)
        at_risk = ctx.plan["prefer"] == "at-risk" or ctx.attempt >= OTHER_ATTEMPTS
        spots.sort(key=lambda d: _mixed(d, d.to_move) != at_risk)
        where = f"{ctx.kind}.{ctx.rs.id}.{ctx.players}.{ctx.seed}/v{ctx.defn.generator_version}"
        for k, deal in enumerate(spots[:screens]):
            seat = deal.to_move
            seed = text_seed(f"{where}/{ctx.attempt}/{k}")
            if not promising(turn_analysis(deal, seat, seed, screen, policy), margin):
                continue
            an = turn_analysis(deal, seat, seed, samples, policy)
            if clear_best(an, margin):
                return self._candidate(ctx, deal, seat, an, seed, samples, policy)
            budget -= 1
            if budget <= 0:
                break
        return None

    def _candidate(self, ctx, deal, seat, an, seed, samples, policy) -> Candidate:
        entries = turn_options(deal, seat)
        ctx.rng.shuffle(entries)
        best = an.best
        best_key = option_class(deal, best.action)
        second = runner_up(an)
        unit = an.unit
        choices = []
        best_letter = ""
        for i, (a, alike) in enumerate(entries):
            v = an.value_of(a)
            letter = LETTERS[i]
            if option_class(deal, a) == best_key:
                best_letter = letter
            choices.append({"letter": letter, "move": action_to_json(a),
                            "text": option_label(a, alike), "mean": round(v.mean, 4),
                            "ci95": round(v.ci95, 4), "diff": round(v.diff, 4),
                            "diff_ci95": round(v.diff_ci95, 4)})
        by_letter = {c["letter"]: c for c in choices}
        runner = next(c for c in choices
                      if option_class(deal, action_from_json(c["move"], 0))
                      == option_class(deal, second.action))
        ahead = round(best.mean - second.mean, 4)
        data = {"choices": choices, "best": best_letter, "margin": ahead, "unit": unit,
                "policy": policy, "samples": samples, "seed": seed}
        answer = self.solve(deal, seat, data, ctx.rs, ctx.players)
        b = by_letter[best_letter]
        lines = []
        for c in choices:
            head = f"- {c['letter']}) {c['text']}: {number(c['mean'])} ± {c['ci95']:.2f} {unit}"
            if c["letter"] == best_letter:
                lines.append(head + ": the best.")
            else:
                lines.append(head + f": {-c['diff']:.2f} ± {c['diff_ci95']:.2f} less than "
                                    f"{best_letter}.")
        counting = []
        for o in deal.capture_options(seat):
            verdict = "cannot wait" if o.at_risk else "can wait"
            counting.append(f"- {RANK_PLURALS[o.rank].capitalize()} ({o.table} on the table, "
                            f"{o.hand} in your hand, {o.unseen} unseen): {verdict}: {o.reason}.")
        words = ctx.defn.words
        facts = {
            "options": "\n".join(f"{c['letter']}) {c['text']}" for c in choices),
            "values": "\n".join(lines),
            "verdict": (f"{best_letter}) {b['text']} is the best move: {ahead:.2f} {unit} ahead "
                        f"of the next best, {runner['letter']}) {runner['text']}."),
            "counting": (words.get("counting_lead", "The counting:") + "\n"
                         + "\n".join(counting)) if counting else "",
            "samples": samples, "unit": unit,
            "min_margin": f"{float(ctx.defn.options.get('margin', 0.5)):g}",
            "policy": words.get("policies", {}).get(policy, policy),
            "count": len(choices),
        }
        share = advice_share(deal, seat, best.action)
        tag = risk_tag(deal, seat, best.action)
        tags = {tag}
        if share == 0:
            tags.add("against-advice")
        features = {"options": float(len(choices) - 2), "close": float(ahead < 1.0),
                    "against_advice": 1.0 - share}
        return Candidate(deal=deal, seat=seat, variant="default", answer=answer,
                         accepted=[best_letter, best_letter.lower()], facts=facts,
                         features=features, themes=["best-move", tag] + sorted(tags - {tag}),
                         theme="best-move", tags=tags, data=data)

    # -- answers ----------------------------------------------------------------------------

    def check(self, p, text):
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
            return Verdict(True, f"Right: {best['letter']}) {best['text']} is the best move, "
                                 f"{p.answer['margin']:.2f} {unit} ahead of the next best.")
        words = definition(self.name).word("retry", "Not yet. Look again, and try once more.")
        return Verdict(False, f"Not the best: {got['letter']}) {got['text']} is worth "
                              f"{-got['diff']:.2f} ± {got['diff_ci95']:.2f} {unit} less than "
                              f"{best['letter']}) {best['text']}.", retry=words)

    def answer_words(self, p):
        return ["hint", "quit"] + [c["letter"] for c in p.answer["choices"]]

    def wrong_answer(self, p):
        return next(c["letter"] for c in p.answer["choices"] if c["letter"] != p.answer["best"])
