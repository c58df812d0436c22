"""Reading learners' answers and grading them through the engine.

Answers are plain words and card codes: ``7h 7s``, ``10♥``, ``claim 9s``, ``nothing``,
``lie down``, ``+2``, ``-1``, ``b``.  Reading is lenient about case, spaces, commas, suit symbols
and ``10``/``T`` (``10 ♥`` and ``7h7s`` are read too).  Text that cannot be read raises
:class:`~tutor.puzzles.model.AnswerError` with what was expected: it is never graded wrong.

Grading asks the engine about the puzzle's position (``free_actions``, ``legal_actions``,
``capture_options``, ``why_illegal``, ``unseen``, the deal's result); equivalent answers (any
capture of the at-risk rank, cards in any order, any two of a laid-down prial) are right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tutor.engine.cards import (RANK_NAMES, RANK_PLURALS, codes, parse_card, parse_rank, pretty,
                     pretty_cards, rank_code)
from tutor.engine.deal import Action
from tutor.engine.errors import NotationError
from tutor.puzzles.model import AnswerError, Grade, Puzzle

NOTHING_WORDS = {"nothing", "none", "no", "nope", "nil", "n", "-", "pass", "neither", "not"}
YES_WORDS = {"yes", "y", "yep", "aye"}
NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
                "thirteen": 13, "fourteen": 14}
_CARD_RUN = re.compile(r"^(?:(?:10|[2-9atjqk])[cdhs♣♦♥♠♧♢♡♤])+$", re.IGNORECASE)
_ONE_CARD = re.compile(r"(10|[2-9atjqk])([cdhs♣♦♥♠♧♢♡♤])", re.IGNORECASE)
_RANK_ONLY = re.compile(r"^(10|[2-9atjqk])$", re.IGNORECASE)
_SUIT_ONLY = re.compile(r"^[cdhs♣♦♥♠♧♢♡♤]$", re.IGNORECASE)
_SEPARATORS = re.compile(r"[,;/|\n]|\band\b|\bor\b|\bthen\b|&", re.IGNORECASE)
_NUMBER = re.compile(r"^[+-]?\d+$")
#: A token meant as a card but mistyped: a digit rank (or an upper-case A T J Q K) and one more
#: character, such as ``7x`` or ``10z`` (``to``, ``at`` stay words).
_CARD_LIKE = re.compile(r"^(?:10|[1-9]|[ATJQK])[^\s\d]$")


def _clean(text: str) -> str:
    return (text.replace("\ufe0f", "").replace("−", "-").replace("–", "-")
            .replace("“", "").replace("”", "").replace("`", "").strip())


def tokens(text: str) -> list[str]:
    """Split an answer into tokens, joining ``10 ♥`` into one card and splitting ``7h7s``."""
    s = _clean(text)
    for ch in ",;/|()[]{}.!?\"'":
        s = s.replace(ch, " ")
    raw = s.split()
    out: list[str] = []
    i = 0
    while i < len(raw):
        t = raw[i]
        if _RANK_ONLY.match(t) and i + 1 < len(raw) and _SUIT_ONLY.match(raw[i + 1]):
            out.append(t + raw[i + 1])
            i += 2
            continue
        if len(t) > 3 and _CARD_RUN.match(t):
            out.extend(m.group(0) for m in _ONE_CARD.finditer(t))
        else:
            out.append(t)
        i += 1
    return out


@dataclass
class Reading:
    """What an answer names: cards, ranks (from rank words or bare ranks), numbers and words."""

    cards: list[int] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    words: list[str] = field(default_factory=list)


def read(text: str) -> Reading:
    """Read tokens into cards, ranks (``7``, ``T``, ``10``, ``sevens``), other numbers and words
    (:class:`Reading`).  A lone lower-case ``a`` is the article, not an ace."""
    r = Reading()
    for t in tokens(text):
        low = t.lower()
        try:
            c = parse_card(t)
        except NotationError:
            c = None
        if c is not None:
            if c in r.cards:
                raise AnswerError(f"{pretty(c)} is named twice")
            r.cards.append(c)
            continue
        if t != "a":
            try:
                r.ranks.append(parse_rank(low))
                continue
            except NotationError:
                pass
        if _CARD_LIKE.match(t):
            try:
                parse_card(t)
            except NotationError as exc:
                raise AnswerError(str(exc)) from None
        if _NUMBER.match(low):
            r.numbers.append(int(low))
        else:
            r.words.append(low)
    return r


def _items(text: str) -> list[str]:
    """Split an answer naming several choices: commas, semicolons, slashes, ``and``, ``or``."""
    return [p for p in (x.strip() for x in _SEPARATORS.split(_clean(text))) if p]


def grade(p: Puzzle, text: str) -> Grade:
    """Grade ``text`` for puzzle ``p`` (raises AnswerError when it cannot be read)."""
    if not text or not text.strip():
        raise AnswerError("type an answer (or `hint`, or `quit`)")
    return GRADERS[p.kind](p, text)


# --------------------------------------------------------------------------------------------
# spot-oversight


def _grade_spot(p: Puzzle, text: str) -> Grade:
    from tutor.puzzles.generators import claim_groups
    r = read(text)
    says_nothing = bool(set(r.words) & NOTHING_WORDS)
    if not r.cards and not r.ranks:
        if not says_nothing:
            raise AnswerError("name the cards you claim (for example `claim 9S 9H`), or "
                              "answer `nothing`")
    deal = p.deal()
    groups = claim_groups(deal, p.seat)
    if not r.cards and not r.ranks:
        if not groups:
            return Grade(True, "Right: there is nothing to claim.")
        what = _join_claims(groups)
        return Grade(False, f"There was something to claim: {what}.")
    table = set(deal.table_cards())
    off = [c for c in r.cards if c not in table]
    if off:
        raise AnswerError(f"{pretty_cards(off)} {'is' if len(off) == 1 else 'are'} not on the "
                          "table: a claim takes cards from the table. Name table cards, or "
                          "answer `nothing`.")
    named_ranks = {c >> 2 for c in r.cards} | set(r.ranks)
    for g in groups:
        rank = g[0].cards[0] >> 2
        pool = set().union(*(set(a.cards) for a in g))
        fits = any(set(r.cards) <= set(a.cards) for a in g)
        if named_ranks == {rank} and set(r.cards) <= pool:
            if not fits:
                return Grade(False, f"Too many cards: the claim takes {len(g[0].cards)} of "
                                    f"{pretty_cards(pool)}.")
            if len(groups) == 1:
                return Grade(True, f"Right: you claim {pretty_cards(g[0].cards) if not r.cards or len(r.cards) < len(g[0].cards) else pretty_cards(r.cards)} "
                                   f"({g[0].oversight.replace('_', ' ')}).")
    if not groups:
        why = deal.why_illegal(Action.make(p.seat, "claim", r.cards or (), (), "split_prial"))
        return Grade(False, f"There is nothing to claim here ({why or 'no open oversight'}).")
    return Grade(False, f"Those cards are not open to a claim; what can be claimed is "
                        f"{_join_claims(groups)}.")


def _join_claims(groups) -> str:
    return " and ".join(f"{pretty_cards(g[0].cards)} ({g[0].oversight.replace('_', ' ')})"
                        for g in groups)


# --------------------------------------------------------------------------------------------
# capture-now


def _grade_capture(p: Puzzle, text: str) -> Grade:
    r = read(text)
    deal = p.deal()
    hand, table = set(deal.hand(p.seat)), set(deal.table_cards())
    off = [c for c in r.cards if c not in hand and c not in table]
    if off:
        raise AnswerError(f"{pretty_cards(off)}: not in your hand or on the table. Name the "
                          "capture you must make now, for example `7H 7S` or `sevens`.")
    named = {c >> 2 for c in r.cards} | set(r.ranks)
    if not named:
        raise AnswerError("name the capture you must make now: its cards (hand card first, "
                          "for example `7H 7S`) or its rank (`sevens`)")
    if len(named) > 1:
        raise AnswerError("name one capture: cards of a single rank (the one that cannot wait)")
    rank = named.pop()
    opts = {o.rank: o for o in deal.capture_options(p.seat)}
    risky = [o for o in opts.values() if o.at_risk]
    if rank in opts and opts[rank].at_risk:
        return Grade(True, f"Right: the {RANK_PLURALS[rank]} cannot wait ({opts[rank].reason}).")
    must = _join_words([RANK_PLURALS[o.rank] for o in risky])
    if rank in opts:
        return Grade(False, f"The {RANK_PLURALS[rank]} can wait ({opts[rank].reason}); the "
                            f"{must} cannot.")
    return Grade(False, f"You cannot capture {RANK_PLURALS[rank]} now (no capture of that rank "
                        f"is possible); the capture that cannot wait is the {must}.")


def _join_words(words: list[str]) -> str:
    return " and ".join(words) if words else "none"


# --------------------------------------------------------------------------------------------
# settlement

_PAIR = re.compile(r"(?:player|p|seat)?\s*(\d+)\s*[:=]\s*([+-]?\d+)", re.IGNORECASE)


def _grade_settlement(p: Puzzle, text: str) -> Grade:
    key = "net" if "net" in p.answer else "points"
    values = p.answer[key]
    asked = p.answer["asked"]
    t = _clean(text)
    pairs = _PAIR.findall(t)
    said: dict[int, int] = {}
    if pairs and len(asked) > 1:
        for seat, v in pairs:
            said[int(seat)] = int(v)
        bad = [s for s in said if s not in asked]
        if bad:
            raise AnswerError(f"there is no player {bad[0]} here: players are 0 to "
                              f"{p.players - 1}")
        if set(said) != set(asked):
            missing = [s for s in asked if s not in said]
            raise AnswerError(f"give a result for every player: missing player "
                              f"{', '.join(map(str, missing))}")
    else:
        toks = tokens(t)
        nums = []
        for tok in toks:
            low = tok.lower()
            if _NUMBER.match(low):
                nums.append(int(low))
            elif low in NUMBER_WORDS:
                nums.append(NUMBER_WORDS[low])
            elif low in ("even", "nothing", "quits", "square") and len(asked) == 1:
                nums.append(0)
            elif low in ("pays", "pay", "loses", "lose") and nums:
                continue
        if len(nums) != len(asked):
            if len(asked) == 1:
                raise AnswerError("give one number: what you win (+2) or pay (-1)"
                                  if key == "net" else "give one number: your points")
            raise AnswerError(f"give {len(asked)} numbers, one per player in seat order "
                              f"(Player 0 first), for example "
                              f"`{' '.join(['+1', '-2', '0', '+3', '-2'][:len(asked)])}`")
        said = dict(zip(asked, nums))
    wrong = [(s, said[s], values[s]) for s in asked if said[s] != values[s]]
    unit = "stakes" if key == "net" else "points"
    if not wrong:
        if len(asked) == 1:
            return Grade(True, f"Right: {_signed(values[asked[0]], key)} {unit}.")
        return Grade(True, "Right: " + ", ".join(f"Player {s} {_signed(values[s], key)}"
                                                 for s in asked) + ".")
    parts = [f"Player {s}: you said {_signed(v, key)}, it is {_signed(w, key)}"
             for s, v, w in wrong]
    return Grade(False, "Not quite. " + "; ".join(parts) + ".")


def _signed(v: int, key: str) -> str:
    return (f"{v:+d}" if v else "0") if key == "net" else str(v)


# --------------------------------------------------------------------------------------------
# legal-play


def interpret_choice(deal, seat: int, item: str) -> tuple[Action | None, str | None]:
    """Read one named choice as an action (or a reason it is not one): returns ``(action,
    None)``, or ``(None, reason)`` for a choice that is not even an action of the seat's cards.
    Raises AnswerError when the item cannot be read."""
    from tutor.puzzles.generators import play_choices
    low = " ".join(tokens(item)).lower()
    if re.search(r"\b(lie|lay|lies|lays)\b", low):
        return Action.make(seat, "lie_down", deal.hand(seat)), None
    r = read(item)
    if not r.cards:
        if r.ranks:
            raise AnswerError(f"name the cards, not just the rank: for example "
                              f"`{rank_code(r.ranks[0])}H {rank_code(r.ranks[0])}S`")
        raise AnswerError(f"cannot read {item.strip()!r}: name each choice by its cards (hand "
                          "card first, for example `7H 7S`), or `lie down`, separated by commas")
    hand, table = set(deal.hand(seat)), set(deal.table_cards())
    off = [c for c in r.cards if c not in hand and c not in table]
    if off:
        raise AnswerError(f"{pretty_cards(off)}: not in your hand or on the table")
    h = [c for c in r.cards if c in hand]
    t = [c for c in r.cards if c in table]
    if not h:
        raise AnswerError(f"say which card(s) from your hand take {pretty_cards(t)}")
    if t:
        return Action.make(seat, "capture", h, t), None
    rank = h[0] >> 2
    held = sum(1 for c in hand if c >> 2 == rank)
    if len(h) == 4:
        return Action.make(seat, "declare_mournival", h), None
    if len(h) == 2:
        kind = "declare_prial" if held >= 3 else "declare_dead_pair"
        return Action.make(seat, kind, h), None
    # hand cards alone: a capture whose table cards are left unsaid
    caps = [a for a in play_choices(deal, seat) if a.kind == "capture" and set(a.cards) == set(h)]
    from tutor.puzzles.generators import choice_key
    keys = {choice_key(a) for a in caps}
    if len(keys) == 1:
        return caps[0], None
    if len(keys) > 1:
        raise AnswerError(f"say which table cards {pretty_cards(h)} would take (one, or all "
                          "three)")
    return None, (f"{pretty_cards(h)} cannot capture anything on the table" if
                  not any(c >> 2 == rank for c in table) else
                  f"{pretty_cards(h)} alone is not a capture form here")


def _grade_legal(p: Puzzle, text: str) -> Grade:
    from tutor.puzzles.generators import choice_groups, choice_key, choice_words
    from tutor.puzzles.model import definition
    deal = p.deal()
    groups = choice_groups(deal, p.seat)
    legal = {choice_key(g[0]): g for g in groups}
    legal_actions = {a for g in groups for a in g}
    named: dict[tuple, Action] = {}
    wrong: list[str] = []
    items = _items(text)
    if not items:
        raise AnswerError("name each thing you may do, separated by commas")
    expanded: list[str] = []
    for item in items:
        r = read(item)
        ranks = {c >> 2 for c in r.cards}
        if len(ranks) > 1 and not re.search(r"\b(lie|lay)\b", item, re.IGNORECASE):
            # several ranks without commas: one choice per rank
            for rank in sorted(ranks, key=lambda x: [c >> 2 for c in r.cards].index(x)):
                expanded.append(" ".join(codes(c for c in r.cards if c >> 2 == rank)))
        else:
            expanded.append(item)
    for item in expanded:
        act, reason = interpret_choice(deal, p.seat, item)
        if act is None:
            wrong.append(reason)
            continue
        if act in legal_actions:
            named[choice_key(act)] = act
            continue
        why = deal.why_illegal(act)
        if why is None:
            why = "that is not something you may do now"
        label = "lie down" if act.kind == "lie_down" else pretty_cards(act.cards + act.table)
        wrong.append(f"{label}: {why}")
    words = definition("legal-play").word("forms", {})
    missing = [g[0] for k, g in legal.items() if k not in named]
    if not wrong and not missing:
        return Grade(True, "Right: " + "; ".join(choice_words(g[0], words) for g in groups) + ".")
    parts = []
    if missing:
        parts.append("you left out " + "; ".join(choice_words(a, words) for a in missing))
    if wrong:
        parts.append("not allowed: " + "; ".join(wrong))
    return Grade(False, "Not quite: " + ". ".join(parts) + ".")


# --------------------------------------------------------------------------------------------
# dead-pair


def _grade_dead(p: Puzzle, text: str) -> Grade:
    from tutor.engine.cards import parse_rank
    r = read(text)
    deal = p.deal()
    pairs = [parse_rank(x) for x in p.data["pairs"]]
    hand = set(deal.hand(p.seat))
    off = [c for c in r.cards if c not in hand]
    if off:
        raise AnswerError(f"{pretty_cards(off)}: not in your hand. Name the pair you may "
                          "declare, or answer `no`.")
    named = {c >> 2 for c in r.cards} | set(r.ranks)
    words = set(r.words)
    if not named:
        if words & YES_WORDS:
            if len(pairs) != 1:
                raise AnswerError("you hold more than one pair: say which (for example "
                                  f"`{rank_code(pairs[0])}`), or `no`")
            named = {pairs[0]}
        elif words & NOTHING_WORDS:
            named = set()
        else:
            raise AnswerError("answer with the pair you may declare (its cards or rank), or "
                              "`no`")
    stray = [x for x in named if x not in pairs]
    if stray:
        raise AnswerError(f"you do not hold a pair of {RANK_PLURALS[stray[0]]}; your pairs: "
                          + ", ".join(RANK_PLURALS[x] for x in pairs))
    right = {parse_rank(x) for x in p.answer["dead_pairs"]}
    if named == right:
        if right:
            return Grade(True, "Right: declare " + ", ".join(f"the {RANK_PLURALS[x]}"
                                                             for x in sorted(right)) + ".")
        return Grade(True, "Right: not now.")
    parts = []
    for x in sorted(named - right):
        mine = [c for c in hand if c >> 2 == x]
        why = deal.why_illegal(Action.make(p.seat, "declare_dead_pair", mine))
        parts.append(f"the {RANK_PLURALS[x]} may not be declared now ({why})")
    for x in sorted(right - named):
        parts.append(f"the {RANK_PLURALS[x]} are a dead pair you may declare")
    return Grade(False, "Not quite: " + "; ".join(parts) + ".")


# --------------------------------------------------------------------------------------------
# count

_RANK_PAIR = re.compile(r"(10|[2-9atjqk]|aces?|twos?|threes?|fours?|fives?|sixes|six|sevens?|"
                        r"eights?|nines?|tens?|jacks?|queens?|kings?)\s*[:=]\s*(\d+)", re.IGNORECASE)


def _grade_count(p: Puzzle, text: str) -> Grade:
    from tutor.engine.cards import parse_rank
    asked = list(p.answer["unseen"])
    right = p.answer["unseen"]
    t = _clean(text)
    said: dict[str, int] = {}
    pairs = _RANK_PAIR.findall(t)
    if pairs:
        for rk, v in pairs:
            try:
                said[rank_code(parse_rank(rk))] = int(v)
            except NotationError:
                raise AnswerError(f"{rk!r} is not a rank") from None
        stray = [k for k in said if k not in asked]
        if stray:
            raise AnswerError(f"the question asks about {', '.join(asked)} only")
        if set(said) != set(asked):
            raise AnswerError(f"give a number for each of {', '.join(asked)}")
    else:
        nums = []
        for tok in tokens(t):
            low = tok.lower()
            if low.isdigit():
                nums.append(int(low))
            elif low in NUMBER_WORDS:
                nums.append(NUMBER_WORDS[low])
            elif low in ("none", "no", "nil"):
                nums.append(0)
        if len(nums) != len(asked):
            raise AnswerError(f"give {len(asked)} number{'s' if len(asked) > 1 else ''}, "
                              f"in the order asked ({', '.join(asked)})"
                              + (", or `7: 2, 9: 0`" if len(asked) > 1 else ""))
        said = dict(zip(asked, nums))
    bad = [v for v in said.values() if not 0 <= v <= 4]
    if bad:
        raise AnswerError("a rank has four cards: each count is from 0 to 4")
    wrong = [k for k in asked if said[k] != right[k]]
    if not wrong:
        return Grade(True, "Right: " + ", ".join(f"{k}: {right[k]}" for k in asked) + ".")
    return Grade(False, "Not quite: " + "; ".join(
        f"{RANK_PLURALS[parse_rank(k)]}: you said {said[k]}, {right[k]} unseen" for k in wrong)
        + ".")


# --------------------------------------------------------------------------------------------
# deal-setup

_FIELD_WORDS = {"hand": "hand", "cards": "hand", "dealt": "hand", "each": "hand",
                "table": "table", "pool": "table", "ante": "ante", "antes": "ante",
                "stakes": "ante", "bonus": "bonus", "breakeven": "breakeven",
                "break-even": "breakeven", "even": "breakeven"}
_NONE = {"none", "no", "null", "nil", "-", "nothing", "n/a", "na", "zero-none"}


def _setup_values(text: str) -> list[int | None]:
    toks = tokens(_clean(text).replace("/", " / "))
    vals: list[int | None] = []
    for i, tok in enumerate(toks):
        low = tok.lower()
        if low.isdigit():
            vals.append(int(low))
        elif low in NUMBER_WORDS:
            vals.append(NUMBER_WORDS[low])
        elif low in _NONE:
            vals.append(None)
        elif low in ("pairs", "pair") and vals and vals[-1] is not None:
            vals[-1] *= 2
    return vals


def _grade_setup(p: Puzzle, text: str) -> Grade:
    ans = p.answer
    asked = ans["asked"]
    expected: list[int | None] = []
    labels = []
    for f in asked:
        if f == "ante":
            expected += [ans["ante"]["dealer"], ans["ante"]["other"]]
            labels += ["dealer's ante", "others' ante"]
        else:
            expected.append(ans[f])
            labels.append(f)
    vals = _setup_values(text)
    stakes_null = ans["breakeven"] is None
    if asked == ["ante"] and len(vals) == 1 and vals[0] is None:
        vals = [None, None]
    if len(asked) > 1 and stakes_null and len(vals) == 5 and vals[2] is None:
        vals.insert(2, None)
    if len(vals) != len(expected):
        if asked == ["ante"]:
            raise AnswerError("give the dealer's ante and the others' ante, for example `3/2` "
                              "(or `none`)")
        if len(asked) > 1:
            raise AnswerError("give six numbers in order: hand, table, dealer's ante / others' "
                              "ante, bonus, breakeven (`none` where there is none), for example "
                              "`8 12 3/2 5 8`")
        raise AnswerError("give one number (or `none`)")
    wrong = [(lab, v, e) for lab, v, e in zip(labels, vals, expected) if v != e]
    show = lambda v: "none" if v is None else str(v)  # noqa: E731
    if not wrong:
        return Grade(True, "Right: " + ", ".join(f"{lab} {show(e)}" for lab, e in
                                                 zip(labels, expected)) + ".")
    return Grade(False, "Not quite: " + "; ".join(f"{lab}: you said {show(v)}, it is {show(e)}"
                                                  for lab, v, e in wrong) + ".")


# --------------------------------------------------------------------------------------------
# source-quiz


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def _grade_source(p: Puzzle, text: str) -> Grade:
    from tutor.engine.sources import default_library
    from tutor.puzzles.generators import LETTERS
    options = p.answer["options"]
    letters = LETTERS[:len(options)]
    t = _clean(text).strip().strip(").").strip()
    choice = None
    if len(t) == 1 and t.upper() in letters:
        choice = options[letters.index(t.upper())]
    else:
        key = _norm(t)
        lib = default_library()
        for o in options:
            names = {_norm(o)}
            if o in lib.sources:
                s = lib.sources[o]
                if s.author:
                    names |= {_norm(s.author), _norm(s.author.split()[-1])}
            else:
                names |= {_norm(o.replace("_", " "))}
            if key and (key in names or any(key == n for n in names)):
                choice = o
                break
        if choice is None:
            m = re.match(r"^\(?([a-f])\)?\b", t, re.IGNORECASE)
            if m and m.group(1).upper() in letters:
                choice = options[letters.index(m.group(1).upper())]
    if choice is None:
        raise AnswerError(f"answer with a letter ({', '.join(letters)}) or the name of the "
                          "option")
    right = p.answer.get("source") or p.answer.get("parameter")
    letter = letters[options.index(right)]
    if choice == right:
        return Grade(True, f"Right: {letter}.")
    return Grade(False, f"Not quite: it is {letter}, not {letters[options.index(choice)]}.")


GRADERS = {
    "spot-oversight": _grade_spot,
    "capture-now": _grade_capture,
    "settlement": _grade_settlement,
    "legal-play": _grade_legal,
    "dead-pair": _grade_dead,
    "count": _grade_count,
    "deal-setup": _grade_setup,
    "source-quiz": _grade_source,
}


# --------------------------------------------------------------------------------------------
# Completion words and plausible wrong answers


def answer_words(p: Puzzle) -> list[str]:
    """Completion vocabulary for the answer prompt."""
    base = ["hint", "quit"]
    if p.kind == "source-quiz":
        from tutor.puzzles.generators import LETTERS
        return base + list(LETTERS[:len(p.answer["options"])]) + list(p.answer["options"])
    if p.kind in ("settlement", "count"):
        return base
    if p.kind == "deal-setup":
        return base + ["none"]
    deal = p.deal()
    cards = codes(set(deal.hand(p.seat)) | set(deal.table_cards()))
    extra = {"spot-oversight": ["claim", "nothing"], "capture-now": [],
             "legal-play": ["lie down"], "dead-pair": ["yes", "no"]}[p.kind]
    return base + extra + cards


def wrong_answer(p: Puzzle) -> str | None:
    """A plausible wrong answer to ``p`` (for tests and drills), or None if none can be formed."""
    a = p.answer
    if p.kind == "spot-oversight":
        if a["claims"]:
            return "nothing"
        table = p.deal().table_cards()
        return f"claim {codes(table[:1])[0]}" if table else None
    if p.kind == "capture-now":
        return a["safe"][0]
    if p.kind == "settlement":
        key = "net" if "net" in a else "points"
        vals = [a[key][s] for s in a["asked"]]
        vals[0] += 2
        return " ".join(str(v) for v in vals)
    if p.kind == "legal-play":
        from tutor.puzzles.generators import choice_groups, choice_text
        deal = p.deal()
        groups = choice_groups(deal, p.seat)
        if len(groups) > 1:
            return ", ".join(choice_text(g[0]) for g in groups[:-1])
        only = groups[0][0]
        if only.kind != "lie_down":
            return choice_text(only) + ", lie down"
        hand = deal.hand(p.seat)
        return codes(hand[:1])[0] if hand else None
    if p.kind == "dead-pair":
        return "no" if a["dead_pairs"] else p.data["pairs"][0]
    if p.kind == "count":
        return " ".join(str((v + 1) % 5) for v in a["unseen"].values())
    if p.kind == "deal-setup":
        # the right answer with its first figure changed
        first = p.accepted[0].split()
        head = first[0]
        if head == "none":
            first[0] = "1/1" if a["asked"] == ["ante"] else "1"
        elif "/" in head:
            d, o = head.split("/")
            first[0] = f"{int(d) + 1}/{o}"
        else:
            first[0] = str(int(head) + 1)
        return " ".join(first)
    if p.kind == "source-quiz":
        from tutor.puzzles.generators import LETTERS
        right = a.get("source") or a.get("parameter")
        i = a["options"].index(right)
        return LETTERS[(i + 1) % len(a["options"])]
    return None


__all__ = ["grade", "read", "tokens", "answer_words", "wrong_answer", "interpret_choice",
           "RANK_NAMES"]
