"""Actions and how a learner writes them: :class:`Action` (with its notation and a sentence for
people) and the parser of the learner's notation, :meth:`Deal.parse_action` (private to
:mod:`tutor.engine.deal`, which re-exports the public names)."""

from __future__ import annotations

import re
from typing import NamedTuple

from tutor.engine.cards import (
    RANK_NAMES,
    RANK_PLURALS,
    cards_of,
    code,
    parse_card,
    parse_rank,
    pretty_cards,
)
from tutor.engine.deal._bits import RANK_MASK, _rank_count
from tutor.engine.deal._shape import _DealState
from tutor.engine.errors import (
    ActionError,
    AmbiguousAction,
    IllegalAction,
    IncompleteAction,
    InvalidAction,
    NotationError,
)
from tutor.engine.reasons import Cards, Reason, Seat
from tutor.engine.values import CaptureForm

#: The phases of a deal: play, the last player in capturing alone (``last_in_plays_on``), over.
PLAY, PLAY_ON, OVER = "play", "play_on", "over"
CAPTURE_KINDS = frozenset({"capture", "play_on_capture"})
TURN_KINDS = frozenset({"capture", "lie_down", "play_on_capture", "end_turn"})
DECLARATIONS = frozenset({"declare_prial", "declare_mournival", "declare_dead_pair",
                          "declare_pair"})
ACTION_KINDS = ("take_table_mournival", "declare_prial", "declare_mournival", "declare_dead_pair",
                "declare_pair", "capture", "lie_down", "claim", "play_on_capture", "end_turn")
#: The declaration action of each name in the ruleset's ``declarations`` (RULES.md 3.6).
DECLARATION_ACTION = {"prial": "declare_prial", "mournival": "declare_mournival",
                      "dead_pair": "declare_dead_pair", "pair": "declare_pair"}
#: Capture forms by (hand cards, table cards) (RULES.md 3.2 ``captures``).
CAPTURE_FORM = {(1, 1): CaptureForm.ONE_FOR_ONE, (1, 3): CaptureForm.ONE_FOR_THREE,
                (2, 2): CaptureForm.PAIR_FOR_PAIR, (3, 1): CaptureForm.PRIAL_FOR_ONE}
_DECLARE_WORDS = {"declare_prial": "a pair of a prial", "declare_mournival": "a mournival",
                  "declare_dead_pair": "a dead pair", "declare_pair": "a pair"}


class Action(NamedTuple):
    """One action of a deal, as in deal records (RULES.md 9).

    ``player`` is a seat 0..n-1; ``kind`` one of :data:`ACTION_KINDS`.  For ``capture`` and
    ``play_on_capture``, ``cards`` are the hand cards played and ``table`` the table cards taken;
    for every other kind ``cards`` are the cards moved and ``table`` is empty.  ``oversight`` names
    the oversight kind of a ``claim``.  Card tuples are kept sorted, so equal actions compare equal.
    """

    player: int
    kind: str
    cards: tuple[int, ...] = ()
    table: tuple[int, ...] = ()
    oversight: str | None = None

    @classmethod
    def make(cls, player: int, kind: str, cards=(), table=(), oversight: str | None = None) -> Action:
        """Build an action with its card tuples sorted."""
        return cls(player, kind, tuple(sorted(cards)), tuple(sorted(table)), oversight)

    @property
    def form(self) -> str | None:
        """The capture form of a capture (``one_for_one``, ``one_for_three``, ``pair_for_pair``,
        ``prial_for_one``; RULES.md 3.2), else None."""
        if self.kind not in CAPTURE_KINDS:
            return None
        return CAPTURE_FORM.get((len(self.cards), len(self.table)))

    @property
    def rank(self) -> int | None:
        """The rank (0 ace .. 12 king) of the cards the action moves, or None (lie down, end
        turn)."""
        if self.kind in ("lie_down", "end_turn"):
            return None
        cs = self.cards or self.table
        return cs[0] >> 2 if cs else None

    def notation(self) -> str:
        """How a learner types the action, read back by :meth:`Deal.parse_action`: ``7H 7S``
        (hand card first, then table cards), ``declare QC QD``, ``claim 9S 9D``, ``take``,
        ``lie down``, ``end turn``."""
        if self.kind in CAPTURE_KINDS:
            return " ".join(code(c) for c in self.cards + self.table)
        if self.kind == "lie_down":
            return "lie down"
        if self.kind == "end_turn":
            return "end turn"
        if self.kind == "take_table_mournival":
            return "take " + " ".join(code(c) for c in self.cards)
        if self.kind == "claim":
            return "claim " + " ".join(code(c) for c in self.cards)
        return "declare " + " ".join(code(c) for c in self.cards)

    def describe(self, symbols: bool = True, names: list[str] | None = None) -> str:
        """A sentence for people: ``Player 2 captures 7♥ with 7♠``."""
        who = names[self.player] if names else f"Player {self.player}"
        you = who.split(" ")[0].lower() == "you"        # "you (Player 2) capture", not captures
        cs = pretty_cards(self.cards, symbols)

        def verb(third: str) -> str:
            return {"lies": "lie", "claims": "claim"}.get(third, third[:-1]) if you else third
        if self.kind in CAPTURE_KINDS:
            tail = " (playing on)" if self.kind == "play_on_capture" else ""
            return f"{who} {verb('captures')} {pretty_cards(self.table, symbols)} with {cs}{tail}"
        if self.kind == "lie_down":
            return f"{who} {verb('lies')} down: {cs}"
        if self.kind == "end_turn":
            return f"{who} {verb('ends')} the turn"
        if self.kind == "claim":
            what = self.oversight.replace('_', ' ') if self.oversight else "an oversight"
            return f"{who} {verb('claims')} {cs} ({what})"
        if self.kind == "take_table_mournival":
            return f"{who} {verb('takes')} the table mournival {cs}"
        return f"{who} {verb('declares')} {_DECLARE_WORDS[self.kind]}: {cs}"



