"""Reading the learner's input in a practice deal, and at a live table.

:func:`classify` tells what a line is (a pass, a word that leaves, a request, a claim, a move):
the one reading of the words for a practice deal and the table client, whose moves the table's
server reads.  :func:`interpret` turns one line into an :class:`Intent`.  A move is read by the
engine (:meth:`~tutor.engine.Deal.parse_action`), so an input that cannot be played is answered
with the engine's reason, and the moves offered are the engine's
(:meth:`~tutor.engine.Deal.legal_actions`); this module only keeps the words that are not moves.

What the learner may type (the engine's notation, :meth:`~tutor.engine.deal.Action.notation`):

- a capture: ``7h`` (the hand card; the table card is found, or asked for when there are
  several), ``7h 7s`` (hand card and table card), ``7h 7d 7c 7s`` (a pair for a pair, or one for
  three); ``capture`` before the cards is allowed;
- ``declare qc qd`` (a pair of a prial, a dead pair, any pair where the ruleset allows it) or
  ``declare`` and all four of a mournival; two or four cards of one rank from the hand with no
  table card also declare;
- ``claim`` (or the space bar, the claim key, at any prompt of the deal, whether or not anything
  is claimable), then the cards: ``9s 9d``, or the rank: ``9``, ``a``, ``aces``; or all at once:
  ``claim 9s 9d``, ``claim 9``, ``claim the split prial of nines`` (the engine reads it:
  :meth:`~tutor.engine.Deal.parse_claim`);
- ``take`` (the dealer takes a table mournival before play);
- ``lie down`` or ``ld``; ``end turn`` (or ``end``) where several captures a turn are allowed;
- ``pass`` or an empty line (let the moment go; at your turn, end it where you may),
  ``help``, ``hint`` (the best option now and its margin, by the engine's analysis from what you
  can see), ``hand``, ``moves`` (the legal moves, as you would type them), ``look`` (the table
  again), ``quit`` (or ``:q``).  A single letter never quits: ``q`` is the queen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tutor.app.play.mistakes import NAME_ALL
from tutor.engine.deal import Action, Deal
from tutor.engine.errors import AmbiguousAction, IllegalAction, IncompleteAction, InvalidAction
from tutor.engine.reasons import LIE_DOWN_WHEN, Reason
from tutor.teaching.words import QUIT_WORDS as LOOP_QUIT_WORDS

__all__ = [
    "Intent",
    "action_code",
    "classify",
    "help_text",
    "interpret",
    "read_move",
    "refused_line",
    "HELP",
    "CLAIM_KEYS",
    "INFO_WORDS",
    "NAME_PROMPT",
    "PASS_WORDS",
    "QUIT_WORDS",
    "WORDS",
]

#: The claim key: the space bar on an empty line answers ``claim`` at once (a practice deal's
#: prompts and a table client's).
CLAIM_KEYS = {" ": "claim"}
#: The prompt that asks which cards a claim takes, after the claim key.
NAME_PROMPT = "claim: which cards?> "

#: Words offered for completion.
WORDS = (
    "claim",
    "declare",
    "lie down",
    "ld",
    "take",
    "end turn",
    "pass",
    "help",
    "hint",
    "hand",
    "moves",
    "look",
    "quit",
)

#: The help's lines: ``(key, line)``; a key is said only where it applies (:func:`help_text`).
_HELP_LINES = (
    ("", "Type a move:"),
    ("", "  7h            capture with 7h (asks which table card if several)"),
    ("", "  7h 7s         7h takes 7s; 7h 7d 7c 7s: a pair takes a pair"),
    ("", "  declare qc qd declare a pair of a prial, a dead pair (4 cards: a mournival)"),
    ("deal", "  claim         claim an oversight, then name the cards (claim 9s 9d, claim 9,"),
    ("deal", "                claim aces); a claim of nothing claimable is a false claim"),
    ("table", "  claim 9s 9d   claim an oversight by its cards, or by rank: claim nines"),
    ("", "  space bar     the claim key, at any moment: then name the cards"),
    ("", "  take          dealer: take the table mournival before play"),
    ("", f"  ld            lie down ({LIE_DOWN_WHEN})"),
    ("", "  end turn      end your turn (where several captures a turn are allowed)"),
    ("deal", "  pass / Enter  let the moment go by"),
    ("deal", "  hint          the best move now and its margin (the engine's analysis)"),
    ("table", "  hint          the best move now (where the table allows hints)"),
    ("", "  hand, moves, look, help"),
    ("deal", "  quit or :q    leave (Ctrl-D saves and leaves; Ctrl-C leaves)"),
    ("table", "  quit or :q    leave the table (your seat stays yours; join again to come back)"),
)


def help_text(where: str = "deal") -> str:
    """What ``help`` says: the moves and words of a practice deal (``where="deal"``) or of a
    live table (``"table"``: claims named at once, hints where the table allows them, and
    leaving keeps the seat)."""
    return "\n".join(line for key, line in _HELP_LINES if key in ("", where))


HELP = help_text()

#: The words that ask for something other than a move (help, hand, moves, hint, look).
INFO_WORDS = {
    "help": "help",
    "?": "help",
    "h": "help",
    "hand": "hand",
    "moves": "moves",
    "m": "moves",
    "hint": "hint",
    "best": "hint",
    "legal": "moves",
    "look": "look",
    "l": "look",
    "table": "look",
    "screen": "look",
    "score": "look",
}
#: The words that let the moment go (before play at a table: ready).
PASS_WORDS = frozenset({"", "pass", "p", "go", "ok", "next", "n", "-", "ready"})
#: What leaves the deal or the table: the program's one set
#: (:data:`tutor.teaching.words.QUIT_WORDS`) and ``leave``, never a single letter that is a rank
#: (``q`` is the queen).
QUIT_WORDS = frozenset(LOOP_QUIT_WORDS) | {"leave"}
_ALIASES = {"c": "claim", "claims": "claim", "d": "declare", "play": "capture"}


@dataclass
class Intent:
    """One interpreted line.

    ``kind`` is ``info`` (``name`` says which), ``pass``, ``quit``, ``claim`` (``name`` is what
    the claim names, as typed after ``claim``; empty for the claim key or ``claim`` alone: the
    cards are to be named next), ``actions`` (``actions`` are the legal
    candidates: one, or several to choose from, with ``message`` saying what is to be chosen;
    ``claim`` is True for a claim) or ``error`` (``message`` says why, in the engine's words;
    the line said, :func:`refused_line`; ``reason`` the engine's reason alone, as a sentence;
    ``claim`` is True when the line was a claim, ``incomplete`` when it named some but not all of
    the cards of a claim or declaration, ``unreadable`` when a word was not a card, rank or move
    word).
    """

    kind: str
    name: str = ""
    actions: list[Action] = field(default_factory=list)
    message: str = ""
    reason: str = ""
    claim: bool = False
    incomplete: bool = False
    unreadable: bool = False


def action_code(a: Action) -> str:
    """How the learner would type ``a`` (the engine's :meth:`Action.notation`): ``7H 7S``,
    ``declare QC QD``, ``lie down``, ``claim 9S 9D``, ``take 5C 5D 5H 5S``, ``end turn``."""
    return a.notation()


def classify(text: str, quit_words: frozenset[str] = QUIT_WORDS) -> Intent:
    """What one typed line is, before any deal reads it: ``pass``, ``quit`` (one of
    ``quit_words``), ``info`` (``name`` says which), ``claim`` (``name``: what the claim names,
    as typed after ``claim``, or empty) or ``move`` (``name``: the line, its move word spelled
    out).  The one reading of the words for a practice deal and a live table's client (which
    sends a move to the table's server to be read)."""
    raw = " ".join(text.split())
    low = raw.lower()
    if low in PASS_WORDS:
        return Intent("pass")
    if low in quit_words:
        return Intent("quit")
    if low in INFO_WORDS:
        return Intent("info", name=INFO_WORDS[low])
    words = raw.split(" ")
    head = _ALIASES.get(words[0].lower(), words[0].lower())
    if head == "claim":  # the watch referees every claim, claimable or not
        return Intent("claim", name=" ".join(words[1:]), claim=True)
    if head != words[0].lower():
        words[0] = head
    return Intent("move", name=" ".join(words))


def interpret(text: str, deal: Deal, seat: int, names: list[str]) -> Intent:
    """Read one line of the learner (at ``seat``) against the current ``deal``
    (:func:`classify`, then the engine reads a move: :func:`read_move`)."""
    intent = classify(text.strip().lower().replace(",", " "))
    if intent.kind != "move":
        return intent
    return read_move(intent.name, deal, seat, names)


def read_move(line: str, deal: Deal, seat: int, names: list[str], claim: bool = False) -> Intent:
    """The engine's reading of ``line`` as a move of ``seat`` (:meth:`Deal.parse_action`):
    ``actions`` with the one move meant, or the candidates to choose from; else ``error``.
    The one reading of a typed move, a practice deal's and a table server's."""
    try:
        a = deal.parse_action(line, seat)
    except IncompleteAction as exc:
        if claim:  # never show which cards a claim needs: that is the learner's find
            return Intent("error", message=NAME_ALL, claim=True, incomplete=True)
        if not exc.candidates:
            reason = exc.reason.words(seat, names) + "."
            return Intent("error", message=reason, reason=reason, incomplete=True)
        return Intent(
            "actions",
            actions=list(exc.candidates),
            message=_question(exc.reason, seat, names),
            claim=claim,
            incomplete=True,
        )
    except AmbiguousAction as exc:
        return Intent(
            "actions",
            actions=list(exc.candidates),
            message=_question(exc.reason, seat, names),
            claim=claim,
        )
    except (InvalidAction, IllegalAction) as exc:
        reason = exc.reason.words(seat, names) + "."
        unread = isinstance(exc, InvalidAction)
        return Intent(
            "error",
            message=refused_line(reason, line, unread),
            reason=reason,
            claim=claim,
            unreadable=unread,
        )
    return Intent("actions", actions=[a], claim=a.kind == "claim")


def refused_line(
    reason: str, typed: str = "", unreadable: bool = False, where: str = "deal"
) -> str:
    """The one line that answers a move the engine refused: its ``reason`` (the engine's
    words, :meth:`~tutor.engine.reasons.Reason.words`, as a sentence with its full stop, as
    :func:`read_move` makes it), and where a word of the ``typed`` line could not be read
    (``unreadable``), how to see the moves (and, for a rank letter alone, how to leave the
    ``where``: ``deal`` or ``table``).  The same line at a practice deal and at a table, whose
    server sends the reason (:meth:`tutor.app.tables.table.Table.act`)."""
    line = reason
    word = typed.strip().lower()
    if unreadable and word in ("q", "k", "j", "a"):  # a rank letter alone: perhaps meant to leave
        line += f" ({word} alone is a rank: to leave the {where}, type quit or :q.)"
    if unreadable:
        line += " Type help for the moves."
    return line


def _question(reason: Reason, seat: int, names: list[str]) -> str:
    """The engine's question without the candidates it lists in move codes ("Which table
    cards?"): the screen lists them next, in the cards' one written form."""
    return reason.words(seat, names, choices=False, capital=True)
