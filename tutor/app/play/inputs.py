"""Reading the learner's input in a practice deal.

:func:`interpret` turns one line into an :class:`Intent`.  A move is read by the engine
(:meth:`~tutor.engine.Deal.parse_action`), so an input that cannot be played is answered with the
engine's reason, and the moves offered are the engine's (:meth:`~tutor.engine.Deal.legal_actions`);
this module only keeps the words that are not moves.

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

import re
from dataclasses import dataclass, field

from tutor.engine.deal import Action, Deal
from tutor.engine.errors import AmbiguousAction, IllegalAction, IncompleteAction, InvalidAction
from tutor.teaching.words import QUIT_WORDS as LOOP_QUIT_WORDS

__all__ = ["Intent", "action_code", "interpret", "HELP", "WORDS", "QUIT_WORDS", "explain"]

#: Words offered for completion.
WORDS = ("claim", "declare", "lie down", "ld", "take", "end turn", "pass", "help", "hint",
         "hand", "moves", "look", "quit")

HELP = """\
Type a move:
  7h            capture with 7h (asks which table card if several)
  7h 7s         7h takes 7s; 7h 7d 7c 7s: a pair takes a pair
  declare qc qd declare a pair of a prial, a dead pair (4 cards: a mournival)
  claim         claim an oversight, then name the cards (claim 9s 9d, claim 9,
                claim aces); a claim of nothing claimable is a false claim
  space bar     the claim key, at any moment: then name the cards
  take          dealer: take the table mournival before play
  ld            lie down (when you cannot capture)
  end turn      end your turn (where several captures a turn are allowed)
  pass / Enter  let the moment go by
  hint          the best move now and its margin (the engine's analysis)
  hand, moves, look, help
  quit or :q    leave (Ctrl-D saves and leaves; Ctrl-C leaves)"""

_INFO = {"help": "help", "?": "help", "h": "help", "hand": "hand", "moves": "moves",
         "m": "moves", "hint": "hint", "best": "hint", "legal": "moves", "look": "look", "l": "look",
         "table": "look", "screen": "look", "score": "look"}
_PASS = {"", "pass", "p", "go", "ok", "next", "n", "-"}
#: What leaves the deal: the program's one set (:data:`tutor.teaching.loop.QUIT_WORDS`), never
#: a single letter that is a rank (``q`` is the queen).
QUIT_WORDS = frozenset(LOOP_QUIT_WORDS)
#: Short forms of the move words, spelled out before the engine reads the line.
_ALIASES = {"c": "claim", "claims": "claim", "d": "declare", "play": "capture"}


@dataclass
class Intent:
    """One interpreted line.

    ``kind`` is ``info`` (``name`` says which), ``pass``, ``quit``, ``claim`` (``name`` is what
    the claim names, as typed after ``claim``; empty for the claim key or ``claim`` alone: the
    cards are to be named next), ``actions`` (``actions`` are the legal
    candidates: one, or several to choose from, with ``message`` saying what is to be chosen;
    ``claim`` is True for a claim) or ``error`` (``message`` says why, in the engine's words;
    ``claim`` is True when the line was a claim, ``incomplete`` when it named some but not all of
    the cards of a claim or declaration, ``unreadable`` when a word was not a card, rank or move
    word).
    """

    kind: str
    name: str = ""
    actions: list[Action] = field(default_factory=list)
    message: str = ""
    claim: bool = False
    incomplete: bool = False
    unreadable: bool = False


def action_code(a: Action) -> str:
    """How the learner would type ``a`` (the engine's :meth:`Action.notation`): ``7H 7S``,
    ``declare QC QD``, ``lie down``, ``claim 9S 9D``, ``take 5C 5D 5H 5S``, ``end turn``."""
    return a.notation()


def explain(reason: str, seat: int, names: list[str]) -> str:
    """The engine's ``reason`` with seat numbers replaced by names ("player 0" -> "you")."""
    def sub(m):
        q = int(m.group(1))
        if q == seat:
            return "you"
        return names[q] if 0 <= q < len(names) else m.group(0)
    text = re.sub(r"player (\d+)'s hand", lambda m: "your hand" if int(m.group(1)) == seat
                  else f"{names[int(m.group(1))]}'s hand", reason)
    text = re.sub(r"it is player (\d+)'s turn, not player \d+'s",
                  lambda m: f"it is {names[int(m.group(1))]}'s turn, not yours", text)
    text = re.sub(r"[Pp]layer (\d+)", sub, text)
    return text.replace("you holds", "you hold")


def question_only(reason: str) -> str:
    """The engine's question without the candidates it lists in move codes ("which table
    cards? 7H 7C; 7H 7S" -> "Which table cards?"): the screen lists them next, in the cards'
    one written form."""
    head, sep, _ = reason.partition("? ")
    return head[:1].upper() + head[1:] + "?" if sep else reason


def interpret(text: str, deal: Deal, seat: int, names: list[str]) -> Intent:
    """Read one line of the learner (at ``seat``) against the current ``deal``."""
    raw = " ".join(text.strip().lower().replace(",", " ").split())
    if raw in _PASS:
        return Intent("pass")
    if raw in QUIT_WORDS:
        return Intent("quit")
    if raw in _INFO:
        return Intent("info", name=_INFO[raw])
    words = raw.split(" ")
    words[0] = _ALIASES.get(words[0], words[0])
    line = " ".join(words)
    if words[0] == "claim":      # the watch referees every claim, claimable or not
        return Intent("claim", name=" ".join(words[1:]), claim=True)
    return read_move(line, deal, seat, names)


def read_move(line: str, deal: Deal, seat: int, names: list[str], claim: bool = False) -> Intent:
    """The engine's reading of ``line`` as a move of ``seat`` (:meth:`Deal.parse_action`):
    ``actions`` with the one move meant, or the candidates to choose from; else ``error``."""
    try:
        a = deal.parse_action(line, seat)
    except IncompleteAction as exc:
        if claim:           # never show which cards a claim needs: that is the learner's find
            return Intent("error", message="which cards? A claim names all the cards it takes "
                                           "(or the rank alone).", claim=True, incomplete=True)
        if not exc.candidates:
            return Intent("error", message=explain(exc.reason, seat, names), incomplete=True)
        return Intent("actions", actions=list(exc.candidates),
                      message=question_only(explain(exc.reason, seat, names)), claim=claim,
                      incomplete=True)
    except AmbiguousAction as exc:
        return Intent("actions", actions=list(exc.candidates),
                      message=question_only(explain(exc.reason, seat, names)), claim=claim)
    except InvalidAction as exc:
        reason = explain(exc.reason, seat, names).rstrip(". ")
        if line in ("q", "k", "j", "a"):       # a rank letter alone: perhaps meant to leave
            reason += f" ({line} alone is a rank; to leave the deal, type quit or :q)"
        return Intent("error", message=f"{reason}. Type help for the moves.", claim=claim,
                      unreadable=True)
    except IllegalAction as exc:
        return Intent("error", message=explain(exc.reason, seat, names), claim=claim)
    return Intent("actions", actions=[a], claim=a.kind == "claim")
