"""What the learner's seat can see, drawn for the terminal (RULES.md 8).

The table, every won pile, each player's hand size and whether they are out, the pot or the
points, the last few actions and the learner's own hand; cards in colour with suit symbols
(letters where the terminal cannot show them).  Every line wraps cleanly at 40 columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tutor.engine.cards import RANKS, SUIT_SYMBOLS, SUITS, pretty, rank_of, suit_of
from tutor.engine.deal import Action, Deal
from tutor.engine.observe import Observation, observe
from tutor.engine.parameters import settlement_rule, spec, value_who, value_words
from tutor.engine.rulesets import Ruleset

__all__ = [
    "action_text",
    "cards_text",
    "grouped_text",
    "hanging",
    "pile_text",
    "render_screen",
    "render_observation",
    "ruleset_scoring_line",
    "settlement_words",
    "scoring_line",
]

_VERB = {
    "capture": ("capture", "captures"),
    "lie": ("lie", "lies"),
    "claim": ("claim", "claims"),
    "take": ("take", "takes"),
    "set": ("set", "sets"),
    "declare": ("declare", "declares"),
    "end": ("end", "ends"),
}


def _style(card: int) -> str:
    return "bold red" if suit_of(card) in (1, 2) else "bold"


def cards_text(cards: Iterable[int], symbols: bool) -> Text:
    """Cards one by one, sorted, coloured: ``7♥ 7♠``."""
    t = Text()
    for i, c in enumerate(sorted(cards)):
        if i:
            t.append(" ")
        t.append(pretty(c, symbols), style=_style(c))
    return t


def grouped_text(cards: Iterable[int], symbols: bool) -> Text:
    """Cards sorted, with a wider gap between ranks: ``5♥ 5♠  7♣``."""
    t = Text()
    prev = None
    for c in sorted(cards):
        if prev is not None:
            t.append("  " if rank_of(c) != prev else " ")
        t.append(pretty(c, symbols), style=_style(c))
        prev = rank_of(c)
    return t


def pile_text(cards: Iterable[int], symbols: bool) -> Text:
    """A won pile, compact: each rank once with its suits, ``7♥♠ 9♣♦♥♠``."""
    t = Text()
    by_rank: dict[int, list[int]] = {}
    for c in sorted(cards):
        by_rank.setdefault(rank_of(c), []).append(c)
    for i, (rank, cs) in enumerate(by_rank.items()):
        if i:
            t.append(" ")
        t.append("10" if rank == 9 else RANKS[rank], style="bold")
        for c in cs:
            t.append(SUIT_SYMBOLS[suit_of(c)] if symbols else SUITS[suit_of(c)], style=_style(c))
    return t


def _who(a: Action, names: Sequence[str], seat: int | None, verb: str) -> str:
    you = a.player == seat
    return f"{names[a.player]} {_VERB[verb][0 if you else 1]}"


def action_text(
    a: Action, names: Sequence[str], seat: int | None, symbols: bool, set_aside: bool = False
) -> Text:
    """One action in words with coloured cards: ``Anne captures 7♥ with 7♠``; the learner's own
    actions read ``You capture ...``.  ``set_aside``: a table mournival is set aside for the
    last-in player rather than taken into the dealer's won cards."""
    t = Text()
    k = a.kind
    if k in ("capture", "play_on_capture"):
        t.append(_who(a, names, seat, "capture") + " ")
        t.append_text(cards_text(a.table, symbols))
        t.append(" with ")
        t.append_text(cards_text(a.cards, symbols))
        if k == "play_on_capture":
            t.append(" (playing on)")
    elif k == "lie_down":
        t.append(_who(a, names, seat, "lie") + " down: ")
        t.append_text(cards_text(a.cards, symbols))
    elif k == "claim":
        t.append(_who(a, names, seat, "claim") + " ")
        t.append_text(cards_text(a.cards, symbols))
        t.append(f" ({(a.oversight or '').replace('_', ' ')})")
    elif k == "take_table_mournival":
        if set_aside:
            t.append(_who(a, names, seat, "set") + " aside the table mournival ")
        else:
            t.append(_who(a, names, seat, "take") + " the table mournival ")
        t.append_text(cards_text(a.cards, symbols))
    elif k == "end_turn":
        t.append(_who(a, names, seat, "end") + " the turn")
    else:
        what = {
            "declare_prial": "a pair of a prial",
            "declare_mournival": "a mournival",
            "declare_dead_pair": "a dead pair",
            "declare_pair": "a pair",
        }[k]
        t.append(_who(a, names, seat, "declare") + f" {what}: ")
        t.append_text(cards_text(a.cards, symbols))
    return t


def scoring_line(deal: Deal) -> str:
    """The pot or the points, from the ruleset's parameters and the parameter table's words for
    its settlement rule (:func:`tutor.engine.parameters.settlement_rule`) and its bonus."""
    return ruleset_scoring_line(deal.ruleset, deal.n)


