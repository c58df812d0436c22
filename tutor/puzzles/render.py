"""Puzzles for the terminal (rich renderables), legible at 80 and at 40 columns.

:func:`render_puzzle` shows only what the learner's seat can see (RULES.md 8): the table, every
won pile, hand sizes, who is out, a set-aside mournival, the last few actions in words (and,
under "Earlier", the earlier actions the puzzle rests on: the hand laid down that put a decoy on
the table, ``puzzle.data["history"]``), the seat's own hand and the pot or points, then the
question.  Never another player's hand.  :func:`render_explanation` shows the answer, the
explanation and the quotations with their citations, whether the learner was right or wrong.

rich is imported inside the functions that draw, to keep start-up quick.
"""

from __future__ import annotations

from tutor.engine.cards import SUIT_SYMBOLS, SUITS
from tutor.engine.parameters import settlement_rule
from tutor.engine.sources import default_library
from tutor.puzzles.base import player_name, seat_names
from tutor.puzzles.board import cards_text, hanging
from tutor.puzzles.model import Grade, Puzzle, definition
from tutor.puzzles.quoted import quote_text

#: How many of the latest actions are shown in words.
LAST_ACTIONS = 5


def plain_suits(text: str, symbols: bool) -> str:
    """``text`` with suit symbols written as letters when the terminal cannot show symbols."""
    if symbols:
        return text
    for sym, letter in zip(SUIT_SYMBOLS, SUITS):
        text = text.replace(sym, letter)
    return text


def _ruleset_title(puzzle: Puzzle) -> str:
    return default_library().rulesets[puzzle.ruleset].title


def _stars(d: int, symbols: bool) -> str:
    return ("★" * d + "☆" * (5 - d)) if symbols else f"{d}/5"


def _header(puzzle: Puzzle, symbols: bool):
    from rich.text import Text
    defn = definition(puzzle.kind)
    t = Text()
    t.append(defn.title, style="bold")
    t.append(f"  difficulty {_stars(puzzle.difficulty, symbols)}\n", style="yellow")
    t.append(f"{_ruleset_title(puzzle)}, {puzzle.players} players\n", style="dim")
    t.append(f"Puzzle {puzzle.id}", style="dim")
    return t


def _context(puzzle: Puzzle) -> str:
    rs = default_library().rulesets[puzzle.ruleset]
    pc = rs.count(puzzle.players)
    rule = settlement_rule(rs.scoring, breakeven=pc.breakeven, pot_to=rs.pot_to)
    if not rs.has_stakes:
        return f"Points: {rule}."
    bonus = f"; bonus {pc.last_in_bonus}" if pc.last_in_bonus else ""
    return (f"Stakes: pot {pc.pot} (dealer {pc.ante_dealer}, others {pc.ante_other} each)"
            f"{bonus}; {rule}.")


def _cards(cards, symbols: bool, empty: str = "none"):
    from rich.text import Text
    return cards_text(cards, symbols) if cards else Text(empty, style="dim")


#: The least room (cells) a card list keeps beside its label before it goes under the label.
_ROOM = 16


class _Hang:
    """``label`` then ``body`` (a card list) with the body's wrapped lines indented under its
    first (:func:`tutor.puzzles.board.hanging`), never back at the left margin; where the label
    leaves less than :data:`_ROOM` cells beside it (a narrow terminal), the body goes on the
    next lines, indented by ``indent``."""

    def __init__(self, label, body, indent: int = 4):
        self.label = label
        self.body = body
        self.indent = indent

    def __rich_console__(self, console, options):
        from rich.text import Text
        if self.label.cell_len + _ROOM <= options.max_width:
            yield hanging(self.label, self.body)
        else:
            label = self.label.copy()
            label.rstrip()
            yield label
            yield hanging(Text(" " * self.indent), self.body)


def _line(label: str, body, style: str = "bold"):
    """``label`` then ``body`` (a card list), hanging (:class:`_Hang`)."""
    from rich.text import Text
    return _Hang(Text(label + " ", style=style),
                 body if isinstance(body, Text) else Text(str(body)))


def _marks(you: bool, dealer: bool) -> str:
    marks = [m for m, on in (("you", you), ("dealer", dealer)) if on]
    return f" ({', '.join(marks)})" if marks else ""


def _position(puzzle: Puzzle, symbols: bool) -> list:
    from rich.text import Text

    deal = puzzle.deal()
    seat = puzzle.seat
    n = puzzle.players
    over = deal.is_terminal()
    out: list = []
    who = Text()
    who.append(f"You are Player {seat}", style="bold cyan")
    who.append(f". Dealer: Player {deal.dealer}.")
    if not over and deal.to_move is not None:
        who.append(" To move: ")
        who.append("you" if deal.to_move == seat else f"Player {deal.to_move}", style="bold")
        who.append(".")
    out.append(who)
    out.append(Text(_context(puzzle), style="dim"))
    if over:
        out.extend(_end_of_play(puzzle, deal, symbols))
    else:
        view = deal.view(seat)
        out.append(_line(f"Table ({len(view.table)}):", _cards(view.table, symbols, "empty")))
        if view.set_aside:
            out.append(_line("Set aside (face down, known):", _cards(view.set_aside, symbols)))
        out.append(Text("Players:", style="bold"))
        for q in range(n):
            t = Text("  ")
            t.append(f"Player {q}" + _marks(q == seat, q == deal.dealer),
                     style="bold cyan" if q == seat else "")
            t.append(": ")
            t.append("out" if view.out[q] else f"{view.hand_sizes[q]} in hand",
                     style="dim" if view.out[q] else "")
            t.append(f"; won {len(view.won[q])}")
            if view.won[q]:
                t.append(": ")
                out.append(_Hang(t, _cards(view.won[q], symbols)))
            else:
                out.append(t)
    hist = deal.history
    if hist:
        names = seat_names(n, None)
        names[seat] = f"Player {seat} (you)"
        first = max(0, len(hist) - LAST_ACTIONS)
        earlier = [i for i in puzzle.data.get("history", ()) if i < first]
        if earlier:
            out.append(Text("Earlier:", style="bold"))
            for i in earlier:
                out.append(hanging(Text(f"  {i + 1}. "), Text(hist[i].describe(symbols, names))))
        shown = hist[first:]
        title = "Last action:" if len(shown) == 1 else (
            "Actions so far:" if len(shown) == len(hist) else f"Last {len(shown)} actions:")
        out.append(Text(title, style="bold"))
        for i, a in enumerate(shown, first):
            prefix = f"  {i + 1}. " if earlier else "  "
            out.append(hanging(Text(prefix), Text(a.describe(symbols, names))))
    else:
        out.append(Text("No action yet: play has not begun.", style="dim"))
    if not over:
        out.append(_line("Your hand:", _cards(deal.hand(seat), symbols, "empty (you are out)"),
                         style="bold cyan"))
    return out


