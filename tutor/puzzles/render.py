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

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tutor.engine.cards import SUIT_SYMBOLS, SUITS, parse_card, pretty
from tutor.engine.deal import Action
from tutor.engine.parameters import settlement_rule
from tutor.engine.sources import default_library
from tutor.engine.values import CaptureForm
from tutor.puzzles.base import player_name, seat_names
from tutor.puzzles.board import cards_text, hanging, pile_text
from tutor.puzzles.model import Board, Grade, Puzzle, board_options, definition
from tutor.puzzles.quoted import quote_plain, quote_text

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
    from rich.text import Text


def plain_suits(text: str, symbols: bool) -> str:
    """``text`` with suit symbols written as letters when the terminal cannot show symbols."""
    if symbols:
        return text
    for sym, letter in zip(SUIT_SYMBOLS, SUITS):
        text = text.replace(sym, letter)
    return text


_CARD_CODE = re.compile(r"(?<![\w/])(10|[2-9TJQKA])([CDHS])(?![\w/])")


def shown_cards(text: str, symbols: bool) -> str:
    """``text`` with every card code in it (``TC``, ``7H``) written as the screen shows cards
    (``10♣``, ``7♥``; ``10C`` where symbols cannot be shown): one way of writing cards on a
    screen."""

    def one(m: re.Match[str]) -> str:
        return pretty(parse_card(m.group(0)), symbols)

    return plain_suits(_CARD_CODE.sub(one, text), symbols)


def _ruleset_title(puzzle: Puzzle) -> str:
    return default_library().rulesets[puzzle.ruleset].title


def _stars(d: int, symbols: bool) -> str:
    return ("★" * d + "☆" * (5 - d)) if symbols else f"{d}/5"


def _header(puzzle: Puzzle, symbols: bool) -> Text:
    """One line: the kind's title, the stars and the puzzle's id.  A question whose answer is a
    source (``data["hide_id"]``) shows no id above it: the id names a ruleset, which may be
    the answer (the id is shown with the answer)."""
    from rich.text import Text

    defn = definition(puzzle.kind)
    t = Text()
    t.append(defn.title, style="bold")
    t.append(f"  {_stars(puzzle.difficulty, symbols)}", style="yellow")
    if not puzzle.data.get("hide_id"):
        t.append(f"  Puzzle {puzzle.id}", style="dim")
    return t


def ruleset_line(puzzle: Puzzle) -> str:
    """The line that names the puzzle's ruleset and player count, shown right above the
    question of a puzzle about a position (its answer depends on them)."""
    title = _ruleset_title(puzzle)
    if title.startswith("The "):  # "Under the games.porg.es compendium", mid-sentence
        title = "the" + title[3:]
    return f"Under {title}, with {puzzle.players} players."


def _context(puzzle: Puzzle) -> str:
    rs = default_library().rulesets[puzzle.ruleset]
    pc = rs.count(puzzle.players)
    rule = settlement_rule(rs.scoring, breakeven=pc.breakeven, pot_to=rs.pot_to)
    if not rs.has_stakes:
        return f"Points: {rule}."
    bonus = f"; bonus {pc.last_in_bonus}" if pc.last_in_bonus else ""
    return (
        f"Stakes: pot {pc.pot} (dealer {pc.ante_dealer}, others {pc.ante_other} each)"
        f"{bonus}; {rule}."
    )


def scoring_features(ruleset: str, players: int) -> set[str]:
    """What the pot or points line of a puzzle under ``ruleset`` with ``players`` players shows
    (:func:`_context`), as board features (``puzzles/board.yaml``)."""
    rs = default_library().rulesets[ruleset]
    pc = rs.count(players)
    out = set()
    if rs.has_stakes:
        out.add("pot")
    if pc.last_in_bonus:
        out.add("bonus")
    if not rs.has_stakes:
        out.add("points")
    elif rs.game().settles_by_breakeven:
        out.add("breakeven")
    else:
        out.add("pot-to")
    if rs.game().lying_down_pays:
        out.add("lie-down-pays")
    return out