class ClaimWords(NamedTuple):
    """What a claim names, read from the learner's words (:func:`read_claim_words`): the
    ``cards`` named (card ints, in the order typed), the ``rank`` named alone (0 ace .. 12 king,
    or None), and ``kinds``, the oversight kinds its words allow (empty: any)."""

    cards: tuple[int, ...] = ()
    rank: int | None = None
    kinds: frozenset[str] = frozenset()

    @property
    def names_something(self) -> bool:
        """True when the claim names cards or a rank (a kind alone names no cards)."""
        return bool(self.cards) or self.rank is not None


_TMG, _SPL, _DEAD = "overlooked_table_mournival", "split_prial", "laid_down_dead_pair"
_LDP, _LDM = "laid_down_prial", "laid_down_mournival"
#: How a learner names an oversight kind, in the words the lessons use (RULES.md 4), longest
#: phrase first: "the split prial of nines", "claim the table mournival", "the dead pair".
CLAIM_KIND_WORDS: dict[tuple[str, ...], frozenset[str]] = {
    ("overlooked", "table", "mournival"): frozenset({_TMG}),
    ("laid", "down", "dead", "pair"): frozenset({_DEAD}),
    ("laid", "down", "mournival"): frozenset({_LDM}),
    ("laid", "down", "prial"): frozenset({_LDP}),
    ("laid", "down", "pair"): frozenset({_DEAD}),
    ("table", "mournival"): frozenset({_TMG}),
    ("overlooked", "mournival"): frozenset({_TMG}),
    ("split", "prial"): frozenset({_SPL}),
    ("dead", "pair"): frozenset({_DEAD}),
    ("mournival",): frozenset({_TMG, _LDM}),
    ("prial",): frozenset({_SPL, _LDP}),
    ("split",): frozenset({_SPL}),
    **{(k,): frozenset({k}) for k in (_TMG, _SPL, _DEAD, _LDP, _LDM)},
}
#: Words a claim may carry that name nothing: the verb, articles, counts and "pair".
CLAIM_FILLER = frozenset({"claim", "claims", "i", "the", "an", "of", "and", "both", "all",
                          "pair", "pairs", "cards", "those", "these", "them", "it", "that"})
#: A word meant as a card but mistyped (``7x``, ``11h``): its own error says why.
_CARD_LIKE = re.compile(r"^(?:1[0-9]|[1-9atjqk])[^\s\d]$|^\d{2,}[cdhs♣♦♥♠]$")
#: Words that are a count or an article beside another rank ("the two sevens", "a pair of
#: nines") and a rank alone ("claim a", "claim two").
_SOFT_RANKS = {"a": 0, "two": 1, "four": 3}


