"""The one table of ruleset parameters: what each parameter may be and how it is said.

Every ruleset parameter of RULES.md 3.1, 3.2 and 3.6 has one :class:`ParameterSpec` here: its
allowed values, its default (for the parameters of 3.6, which a file may leave out), a label, a
one-line meaning, the wording of each value for learners, the phrase a source quiz uses for it,
and the key words a quotation must contain for a *stated* value to be confirmed (issue 12's
check).  Loading (:mod:`tutor.engine.sources`), the rules command, the lesson blocks, the play
screen, the drills and the source quiz all read this table; adding a parameter means adding it
here, teaching the engine (:mod:`tutor.engine.deal`) what it does, and writing it in the YAML.

Value shapes (``kind``):

- ``enum``: one name from ``values`` (``nullable``: or null);
- ``set``: a list of names from ``values``, each at most once (kept in ``values`` order);
- ``bool``: true or false;
- ``int``: a whole number of cards or stakes (``minimum``; ``nullable``: or null);
- ``payment``: null, or a mapping ``{stakes: N, to: each_in_play | pot}`` (RULES.md 3.6);
- ``match``: null, or a mapping ``{rounds: R, games: G, practice: P}``: R rounds of G games, the
  first P games of the first round a practice that is not scored (RULES.md 3.5: the tournament
  sheet of ``inter-livery-2018``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from tutor.engine.errors import UsageError
from tutor.engine.values import (
    BonusTo,
    CaptureForm,
    CapturesPerTurn,
    Declaration,
    FirstDealer,
    HandPlays,
    LeftoversTo,
    OversightKind,
    PotTo,
    Scoring,
    TableMournival,
)

__all__ = [
    "ParameterSpec",
    "PARAMETERS",
    "RULESET_PARAMETERS",
    "COUNT_PARAMETERS",
    "COUNT_GROUPS",
    "CountGroup",
    "STATUSES",
    "STATUS_MEANINGS",
    "status_mark",
    "count_section",
    "spec",
    "value_words",
    "value_short",
    "value_who",
    "value_phrase",
    "default_of",
    "rule_words",
    "settlement_rule",
    "settlement_formula",
    "seat_working",
    "claim_window",
]

#: Provenance statuses (RULES.md 5), strongest first.
STATUSES = ("stated", "read", "chosen")
STATUS_MEANINGS = {
    "stated": "the source says it",
    "read": "a close reading of the source's words",
    "chosen": "the source is silent or contradicts itself: the tutor's choice",
}


def status_mark(status: str) -> str:
    """How a sentence about a rule marks its status (RULES.md 5), as the lessons mark a value:
    nothing for ``stated`` (the source says it), `` (read: a close reading of the source's
    words)`` or `` (chosen: the source is silent or contradicts itself: the tutor's choice)``
    after the value, with its leading space.  Raises KeyError for an unknown status."""
    return "" if status == "stated" else f" ({status}: {STATUS_MEANINGS[status]})"


@dataclass(frozen=True)
class ParameterSpec:
    """One ruleset parameter (see the module docstring for ``kind``).

    ``scope`` is ``ruleset`` (RULES.md 3.2, 3.6) or ``count`` (per player count, RULES.md 3.1);
    ``values`` the allowed names (enum and set kinds); ``default`` the value a file that leaves the
    parameter out means (``required`` parameters have none); ``label`` a short name for tables;
    ``meaning`` one sentence for ``laugh rules --parameters``; ``words`` maps each value to its
    wording for learners and ``short`` to a word or two for narrow tables; ``quiz`` is how a
    question names the parameter ("who takes the bonus"); ``keywords`` maps a value (or ``*`` for
    any value) to alternatives of key words, one of which a quotation of a *stated* value must
    contain (each alternative a tuple of words that must all appear); numbers are checked as
    digits or words without an entry here.

    The rule each value stands for, as every screen, puzzle, drill and lesson states it to a
    learner (templates, filled by :func:`rule_words` and the functions below it): ``rules`` the
    rule of a value (``scoring``: how a deal settles; ``oversights``: the mistake, what the first
    claim takes and until when, RULES.md 4; ``declarations``: why the cards could be declared,
    RULES.md 3.4); ``who`` the person a value names (``bonus_to``,
    ``pot_to``, ``leftovers_to``: "the last player in"); for ``scoring``, ``formulas`` a seat's
    result as arithmetic on its won cards ("(won − 8) / 2") and ``workings`` a seat's part
    worked out in an explanation; for ``oversights``, ``phrases`` a mistake named in a phrase
    ("the table prial {who} split") and ``windows`` until when it may be claimed ("while both
    are still on the table", RULES.md 4; each rule ends with it).
    """

    name: str
    scope: str
    kind: str
    label: str
    meaning: str
    quiz: str
    values: tuple[str, ...] = ()
    nullable: bool = False
    minimum: int | None = None
    required: bool = True
    default: Any = None
    words: dict[Any, str] = field(default_factory=dict)
    short: dict[Any, str] = field(default_factory=dict)
    keywords: dict[Any, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    codes: dict[Any, str] = field(default_factory=dict)
    rules: dict[Any, str] = field(default_factory=dict)
    who: dict[Any, str] = field(default_factory=dict)
    formulas: dict[Any, str] = field(default_factory=dict)
    workings: dict[Any, str] = field(default_factory=dict)
    phrases: dict[Any, str] = field(default_factory=dict)
    windows: dict[Any, str] = field(default_factory=dict)


CAPTURE_FORMS = tuple(CaptureForm)
OVERSIGHT_KINDS = tuple(OversightKind)
DECLARATION_KINDS = tuple(Declaration)

_SPECS = (
    # -- whole-ruleset parameters (RULES.md 3.2) ----------------------------------------------
    ParameterSpec(
        "first_dealer",
        "ruleset",
        "enum",
        "first dealer",
        "how the first dealer of a match is found; the deal then passes left",
        "how the first dealer is found",
        values=tuple(FirstDealer),
        words={
            "lowest_cut": "whoever cuts the lowest card deals first",
            "highest_cut": "whoever cuts the highest card deals first",
            "chosen": "the players choose the first dealer",
        },
        short={
            "lowest_cut": "lowest cut",
            "highest_cut": "highest cut",
            "chosen": "players choose",
        },
        keywords={
            "lowest_cut": (("lowest",), ("low",)),
            "highest_cut": (("high",),),
            "chosen": (("choose",), ("chosen",), ("decide",)),
        },
    ),
    ParameterSpec(
        "table_mournival",
        "ruleset",
        "enum",
        "table mournival",
        "a mournival among the dealt table cards: the dealer takes it before play, or it is set "
        "aside for the last player in",
        "what happens to a mournival among the table cards",
        values=tuple(TableMournival),
        words={
            "dealer_takes": "the dealer takes it into their won cards before play",
            "set_aside_for_last_in": "it is set aside, face down, for the last player in",
        },
        short={"dealer_takes": "dealer takes", "set_aside_for_last_in": "set aside"},
        keywords={
            "dealer_takes": (("dealer",),),
            "set_aside_for_last_in": (("aside",), ("face down",), ("turned",)),
        },
    ),
    ParameterSpec(
        "captures",
        "ruleset",
        "set",
        "captures",
        "which forms of capture, hand cards taking table cards of their rank, are allowed",
        "which forms of capture are allowed",
        values=CAPTURE_FORMS,
        words={
            "one_for_one": "one card takes one",
            "one_for_three": "one card takes three",
            "pair_for_pair": "a pair takes a pair",
            "prial_for_one": "a prial takes one",
        },
        short={
            "one_for_one": "1 for 1",
            "one_for_three": "1 for 3",
            "pair_for_pair": "pair for pair",
            "prial_for_one": "prial for 1",
        },
        codes={
            "one_for_one": "1:1",
            "one_for_three": "1:3",
            "pair_for_pair": "2:2",
            "prial_for_one": "3:1",
        },
        keywords={
            "one_for_one": (("one",), ("single",), ("a card",), ("same rank",), ("match",)),
            "one_for_three": (("three",), ("all three",)),
            "pair_for_pair": (("pair",),),
            "prial_for_one": (("prial",), ("pair royal",), ("three",)),
        },
    ),
    ParameterSpec(
        "hand_plays",
        "ruleset",
        "enum",
        "hand plays",
        "declarations from hand (prial, mournival, dead pair) are free actions at any time, or "
        "each is a whole turn",
        "whether declarations are free actions or turns",
        values=tuple(HandPlays),
        words={
            "free": "declarations are free actions, at any time the cards are held",
            "turn": "each declaration is a whole turn, instead of a capture",
        },
        short={"free": "free (any time)", "turn": "a turn each"},
        keywords={
            "free": (("out of turn",), ("any time",), ("at any time",)),
            "turn": (("in turn",), ("your turn",), ("instead",)),
        },
    ),
    ParameterSpec(
        "bonus_to",
        "ruleset",
        "enum",
        "bonus to",
        "who takes the bonus: the last player left holding cards, or whoever made the last "
        "capture of the deal",
        "who takes the bonus",
        values=tuple(BonusTo),
        nullable=True,
        words={
            "last_in": "the last player left holding cards takes the bonus",
            "last_pair": "whoever made the last capture takes the bonus",
            None: "there is no bonus",
        },
        short={"last_in": "last in", "last_pair": "last pair", None: "none"},
        who={
            "last_in": "the last player in",
            "last_pair": "whoever made the last capture",
            None: "nobody",
        },
        keywords={
            "last_in": (("last",),),
            "last_pair": (("last pair",), ("last trick",), ("matched the last",)),
        },
    ),
    ParameterSpec(
        "last_in_plays_on",
        "ruleset",
        "bool",
        "last in plays on",
        "when one player alone holds cards, play stops, or that player goes on capturing alone",
        "whether the last player in goes on capturing alone",
        words={
            True: "the last player in goes on capturing alone",
            False: "play stops when one player alone holds cards",
        },
        short={True: "yes", False: "no"},
        keywords={
            True: (
                ("continue",),
                ("carry on",),
                ("goes on",),
                ("keeps",),
                ("can capture", "remaining"),
            ),
            False: (("not allowed",), ("may not",), ("ceases",), ("finished",), ("no more",)),
        },
    ),
    ParameterSpec(
        "leftovers_to",
        "ruleset",
        "enum",
        "leftovers to",
        "where the last player's hand and the table cards left at the end go",
        "where the leftovers go",
        values=tuple(LeftoversTo),
        words={
            "dealer": "the leftovers go to the dealer",
            "last_in": "the leftovers go to the last player in",
            "nobody": "the leftovers are discarded",
        },
        short={"dealer": "dealer", "last_in": "last in", "nobody": "nobody"},
        who={
            "dealer": "the dealer",
            "last_in": "the last player in",
            "nobody": "nobody (they are discarded)",
        },
        keywords={
            "dealer": (("dealer",),),
            "last_in": (("winner",), ("last",)),
            "nobody": (("only",), ("discard",)),
        },
    ),
    ParameterSpec(
        "scoring",
        "ruleset",
        "enum",
        "scoring",
        "settle the pot by breakeven (stakes), score a point per pair won (pairs), or give the "
        "whole pot to one winner (pot)",
        "stakes or points",
        values=tuple(Scoring),
        words={
            "stakes": "the pot is settled by breakeven: stakes for cards above or below it",
            "pairs": "a point for each pair won",
            "pot": "the whole pot goes to one winner",
        },
        short={"stakes": "stakes", "pairs": "pairs", "pot": "pot"},
        rules={
            "stakes": "1 stake per 2 won cards above or below the breakeven of {breakeven}",
            "pairs": "1 point per pair won",
            "pot": "the whole pot to {pot_to}",
        },
        formulas={"stakes": "({won} − {breakeven}) / 2", "pairs": "{won} ÷ 2"},
        workings={
            "stakes": "against a breakeven of {breakeven}: {for_cards}",
            "pairs": "{won} ÷ 2 = {points}",
            "pot": "the pot +{pot_share}",
        },
        keywords={
            "stakes": (("stake",), ("pot",)),
            "pairs": (("point",), ("pair",)),
            "pot": (("pot",),),
        },
    ),
    ParameterSpec(
        "oversights",
        "ruleset",
        "set",
        "claimable oversights",
        "which mistakes other players may claim (RULES.md 4)",
        "which mistakes may be claimed",
        values=OVERSIGHT_KINDS,
        words={
            "overlooked_table_mournival": "a table mournival the dealer did not take",
            "split_prial": "a table prial split by a one-for-one capture",
            "laid_down_dead_pair": "a dead pair laid down instead of declared",
            "laid_down_prial": "a prial laid down without declaring a pair of it",
            "laid_down_mournival": "a mournival laid down instead of declared",
        },
        short={
            "overlooked_table_mournival": "table mournival",
            "split_prial": "split prial",
            "laid_down_dead_pair": "dead pair laid down",
            "laid_down_prial": "prial laid down",
            "laid_down_mournival": "mournival laid down",
        },
        phrases={
            "overlooked_table_mournival": "the table mournival {who} (the dealer) left in play",
            "split_prial": "the table prial {who} split",
            "laid_down_dead_pair": "the dead pair {who} laid down",
            "laid_down_prial": "the prial {who} laid down",
            "laid_down_mournival": "the mournival {who} laid down",
        },
        codes={
            "overlooked_table_mournival": "TM",
            "split_prial": "SP",
            "laid_down_dead_pair": "DP",
            "laid_down_prial": "LP",
            "laid_down_mournival": "LM",
        },
        rules={
            "overlooked_table_mournival": "the dealer ({who}) left four of a rank on the table "
            "when play began; the first claim takes all four, "
            "while all four are on the table",
            "split_prial": "{who} captured one card of a table prial where one card may take "
            "all three; the first claim takes the two left, while both are "
            "still on the table",
            "laid_down_dead_pair": "{who} lay down holding a dead pair; the first claim takes "
            "it, while both are still on the table",
            "laid_down_prial": "{who} lay down holding a prial; the first claim takes two of "
            "it, while two are still on the table",
            "laid_down_mournival": "{who} lay down holding a mournival; the first claim takes "
            "all four, while all four are on the table",
        },
        windows={
            "overlooked_table_mournival": "while all four are on the table",
            "split_prial": "while both are still on the table",
            "laid_down_dead_pair": "while both are still on the table",
            "laid_down_prial": "while two are still on the table",
            "laid_down_mournival": "while all four are on the table",
        },
        keywords={"*": (("claim",), ("overseen",), ("oversight",), ("mistake",), ("catch",))},
    ),
    # -- other reconstructions and house rules (RULES.md 3.6) -----------------------------------
    ParameterSpec(
        "captures_per_turn",
        "ruleset",
        "enum",
        "captures a turn",
        "one capture a turn, or any number: the player ends the turn with end_turn",
        "how many captures a player may make in one turn",
        values=tuple(CapturesPerTurn),
        required=False,
        default=CapturesPerTurn.ONE,
        words={"one": "one capture a turn", "any": "any number of captures in one turn"},
        short={"one": "one", "any": "any"},
        keywords={
            "one": (("one card",), ("one",)),
            "any": (("as many",), ("any number",), ("several",), ("again",)),
        },
    ),
    ParameterSpec(
        "declarations",
        "ruleset",
        "set",
        "declarations",
        "which declarations from hand exist; pair lets any pair held be laid down as won cards",
        "which declarations from hand exist",
        values=DECLARATION_KINDS,
        required=False,
        default=(Declaration.PRIAL, Declaration.MOURNIVAL, Declaration.DEAD_PAIR),
        words={
            "prial": "a pair of a prial",
            "mournival": "a mournival",
            "dead_pair": "a dead pair",
            "pair": "any pair held",
        },
        short={
            "prial": "prial",
            "mournival": "mournival",
            "dead_pair": "dead pair",
            "pair": "any pair",
        },
        codes={"prial": "P", "mournival": "M", "dead_pair": "DP", "pair": "any"},
        rules={
            "prial": "two of the three {ranks} could be declared, keeping the third",
            "mournival": "all four {ranks} could be declared as two pairs",
            "dead_pair": "the other two {ranks} were already among the won cards, so the pair "
            "was dead and could be declared at once",
            "pair": "under this ruleset any pair held may be declared: two {ranks}",
        },
        keywords={
            "prial": (("prial",), ("pair royal",)),
            "mournival": (("mournival",),),
            "dead_pair": (("dead",), ("cannot be captured",)),
            "pair": (("pair",),),
        },
    ),
    ParameterSpec(
        "lie_down_pays",
        "ruleset",
        "payment",
        "lying down pays",
        "on lying down, the player pays N stakes to each player still holding cards, or N into "
        "the pot",
        "what a player pays on lying down",
        required=False,
        default=None,
        words={
            None: "lying down costs nothing",
            "each_in_play": "to each player still in",
            "pot": "into the pot",
        },
        short={None: "nothing"},
        keywords={"*": (("pay",), ("stake",))},
    ),
    ParameterSpec(
        "pot_to",
        "ruleset",
        "enum",
        "pot to",
        "under pot scoring, who takes the whole pot: the last player in, or whoever won most "
        "cards (a tie splits it)",
        "who takes the whole pot",
        values=tuple(PotTo),
        nullable=True,
        required=False,
        default=None,
        words={
            "last_in": "the last player in takes the pot",
            "most_won": "whoever won most cards takes the pot",
            None: "(no single winner)",
        },
        short={"last_in": "last in", "most_won": "most won", None: "none"},
        who={"last_in": "the last player in", "most_won": "whoever won most cards", None: "nobody"},
        keywords={"last_in": (("last",),), "most_won": (("most",),)},
    ),
    ParameterSpec(
        "match_format",
        "ruleset",
        "match",
        "match format",
        "how a match is laid out: rounds of games, the first few a practice not scored; null "
        "for a run of deals in which each player deals equally often",
        "how a match is laid out",
        required=False,
        default=None,
        words={None: "a run of deals, each player dealing equally often"},
        short={None: "deals"},
        keywords={"*": (("round",), ("game",))},
    ),
    # -- per player count (RULES.md 3.1) ----------------------------------------------------
    ParameterSpec(
        "hand",
        "count",
        "int",
        "hand",
        "cards dealt to each player",
        "the cards dealt to each player",
        minimum=1,
        keywords={"*": (("deal",), ("each",), ("cards",))},
    ),
    ParameterSpec(
        "table",
        "count",
        "int",
        "table",
        "cards dealt face up to the table",
        "the cards dealt to the table",
        minimum=0,
        keywords={"*": (("table",), ("face up",), ("middle",), ("remaining",))},
    ),
    ParameterSpec(
        "ante_dealer",
        "count",
        "int",
        "ante (dealer)",
        "stakes the dealer puts up at each deal",
        "the dealer's ante",
        minimum=0,
        nullable=True,
        keywords={"*": (("dealer",),)},
    ),
    ParameterSpec(
        "ante_other",
        "count",
        "int",
        "ante (others)",
        "stakes each other player puts up at each deal",
        "the other players' ante",
        minimum=0,
        nullable=True,
        keywords={"*": (("other",), ("each",), ("rest",))},
    ),
    ParameterSpec(
        "last_in_bonus",
        "count",
        "int",
        "bonus",
        "stakes the bonus winner takes from the pot first",
        "the size of the bonus",
        minimum=0,
        nullable=True,
        keywords={"*": (("last",),)},
    ),
    ParameterSpec(
        "breakeven",
        "count",
        "int",
        "breakeven",
        "won cards at which a player neither pays nor takes; a stake per two cards above or below",
        "the breakeven",
        minimum=0,
        nullable=True,
        keywords={"*": (("card",), ("pair",))},
    ),
)

#: Every parameter by name, in display order.
PARAMETERS: dict[str, ParameterSpec] = {s.name: s for s in _SPECS}
#: Whole-ruleset parameters (RULES.md 3.2 and 3.6), in display order.
RULESET_PARAMETERS: tuple[str, ...] = tuple(s.name for s in _SPECS if s.scope == "ruleset")
#: Per-player-count parameters (RULES.md 3.1), in display order.
COUNT_PARAMETERS: tuple[str, ...] = tuple(s.name for s in _SPECS if s.scope == "count")


class CountGroup(NamedTuple):
    """Per-player-count parameters read together as one figure (RULES.md 3.1): the antes are
    one figure, dealer/others.

    ``name`` names the figure (``hand``, ``table``, ``ante``, ``bonus``, ``breakeven``),
    ``label`` is its column heading, ``parameters`` the parameters it joins (shown joined by
    "/"), ``section`` where it belongs: ``deal`` (the cards dealt: hand and table, which add up to
    the 52) or ``stakes`` (the pot: antes, bonus and breakeven, held together by the pot balance
    of RULES.md 3.1, and absent under pairs scoring without a bonus).
    """

    name: str
    label: str
    parameters: tuple[str, ...]
    section: str


#: The per-player-count figures, in display order (every parameter of COUNT_PARAMETERS once).
COUNT_GROUPS: tuple[CountGroup, ...] = (
    CountGroup("hand", "hand", ("hand",), "deal"),
    CountGroup("table", "table", ("table",), "deal"),
    CountGroup("ante", "ante", ("ante_dealer", "ante_other"), "stakes"),
    CountGroup("bonus", "bonus", ("last_in_bonus",), "stakes"),
    CountGroup("breakeven", "breakeven", ("breakeven",), "stakes"),
)


def count_section(section: str) -> tuple[str, ...]:
    """The per-player-count parameters of ``section`` (``deal`` or ``stakes``), in display order
    (:class:`CountGroup`); raises :class:`UsageError` for another section."""
    names = tuple(p for g in COUNT_GROUPS if g.section == section for p in g.parameters)
    if not names:
        raise UsageError(f"unknown section {section!r}; sections: deal, stakes")
    return names


def spec(name: str) -> ParameterSpec:
    """The :class:`ParameterSpec` of ``name``; raises :class:`UsageError` naming the parameters
    when there is none."""
    try:
        return PARAMETERS[name]
    except KeyError:
        raise UsageError(
            f"unknown ruleset parameter {name!r}; parameters: " + ", ".join(PARAMETERS)
        ) from None


def default_of(name: str) -> object:
    """The value a source file that leaves ``name`` out means (RULES.md 3.6 defaults)."""
    return spec(name).default


def _payment(value: Any) -> dict[str, Any] | None:
    """A lie-down payment as a mapping (a ruleset's ``LieDownPayment`` or the file's mapping)."""
    if value is not None and not isinstance(value, dict):
        return {"stakes": value.stakes, "to": value.to}
    return value


def _items(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (tuple, list, set, frozenset)) else [value]


def value_words(name: str, value: object) -> str:
    """``value`` of parameter ``name`` in words for learners ("the dealer takes it into their
    won cards before play"); sets are joined with commas; numbers as digits."""
    s = spec(name)
    if s.kind == "set":
        items = [x for x in s.values if x in set(_items(value))]
        return ", ".join(s.words.get(x, x.replace("_", " ")) for x in items) or "none"
    if s.kind == "payment":
        value = _payment(value)
        if not value:
            return s.words[None]
        stakes, to = value["stakes"], value["to"]
        unit = "stake" if stakes == 1 else "stakes"
        return f"lying down pays {stakes} {unit} {s.words[to]}"
    if s.kind == "match":
        if not value or not isinstance(value, dict):
            return s.words[None]
        practice = value.get("practice", 0)
        return (
            f"{value['rounds']} round{'s' if value['rounds'] != 1 else ''} of "
            f"{value['games']} games"
            + (
                f", the first {'game' if practice == 1 else f'{practice} games'} "
                "a practice not scored"
                if practice
                else ""
            )
        )
    if s.kind == "int":
        return "none" if value is None else str(value)
    if value in s.words:
        return s.words[value]
    return "none" if value is None else str(value).replace("_", " ")


def value_short(name: str, value: object, codes: bool = False) -> str:
    """``value`` of parameter ``name`` in a word or two, for narrow tables ("dealer takes",
    "1 for 1, 1 for 3", "yes", "none"); with ``codes``, sets in their compact codes where the
    table gives them ("1:1 1:3", "TM SP")."""
    s = spec(name)
    if s.kind == "set" and codes and s.codes:
        items = [x for x in s.values if x in set(_items(value))]
        return " ".join(s.codes[x] for x in items) or "none"
    if s.kind == "set":
        items = [x for x in s.values if x in set(_items(value))]
        return ", ".join(s.short.get(x, x.replace("_", " ")) for x in items) or "none"
    if s.kind == "payment":
        value = _payment(value)
        if not value:
            return s.short[None]
        return f"{value['stakes']} {'to each in' if value['to'] == 'each_in_play' else 'to pot'}"
    if s.kind == "match":
        if not value or not isinstance(value, dict):
            return s.short[None]
        return f"{value['rounds']}x{value['games']}" + (
            f", {value['practice']} practice" if value.get("practice") else ""
        )
    if s.kind == "int":
        return "none" if value is None else str(value)
    if value in s.short:
        return s.short[value]
    return "none" if value is None else str(value).replace("_", " ")


# -- the rules the values stand for -------------------------------------------------------------


def value_who(name: str, value: object) -> str:
    """The person ``value`` of parameter ``name`` names ("the last player in", "whoever made the
    last capture", "the dealer"), for ``bonus_to``, ``pot_to`` and ``leftovers_to``.  Raises
    :class:`UsageError` for a parameter or value that names nobody."""
    s = spec(name)
    if value not in s.who:
        raise UsageError(f"{name} {value!r} does not name a player")
    return s.who[value]


def rule_words(name: str, value: object, *, capital: bool = False, **figures: object) -> str:
    """The rule ``value`` of parameter ``name`` stands for, stated to a learner, with
    ``figures`` filled in: ``rule_words("oversights", "split_prial", who="Anne")`` is "Anne
    captured one card of a table prial where one card may take all three; the first claim takes
    the two left, while both are still on the table" (RULES.md 4); with ``capital``, as a
    sentence's start ("You captured ...").  Raises :class:`UsageError` where the table states no
    rule for the value, ``KeyError`` for a figure not given."""
    s = spec(name)
    if value not in s.rules:
        raise UsageError(f"the parameter table states no rule for {name} {str(value)!r}")
    text = s.rules[value].format(**figures)
    return text[:1].upper() + text[1:] if capital else text


def claim_window(kind: object) -> str:
    """Until when an oversight of ``kind`` may be claimed (RULES.md 4, "stays claimable
    while"): "while both are still on the table".  Raises :class:`UsageError` for a kind the
    table gives no window for."""
    s = spec("oversights")
    if kind not in s.windows:
        raise UsageError(f"the parameter table gives no claim window for {str(kind)!r}")
    return s.windows[kind]


def value_phrase(name: str, value: object, **figures: object) -> str:
    """``value`` of parameter ``name`` named in a phrase, with ``figures`` filled in:
    ``value_phrase("oversights", "split_prial", who="Anne")`` is "the table prial Anne split".
    Raises :class:`UsageError` where the table gives no phrase for the value."""
    s = spec(name)
    if value not in s.phrases:
        raise UsageError(f"the parameter table gives no phrase for {name} {str(value)!r}")
    return s.phrases[value].format(**figures)


def settlement_rule(
    scoring: str, *, breakeven: int | None = None, pot_to: str | None = None
) -> str:
    """How a deal settles under ``scoring`` (RULES.md 3.5, 3.6), stated to a learner: "1 stake
    per 2 won cards above or below the breakeven of 8" (``stakes``, ``breakeven`` in cards), "1
    point per pair won" (``pairs``), "the whole pot to the last player in" (``pot``, ``pot_to``
    the ruleset's value).  Raises :class:`UsageError` for an unknown scoring."""
    who = value_who("pot_to", pot_to) if scoring == "pot" else None
    return rule_words("scoring", scoring, breakeven=breakeven, pot_to=who)


def settlement_formula(
    scoring: str, *, breakeven: int | None = None, won: int | str = "won", bonus: bool = False
) -> str | None:
    """A seat's result under ``scoring`` as arithmetic on its won cards (RULES.md 3.5): "(won −
    8) / 2" in stakes, "won ÷ 2" in points; ``won`` a number of cards, or the word for the rule in
    general; ``bonus`` adds " + bonus".  None under ``pot`` scoring (the pot goes whole to one
    winner, whatever the cards)."""
    formula = spec("scoring").formulas.get(scoring)
    if formula is None:
        return None
    text = formula.format(won=won, breakeven=breakeven)
    return text + " + bonus" if bonus else text


def seat_working(scoring: str, **figures: object) -> str:
    """One seat's part of the settlement under ``scoring`` worked out, as explanations show it
    (RULES.md 3.5, 3.6): "against a breakeven of 8: +2" (``breakeven``, ``for_cards``), "12 ÷ 2 =
    6" (``won``, ``points``: the points for cards), "the pot +12" (``pot_share``); figures as
    they are to be shown."""
    return spec("scoring").workings[scoring].format(**figures)