def _cards(cards: Sequence[int], symbols: bool, empty: str = "none") -> Text:
    from rich.text import Text

    return cards_text(cards, symbols) if cards else Text(empty, style="dim")


#: The least room (cells) a card list keeps beside its label before it goes under the label.
_ROOM = 16


class _Hang:
    """``label`` then ``body`` (a card list) with the body's wrapped lines indented under its
    first (:func:`tutor.puzzles.board.hanging`), never back at the left margin; where the label
    leaves less than :data:`_ROOM` cells beside it (a narrow terminal), the body goes on the
    next lines, indented by ``indent``; a label wider than the terminal wraps under its own
    first word.  ``body`` None: the label alone."""

    def __init__(self, label: Text, body: Text | None, indent: int = 4) -> None:
        self.label = label
        self.body = body
        self.indent = indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.text import Text

        if self.body is None and self.label.cell_len <= options.max_width:
            yield self.label
            return
        if self.body is not None and self.label.cell_len + _ROOM <= options.max_width:
            yield hanging(self.label, self.body)
            return
        label = self.label.copy()
        label.rstrip()
        lead = len(label.plain) - len(label.plain.lstrip(" "))
        if label.cell_len > options.max_width:  # its own words wrap under its first
            yield hanging(Text(" " * lead), label[lead:])
        else:
            yield label
        if self.body is not None:
            yield hanging(Text(" " * self.indent), self.body)


def _line(label: str, body: Text | None, style: str = "bold") -> _Hang:
    """``label`` then ``body`` (a card list), hanging (:class:`_Hang`)."""
    from rich.text import Text

    return _Hang(
        Text(label + " ", style=style), body if isinstance(body, Text) else Text(str(body))
    )


def _marks(you: bool, dealer: bool) -> str:
    marks = [m for m, on in (("you", you), ("dealer", dealer)) if on]
    return f" ({', '.join(marks)})" if marks else ""


def shown_actions(puzzle: Puzzle) -> tuple[list[int], list[int]]:
    """The actions of the puzzle's record that its board shows in words, as indices into the
    deal's history: ``(earlier, latest)``, the earlier actions the puzzle rests on
    (``puzzle.data["history"]``, a decoy's laid-down hand) and the latest few (the kind's
    ``recent``)."""
    if puzzle.has_position:
        board = puzzle.board
        return list(board.earlier), list(board.latest)
    n = len(puzzle.record.get("actions", ()))
    recent = int(board_options(puzzle.kind)["recent"])
    first = max(0, n - recent)
    earlier = sorted(i for i in puzzle.data.get("history", ()) if i < first)
    return earlier, list(range(first, n))


def _action_features(a: Action) -> set[str]:
    """What one action in words shows, as board features (``puzzles/board.yaml``)."""
    k = a.kind
    out = set()
    if k in ("capture", "play_on_capture"):
        if a.form and a.form is not CaptureForm.ONE_FOR_ONE:
            out.add(a.form.replace("_", "-"))
        if k == "play_on_capture":
            out.add("play-on")
    elif k == "lie_down":
        out.add("lie-down")
    elif k in ("declare_prial", "declare_mournival"):
        out.add("declaration")
    elif k == "declare_dead_pair":
        out.add("dead-pair")
    elif k == "declare_pair":
        out.add("declare-pair")
    elif k == "claim":
        out.add("claim")
    elif k == "take_table_mournival":
        out.add("table-mournival")
    elif k == "end_turn":
        out.add("end-turn")
    return out


def board_features(puzzle: Puzzle) -> set[str]:
    """What the puzzle's board shows besides its question, as the features of
    ``puzzles/board.yaml``: the rules its latest actions in words show (a claim, a dead pair
    declared, one card taking three, ...), a mournival set aside, the leftovers of a finished
    deal, and the pot or points line where the kind shows it.  Empty for a puzzle without a
    position."""
    if not puzzle.has_position:
        return set()
    board = puzzle.board
    out: set[str] = set()
    for i in board.earlier + board.latest:
        out |= _action_features(board.history[i])
    if board.scoring:
        out |= scoring_features(puzzle.ruleset, puzzle.players)
    if board.result is not None:
        if board.result.leftovers:
            out.add("leftovers")
        if board.result.set_aside:
            out.add("table-mournival")
    elif board.set_aside:
        out.add("table-mournival")
    return out