def ruleset_scoring_line(rs: Ruleset, players: int) -> str:
    """:func:`scoring_line` for ``players`` under the ruleset ``rs`` (no deal needed: a live
    table's client has only an observation)."""
    pc = rs.count(players)
    bonus = bool(pc.last_in_bonus and rs.bonus_to)
    if rs.game(players).settles_by_breakeven:
        parts = [f"Pot {pc.pot}"]
        if bonus:
            parts.append(f"bonus {pc.last_in_bonus} to {value_who('bonus_to', rs.bonus_to)}")
        parts.append(f"{spec('breakeven').label} {pc.breakeven} won")
        return " · ".join(parts)
    rule = settlement_rule(rs.scoring, breakeven=pc.breakeven, pot_to=rs.pot_to)
    if rs.has_stakes:
        return f"Pot {pc.pot} · {rule}"
    return rule + (f" · bonus {pc.last_in_bonus}" if bonus else "")


def settlement_words(deal: Deal) -> str:
    """Where the leftovers go under the ruleset, in words (the parameter table's)."""
    return value_who("leftovers_to", deal.ruleset.leftovers_to)


def hanging(label: Text, body: Text) -> Table:
    """``label`` then ``body``, the body's wrapped lines indented under its first (so a list of
    cards never wraps back to the left margin on a narrow terminal)."""
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(label, body)
    return grid


def render_screen(
    deal: Deal,
    seat: int,
    names: Sequence[str],
    symbols: bool,
    *,
    title: str = "",
    recent: int = 4,
    totals: Sequence[int] | None = None,
    show_hand: bool = True,
    show_piles: bool = True,
) -> Group:
    """The table as ``seat`` sees it.  ``title`` heads it; ``recent`` is how many of the last
    actions to list; ``totals`` (match totals per seat) are shown beside the names.  Drawn from
    the seat's observation (:func:`tutor.engine.observe.observe`), as a live table's client
    draws it (:func:`render_observation`)."""
    return render_observation(
        observe(deal, seat),
        deal.ruleset,
        names,
        symbols,
        title=title,
        recent=recent,
        totals=totals,
        show_hand=show_hand,
        show_piles=show_piles,
    )


def render_observation(
    obs: Observation,
    rs: Ruleset,
    names: Sequence[str],
    symbols: bool,
    *,
    title: str = "",
    recent: int = 4,
    totals: Sequence[int] | None = None,
    show_hand: bool = True,
    show_piles: bool = True,
) -> Group:
    """The table as an observation shows it (:class:`tutor.engine.observe.Observation`: a
    seat's, or a spectator's with no hand), under the ruleset ``rs``; the other arguments as
    :func:`render_screen`'s.  Nothing is drawn that the observation does not hold."""
    lines: list[Text | Table] = []
    if title:
        lines.append(Text(title, style="bold"))
    n = obs.players
    scoring = ruleset_scoring_line(rs, n)
    if rs.game().lying_down_pays:
        scoring += " · " + value_words("lie_down_pays", rs.value("lie_down_pays"))
    if rs.has_stakes and not obs.over and obs.pot != rs.count(n).pot:
        scoring += f" · pot now {obs.pot}"
    lines.append(Text(scoring, style="dim"))
    seat = obs.seat if obs.seat is not None else 0
    mark = "▶" if symbols else ">"
    width = max(5, max(len(x) for x in names))
    for k in range(n):
        q = (seat + k) % n
        t = Text()
        to_move = obs.to_move == q and not obs.over
        t.append(f"{mark} " if to_move else "  ", style="bold yellow")
        t.append(f"{names[q]:<{width}}", style="bold cyan" if q == obs.seat else "bold")
        t.append(" D" if q == obs.dealer else "  ", style="magenta")
        size = obs.hand_sizes[q]
        t.append(f" hand {size:<2}" if size else " out    ", style="" if size else "dim")
        won = obs.won[q]
        t.append(f" won {len(won):<2}")
        if totals is not None:
            total = f"{totals[q]:+d}" if rs.has_stakes else str(totals[q])
            t.append(f" ({total})", style="dim")
        if won and show_piles:
            t.append(" ")
            lines.append(hanging(t, pile_text(won, symbols)))
        else:
            lines.append(t)
    aside = obs.set_aside
    if aside:
        lines.append(hanging(Text("Set aside for the last in: "), cards_text(aside, symbols)))
    table = obs.table
    lines.append(
        hanging(
            Text(f"Table ({len(table)}): ", style="bold"),
            grouped_text(table, symbols) if table else Text("empty", style="dim"),
        )
    )
    hist = obs.history[-recent:] if recent else []
    set_aside = rs.game().sets_aside_table_mournival
    if hist:
        lines.append(Text("Last:", style="dim"))
        for a in hist:
            t = Text("  ")
            t.append_text(action_text(a, names, obs.seat, symbols, set_aside))
            lines.append(t)
    if show_hand and obs.seat is not None:
        hand = obs.hand
        lines.append(
            hanging(
                Text("Your hand: ", style="bold cyan"),
                grouped_text(hand, symbols) if hand else Text("none (you are out)", style="dim"),
            )
        )
    return Group(*lines)
