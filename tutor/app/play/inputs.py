"""Reading the learner's input in a practice deal.

:func:`interpret` turns one line into an :class:`Intent`; every rule question goes to the engine
(:meth:`~tutor.engine.Deal.legal_actions`, :meth:`~tutor.engine.Deal.free_actions`,
:meth:`~tutor.engine.Deal.why_illegal`), so an input that cannot be played is answered with the
engine's reason.

What the learner may type:

- a capture: ``7h`` (the hand card; the table card is found, or asked for when there are
  several), ``7h 7s`` (hand card and table card), ``7h 7d 7c 7s`` (a pair for a pair, or one for
  three); ``capture`` before the cards is allowed;
- ``declare qc qd`` (a pair of a prial, a dead pair) or ``declare`` and all four of a mournival;
  two or four cards of one rank from the hand with no table card also declare;
- ``claim`` (or ``c``, or the space bar in a claim window) and optionally the cards: ``claim 9s
  9d``, or the rank: ``claim 9``;
- ``take`` (the dealer takes a table mournival before play);
- ``lie down`` or ``ld``;
- ``pass`` or an empty line (let the moment go), ``help``, ``hand``, ``moves`` (the legal turn
  moves, as you would type them), ``look`` (the table again), ``quit``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tutor.engine.cards import RANK_NAMES, RANK_PLURALS, code, parse_cards, parse_rank
from tutor.engine.deal import DECLARATIONS, Action, Deal
from tutor.engine.errors import NotationError

__all__ = ["Intent", "action_code", "interpret", "HELP", "WORDS", "explain"]

#: Words offered for completion.
WORDS = ("claim", "declare", "lie down", "ld", "take", "pass", "help", "hand", "moves", "look",
         "quit")

HELP = """\
Type a move:
  7h            capture with 7h (asks which table card if several)
  7h 7s         7h takes 7s; 7h 7d 7c 7s: a pair takes a pair
  declare qc qd declare a pair of a prial, a dead pair (4 cards: a mournival)
  claim         claim an oversight (or claim 9s 9d, claim 9); space bar in a claim window
  take          dealer: take the table mournival before play
  ld            lie down (when you cannot capture)
  pass / Enter  let the moment go by
  hand, moves, look, help, quit"""

_INFO = {"help": "help", "?": "help", "h": "help", "hand": "hand", "moves": "moves",
         "m": "moves", "hint": "moves", "legal": "moves", "look": "look", "l": "look",
         "table": "look", "screen": "look", "score": "look"}
_PASS = {"", "pass", "p", "go", "ok", "next", "n", "-"}
_QUIT = {"quit", "q", "exit"}
_LIE = {"ld", "lie down", "lie", "lay down", "liedown", "lie-down", "i lie down"}


@dataclass
class Intent:
    """One interpreted line.

    ``kind`` is ``info`` (``name`` says which), ``pass``, ``quit``, ``actions`` (``actions`` are
    the legal candidates: one, or several to choose from; ``claim`` is True for a claim) or
    ``error`` (``message`` says why, in the engine's words where a rule is concerned).
    """

    kind: str
    name: str = ""
    actions: list[Action] = field(default_factory=list)
    message: str = ""
    claim: bool = False


def action_code(a: Action) -> str:
    """How the learner would type ``a``: ``7H 7S``, ``declare QC QD``, ``lie down``, ``claim 9S
    9D``, ``take``."""
    if a.kind in ("capture", "play_on_capture"):
        return " ".join(code(c) for c in a.cards + a.table)
    if a.kind == "lie_down":
        return "lie down"
    if a.kind == "take_table_mournival":
        return "take"
    if a.kind == "claim":
        return "claim " + " ".join(code(c) for c in a.cards)
    return "declare " + " ".join(code(c) for c in a.cards)


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
                  lambda m: f"it is {names[int(m.group(1))]}'s turn", text)
    text = re.sub(r"[Pp]layer (\d+)", sub, text)
    return text.replace("you holds", "you hold")


def _turn_actions(deal: Deal, seat: int) -> list[Action]:
    if deal.phase == "over" or deal.to_move != seat:
        return []
    return deal.legal_actions()


def _declarations(deal: Deal, seat: int) -> list[Action]:
    out = [a for a in deal.free_actions(seat) if a.kind in DECLARATIONS]
    out += [a for a in _turn_actions(deal, seat) if a.kind in DECLARATIONS]
    return out


def interpret(text: str, deal: Deal, seat: int, names: list[str]) -> Intent:
    """Read one line of the learner (at ``seat``) against the current ``deal``."""
    raw = " ".join(text.strip().lower().split())
    if raw in _PASS:
        return Intent("pass")
    if raw in _QUIT:
        return Intent("quit")
    if raw in _INFO:
        return Intent("info", name=_INFO[raw])
    if raw in _LIE:
        a = Action.make(seat, "lie_down", deal.hand(seat))
        return _checked([a], deal, seat, names)
    words = raw.split(" ", 1)
    head, rest = words[0], (words[1] if len(words) > 1 else "")
    if head in ("claim", "c", "claims"):
        return _claim(rest, deal, seat, names)
    if head in ("declare", "d", "decl"):
        return _declare(rest, deal, seat, names)
    if head == "take" and (not rest or rest in ("mournival", "the mournival", "table mournival")):
        return _take(deal, seat, names)
    if head in ("capture", "cap", "play"):
        raw = rest
    try:
        cards = parse_cards(raw)
    except NotationError as exc:
        return Intent("error", message=f"{exc}. Type help for the moves.")
    if not cards:
        return Intent("error", message="Name a card, or type help.")
    return _cards(cards, deal, seat, names)


def _checked(actions: list[Action], deal: Deal, seat: int, names: list[str],
             claim: bool = False) -> Intent:
    legal = [a for a in actions if deal.why_illegal(a) is None]
    if legal:
        return Intent("actions", actions=legal, claim=claim)
    return Intent("error", message=explain(deal.why_illegal(actions[0]) or "not allowed now",
                                           seat, names))


def _claim(rest: str, deal: Deal, seat: int, names: list[str]) -> Intent:
    cands = [a for a in deal.free_actions(seat) if a.kind == "claim"]
    if rest:
        try:
            rank = parse_rank(rest)
            named = None
        except NotationError:
            rank = None
            try:
                named = set(parse_cards(rest))
            except NotationError as exc:
                return Intent("error", message=f"{exc}; claim names the cards (claim 9s 9d) or "
                                               "the rank (claim 9)")
        if rank is not None:
            cands = [a for a in cands if a.cards[0] >> 2 == rank]
        else:
            exact = [a for a in cands if set(a.cards) == named]
            cands = exact or [a for a in cands if named <= set(a.cards)]
        if not cands:
            if named:
                reasons = [deal.why_illegal(Action.make(seat, "claim", named, (), k))
                           for k in sorted(deal.ruleset.oversights)]
                reason = next((r for r in reasons if r and "covers" not in r), None) or (
                    reasons[0] if reasons else "this ruleset lists no oversights to claim")
                if reason and "covers" in reason:
                    reason = "no open oversight covers those cards"
                return Intent("error", message=explain(reason, seat, names), claim=True)
            none = f"no open oversight of {RANK_PLURALS[rank]}"
            return Intent("error", message=_nothing_to_claim(deal, seat, names, none), claim=True)
    if not cands:
        return Intent("error", message=_nothing_to_claim(deal, seat, names), claim=True)
    # several card choices of one oversight are worth the same: keep one per oversight
    seen, keep = set(), []
    for a in cands:
        key = (a.oversight, a.cards[0] >> 2)
        if key not in seen:
            seen.add(key)
            keep.append(a)
    return Intent("actions", actions=keep, claim=True)


def _nothing_to_claim(deal: Deal, seat: int, names: list[str], default: str | None = None) -> str:
    if not deal.ruleset.oversights:
        return "this ruleset lists no oversights: there is never anything to claim"
    if deal.phase != "play":
        return "play has ended: there is nothing to claim"
    if default:
        return default
    if any(o.offender == seat for o in deal.open_oversights()):
        return "the only open oversight is your own mistake, and you may not claim it"
    return "there is nothing to claim"


def _declare(rest: str, deal: Deal, seat: int, names: list[str]) -> Intent:
    if not rest:
        return Intent("error", message="Name the cards to declare: declare qc qd (two of a prial "
                                       "or a dead pair), or all four of a mournival.")
    try:
        cards = parse_cards(rest)
    except NotationError as exc:
        return Intent("error", message=str(exc))
    return _declare_cards(cards, deal, seat, names)


def _declare_cards(cards: list[int], deal: Deal, seat: int, names: list[str]) -> Intent:
    named = tuple(sorted(cards))
    cands = [a for a in _declarations(deal, seat) if a.cards == named]
    if cands:
        return Intent("actions", actions=cands[:1])
    held = sum(1 for c in deal.hand(seat) if c >> 2 == named[0] >> 2)
    if len(named) == 4:
        kind = "declare_mournival"
    elif held >= 3:
        kind = "declare_prial"
    else:
        kind = "declare_dead_pair"
    reason = deal.why_illegal(Action.make(seat, kind, named))
    if reason is None:
        reason = "not now"
    return Intent("error", message=explain(reason, seat, names))


def _take(deal: Deal, seat: int, names: list[str]) -> Intent:
    table = set(deal.table_cards())
    acts = [Action.make(seat, "take_table_mournival", [r * 4 + s for s in range(4)])
            for r in range(13) if all(r * 4 + s in table for s in range(4))]
    if not acts:
        return Intent("error", message="there is no mournival (four of a rank) on the table")
    return _checked(acts, deal, seat, names)


def _cards(cards: list[int], deal: Deal, seat: int, names: list[str]) -> Intent:
    hand = set(deal.hand(seat))
    table = set(deal.table_cards())
    loose = [c for c in cards if c not in hand and c not in table]
    if loose:
        return Intent("error", message=f"{' '.join(code(c) for c in loose)}: neither in your hand "
                                       "nor on the table")
    h = tuple(sorted(c for c in cards if c in hand))
    t = set(c for c in cards if c in table)
    if not h:
        return Intent("error", message="name a card from your hand first (7h captures with the "
                                       "seven of hearts)")
    ranks = {c >> 2 for c in cards}
    if len(ranks) != 1:
        return Intent("error", message="a capture takes cards of the same rank as the cards played")
    rank = ranks.pop()
    if not t and len(h) >= 2 and len(h) != 3:
        decl = [a for a in _declarations(deal, seat) if a.cards == h]
        if decl:
            return Intent("actions", actions=decl[:1])
    if deal.phase == "over":
        return Intent("error", message="the deal is over")
    if deal.to_move != seat:
        return Intent("error", message=f"it is {names[deal.to_move]}'s turn, not yours")
    caps = [a for a in deal.legal_actions()
            if a.kind in ("capture", "play_on_capture") and a.cards == h and t <= set(a.table)]
    exact = [a for a in caps if set(a.table) == t]
    if exact:
        return Intent("actions", actions=exact)
    if caps:
        return Intent("actions", actions=caps)
    on_table = sorted(c for c in table if c >> 2 == rank)
    if not on_table:
        return Intent("error", message=f"there is no {RANK_NAMES[rank]} on the table to capture")
    kind = "play_on_capture" if deal.phase == "play_on" else "capture"
    guess = Action.make(seat, kind, h, sorted(t) if t else on_table)
    reason = deal.why_illegal(guess) or "that is not one of your moves now (type moves)"
    return Intent("error", message=explain(reason, seat, names))
