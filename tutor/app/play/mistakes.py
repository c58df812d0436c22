"""What a practice deal keeps of the learner's play: their mistakes (with the engine's reason),
the graded moments for the progress store, every claim race, and the signal-detection figures of
spotting oversights (hits, misses, false claims).  The wording of each mistake is here; every
fact in it is the engine's (the parameter table states the rules: :func:`rule_words`)."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.engine import race as R
from tutor.engine.cards import RANK_PLURALS, pretty_cards, rank_of
from tutor.engine.deal import Action
from tutor.engine.game import Game
from tutor.engine.parameters import rule_words, value_phrase, value_short, value_words
from tutor.engine.race import Outcome, Watched
from tutor.engine.reasons import false_claim_words

__all__ = [
    "MISTAKE_TITLES",
    "NAME_ALL",
    "TABLE_FALSE_CLAIM",
    "Mistake",
    "Opportunity",
    "Race",
    "Sighting",
    "HIT",
    "MISS",
    "claim_words",
    "FALSE_CLAIM",
    "declaration_mistake",
    "false_claim_mistake",
    "held_declaration",
    "laid_down_holding",
    "missed_claim",
    "own_oversight",
    "too_late",
]

MISTAKE_TITLES = {
    "missed_claim": "missed claim",
    "false_claim": "false claim",
    "missed_declaration": "missed declaration",
    "mournival_not_taken": "table mournival not taken",
    "split_prial": "split a table prial",
    "at_risk_left": "at-risk capture left for another",
    "safe_too_early": "safe capture taken too early",
    "claim_too_late": "claim too late",
    "own_oversight": "your oversight",
}

#: The outcomes of the signal-detection figures (as the progress store keeps them): an
#: oversight claimed first; one the learner could have claimed and did not; a claim of nothing.
HIT, MISS, FALSE_CLAIM = "hit", "miss", "false_claim"


@dataclass
class Race:
    """One claim that took the cards: ``index`` of the claim in the deal's history, the
    oversight ``kind``, ``cards`` and ``offender``; ``reactions`` the computer players' reaction
    times (seat -> seconds) for it; ``learner`` the learner's time when they took it (None
    otherwise; about 0 when piped), ``learner_eligible`` whether they could; ``winner`` the
    claimant; ``window`` the winner's time (from the moment it could be claimed to the claim);
    ``runner_up`` the seat of the computer player that came next and ``margin`` how far behind
    it was (None when none was to claim it); ``piped`` when there was no real time;
    ``hinted`` when the learner took it after a hint in the deal (it counts in no figure)."""

    index: int
    kind: str
    cards: tuple[int, ...]
    offender: int
    reactions: dict[int, float]
    learner: float | None
    learner_eligible: bool
    winner: int
    window: float
    runner_up: int | None = None
    margin: float | None = None
    piped: bool = False
    hinted: bool = False


@dataclass
class Mistake:
    """A mistake of the learner: ``kind`` (a key of :data:`MISTAKE_TITLES`), ``index`` (history
    index where it happened), ``text`` what happened, ``reason`` the engine's reason, and
    ``theme`` the skill it is graded under (a declaration's), or empty."""

    kind: str
    index: int
    text: str
    reason: str
    theme: str = ""

    @property
    def title(self) -> str:
        return MISTAKE_TITLES.get(self.kind, self.kind)


@dataclass
class Opportunity:
    """A graded moment for the progress store: ``kind``/``themes`` (puzzle kind and themes),
    ``correct``, ``seconds`` (None when no time was measured at a terminal: piped input, a
    declaration made in passing, a claim missed); ``index`` the history index."""

    kind: str
    themes: tuple[str, ...]
    correct: bool
    seconds: float | None
    index: int


@dataclass
class Sighting:
    """One figure of spotting oversights: ``outcome`` (:data:`HIT`, :data:`MISS` or
    :data:`FALSE_CLAIM`), the oversight ``kind`` (a false claim names none: empty), ``seconds``
    from the moment it could be claimed to the claim (hits at a terminal only, else None) and
    ``index`` the history index it belongs to."""

    outcome: str
    kind: str
    seconds: float | None
    index: int


# -- the wording of mistakes ------------------------------------------------------------------

_DECL_WHAT = {
    "declare_prial": "a prial",
    "declare_mournival": "a mournival",
    "declare_dead_pair": "a dead pair",
    "declare_pair": "a pair",
}
#: The theme a declaration is graded under.
DECL_THEME = {
    "declare_dead_pair": "dead-pair",
    "declare_prial": "prial",
    "declare_mournival": "mournival",
    "declare_pair": "pair",
}


#: Said for a claim that names a number of cards no claim takes (or nothing), whatever is open:
#: never which cards (that is the find).
NAME_ALL = "Which cards? A claim names all the cards it takes, or their rank alone."
#: Said at a live table for a claim that names nothing claimable, the same whatever is on the
#: table (its referee passes on no reason that could tell what is open).
TABLE_FALSE_CLAIM = false_claim_words("it counts in your review") + "."


def claim_words(o: Outcome, seat: int, names: list[str], *, table: bool = False) -> str:
    """What the person at ``seat`` is told of their claim's outcome ``o`` when it took nothing,
    in one sentence: the one wording of a practice deal's watch and a live table's replies.
    A false claim (:data:`~tutor.engine.race.FALSE_CLAIM`) with the engine's reason, or at a
    live ``table`` :data:`TABLE_FALSE_CLAIM`; ``Too late:`` and the engine's reason; an unread
    naming in the engine's words; an incomplete one :data:`NAME_ALL`; several oversights fit
    (:data:`~tutor.engine.race.AMBIGUOUS`, practice only): the engine's question.  ``names``
    are the seats' (the person's own is "you": :meth:`~tutor.engine.reasons.Reason.words`).
    A claim that took cards is worded by the race it won, not here: raises ValueError."""
    if o.result == R.HIT:
        raise ValueError("a claim that took cards is worded by its race")
    if o.result == R.INCOMPLETE:
        return NAME_ALL
    if o.result == R.FALSE_CLAIM and table:
        return TABLE_FALSE_CLAIM
    why = o.reason.words(seat, names)
    if o.result == R.FALSE_CLAIM:
        return false_claim_words(why) + "."
    if o.result == R.TOO_LATE:
        return f"Too late: {why}."
    return why + "."


def decl_words(a: Action) -> str:
    """``a prial of sevens``: the declaration ``a`` in words."""
    return f"{_DECL_WHAT[a.kind]} of {RANK_PLURALS[rank_of(a.cards[0])]}"


def decl_reason(a: Action) -> str:
    """Why the declaration ``a`` could have been made (the parameter table's rule:
    :meth:`~tutor.engine.game.Game.declaration_rule`)."""
    return Game.declaration_rule(a, capital=True) + "."


def declaration_mistake(a: Action, index: int, text: str, tail: str = "") -> Mistake:
    """A missed declaration ``a`` at history ``index``: ``text`` says what happened."""
    return Mistake("missed_declaration", index, text, decl_reason(a) + tail, DECL_THEME[a.kind])


def laid_down_holding(a: Action, index: int) -> Mistake:
    """The learner lay down at history ``index`` holding the declaration ``a``."""
    return declaration_mistake(a, index, f"You lay down holding {decl_words(a)}.")


def held_declaration(a: Action, index: int, leftovers_words: str) -> Mistake:
    """Play ended (history ``index``) with the declaration ``a`` still in the learner's hand, so
    its cards went with the leftovers (``leftovers_words``: where, in the ruleset's words:
    :attr:`tutor.engine.game.Game.leftovers_words`)."""
    return declaration_mistake(
        a,
        index,
        f"Play ended with {decl_words(a)} still in your hand.",
        f" Left in hand, they were leftovers: {leftovers_words}.",
    )


def missed_claim(w: Watched, names: list[str], symbols: bool) -> Mistake:
    """The mistake of not claiming ``w`` (closed without the learner's claim), with the rule
    from the parameter table."""
    ov = w.oversight
    cards = pretty_cards(ov.cards, symbols)
    what = (
        f"You did not claim {value_phrase('oversights', ov.kind, who=names[ov.offender])} ({cards})"
    )
    if w.taken_by is not None:
        react = w.reactions.get(w.taken_by)
        text = (
            f"{what}: {names[w.taken_by]} claimed it"
            + (f" after {react:.2f} s" if react is not None else "")
            + "."
        )
    elif w.how == "ended":
        text = f"{what}; nobody did before play ended."
    else:
        text = f"{what}; it stayed open until the cards were captured."
    reason = (
        f"Claimable ({value_short('oversights', ov.kind)}: "
        f"{value_words('oversights', ov.kind)}) from action {ov.index + 1}: "
        f"{rule_words('oversights', ov.kind, who=names[ov.offender])}."
    )
    return Mistake("missed_claim", ov.index, text, reason)


def false_claim_mistake(typed: str, reason: str, index: int) -> Mistake:
    """The mistake of claiming ``typed`` when nothing of it was claimable (``reason``: the
    engine's, said to the learner as a sentence: :meth:`~tutor.engine.reasons.Reason.words`
    with ``capital``)."""
    return Mistake(
        "false_claim", index, f"You claimed {typed!r}: nothing of that was claimable.", reason + "."
    )


def too_late(w: Watched, reason: str, symbols: bool) -> Mistake:
    """The learner's claim of ``w`` arrived after another's took it (``reason``: the engine's,
    said to the learner: :meth:`~tutor.engine.reasons.Reason.words`)."""
    ov = w.oversight
    return Mistake(
        "claim_too_late",
        ov.index,
        f"You claimed {pretty_cards(ov.cards, symbols)}: too late.",
        reason + ".",
    )


def own_oversight(w: Watched, names: list[str], seat: int, symbols: bool) -> Mistake:
    """The learner (``seat``) left the oversight of ``w`` open for others to claim, with the
    rule from the parameter table."""
    ov = w.oversight
    took = f"{names[w.taken_by]} claimed it" if w.taken_by is not None else "nobody claimed it"
    return Mistake(
        "own_oversight",
        ov.index,
        f"You left {pretty_cards(ov.cards, symbols)} claimable "
        f"({ov.kind.replace('_', ' ')}): {took}.",
        f"{value_words('oversights', ov.kind)}: {rule_words('oversights', ov.kind, who='you')}.",
    )