def read_claim_words(text: str) -> ClaimWords:
    """Read what a claim names, without looking at any position (RULES.md 4): cards (``9s 9d``,
    ``10♥``), or a rank alone (``9``, ``nines``, ``a``, ``ace``, ``aces``, ``10``, ``ten``),
    with or without ``claim`` before them, and with the words the lessons use for what is
    claimed (``the split prial of nines``, ``claim the table mournival of sevens``, ``the dead
    pair``).  ``a``, ``two`` and ``four`` are ranks when nothing else names a rank or card
    ("claim a": the aces), and an article or a count otherwise ("claim a pair of nines", "the
    two sevens").  Nothing named gives an empty
    :class:`ClaimWords`.

    Raises :class:`~tutor.engine.errors.InvalidAction` naming the first word that is neither a
    card, a rank, nor a word of a claim (the claim is unreadable: never graded), and
    :class:`~tutor.engine.errors.IllegalAction` when the words name more than one rank (a claim
    takes cards of one rank), or a card twice.
    """
    raw = " ".join(str(text).replace(",", " ").replace(";", " ").split())
    words = raw.lower().replace("-", " ").split()
    kinds: frozenset[str] | None = None
    cards: list[int] = []
    ranks: list[int] = []
    soft: list[int] = []
    i = 0
    while i < len(words):
        phrase = next((ph for ph in CLAIM_KIND_WORDS
                       if tuple(words[i:i + len(ph)]) == ph), None)
        if phrase is not None:
            allowed = CLAIM_KIND_WORDS[phrase]
            kinds = allowed if kinds is None else kinds & allowed
            i += len(phrase)
            continue
        w = words[i]
        i += 1
        if w in _SOFT_RANKS:
            soft.append(_SOFT_RANKS[w])
        elif w not in CLAIM_FILLER:
            _claim_word(w, raw, cards, ranks)
    if soft and not cards and not ranks:
        ranks.extend(soft)              # "claim a": the aces; "claim two": the twos
    if len({c >> 2 for c in cards} | set(ranks)) > 1:
        raise IllegalAction("a claim takes cards of one rank: name them, or the rank alone",
                            raw)
    rank = ranks[0] if ranks and not cards else None
    return ClaimWords(tuple(cards), rank, kinds or frozenset())


def _claim_word(w: str, raw: str, cards: list[int], ranks: list[int]) -> None:
    """Read one word of a claim into ``cards`` or ``ranks`` (see :func:`read_claim_words`)."""
    try:
        c = parse_card(w)
    except NotationError as not_card:
        try:
            ranks.append(parse_rank(w))
        except NotationError:
            why = (f"could not read {w!r}: " + str(not_card).split(": ", 1)[-1]
                   if _CARD_LIKE.match(w) else
                   f"could not read {w!r}: not a card, a rank or a word of a claim (claim 9s "
                   "9d, claim nines, claim aces)")
            raise InvalidAction(why, raw) from None
        return
    if c in cards:
        raise IllegalAction(f"{code(c)} is named twice", raw)
    cards.append(c)


_LIE_WORDS = frozenset({"ld", "lie down", "lie", "lay down", "liedown", "lie-down", "i lie down"})
_END_WORDS = frozenset({"end turn", "end", "end_turn", "end-turn", "done", "stop"})
#: Where one set of cards is several declarations, the most specific first (RULES.md 3.4, 3.6).
DECLARATION_ORDER = {"declare_mournival": 0, "declare_prial": 1, "declare_dead_pair": 2,
                     "declare_pair": 3}


def preferred_declarations(decls: list[Action]) -> list[Action]:
    """Where one set of cards is several declarations (a pair of a prial is also a plain pair),
    keep the most specific one (:data:`DECLARATION_ORDER`)."""
    best: dict[tuple[int, ...], Action] = {}
    for a in decls:
        if a.cards not in best or DECLARATION_ORDER[a.kind] < DECLARATION_ORDER[best[a.cards].kind]:
            best[a.cards] = a
    return list(best.values())