def _position(puzzle: Puzzle, symbols: bool) -> list[RenderableType]:
    """The board, drawn in one pass from what it shows (:attr:`Puzzle.board`, worked out once
    from the puzzle's position)."""
    from rich.text import Text

    board = puzzle.board
    seat = puzzle.seat
    n = puzzle.players
    out: list[RenderableType] = []
    who = Text()
    who.append(f"You are Player {seat}", style="bold cyan")
    who.append(f"; Player {board.dealer} deals.")
    if board.to_move is not None:
        who.append(" To move: ")
        who.append("you" if board.to_move == seat else f"Player {board.to_move}", style="bold")
        who.append(".")
    out.append(who)
    if board.scoring:
        out.append(Text(_context(puzzle), style="dim"))
    if board.view is None:
        out.extend(_end_of_play(puzzle, board, symbols))
    else:
        view = board.view
        out.append(_line(f"Table ({len(view.table)}):", _cards(view.table, symbols, "empty")))
        if view.set_aside:
            out.append(_line("Set aside (face down, known):", _cards(view.set_aside, symbols)))
        width = max(len(f"Player {q}" + _marks(q == seat, q == board.dealer)) for q in range(n))
        for q in range(n):
            t = Text("  ")
            t.append(
                f"{'Player ' + str(q) + _marks(q == seat, q == board.dealer):<{width}}",
                style="bold cyan" if q == seat else "",
            )
            t.append(
                "  out       " if view.out[q] else f"  {view.hand_sizes[q]:>2} in hand",
                style="dim" if view.out[q] else "",
            )
            t.append(f"  won {len(view.won[q])}")
            if view.won[q]:
                t.append(": ")
                out.append(_Hang(t, pile_text(view.won[q], symbols)))
            else:
                out.append(_Hang(t, None))  # at a narrow width, wrapped under itself
    out.extend(_history(puzzle, board, symbols))
    if not board.over:
        out.append(
            _line(
                "Your hand:",
                _cards(board.hand, symbols, "empty (you are out)"),
                style="bold cyan",
            )
        )
    return out


def _history(puzzle: Puzzle, board: Board, symbols: bool) -> list[RenderableType]:
    """The actions the board shows in words (:func:`shown_actions`)."""
    from rich.text import Text

    hist = board.history
    if not hist:
        return [Text("No action yet: play has not begun.", style="dim")]
    earlier, latest = board.earlier, board.latest
    if not earlier and not latest:
        return []
    names = seat_names(puzzle.players, None)
    names[puzzle.seat] = f"Player {puzzle.seat} (you)"
    out: list[RenderableType] = []
    if earlier:
        out.append(Text("Earlier:", style="bold"))
        for i in earlier:
            out.append(hanging(Text(f"  {i + 1}. "), Text(hist[i].describe(symbols, names))))
    if len(latest) == 1 and not earlier:  # one line: the latest action beside its label
        out.append(
            hanging(
                Text("Last action: ", style="bold"), Text(hist[latest[0]].describe(symbols, names))
            )
        )
        return out
    title = (
        "Last action:"
        if len(latest) == 1
        else ("Actions so far:" if len(latest) == len(hist) else f"Last {len(latest)} actions:")
    )
    out.append(Text(title, style="bold"))
    for i in latest:
        prefix = f"  {i + 1}. " if earlier else "  "
        out.append(hanging(Text(prefix), Text(hist[i].describe(symbols, names))))
    return out