def _end_of_play(puzzle: Puzzle, deal, symbols: bool) -> list:
    """A finished deal as it stood when play ended: the cards each player won in play, the
    leftovers (the last hand and the table), any set-aside mournival (the engine's settlement
    breakdown, :attr:`tutor.engine.deal.DealResult.settlement`)."""
    from rich.text import Text
    r = deal.result
    seat = puzzle.seat
    aside = set(r.set_aside)
    leftovers = set(r.leftovers)
    out = [Text("Play is over.", style="bold")]
    out.append(Text(f"Last player in: {player_name(r.last_in, seat) if r.last_in is not None else 'nobody'}."))
    out.append(_line("Leftovers (last hand and table):", _cards(sorted(leftovers), symbols)))
    if aside:
        out.append(_line("Set-aside mournival:", _cards(sorted(aside), symbols)))
    out.append(Text("Cards won during play:", style="bold"))
    for s in r.settlement:
        q = s.seat
        won = [c for c in r.won[q] if c not in leftovers and c not in aside]
        t = Text("  ")
        t.append(f"Player {q}" + _marks(q == seat, q == deal.dealer),
                 style="bold cyan" if q == seat else "")
        t.append(f": {s.won_in_play}")
        if won:
            t.append(": ")
            out.append(_Hang(t, _cards(won, symbols)))
        else:
            out.append(t)
    return out


def render_puzzle(puzzle: Puzzle, console_width: int | None = None, symbols: bool = True):
    """The puzzle as the learner's seat sees it, then the question (a rich renderable)."""
    from rich.console import Group
    from rich.text import Text
    parts: list = [_header(puzzle, symbols), Text("")]
    if puzzle.has_position:
        parts.extend(_position(puzzle, symbols))
        parts.append(Text(""))
    q = code_text(plain_suits(puzzle.question, symbols))
    q.stylize("bold")
    parts.append(q)
    return Group(*parts)


def code_text(text: str, style: str = ""):
    """``text`` as a rich ``Text`` (in ``style``) with its backtick spans (what the learner
    types, as in ``claim 7H 7S``) shown in cyan without the backticks; line breaks are kept.
    Used for questions, hints, explanations and the one-line refusals of unreadable answers."""
    from rich.text import Text
    out = Text(style=style)
    for i, part in enumerate(text.split("`")):
        out.append(part, style="cyan" if i % 2 else None)
    if text.count("`") % 2:                 # an unpaired backtick: show the text as written
        return Text(text, style=style)
    return out


def render_hint(puzzle: Puzzle, index: int, symbols: bool = True):
    """Hint number ``index`` (0-based), or a note that there are no more."""
    from rich.text import Text
    if index >= len(puzzle.hints):
        return Text("No more hints.", style="dim")
    t = Text(f"Hint {index + 1} of {len(puzzle.hints)}: ", style="bold yellow")
    t.append_text(code_text(plain_suits(puzzle.hints[index], symbols)))
    return t


def render_explanation(puzzle: Puzzle, grade: Grade | None, symbols: bool = True):
    """The verdict (if graded), the answer, the explanation and each quotation with its
    citation (a rich renderable)."""
    from rich.console import Group
    from rich.padding import Padding
    from rich.text import Text
    parts: list = []
    if grade is not None:
        v = Text()
        if symbols:
            v.append("✓ " if grade.correct else "✗ ", style="bold green" if grade.correct
                     else "bold red")
        v.append(plain_suits(grade.message, symbols),
                 style="green" if grade.correct else "red")
        parts.append(v)
    ans = Text("Answer: ", style="bold")
    ans.append(plain_suits(puzzle.expected_answer_text(), symbols))
    parts.append(ans)
    parts.append(Text(""))
    for para in puzzle.explanation.split("\n\n"):
        parts.append(code_text(plain_suits(para, symbols)))
        parts.append(Text(""))
    lib = default_library()
    for ref in puzzle.quotes:
        q = lib.quotation(ref)
        body = Text()
        body.append("“", style="italic")
        body.append_text(quote_text(q.text, style="italic"))     # its markup rendered
        body.append("”", style="italic")
        body.append(f"\n— {q.citation}", style="dim")
        if q.where:
            body.append(f" ({q.where})", style="dim")
        parts.append(Padding(body, (0, 0, 1, 2)))
    parts.append(Text(f"Puzzle id: {puzzle.id}", style="dim"))
    return Group(*parts)