def one_declaration_per_rank(decls: list[Action]) -> list[Action]:
    """One declaration a rank, the most specific (the most cards, then
    :data:`DECLARATION_ORDER`), in rank order: what a hand could declare, rank by rank."""
    out: list[Action] = []
    seen: set[int | None] = set()
    for a in sorted(decls, key=lambda a: (a.cards[0] >> 2, -len(a.cards),
                                          DECLARATION_ORDER[a.kind])):
        if a.rank not in seen:
            seen.add(a.rank)
            out.append(a)
    return out


def not_your_turn(mover: int, player: int) -> Reason:
    """"it is player 3's turn, not player 2's" (to player 2: "it is player 3's turn, not
    yours")."""
    return Reason("it is {mover:@'s|your} turn, not {player:@'s|yours}", code="not_your_turn",
                  mover=Seat(mover), player=Seat(player))


def not_in_hand(cards, seat: int) -> Reason:
    """"7♥ not in player 2's hand" (to player 2: "7♥ not in your hand")."""
    return Reason("{cards} not in {p:@'s|your} hand", code="not_in_hand", cards=Cards(cards),
                  p=Seat(seat))


class _Notation(_DealState):
    """The parser of the learner's notation (a part of :class:`~tutor.engine.deal.Deal`)."""

    __slots__ = ()

    def parse_action(self, text: str, seat: int) -> Action:
        """Read ``text``, a move as a learner types it, for ``seat`` on this position.

        The notation (case and commas do not matter; suits as letters or ♣♦♥♠; ten as T or 10):

        - a capture: the hand card(s), then the table card(s) taken: ``7h 7s``, ``7h 7d 7c 7s``;
          ``capture`` may come first; the hand card alone (``7h``) when only one capture plays it;
        - ``declare`` and the cards (``declare qc qd``, all four of a mournival), or the rank
          alone when that leaves one choice; two or four hand cards of one rank with no table card
          also declare;
        - ``claim`` and the cards (``claim 9s 9d``), or the rank (``claim 9``), or nothing, when
          one oversight is open to the seat;
        - ``take`` (the dealer takes a table mournival), ``lie down`` (or ``ld``), ``end turn``.

        Returns the one legal :class:`Action` meant.  Raises :class:`~tutor.engine.errors.
        InvalidAction` when a word is not a card, rank or move word;
        :class:`~tutor.engine.errors.IllegalAction` with the engine's reason (not in your hand,
        not on the table, not your turn, nothing to claim, ...);
        :class:`~tutor.engine.errors.IncompleteAction` when a claim or declaration names some but
        not all of its cards; :class:`~tutor.engine.errors.AmbiguousAction` when several legal
        actions fit (``candidates`` lists them).  Every error names the input.
        """
        raw = " ".join(str(text).replace(",", " ").split())
        low = raw.lower()
        words = low.split()
        if not words:
            raise InvalidAction("no move: name a card, or a move word (declare, claim, take, "
                                "lie down, end turn)", raw, seat)
        if low in _LIE_WORDS:
            return self._parsed([Action.make(seat, "lie_down", self.hand(seat))], raw, seat)
        if low in _END_WORDS:
            return self._parsed([Action(seat, "end_turn")], raw, seat)
        head, rest = words[0], words[1:]
        if head in ("capture", "cap"):
            words = rest
            head = "capture"
            if not words:
                raise IncompleteAction("name the cards: capture 7h 7s", raw, seat)
        if head == "claim":
            return self._parse_claim(rest, raw, seat)
        if head in ("declare", "decl"):
            return self._parse_declare(rest, raw, seat)
        if head == "take":
            return self._parse_take(rest, raw, seat)
        cards = self._read_cards(words, raw, seat, ranks=False)
        assert isinstance(cards, list)      # a rank alone is read only with ranks=True
        return self._parse_cards(cards, raw, seat)

    def _read_cards(self, words: list[str], raw: str, seat: int, ranks: bool
                    ) -> list[int] | int:
        """The cards named by ``words`` (or, with ``ranks``, a rank named alone: an int rank
        returned in place of the list)."""
        if ranks and len(words) == 1:
            try:
                return parse_rank(words[0])
            except NotationError:
                pass
        cards: list[int] = []
        for w in words:
            try:
                c = parse_card(w)
            except NotationError as exc:
                raise InvalidAction(str(exc), raw, seat) from None
            if c in cards:
                raise InvalidAction(f"{code(c)} is named twice", raw, seat)
            cards.append(c)
        return cards

    def _parsed(self, cands: list[Action], raw: str, seat: int) -> Action:
        legal = [a for a in cands if self.why_illegal(a) is None]
        if len(legal) == 1:
            return legal[0]
        if legal:
            raise AmbiguousAction(Reason("that fits several moves", code="ambiguous",
                                         choices=legal), raw, seat, legal)
        raise IllegalAction(self.why_illegal(cands[0]) or "not a move now", raw, seat)

    def _parse_claim(self, words: list[str], raw: str, seat: int) -> Action:
        """A claim as typed: :func:`read_claim_words` reads what it names, and the engine's
        :meth:`claim_target` finds the oversight it takes."""
        return self.parse_claim(" ".join(words), seat, raw=raw)

    def parse_claim(self, text: str, seat: int, *, raw: str | None = None,
                    named: bool = False, blind: bool = False) -> Action:
        """Read ``text`` as a claim by ``seat`` on this position, ``claim`` before it or not
        (:func:`read_claim_words`: cards, a rank alone, the words the lessons use), and return
        the claim of the open oversight it names (:meth:`claim_target`, :meth:`claim_action`).

        With ``named`` the claim must name cards or a rank (the claim key of play: naming is
        the skill): a claim naming neither raises :class:`~tutor.engine.errors.IncompleteAction`
        whatever is open.  Raises as :meth:`parse_action` does: ``InvalidAction`` (a word that
        is not a card, a rank or a word of a claim), ``IllegalAction`` (the engine's reason
        that nothing named is claimable), ``IncompleteAction`` (some but not all of the cards),
        ``AmbiguousAction`` (several oversights fit; ``candidates``).  ``raw`` is the input the
        errors name (default ``text``).  With ``blind`` the claim is judged as a live table's
        referee judges it (:meth:`claim_target` with ``blind``): a naming of some but not all
        of an open oversight's cards raises ``IllegalAction`` with the reason it gets when
        nothing is open, and several oversights fitting give the first (never
        ``AmbiguousAction``), so what is raised never depends on what is open."""
        raw = text if raw is None else raw
        try:
            words = read_claim_words(text)
        except ActionError as exc:
            raise type(exc)(exc.reason, raw, seat) from None
        if named and not words.names_something:
            raise IncompleteAction("which cards? a claim names the cards it takes, or their "
                                   "rank (claim 9s 9d, claim nines)", raw, seat)
        try:
            target = self.claim_target(seat, words.cards, rank=words.rank,
                                       kind=words.kinds or None, blind=blind)
        except ActionError as exc:
            raise type(exc)(exc.reason, raw, seat, exc.candidates) from None
        return self.claim_action(seat, target, words.cards)

    def _one_kind(self, cands: list[Action], raw: str, seat: int) -> Action:
        """One action among ``cands`` when they are all the same move on cards of one rank
        (the same kind and oversight, the same number of cards: which suits does not matter),
        else AmbiguousAction."""
        keys = {(a.kind, a.oversight, a.cards[0] >> 2, len(a.cards), len(a.table)) for a in cands}
        if len(keys) == 1:
            return cands[0]
        choices = list(dict.fromkeys(cands))
        raise AmbiguousAction(Reason("that fits several moves", code="ambiguous", choices=choices,
                                     sep=": name the cards: "), raw, seat, choices)

    def _parse_declare(self, words: list[str], raw: str, seat: int) -> Action:
        if not words:
            raise IncompleteAction("name the cards to declare: declare qc qd (two of a prial, a "
                                   "dead pair), or all four of a mournival", raw, seat)
        named = self._read_cards(words, raw, seat, ranks=True)
        decls = [a for a in self.legal_actions(seat) if a.kind in DECLARATIONS]
        if isinstance(named, int):
            mine = [a for a in decls if a.cards[0] >> 2 == named]
            if not mine:
                why = (f"you hold no {RANK_PLURALS[named]} to declare"
                       if not _rank_count(self.hands[seat], named) else
                       f"there is no declaration of {RANK_PLURALS[named]} now")
                raise IllegalAction(why, raw, seat)
            return self._one_kind(preferred_declarations(mine), raw, seat)
        return self._declare_cards(tuple(sorted(named)), decls, raw, seat)

    def _declare_cards(self, named: tuple[int, ...], decls: list[Action], raw: str,
                       seat: int) -> Action:
        exact = preferred_declarations([a for a in decls if a.cards == named])
        if exact:
            return exact[0]
        wider = [a for a in decls if set(named) < set(a.cards)]
        if wider and len(named) < 2:
            wider = preferred_declarations(wider)
            raise IncompleteAction(Reason("which cards?", code="which_cards", choices=wider,
                                          sep=" a declaration names two cards (or all four of a "
                                              "mournival): "), raw, seat, wider)
        held = _rank_count(self.hands[seat], named[0] >> 2)
        kind = ("declare_mournival" if len(named) == 4 else
                "declare_prial" if held >= 3 and "prial" in self._decl else
                "declare_dead_pair" if "dead_pair" in self._decl else "declare_pair")
        reason = self.why_illegal(Action.make(seat, kind, named))
        raise IllegalAction(reason or "that is not a declaration you can make now", raw, seat)

    def _parse_take(self, words: list[str], raw: str, seat: int) -> Action:
        if words and words not in (["mournival"], ["the", "mournival"], ["table", "mournival"]):
            named = self._read_cards(words, raw, seat, ranks=True)
            rank = named if isinstance(named, int) else named[0] >> 2
            m = RANK_MASK[rank]
            return self._parsed([Action.make(seat, "take_table_mournival", cards_of(m))], raw, seat)
        acts = [Action.make(seat, "take_table_mournival", cards_of(m)) for m in RANK_MASK
                if self.table & m == m]
        if not acts:
            raise IllegalAction("there is no mournival (four of a rank) on the table", raw, seat)
        return self._parsed(acts, raw, seat)

    def _parse_cards(self, cards: list[int], raw: str, seat: int) -> Action:
        hand, table = self.hands[seat], self.table
        loose = [c for c in cards if not (hand >> c) & 1 and not (table >> c) & 1]
        if loose:
            where = "not in your hand" if len(cards) == 1 else "neither in your hand nor on the table"
            raise IllegalAction(f"{' '.join(code(c) for c in loose)}: {where}", raw, seat)
        h = tuple(sorted(c for c in cards if (hand >> c) & 1))
        t = tuple(sorted(c for c in cards if (table >> c) & 1))
        if not h:
            raise IllegalAction("name a card from your hand first (7h captures with the seven "
                                "of hearts)", raw, seat)
        ranks = {c >> 2 for c in cards}
        if len(ranks) != 1:
            raise IllegalAction("a capture takes cards of the same rank as the cards played",
                                raw, seat)
        rank = ranks.pop()
        if not t and len(h) in (2, 4):
            decls = [a for a in self.legal_actions(seat) if a.kind in DECLARATIONS]
            exact = preferred_declarations([a for a in decls if a.cards == h])
            if exact:
                return exact[0]
        if self.phase == OVER:
            raise IllegalAction("the deal is over", raw, seat)
        if self.to_move != seat:
            raise IllegalAction(not_your_turn(self._mover, seat), raw, seat)
        caps = [a for a in self.legal_actions()
                if a.kind in CAPTURE_KINDS and a.cards == h and set(t) <= set(a.table)]
        exact = [a for a in caps if a.table == t]
        if len(exact) == 1:
            return exact[0]
        if caps and not t:
            if len(caps) == 1:
                return caps[0]
            raise AmbiguousAction(Reason("which table cards?", code="which_table_cards",
                                         choices=caps, sep=" "), raw, seat, caps)
        if caps:
            raise IncompleteAction(Reason("which table cards?", code="which_table_cards",
                                          choices=caps, sep=" that capture takes "),
                                   raw, seat, caps)
        if not _rank_count(table, rank):
            raise IllegalAction(f"there is no {RANK_NAMES[rank]} on the table to capture",
                                raw, seat)
        kind = "play_on_capture" if self.phase == PLAY_ON else "capture"
        on_table = tuple(cards_of(table & RANK_MASK[rank]))
        guess = Action.make(seat, kind, h, t or on_table)
        raise IllegalAction(self.why_illegal(guess) or "that is not one of your moves now",
                            raw, seat)