def _end_of_play(puzzle: Puzzle, board: Board, symbols: bool) -> list[RenderableType]:
    """A finished deal as it stood when play ended: the cards each player won in play, the
    leftovers (the last hand and the table), any set-aside mournival (the engine's settlement
    breakdown, :attr:`tutor.engine.deal.DealResult.settlement`)."""
    from rich.text import Text

    r = board.result
    if r is None:
        raise AssertionError("the end of play is drawn only once play is over")
    seat = puzzle.seat
    aside = set(r.set_aside)
    leftovers = set(r.leftovers)
    last = player_name(r.last_in, seat) if r.last_in is not None else "nobody"
    out: list[RenderableType] = [Text(f"Play is over. Last player in: {last}.", style="bold")]
    out.append(_line("Leftovers (last hand and table):", _cards(sorted(leftovers), symbols)))
    if aside:
        out.append(_line("Set-aside mournival:", _cards(sorted(aside), symbols)))
    # the captures the last player in made alone, after the others lay down (RULES.md 3.4
    # ``last_in_plays_on``), shown apart: a puzzle may ask the learner to count them in
    alone = {c for a in board.history if a.kind == "play_on_capture" for c in a.cards + a.table}
    if alone:
        out.append(
            _line(
                f"Captured alone by {last} after the others lay down:",
                _cards(sorted(alone), symbols),
            )
        )
        out.append(Text("Cards won during play, before that:", style="bold"))
    else:
        out.append(Text("Cards won during play:", style="bold"))
    width = max(
        len(f"Player {q}" + _marks(q == seat, q == board.dealer)) for q in range(puzzle.players)
    )
    for s in r.settlement:
        q = s.seat
        won = [c for c in r.won[q] if c not in leftovers and c not in aside and c not in alone]
        t = Text("  ")
        t.append(
            f"{'Player ' + str(q) + _marks(q == seat, q == board.dealer):<{width}}",
            style="bold cyan" if q == seat else "",
        )
        t.append(f"  {len(won):>2}")  # (won in play, before capturing alone)
        if won:
            t.append(": ")
            out.append(_Hang(t, pile_text(won, symbols)))
        else:
            out.append(t)
    return out


def render_puzzle(puzzle: Puzzle, console_width: int | None = None, symbols: bool = True) -> Group:
    """The puzzle as the learner's seat sees it, then the question (a rich renderable).  A
    puzzle about a position names its ruleset and player count right above the question
    (:func:`ruleset_line`), so the line the answer depends on stays in sight at the prompt."""
    from rich.console import Group
    from rich.text import Text

    parts: list[RenderableType] = [_header(puzzle, symbols)]
    if puzzle.has_position:
        parts.extend(_position(puzzle, symbols))
        parts.append(Text(ruleset_line(puzzle), style="bold"))
    q = code_text(plain_suits(puzzle.question, symbols))
    q.stylize("bold")
    parts.append(q)
    return Group(*parts)


def code_text(text: str, style: str = "") -> Text:
    """``text`` as a rich ``Text`` (in ``style``) with its backtick spans (what the learner
    types, as in ``claim 7H 7S``) shown in cyan without the backticks; line breaks are kept.
    Used for questions, hints, explanations and the one-line refusals of unreadable answers."""
    from rich.text import Text

    out = Text(style=style)
    for i, part in enumerate(text.split("`")):
        out.append(part, style="cyan" if i % 2 else None)
    if text.count("`") % 2:  # an unpaired backtick: show the text as written
        return Text(text, style=style)
    return out


def render_hint(puzzle: Puzzle, index: int, symbols: bool = True) -> Text:
    """Hint number ``index`` (0-based), or a note that there are no more."""
    from rich.text import Text

    if index >= len(puzzle.hints):
        return Text("No more hints.", style="dim")
    t = Text(f"Hint {index + 1} of {len(puzzle.hints)}: ", style="bold yellow")
    t.append_text(code_text(plain_suits(puzzle.hints[index], symbols)))
    return t


