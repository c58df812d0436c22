"""``deal-setup``: before the first card, under a given reading: who is eldest, how many cards
each, how many on the table, the antes, the bonus and the breakeven.

The answers are ruleset parameters (RULES.md 3.1) and the engine's seating (eldest is the
dealer's left-hand neighbour, :attr:`tutor.engine.deal.Deal.eldest`); the explanation quotes the
source behind each value, and says where a value is read or chosen.  Works under every ruleset
(under ``pot`` scoring there is no bonus and no breakeven: the answer is ``none``).  What
happens to a mournival dealt to the table is asked of two rulesets side by side, which does
what (a letter: :meth:`DealSetup._mournival`).

Difficulty (``puzzles/deal-setup.yaml``): by what is asked (eldest, hand or table 1; the antes 2;
the bonus or the breakeven 3; everything 4), plus one when the players are not five, plus one
when a value asked is read or chosen rather than stated.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, TypedDict

from tutor.engine.deal import Deal
from tutor.engine.parameters import COUNT_GROUPS, value_words
from tutor.engine.rulesets import Ruleset
from tutor.puzzles.base import (
    LETTERS,
    Candidate,
    Ctx,
    Plan,
    PuzzleKind,
    Verdict,
    join,
    library,
)
from tutor.puzzles.model import AnswerError, Definition, Puzzle
from tutor.puzzles.reader import letters_answer, read

#: The figures asked, and the parameters behind each (the parameter table's grouping).
SETUP_FIELDS = tuple(g.name for g in COUNT_GROUPS)
_SETUP_PARAMS = {g.name: g.parameters for g in COUNT_GROUPS}
_NONE = {
    "none": "none",
    "no": "none",
    "null": "none",
    "nil": "none",
    "-": "none",
    "nothing": "none",
    "n/a": "none",
    "na": "none",
}
_FIELD_WORDS = {
    "hand": "",
    "cards": "",
    "card": "",
    "each": "",
    "table": "",
    "ante": "",
    "antes": "",
    "stakes": "",
    "stake": "",
    "bonus": "",
    "breakeven": "",
    "break-even": "",
    "dealer": "",
    "others": "",
    "other": "",
    "pairs": "pairs",
    "pair": "pairs",
    "player": "",
    "seat": "",
    "p": "",
    "eldest": "",
    "is": "",
}
#: The figures as a learner reads them.
_LABELS = {
    "hand": "the cards dealt to each",
    "table": "the table cards",
    "dealer's ante": "the dealer's ante",
    "others' ante": "the others' ante",
    "bonus": "the bonus",
    "breakeven": "the breakeven",
    "eldest": "eldest",
}
#: The labels that name more than one thing (a verb after them agrees).
_PLURAL = frozenset({"hand", "table"})
#: Example answers for the whole setup; the question shows the first that is not the answer.
_EXAMPLES = ("10 12 3/2 3 10", "8 12 3/2 5 8")


def pairs_unit(ruleset: str, players: int) -> bool:
    """True when the source gives this ruleset's breakeven in pairs ("4 pairs", "3 pairs"):
    a quotation behind the breakeven speaks of pairs.  An answer in that unit is then read as
    pairs even without the word."""
    lib = library()
    p = lib.parameter(ruleset, "breakeven", players)
    return p.value is not None and any(
        " pair" in f" {lib.quotation(r).text.lower()}" for r in p.quotes
    )


class Antes(TypedDict):
    dealer: int | None
    other: int | None


class SetupFacts(TypedDict):
    """The deal-setup facts of a ruleset and player count (:func:`setup_answer`): ``hand`` and
    ``table`` in cards, the ``ante`` in stakes, the last-in ``bonus`` and the ``breakeven`` in
    cards (None where the ruleset does not say)."""

    hand: int
    table: int
    ante: Antes
    bonus: int | None
    breakeven: int | None


def setup_answer(rs: Ruleset, players: int) -> SetupFacts:
    """The deal-setup facts of a ruleset and player count (ruleset parameters)."""
    pc = rs.count(players)
    return {
        "hand": pc.hand,
        "table": pc.table,
        "ante": {"dealer": pc.ante_dealer, "other": pc.ante_other},
        "bonus": pc.last_in_bonus,
        "breakeven": pc.breakeven,
    }


def applicable_rulesets() -> list[str]:
    """The rulesets deal-setup puzzles are drawn under (every ruleset of the library)."""
    lib = library()
    return [r for r in lib.rulesets if DealSetup().why_not(lib.rulesets[r]) is None]


def mournival_partners(ruleset: str) -> list[str]:
    """The rulesets a table-mournival question names beside ``ruleset`` (ids, in library
    order): those whose ``table_mournival`` differs from its; of its own source where there are
    any (a source's two versions side by side: Parlett's retelling and his tournament scoring),
    else of sources that give the rule one way only.  [] when every ruleset deals with a table
    mournival alike (the question cannot be asked)."""
    lib = library()
    src = lib.ruleset_source
    own = lib.rulesets[ruleset].table_mournival
    pool = applicable_rulesets()
    other = [r for r in pool if lib.rulesets[r].table_mournival != own]
    same = [r for r in other if src[r] == src[ruleset]]
    single = [
        r
        for r in other
        if all(lib.rulesets[q].table_mournival != own for q in pool if src[q] == src[r])
    ]
    return same or single or other


class DealSetup(PuzzleKind):
    name = "deal-setup"

    def plan(
        self, base: random.Random, rs: Ruleset, players: int, seed: int, defn: Definition
    ) -> Plan:
        choices = list(defn.options.get("fields", ["eldest", *SETUP_FIELDS, "all"]))
        if "mournival" in choices and not mournival_partners(rs.id):
            choices.remove("mournival")  # every ruleset deals with it alike: nothing to ask
        return {"variant": base.choice(choices)}

    def plan_may_fit(self, plan: Plan, theme: str) -> bool:
        if theme in ("eldest", *SETUP_FIELDS, "all"):
            return plan["variant"] == theme
        if theme == "mournival-dealt":
            return plan["variant"] == "mournival"
        return True

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        if data["asked"] == ["mournival"]:
            lib = library()
            named = [str(lib.rulesets[r].table_mournival) for r in data["rulesets"]]
            options = [list(o) for o in data["options"]]
            return {
                "asked": ["mournival"],
                "rulesets": list(data["rulesets"]),
                "options": options,
                "letter": LETTERS[options.index(named)],
            }
        return {
            **setup_answer(rs, players),
            "dealer": deal.dealer,
            "eldest": deal.eldest,
            "asked": list(data["asked"]),
        }

    def _mournival(self, ctx: Ctx, deal: Deal) -> Candidate | None:
        """What happens to a mournival dealt to the table, under two rulesets side by side:
        this one and one that deals with it otherwise (:func:`mournival_partners`), named in
        a drawn order; the options give the two rules each way round, so the wrong one is the
        two rulesets taken for each other.  Issue 42: asked of one ruleset ("what happens under
        this one?", or "which is the other ruleset's?"), the words of the question told the
        answer, as 14 of the 16 ruleset and player-count pairs have the dealer take it; here
        both rules stand in every question and in both options, and which ruleset is named
        first is drawn evenly, so only knowing which is which answers it."""
        rng = ctx.rng
        lib = library()
        partners = mournival_partners(ctx.rs.id)
        if not partners:
            return None
        named = [ctx.rs.id, rng.choice(partners)]
        rng.shuffle(named)
        rule = [str(lib.rulesets[r].table_mournival) for r in named]
        options = [rule, rule[::-1]]
        rng.shuffle(options)
        data = {"asked": ["mournival"], "rulesets": named, "options": options, "position": False}
        answer = self.solve(deal, deal.dealer, data, ctx.rs, ctx.players)
        letter = answer["letter"]
        params = [lib.parameter(r, "table_mournival") for r in named]
        lines = []
        for r, p in zip(named, params):
            note = (
                f" ({p.status}: {' '.join(p.note.split())})"
                if p.status != "stated" and p.note
                else ""
            )
            lines.append(
                f"- Under {lib.rulesets[r].title_in_text}: "
                f"{value_words('table_mournival', p.value)}{note}."
            )
        opts = [
            f"{LETTERS[i]}) under the first, {value_words('table_mournival', a)}; "
            f"under the second, {value_words('table_mournival', b)}"
            for i, (a, b) in enumerate(options)
        ]
        facts = {
            "first": lib.rulesets[named[0]].title_in_text,
            "second": lib.rulesets[named[1]].title_in_text,
            "ruleset": lib.rulesets[ctx.rs.id].title_in_text,
            "players": ctx.players,
            "options": "\n".join(opts),
            "facts": "\n".join(lines),
            "field": "a table mournival",
            "dealer": deal.dealer,
            "example": "",
            "unit_note": "",
        }
        own = lib.parameter(ctx.rs.id, "table_mournival")
        return Candidate(
            deal=deal,
            seat=deal.dealer,
            variant="mournival",
            answer=answer,
            accepted=[letter, letter.lower()],
            facts=facts,
            features={
                "field_mournival": 1.0,
                "not_stated": float(any(p.status != "stated" for p in params)),
            },
            themes=["deal-setup", "mournival-dealt"],
            theme="mournival-dealt",
            data=data,
            quotes=list(own.quotes[:2]),
            question_key="mournival",
        )

    def build(self, ctx: Ctx) -> Candidate | None:
        rng = ctx.rng
        n = ctx.players
        dealer = rng.randrange(n)
        deal = Deal(ctx.rs, n, dealer, ctx.new_pack())
        variant = ctx.plan["variant"]
        if variant == "mournival":
            return self._mournival(ctx, deal)
        asked = list(SETUP_FIELDS) if variant == "all" else [variant]
        ans = setup_answer(ctx.rs, n)
        lib = library()
        scoring = ctx.rs.scoring

        facts: Mapping[str, object] = ans  # a field by its name

        def text(f: str) -> str:
            if f == "eldest":
                return str(deal.eldest)
            if f == "ante":
                a = ans["ante"]
                return "none" if a["dealer"] is None else f"{a['dealer']}/{a['other']}"
            v = facts[f]
            return "none" if v is None else str(v)

        canonical = " ".join(text(f) for f in asked)
        accepted = [canonical]
        if len(asked) > 1:
            accepted.append(", ".join(f"{f} {text(f)}" for f in asked))
        elif asked == ["ante"] and ans["ante"]["dealer"] is not None:
            accepted.append(f"{ans['ante']['dealer']} {ans['ante']['other']}")
        elif asked == ["eldest"]:
            accepted.append(f"player {deal.eldest}")
        quotes: list[str] = []
        lines = []
        statuses = []
        labels = ctx.defn.word_map("fields")
        if variant == "eldest":
            later = [(deal.eldest + k) % n for k in range(1, n)]
            lines.append(
                f"- Eldest is the dealer's left-hand neighbour: Player {dealer} deals, "
                f"so Player {deal.eldest} is eldest and plays first; then come "
                + ", ".join(f"Player {q}" for q in later)
                + "."
            )
            src = lib.ruleset_source[ctx.rs.id]
            if not any(lib.quotation(r).source == src for r in ctx.defn.word_list("eldest_named")):
                who = lib.sources[src].author or lib.sources[src].title
                lines.append(
                    f"- {who} does not say who plays first; the program has the "
                    "dealer's left-hand neighbour begin, as every source that says "
                    "does."
                )
        for f in asked:
            for name in _SETUP_PARAMS.get(f, ()):
                p = lib.parameter(ctx.rs.id, name, n)
                statuses.append(p.status)
                for q in p.quotes[:2]:
                    if q not in quotes:
                        quotes.append(q)
                note = f" ({p.status}: {p.note.strip()})" if p.status != "stated" and p.note else ""
                lines.append(
                    f"- {labels.get(name, name)}: {'none' if p.value is None else p.value}{note}"
                )
        tags = set(asked) | {scoring}
        features = {
            f"field_{variant}": 1.0,
            "not_five": float(n != 5),
            "not_stated": float(any(s != "stated" for s in statuses)),
        }
        if variant == "all":
            example = next(e for e in _EXAMPLES if e != canonical)
        elif variant == "ante":
            example = "4/3" if canonical == "3/2" else "3/2"
        else:
            example = ""
        unit_pairs = any(f in ("breakeven", "all") for f in [variant]) and pairs_unit(ctx.rs.id, n)
        facts = {
            "ruleset": lib.rulesets[ctx.rs.id].title_in_text,
            "players": n,
            "unit_note": ("; the source counts it in pairs, and a number alone is read in its unit")
            if unit_pairs
            else "",
            "facts": "\n".join(lines),
            "field": labels.get(variant, variant),
            "dealer": dealer,
            "example": example,
        }
        themes = ["deal-setup", scoring] + asked
        key = f"{variant}_{scoring}" if f"{variant}_{scoring}" in ctx.defn.questions else variant
        return Candidate(
            deal=deal,
            seat=deal.dealer,
            variant=variant,
            answer=self.solve(deal, deal.dealer, {"asked": asked}, ctx.rs, n),
            accepted=accepted,
            facts=facts,
            features=features,
            themes=themes,
            theme=variant,
            tags=tags,
            data={"asked": asked, "position": False, "pairs_unit": unit_pairs},
            quotes=quotes,
            question_key=key,
        )

    # -- answers ----------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        ans = p.answer
        asked = ans["asked"]
        if asked == ["mournival"]:
            letters = LETTERS[: len(ans["options"])]
            got = letters_answer(
                text, letters, expected=f"answer with a letter ({', '.join(letters)})"
            )
            if len(got) != 1:
                raise AnswerError(f"answer with one letter ({', '.join(letters)})")
            if got[0] == ans["letter"]:
                return Verdict(True, f"Right: {ans['letter']}.")
            nudge = (
                "Not yet: that gives each of the two rulesets the other's rule. Which of them "
                "keeps a table mournival for the last player in?"
            )
            return Verdict(False, f"Not quite: it is {ans['letter']}, not {got[0]}.", retry=nudge)
        expected: list[int | None] = []
        labels = []
        for f in asked:
            if f == "ante":
                expected += [ans["ante"]["dealer"], ans["ante"]["other"]]
                labels += ["dealer's ante", "others' ante"]
            else:
                expected.append(ans[f])
                labels.append(f)
        reading = read(
            text.replace("/", " / "),
            words={**_NONE, **_FIELD_WORDS},
            cards=False,
            ranks=False,
            numbers=True,
            expected="give numbers (or `none`) in the order asked",
        )
        vals: list[int | None] = []
        in_pairs = False
        for what, v in reading.items:
            if what == "number":
                vals.append(v)
            elif v == "none":
                vals.append(None)
            elif v == "pairs":
                if "breakeven" not in asked or len(vals) != len(expected) or vals[-1] is None:
                    raise AnswerError("only the breakeven may be given in pairs (`4 pairs`)")
                vals[-1] *= 2
                in_pairs = True
        stakes_null = ans["breakeven"] is None
        be = ans["breakeven"]
        if (
            "breakeven" in asked
            and be is not None
            and not in_pairs
            and len(vals) == len(expected)
            and vals[-1] == be // 2
            and p.data.get("pairs_unit")
        ):
            vals[-1] = be  # the sheet's unit: pairs
        if asked == ["ante"] and len(vals) == 1 and vals[0] is None:
            vals = [None, None]
        if len(asked) > 1 and stakes_null and len(vals) == 5 and vals[2] is None:
            vals.insert(2, None)
        if len(vals) != len(expected):
            if asked == ["ante"]:
                raise AnswerError(
                    "give the dealer's ante and the others' ante, for example `3/2` (or `none`)"
                )
            if len(asked) > 1:
                raise AnswerError(
                    "give six numbers in order: hand, table, dealer's ante / "
                    "others' ante, bonus, breakeven (`none` where there is none)"
                )
            raise AnswerError("give one number (or `none`)")
        wrong = [(lab, v, e) for lab, v, e in zip(labels, vals, expected) if v != e]

        def show(v: Any, lab: str = "") -> str:
            if v is None:
                return "none"
            if lab == "breakeven":
                return f"{v} cards ({v // 2} pairs)" if v % 2 == 0 else f"{v} cards"
            return str(v)

        if not wrong:
            return Verdict(
                True,
                "Right: "
                + "; ".join(
                    f"{_LABELS.get(lab, lab)}: {show(e, lab)}" for lab, e in zip(labels, expected)
                )
                + ".",
            )
        return Verdict(
            False,
            "Not quite: "
            + "; ".join(
                f"{_LABELS.get(lab, lab)}: you said {show(v)}, it is {show(e, lab)}"
                for lab, v, e in wrong
            )
            + ".",
            credit=1 - len(wrong) / len(expected),
            retry=self._nudge(p, wrong),
        )

    def _nudge(self, p: Puzzle, wrong: list[tuple[str, Any, Any]]) -> str:
        """A nudge that names the part of the answer that is wrong, never the answer."""
        ans = p.answer
        if p.answer["asked"] == ["eldest"]:
            said = wrong[0][1]
            n = p.players
            if said == ans["dealer"]:
                return (
                    "Not yet: that is the dealer. Eldest is the dealer's left-hand "
                    "neighbour, the next seat."
                )
            if said is not None and said == (ans["dealer"] - 1) % n:
                return (
                    "Not yet: that seat is the dealer's right-hand neighbour. Count to the "
                    "left from the dealer: the next number up, and after the last player, "
                    "Player 0 again."
                )
            return "Not yet: count one seat to the left from the dealer's seat."
        names = [_LABELS.get(lab, lab) for lab, _, _ in wrong]
        tail = {
            "hand": "each player's hand comes first; the rest of the 52 go to the table",
            "table": "the table gets what is left of the 52 after the hands",
            "dealer's ante": "the dealer puts up more than the others",
            "others' ante": "each other player puts up less than the dealer",
            "bonus": "the last player's bonus is taken from the pot first",
            "breakeven": "the breakeven is counted in won cards, or in pairs",
        }
        hints = [tail[lab] for lab, _, _ in wrong if lab in tail]
        plural = len(names) > 1 or wrong[0][0] in _PLURAL  # "the table cards are off"
        return (
            "Not yet: "
            + join(names)
            + (" are" if plural else " is")
            + " off"
            + (f" ({hints[0]})" if hints else "")
            + "."
        )

    def answer_words(self, p: Puzzle) -> list[str]:
        if p.answer["asked"] == ["mournival"]:
            return ["hint", "quit"] + list(LETTERS[: len(p.answer["options"])])
        return ["hint", "quit", "none"]

    def wrong_answer(self, p: Puzzle) -> str | None:
        a = p.answer
        if a["asked"] == ["mournival"]:
            return LETTERS[(LETTERS.index(a["letter"]) + 1) % len(a["options"])]
        first = p.accepted[0].split()
        head = first[0]
        if head == "none":
            first[0] = "1/1" if a["asked"] == ["ante"] else "1"
        elif "/" in head:
            d, o = head.split("/")
            first[0] = f"{int(d) + 1}/{o}"
        elif a["asked"] == ["eldest"]:
            first[0] = str(a["dealer"])
        else:
            first[0] = str(int(head) + 1)
        return " ".join(first)
