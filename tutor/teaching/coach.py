"""The coach of a deal played to learn: the situations it stops at, each found by asking the
engine, and what it says of each.

A *situation* is something a learner meets for the first time in a deal (:data:`SITUATIONS`):
a mournival dealt to the table, a prial or mournival in the hand, the first capture, a prial on
the table, a dead pair, lying down, an oversight to claim, the end of play and the settlement.
:func:`situations` finds those present in a deal as one seat sees it, by the engine's own
questions (:meth:`Deal.legal_actions`, :meth:`Deal.free_actions`, :meth:`Deal.dead_pairs`,
:meth:`Deal.open_oversights`, :meth:`Deal.lie_down_oversights`, :attr:`Deal.result`, ...), each
as a :class:`Seen` whose facts are the engine's: the moves as the learner would type them, and
the rule in the parameter table's words (:func:`tutor.engine.parameters.value_words`,
:func:`~tutor.engine.parameters.rule_words`, :func:`~tutor.engine.parameters.settlement_rule`).
No sentence of a rule is written here.

What the coach *says* of a situation is the course's: a :class:`Stop` of a lesson's ``coach``
block names the lesson page that teaches it, the words on that page the coach shows
(:func:`page_words`, from the phrase the stop gives to the end of its paragraph) and the
quotations on that page it quotes (:func:`stop_quotes`: those of the deal's own source where
the stop lists any).  ``laugh lessons check`` holds every stop to its page
(:func:`stop_problems`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tutor.engine.cards import RANK_PLURALS, CardSet, pretty_cards, rank_of, sets_of
from tutor.engine.deal import Action, Deal, one_declaration_per_rank
from tutor.engine.parameters import rule_words, seat_working, settlement_rule, value_words
from tutor.engine.values import CaptureForm, Declaration, OversightKind
from tutor.teaching.lessons import SITUATIONS, Stop, page_quotes, page_words, stop_problems

__all__ = [
    "AT_THE_END",
    "SITUATIONS",
    "Seen",
    "Stop",
    "action_words",
    "page_quotes",
    "page_words",
    "situations",
    "stop_for",
    "stop_problems",
    "stop_quotes",
]

#: The situations found only once the deal is over.
AT_THE_END = ("end", "settlement")


@dataclass(frozen=True)
class Seen:
    """A situation present now: its id (a key of :data:`SITUATIONS`) and the engine's facts
    about it, each a line for the learner."""

    situation: str
    facts: tuple[str, ...]


def action_words(a: Action, symbols: bool = True) -> str:
    """An action as the learner may type it, its cards written as the screen writes them
    (:meth:`Action.notation` with :func:`~tutor.engine.cards.pretty_cards`: ``7♥ 7♠``,
    ``declare Q♣ Q♦``, ``claim 9♠ 9♦``, ``lie down``); the engine reads either."""
    text = a.notation()
    if a.kind in ("lie_down", "end_turn"):
        return text
    head = "" if a.kind in ("capture", "play_on_capture") else text.split(" ", 1)[0] + " "
    if a.kind in ("capture", "play_on_capture"):
        return pretty_cards(a.cards, symbols) + " " + pretty_cards(a.table, symbols)
    return head + pretty_cards(a.cards, symbols)


def _name(names: Sequence[str], seat: int, q: int) -> str:
    return "you" if q == seat else names[q]


def situations(
    deal: Deal, seat: int, names: Sequence[str], symbols: bool = True, since: int = 0
) -> list[Seen]:
    """The situations present in ``deal`` as ``seat`` sees it now, in :data:`SITUATIONS` order.

    ``names`` has one name per seat (for the facts); ``since`` is the index in the deal's
    history from which an action counts as just made (another player lying down).  Only what
    ``seat`` may see is used: its own hand and moves, the table, the won cards and the actions
    made (a computer player's hand is never looked at)."""
    over = deal.phase == "over"
    now = _Now(
        deal,
        seat,
        names,
        symbols,
        over,
        mine=[] if over else deal.legal_actions(seat),
        turn=deal.legal_actions() if not over and deal.to_move == seat else [],
        recent=[a for a in deal.history[since:] if a.player != seat],
    )
    caps = [a for a in now.turn if a.kind in ("capture", "play_on_capture")]
    found = [
        _table_mournival(now),
        _declare(now),
        _capture(now, caps),
        _table_prial(now, caps),
        _dead_pair(now),
        _lie_down(now),
        _claim(now),
    ]
    out = [seen for seen in found if seen is not None]
    if over and deal.result is not None:
        out.extend(_the_end(deal, seat, names))
    return out


@dataclass(frozen=True)
class _Now:
    """What one seat sees of a deal now: its legal moves (``mine``), the moves of its turn
    (``turn``: empty when another is to move) and the other players' actions just made."""

    deal: Deal
    seat: int
    names: Sequence[str]
    symbols: bool
    over: bool
    mine: list[Action]
    turn: list[Action]
    recent: list[Action]

    def under(self, name: str, value: object) -> str:
        """The sentence "Under RULESET, <the parameter's value in the table's words>."."""
        return f"Under {_title(self.deal.ruleset)}, {value_words(name, value)}."


def _title(rs) -> str:
    """The ruleset as a sentence names it after "Under": its short title, a leading "The" in
    lower case (``Under the games.porg.es compendium``), never its id (``parlett``)."""
    t = rs.short_title
    return "the" + t[3:] if t.startswith("The ") else t


def _table_mournival(now: _Now) -> Seen | None:
    """A mournival dealt to the table: the dealer may take it, or took it."""
    deal, rs = now.deal, now.deal.ruleset
    takes = (
        [a for a in deal.free_actions(deal.dealer) if a.kind == "take_table_mournival"]
        if not now.over
        else []
    )
    taken = [a for a in deal.history if a.kind == "take_table_mournival"]
    if not (takes or taken):
        return None
    a = (takes or taken)[0]
    facts = [
        f"{now.names[deal.dealer]} deal{'' if deal.dealer == now.seat else 's'}; on the "
        f"table: {pretty_cards(a.cards, now.symbols)}.",
        now.under("table_mournival", rs.table_mournival),
    ]
    if takes and deal.dealer == now.seat:
        facts.append(f"Yours to do before play: {action_words(takes[0], now.symbols)}.")
    return Seen("table-mournival", tuple(facts))


def _declare(now: _Now) -> Seen | None:
    """A prial or a mournival in the hand: the learner's, or one another player declared."""
    kinds = ("declare_prial", "declare_mournival")
    decls = one_declaration_per_rank([a for a in now.mine if a.kind in kinds])
    facts = [
        f"{now.names[a.player]} declared {_declared(a, now.symbols)}."
        for a in now.recent
        if a.kind in kinds
    ]
    facts += [
        _capital(
            rule_words(
                "declarations",
                a.declared,
                ranks=RANK_PLURALS[rank_of(a.cards[0])],
                action=action_words(a, now.symbols),
            )
        )
        + "."
        for a in decls
    ]
    if not facts:
        return None
    facts.append(now.under("hand_plays", now.deal.ruleset.hand_plays))
    return Seen("declare", tuple(facts))


def _capture(now: _Now, caps: list[Action]) -> Seen | None:
    """The learner's captures now (at most six named)."""
    if not caps:
        return None
    shown = [action_words(a, now.symbols) for a in caps[:6]]
    more = f" (and {len(caps) - 6} more: type moves)" if len(caps) > 6 else ""
    return Seen(
        "capture",
        (
            f"Your captures now: {' · '.join(shown)}{more}.",
            now.under("captures", now.deal.ruleset.captures),
        ),
    )


def _table_prial(now: _Now, caps: list[Action]) -> Seen | None:
    """A prial on the table (and the learner's capture of it with the fourth card)."""
    deal, rs = now.deal, now.deal.ruleset
    prials = (
        []
        if now.over
        else [r for r, s in sets_of(deal.table_cards()).items() if s is CardSet.PRIAL]
    )
    if not prials:
        return None
    facts = []
    for r in prials:
        three = [a for a in caps if a.rank == r and a.form is CaptureForm.ONE_FOR_THREE]
        line = f"Three {RANK_PLURALS[r]} lie on the table."
        if three:
            line += f" You hold the fourth: {action_words(three[0], now.symbols)}."
        facts.append(line)
    facts.append(now.under("captures", rs.captures))
    if deal.game.claimable(OversightKind.SPLIT_PRIAL):
        facts.append(
            f"Claimable under {_title(rs)}: "
            f"{value_words('oversights', (OversightKind.SPLIT_PRIAL,))}."
        )
    return Seen("table-prial", tuple(facts))


def _dead_pair(now: _Now) -> Seen | None:
    """A dead pair: the learner's, or one another player declared."""
    dead = one_declaration_per_rank([a for a in now.mine if a.kind == "declare_dead_pair"])
    theirs = [a for a in now.recent if a.kind == "declare_dead_pair"]
    facts = []
    for a in theirs + dead:
        said = (
            _capital(
                rule_words(
                    "declarations",
                    Declaration.DEAD_PAIR,
                    ranks=RANK_PLURALS[rank_of(a.cards[0])],
                    action=action_words(a, now.symbols),
                )
            )
            + "."
        )
        facts.append(
            f"{now.names[a.player]} declared {_declared(a, now.symbols)}. {said}"
            if a in theirs
            else said
        )
    if not facts:
        return None
    facts.append(now.under("hand_plays", now.deal.ruleset.hand_plays))
    return Seen("dead-pair", tuple(facts))


def _lie_down(now: _Now) -> Seen | None:
    """Lying down: the learner's only move, or another player just lay down."""
    facts = [
        f"{now.names[a.player]} lay down: {pretty_cards(a.cards, now.symbols)} are on the "
        "table now."
        for a in now.recent
        if a.kind == "lie_down"
    ]
    if now.turn and all(a.kind == "lie_down" for a in now.turn):
        facts.append("Your only move now: lie down.")
        for ld in now.deal.lie_down_oversights(now.seat):
            if ld.claimable:
                facts.append(
                    f"Your {RANK_PLURALS[ld.rank]} would be claimable once down: "
                    f"{value_words('oversights', (ld.kind,))}."
                )
    return Seen("lie-down", tuple(facts)) if facts else None


def _claim(now: _Now) -> Seen | None:
    """An oversight another player made that the learner may claim."""
    claims = (
        []
        if now.over
        else [o for o in now.deal.open_oversights() if now.seat in now.deal.claimants(o)]
    )
    if not claims:
        return None
    facts = [
        _capital(rule_words("oversights", o.kind, who=now.names[o.offender])) + "." for o in claims
    ]
    facts.append(
        "A claim is typed as claim and the cards (or the rank), or the space bar then the cards."
    )
    return Seen("claim", tuple(facts))


def _the_end(deal: Deal, seat: int, names: Sequence[str]) -> list[Seen]:
    """The end of play and the settlement, from the engine's result."""
    rs, res = deal.ruleset, deal.final_result()
    pc = deal.rules
    facts = []
    if res.last_in is not None:
        who = _name(names, seat, res.last_in)
        facts.append(f"{_capital(who)} {'were' if who == 'you' else 'was'} last in.")
    facts.append(
        f"Under {_title(rs)}, {value_words('last_in_plays_on', rs.last_in_plays_on)}; "
        f"{value_words('leftovers_to', rs.leftovers_to)}."
    )
    if pc.last_in_bonus and rs.bonus_to:
        facts.append(f"Under {_title(rs)}, {value_words('bonus_to', rs.bonus_to)}.")
    end = [Seen("end", tuple(facts))]
    row = res.settlement[seat]
    rule = settlement_rule(rs.scoring, breakeven=pc.breakeven, pot_to=rs.pot_to)
    facts = [f"Under {_title(rs)}: {rule}."]
    if rs.has_stakes:
        working = seat_working(
            rs.scoring,
            breakeven=pc.breakeven,  # the scoring's own
            for_cards=f"{row.for_cards:+d}",
            pot_share=row.pot_share,
        )
        facts.append(f"You won {row.won} cards: {working}; your net {row.net:+d}.")
    else:
        working = seat_working(rs.scoring, won=row.won, points=row.points)
        facts.append(f"You won {row.won} cards: {working}.")
    end.append(Seen("settlement", tuple(facts)))
    return end


def _declared(a: Action, symbols: bool) -> str:
    """What a declaration laid down, in the play screen's words."""
    what = {
        "declare_prial": "a pair of a prial",
        "declare_mournival": "a mournival",
        "declare_dead_pair": "a dead pair",
        "declare_pair": "a pair",
    }[a.kind]
    return f"{what}: {pretty_cards(a.cards, symbols)}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------------------------------
# What the coach says: the course's words (the stops and their pages: lessons._stops)


def stop_for(stops: dict, situation: str, ruleset_id: str) -> Stop | None:
    """The stop of ``situation`` for a deal under ``ruleset_id``: the block's
    ``situation/ruleset`` stop where it has one, else its ``situation`` stop."""
    return stops.get(f"{situation}/{ruleset_id}") or stops.get(situation)


def stop_quotes(stop: Stop, ruleset_id: str, library) -> list[str]:
    """The quotations the coach shows at ``stop`` in a deal under ``ruleset_id``: those of the
    source that gives the ruleset and of sources that give none (Willughby's words), where the
    stop lists any of the first; else all the stop lists."""
    source = library.ruleset_source.get(ruleset_id)
    givers = set(library.ruleset_source.values())
    of = [r.split(":", 1)[0] for r in stop.quotes]
    if source not in of:
        return list(stop.quotes)
    return [r for r, src in zip(stop.quotes, of) if src == source or src not in givers]