def render_explanation(
    puzzle: Puzzle,
    grade: Grade | None,
    symbols: bool = True,
    quoted: set[str] | None = None,
    taught: str | None = None,
    commands: bool = True,
) -> Group:
    """The verdict (if graded), the answer, the explanation and each quotation with its
    citation (a rich renderable).  ``quoted``: the quotations (their refs) this learner has
    already been shown in full in this sitting; each of those is one line that names its
    citation, and every quotation shown here is added to it (None: all in full).
    ``taught``: the line on where the point is taught, as the screen posing it says it (a
    track names its step); None: :func:`taught_line`.  ``commands``: the learner is at a
    terminal (:func:`tutor.teaching.io.at_terminal`), so the last line gives the puzzle's id
    (``laugh puzzle --id ID`` poses it again) and the taught line its ``laugh lesson`` command;
    False (a browser page, where no command can be typed): neither, and ``taught`` is not used
    (a track's line names the home screen's keys)."""
    from rich.console import Group
    from rich.padding import Padding
    from rich.text import Text

    parts: list[RenderableType] = []
    if grade is not None:
        v = Text()
        if symbols:
            v.append(
                "✓ " if grade.correct else "✗ ", style="bold green" if grade.correct else "bold red"
            )
        v.append(plain_suits(grade.message, symbols), style="green" if grade.correct else "red")
        parts.append(v)
    ans = Text("Answer: ", style="bold")
    ans.append(shown_cards(puzzle.expected_answer_text(), symbols))
    parts.append(ans)
    parts.append(Text(""))
    for para in puzzle.explanation.split("\n\n"):
        parts.append(code_text(plain_suits(para, symbols)))
        parts.append(Text(""))
    lib = default_library()
    for ref in puzzle.quotes:
        q = lib.quotation(ref)
        if quoted is not None and ref in quoted:
            # shown in full earlier in this sitting: one line again, with its words (their
            # first words where it is long), since this explanation rests on them too
            again = Text("As quoted above: ", style="dim")
            again.append(f"“{key_words(q.text)}”", style="dim italic")
            again.append(f" — {q.citation}" + (f"; {q.where}" if q.where else ""), style="dim")
            parts.append(Padding(again, (0, 0, 0, 2)))
            continue
        if quoted is not None:
            quoted.add(ref)
        body = Text()
        body.append("“", style="italic")
        body.append_text(quote_text(q.text, style="italic"))  # its markup rendered
        body.append("”", style="italic")
        body.append(f"\n— {q.citation}", style="dim")
        if q.where:
            body.append(f"; {q.where}", style="dim")
        parts.append(Padding(body, (0, 0, 1, 2)))
    if not commands or taught is None:
        taught = taught_line(puzzle, commands)
    if taught:
        parts.append(Text(taught, style="cyan"))
    if commands:
        parts.append(Text(f"Puzzle id: {puzzle.id}", style="dim"))
    return Group(*parts)


#: How many words of a quotation shown again are given whole; a longer one gives its first
#: ``KEY_WORDS - 2`` words and an ellipsis.
KEY_WORDS = 16


def key_words(text: str) -> str:
    """A quotation's words as a repeat shows them: the whole of a short one (``KEY_WORDS`` words
    or fewer), else its first words and " …" (its markup rendered as plain text)."""
    words = quote_plain(text).split()
    if len(words) <= KEY_WORDS:
        return " ".join(words)
    return " ".join(words[: KEY_WORDS - 2]) + " …"


def taught_line(puzzle: Puzzle, commands: bool = True) -> str:
    """Where the course teaches the puzzle's point (:attr:`Puzzle.teaches`): ``Taught in
    lesson 6, on the page “Where the leftovers go” (laugh lesson 6).``; with ``commands``
    False (a browser page) without the command: ``… “Where the leftovers go”.``; "" when the
    kind names no page."""
    if not puzzle.teaches:
        return ""
    stem, _, heading = puzzle.teaches.partition("#")
    n = int(stem[:2])
    if not commands:
        return f"Taught in lesson {n}, on the page “{heading}”."
    return f"Taught in lesson {n}, on the page “{heading}” (laugh lesson {n})."
