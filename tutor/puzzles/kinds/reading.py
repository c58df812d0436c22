"""``reading``: a source's sentence, a value of the rule it bears on, and the question "how
does the text give it?"; or the same rule in several sources' words side by side.

Built from the quotations and the stated/read/chosen provenance in ``sources/*.yaml``: each
sentence of ``puzzles/reading.yaml`` (``items``) names a quotation, the ruleset parameter it
bears on, the words that decide it (or, with ``open: true``, the words that leave it open).  The
status form names one value of the parameter (worded as
:func:`tutor.engine.parameters.value_words` words it) and offers the same four options every
time: the text says it in so many words, a close reading gives it, the text leaves it open, the
text gives some other value.  The answer comes from the ruleset's own status and value
(:func:`status_answer`): chosen gives "open" whatever the value named; otherwise stated or read
where the value named is the ruleset's, and "some other value" where it is not.  The answers are
drawn in turn (:func:`status_cases`), so none is right most of the time, and the value named
says nothing of the answer by itself: every value of the parameter is named with every
sentence.  The explanation says which words decide it, which rulesets take the value named,
the status and the note behind it.

A puzzle's ruleset is one whose parameter cites the sentence; a ruleset whose values cite none
of the sentences (a house ruleset, say) is left out.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Mapping
from typing import Any

from tutor.engine.deal import Deal
from tutor.engine.errors import DataError
from tutor.engine.parameters import spec, value_words
from tutor.engine.rulesets import Ruleset
from tutor.engine.sources import Library
from tutor.puzzles.base import (
    LETTERS,
    Candidate,
    Ctx,
    JSONValue,
    Plan,
    PuzzleKind,
    Verdict,
    jsonable,
    library,
    set_place,
)
from tutor.puzzles.model import AnswerError, Definition, Puzzle, definition
from tutor.puzzles.quoted import quote_plain
from tutor.puzzles.reader import letters_answer
from tutor.puzzles.surface import overlap

OPEN = "open"

#: A sentence of ``puzzles/reading.yaml``, checked (:func:`sentences`): ``quote`` (its id),
#: ``parameter``, ``decides`` and ``others`` (words that stand in it), ``open``, ``citing`` (the
#: rulesets citing it for the parameter), ``value`` (theirs, as JSON) and ``note``.
Sentence = dict[str, Any]
#: A side-by-side puzzle a ruleset can ask (:func:`compare_sets`): ``quotes`` (the sentences'
#: ids), ``parameter`` and ``asked`` (the value asked, as JSON).
CompareSet = dict[str, Any]


def plain(text: str) -> str:
    """``text`` (words of a quotation) as the page shows it, without its markup."""
    return quote_plain(text)


#: The sentences of the library last asked about, with a weak reference to that library: a
#: library's ``id`` may be given to another once it is gone, but a reference to a library that
#: is gone never matches one that is not.
_CACHE: tuple[weakref.ref[Library], list[Sentence]] | None = None


def sentences() -> list[Sentence]:
    """The sentences of ``puzzles/reading.yaml``, checked: each quotation exists, its deciding
    and other words stand in it, and every ruleset citing it for the parameter takes the same
    value.  Raises DataError naming the entry otherwise.  Worked out once for each library
    (:func:`tutor.puzzles.base.library`)."""
    global _CACHE
    lib = library()
    if _CACHE is not None and _CACHE[0]() is lib:
        return _CACHE[1]
    out: list[Sentence] = []
    for i, item in enumerate(definition("reading").items):
        where = f"reading.yaml: items[{i}]"
        try:
            ref, name, decides = item["quote"], item["parameter"], item["decides"]
        except (KeyError, TypeError):
            raise DataError(f"{where}: needs quote, parameter and decides") from None
        q = lib.quotation(ref)
        others = list(item.get("others") or [])
        for w in [decides] + others:
            if w not in q.text:
                raise DataError(f"{where}: {w!r} does not stand in {ref}")
        citing = [rid for rid in lib.rulesets if ref in lib.parameter(rid, name).quotes]
        if not citing:
            raise DataError(f"{where}: no ruleset cites {ref} for {name}")
        values = {jsonable(lib.parameter(rid, name).value) for rid in citing}
        if len(values) != 1:
            raise DataError(f"{where}: the rulesets citing {ref} disagree on {name}")
        out.append(
            {
                "quote": ref,
                "parameter": name,
                "decides": decides,
                "others": others,
                "open": bool(item.get("open")),
                "citing": citing,
                "value": values.pop(),
                "note": str(item.get("note") or "").strip(),
            }
        )
    _CACHE = (weakref.ref(lib), out)
    return out


def pool_for(ruleset_id: str) -> list[Sentence]:
    """The sentences whose quotation the ruleset cites."""
    return [s for s in sentences() if ruleset_id in s["citing"]]


def _values(name: str) -> list[object]:
    s = spec(name)
    if s.kind == "bool":
        return [True, False]
    return list(s.values)


#: How a sentence gives a ruleset's value, as the parameter's status says: the text says it
#: (stated), a close reading of its words gives it (read), or it leaves it open and the engine
#: chose (chosen).
SAYS, READ = "says", "read"
#: The fourth answer of the status form: the sentence, as the ruleset reads it, gives a value
#: other than the one the question names.
OTHER = "other"
#: The status form's answers, in the order its options show them, and their words: the same
#: four options on every puzzle, each what a reading of the sentence gives (issue 42: the
#: options used to carry the values, and a learner went by the value most rulesets take).
ANSWERS = (SAYS, READ, OPEN, OTHER)
ANSWER_WORDS = {
    SAYS: "the text says it in so many words",
    READ: "a close reading of the text gives it",
    OPEN: "the text leaves it open",
    OTHER: "the text gives some other value",
}
#: The status form's nudge after a wrong first answer, by the answer chosen: what that answer
#: claims of the sentence, to be checked again.  It is worked out from the chosen answer alone,
#: so that it tells nothing of the right one (a wrong first answer is no probe,
#: tests/puzzles/test_nudge_probe.py); it was chosen by the pair of chosen and right answers,
#: and a learner who answered A first read the right letter off it two times in three.  (No
#: nudge has the word "a": a letter standing alone in a nudge is taken for the answer.)
_NUDGES = {
    SAYS: "that answer says the sentence gives this value in so many words. Which of its "
    "words say it?",
    READ: "that answer says this value is read from the sentence's words, though they do not "
    "say so outright. Which of its words give it, and do they give this value?",
    OPEN: "that answer says the sentence gives no value of it at all. Read again what it says "
    "happens, and to whom: does that decide it?",
    OTHER: "that answer says the sentence gives some value other than this one. Read again what "
    "it says happens, and to whom: which value is it?",
}
#: The variants, in the order consecutive seeds take them: ``status`` (one sentence and a
#: value: does the text say it, does a close reading give it, does it leave it open, or does
#: it give some other value?) and ``compare`` (the same rule in several sources' words side
#: by side: which of them says this value?).
VARIANTS = ("status", "status", "compare")


def right_reading(ruleset: str, item: Sentence) -> tuple[str, JSONValue] | None:
    """How ``item``'s sentence gives ``ruleset``'s value, as the ruleset's status says:
    ``(SAYS, value)`` where it is stated, ``(READ, value)`` where it is read, ``(OPEN, None)``
    where it is chosen.  None where the two disagree: a sentence that leaves it open behind a
    value the ruleset states from other words (those are not asked for that ruleset)."""
    p = library().parameter(ruleset, item["parameter"])
    if p.status == "chosen":
        return (OPEN, None)
    if p.status == "read":
        return (READ, jsonable(p.value))
    if item["open"]:
        return None
    return (SAYS, jsonable(p.value))


def _asked_reading(ruleset: str, item: Sentence) -> tuple[str, JSONValue]:
    """:func:`right_reading` of a sentence asked for ``ruleset`` (the pools leave out those of
    none); raises :class:`DataError` for one of none."""
    reading = right_reading(ruleset, item)
    if reading is None:
        raise DataError(
            f"reading: {item['quote']} leaves {item['parameter']} open, but "
            f"{ruleset} states it: not a question for that ruleset"
        )
    return reading


def status_answer(ruleset: str, item: Sentence, value: JSONValue) -> str:
    """How ``item``'s sentence gives ``value`` (a value of its parameter) under ``ruleset``, as
    the ruleset's status says (:func:`right_reading`): :data:`OPEN` where the ruleset chose
    (the sentence gives no value, this one or another); :data:`SAYS` or :data:`READ` where
    ``value`` is the ruleset's own; :data:`OTHER` where the sentence gives another.  Raises
    :class:`DataError` for a sentence not asked of that ruleset."""
    how, own = _asked_reading(ruleset, item)
    if how == OPEN:
        return OPEN
    return how if jsonable(value) == own else OTHER


def status_cases(ruleset_id: str) -> dict[str, list[tuple[int, JSONValue]]]:
    """The status puzzles the ruleset can ask, by their answer: for each of :data:`ANSWERS`,
    the ``(index in status_pool, value named)`` pairs that give it (:func:`status_answer`).
    Every value of the parameter is named with every sentence, so each answer is drawn with
    the values of every other."""
    out: dict[str, list[tuple[int, JSONValue]]] = {a: [] for a in ANSWERS}
    for i, s in enumerate(status_pool(ruleset_id)):
        for v in _values(s["parameter"]):
            v = jsonable(v)
            out[status_answer(ruleset_id, s, v)].append((i, v))
    return out


def status_guess(ruleset_id: str) -> dict[tuple[str, str], str]:
    """What a learner who knows only the other sources' status puzzles would answer, by
    ``(parameter, repr of the value named)``: the answer those of every ruleset of another
    source give most often (none where two tie).  Issue 42: a value named told its answer
    across sources (free actions are read in every source but one), so the plan draws the
    puzzles this guess answers no more often than chance.  Worked out once per library and
    ruleset (the plan asks it for every puzzle)."""
    global _GUESS
    lib = library()
    if _GUESS is None or _GUESS[0]() is not lib:
        _GUESS = (weakref.ref(lib), {})
    known = _GUESS[1].get(ruleset_id)
    if known is None:
        known = _GUESS[1][ruleset_id] = _status_guess(lib, ruleset_id)
    return known


_GUESS: tuple[weakref.ref[Library], dict[str, dict[tuple[str, str], str]]] | None = None


def _status_guess(lib: Library, ruleset_id: str) -> dict[tuple[str, str], str]:
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for rid in lib.rulesets:
        if lib.ruleset_source[rid] == lib.ruleset_source[ruleset_id]:
            continue
        pool = status_pool(rid)
        for answer, cases in status_cases(rid).items():
            for i, v in cases:
                key = (pool[i]["parameter"], repr(v))
                counts.setdefault(key, {}).setdefault(answer, 0)
                counts[key][answer] += 1
    out = {}
    for key, by in counts.items():
        tops = [a for a in by if by[a] == max(by.values())]
        if len(tops) == 1:
            out[key] = tops[0]
    return out


def status_pool(ruleset_id: str) -> list[Sentence]:
    """The sentences the ruleset cites whose status puzzle agrees with it
    (:func:`right_reading`)."""
    return [s for s in pool_for(ruleset_id) if right_reading(ruleset_id, s) is not None]


def compare_question(name: str, value: JSONValue) -> str:
    """The words of a side-by-side question about ``value`` of parameter ``name`` (as
    ``puzzles/reading.yaml`` words it), for :func:`tutor.puzzles.surface.overlap`."""
    return (
        f"The same rule in sources' words, on {spec(name).quiz}: Which of these says: "
        f"{value_words(name, value)}? Answer with a letter."
    )


#: :func:`compare_sets` of the library last asked about, by ruleset (held weakly, as
#: :data:`_CACHE`).
_COMPARE: tuple[weakref.ref[Library], dict[str, list[CompareSet]]] | None = None


def compare_sets(ruleset_id: str) -> list[CompareSet]:
    """The side-by-side puzzles the ruleset can ask: ``{"quotes": [refs], "asked": value}``,
    sentences of different sources on one parameter, one of them one the ruleset cites, each
    giving a different value (not open), and one of their values asked.  No two sentences side
    by side give the same value (issue 42: the wrong ones all said one thing, and the one least
    like the others was right), and every value of the set is asked in turn.  Adversarial
    filtering, for the words the question shares with each sentence
    (:func:`tutor.puzzles.surface.overlap`): of the sets where the sentence that says the value
    shares more words with the question than every other, and those where it shares fewer,
    only as many of each are kept, with every set where it shares as many as another; so the
    words shared point to no answer.  Worked out once for each library, deterministic."""
    global _COMPARE
    lib = library()
    if _COMPARE is None or _COMPARE[0]() is not lib:
        _COMPARE = (weakref.ref(lib), {})
    done = _COMPARE[1]
    if ruleset_id in done:
        return done[ruleset_id]
    every = sentences()
    up: list[CompareSet] = []
    down: list[CompareSet] = []
    even: list[CompareSet] = []
    seen: set[tuple[tuple[str, ...], str]] = set()
    for item in pool_for(ruleset_id):
        if item["open"] or right_reading(ruleset_id, item) is None:
            continue
        src = item["quote"].split(":")[0]
        name = item["parameter"]
        rivals: dict[str, list[Sentence]] = {}
        for s in every:
            if (
                s["parameter"] == name
                and not s["open"]
                and s["value"] != item["value"]
                and s["quote"].split(":")[0] != src
            ):
                rivals.setdefault(repr(s["value"]), []).append(s)
        groups = [rivals[k] for k in sorted(rivals)]
        combos: list[list[Sentence]] = [[item]]
        for g in groups:
            combos = [
                c + [s]
                for c in combos
                for s in g
                if s["quote"].split(":")[0] not in {x["quote"].split(":")[0] for x in c}
            ]
        for shown in combos:
            if len(shown) < 2:
                continue
            key = tuple(sorted(s["quote"] for s in shown))
            for right in shown:
                if (key, repr(right["value"])) in seen:
                    continue
                seen.add((key, repr(right["value"])))
                q = compare_question(name, right["value"])
                mine = overlap(lib.quotation(right["quote"]).text, q)
                theirs = [
                    overlap(lib.quotation(s["quote"]).text, q) for s in shown if s is not right
                ]
                case = {
                    "quotes": [s["quote"] for s in shown],
                    "parameter": name,
                    "asked": right["value"],
                }
                (up if mine > max(theirs) else down if mine < min(theirs) else even).append(case)
    n = min(len(up), len(down))
    out = even + up[:n] + down[:n]
    done[ruleset_id] = out
    return out


def _who(lib: Library, ref: str) -> str:
    """A sentence's source in a few words: its author's surname, else where it appeared."""
    src = lib.sources[lib.quotation(ref).source]
    if src.author:
        return " ".join(src.author.split()[1:])
    return src.in_ or src.published or src.title


class Reading(PuzzleKind):
    name = "reading"

    def why_not(self, rs: Ruleset) -> str | None:
        if not status_pool(rs.id):
            return "none of its values cites a source sentence set as a reading puzzle"
        return None

    def plan(
        self, base: random.Random, rs: Ruleset, players: int, seed: int, defn: Definition
    ) -> Plan:
        k = set_place(seed, len(VARIANTS) * len(ANSWERS))
        variant = VARIANTS[k % len(VARIANTS)]
        if variant == "compare" and not compare_sets(rs.id):
            variant = "status"
        if variant == "compare":
            return {"variant": variant, "item": (k // len(VARIANTS)) % len(compare_sets(rs.id))}
        # the status puzzles' own count: consecutive status seeds take consecutive turns
        if compare_sets(rs.id):
            turn = (k // len(VARIANTS)) * VARIANTS.count("status") + VARIANTS[
                : k % len(VARIANTS)
            ].count("status")
        else:
            turn = k
        # the answer (the text says it, a close reading gives it, it leaves it open, it gives
        # some other value) is drawn in turn among those the ruleset's sentences have, then the
        # sentence and the value named: no option is right most of the time (issue 42: "the
        # text says" was, and a learner went by it)
        cases = status_cases(rs.id)
        order = [a for a in ANSWERS if cases[a]]
        answer = order[turn % len(order)]
        among = cases[answer]
        # of the cases of that answer, those the other sources' answers would guess
        # (status_guess) one time in len(ANSWERS), the others the rest (issue 42)
        j = turn // len(order)
        pool, guess = status_pool(rs.id), status_guess(rs.id)
        guessed = [c for c in among if guess.get((pool[c[0]]["parameter"], repr(c[1]))) == answer]
        rest = [c for c in among if c not in guessed]
        if guessed and rest:
            among = guessed if j % len(ANSWERS) == 0 else rest
            j = j // len(ANSWERS) if among is guessed else j - j // len(ANSWERS) - 1
        item, value = among[j % len(among)]
        return {"variant": variant, "item": item, "value": value}

    def plan_may_fit(self, plan: Plan, theme: str) -> bool:
        if theme == "side-by-side":
            return plan["variant"] == "compare"
        if theme == "reading":
            return plan["variant"] == "status"
        return True

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        if data["variant"] == "compare":
            lib = library()
            target = jsonable(data["value"])
            says = [
                i
                for i, ref in enumerate(data["quotes"])
                if any(
                    jsonable(lib.parameter(r, data["parameter"]).value) == target
                    for r in data["citing"][i]
                )
            ]
            if len(says) != 1:
                raise DataError("reading: the sentences side by side do not single one out")
            return {
                "parameter": data["parameter"],
                "quotes": list(data["quotes"]),
                "letter": LETTERS[says[0]],
            }
        item = next(
            s
            for s in sentences()
            if s["quote"] == data["quote"] and s["parameter"] == data["parameter"]
        )
        how = status_answer(rs.id, item, data["value"])
        return {
            "quote": item["quote"],
            "parameter": item["parameter"],
            "value": jsonable(data["value"]),
            "how": how,
            "letter": LETTERS[ANSWERS.index(how)],
        }

    def build(self, ctx: Ctx) -> Candidate | None:
        if ctx.plan["variant"] == "compare":
            return self._compare(ctx)
        return self._status(ctx)

    # -- one sentence and a value: how does the text give it? ------------------------------

    def _status(self, ctx: Ctx) -> Candidate:
        rng = ctx.rng
        lib = library()
        item = status_pool(ctx.rs.id)[ctx.plan["item"]]
        name = item["parameter"]
        q = lib.quotation(item["quote"])
        named = jsonable(ctx.plan["value"])
        how = status_answer(ctx.rs.id, item, named)
        status_how = _asked_reading(ctx.rs.id, item)[0]
        p = lib.parameter(ctx.rs.id, name)
        own = jsonable(p.value)  # the ruleset's value (the engine's, when chosen)
        data = {
            "quote": item["quote"],
            "parameter": name,
            "value": named,
            "position": False,
            "variant": "status",
            "hide_id": True,
        }
        options = "\n".join(f"{LETTERS[i]}) {ANSWER_WORDS[a]}" for i, a in enumerate(ANSWERS))
        letter = LETTERS[ANSWERS.index(how)]
        taken: dict[str, list[tuple[str, str]]] = {}
        for rid in lib.rulesets:
            pr = lib.parameter(rid, name)
            taken.setdefault(repr(jsonable(pr.value)), []).append(
                (lib.ruleset_name(rid), pr.status)
            )
        # the ruleset by a name that gives none of its values away (its title stays in laugh
        # rules): "tournament scoring" or "points" would tell a reading before it is read
        title = lib.ruleset_name(ctx.rs.id)
        decides = plain(item["decides"])
        said, own_words = value_words(name, named), value_words(name, own)
        if how == OPEN:
            verdict = (
                f"{letter}: the text leaves it open, and under {title} the engine chose: "
                f"{own_words}. The words “{decides}” go no further."
            )
        elif how == READ:
            verdict = (
                f"{letter}: a close reading of its words gives it, as {title} reads it: "
                f"{said}. The words “{decides}” decide it, though not in so many words."
            )
        elif how == SAYS:
            verdict = (
                f"{letter}: the text says it in so many words: {said}. The words "
                f"“{decides}” decide it."
            )
        else:
            whose = "; ".join(
                f"{t[:1].upper()}{t[1:]} takes it, {_STATUS_WORDS[st]}"
                for t, st in taken.get(repr(named)) or []
            )
            verdict = (
                f"{letter}: the text gives some other value: {own_words}, not {said}. "
                f"The words “{decides}” decide it"
                + (", as a close reading of them gives it" if status_how == READ else "")
                + "."
                + (f" {whose}." if whose else "")
            )
        why_not = {
            SAYS: {
                READ: "The text does not say it in so many words: the value is read from them.",
                OPEN: "The text does not say it: the engine chose.",
                OTHER: "The text does not say this value.",
            },
            READ: {
                SAYS: "No reading is needed: the text says it outright.",
                OPEN: "The words do not give it, even read closely.",
                OTHER: "Read closely, the words give some other value.",
            },
            OPEN: {
                SAYS: "The words decide it: the engine did not have to choose.",
                READ: "Read closely, the words decide it: the engine did not have to choose.",
                OTHER: "The words decide it: the engine did not have to choose.",
            },
            OTHER: {
                SAYS: "It is the value the text gives.",
                READ: "It is the value the words give, read closely.",
                OPEN: "The sentence gives no value of it, this one or any other.",
            },
        }
        lines = [f"- {LETTERS[i]}) {why_not[a][how]}" for i, a in enumerate(ANSWERS) if a != how]
        status = f"{title[:1].upper()}{title[1:]} marks its value {_STATUS_WORDS[p.status]}" + (
            f". {' '.join(p.note.split())}" if p.note else "."
        )
        facts = {
            "quote": quote_plain(q.text),
            "source": _who(lib, item["quote"]),
            "where": q.where,
            "options": options,
            "value": said,
            "verdict": verdict,
            "others": "\n".join(lines),
            "note": item["note"],
            "status": status,
            "ruleset": title,
            "parameter": spec(name).quiz,
        }
        deal = Deal(ctx.rs, ctx.players, rng.randrange(ctx.players), ctx.new_pack())
        features = {
            "open": float(status_how == OPEN),
            "read": float(status_how == READ),
            "readings": 0.0,
        }
        themes = [
            "sources",
            "reading",
            name.replace("_", "-"),
            {SAYS: "stated", READ: "read", OPEN: "open"}[status_how],
        ]
        return Candidate(
            deal=deal,
            seat=deal.dealer,
            variant={SAYS: "decided", READ: "read", OPEN: "open", OTHER: "another"}[how],
            answer=self.solve(deal, deal.dealer, data, ctx.rs, ctx.players),
            accepted=[letter, letter.lower()],
            facts=facts,
            features=features,
            themes=themes,
            theme="reading",
            data=data,
            quotes=[item["quote"]],
            question_key="status",
            explain_key="status",
        )

    # -- the same rule side by side --------------------------------------------------------

    def _compare(self, ctx: Ctx) -> Candidate:
        rng = ctx.rng
        lib = library()
        case = compare_sets(ctx.rs.id)[ctx.plan["item"]]
        name = case["parameter"]
        every = {s["quote"]: s for s in sentences() if s["parameter"] == name}
        shown = [every[ref] for ref in case["quotes"]]
        rng.shuffle(shown)
        target = jsonable(case["asked"])
        data = {
            "variant": "compare",
            "parameter": name,
            "value": target,
            "quotes": [s["quote"] for s in shown],
            "citing": [s["citing"] for s in shown],
            "position": False,
            "hide_id": True,
        }
        letter = LETTERS[[jsonable(s["value"]) for s in shown].index(target)]
        lines = []
        for i, s in enumerate(shown):
            rid = s["citing"][0]
            pr = lib.parameter(rid, name)
            lines.append(
                f"- {LETTERS[i]}) {_who(lib, s['quote'])}, under "
                f"‘{lib.quotation(s['quote']).where}’: {value_words(name, s['value'])}"
                f"; the words “{plain(s['decides'])}” give it, "
                f"{_STATUS_WORDS[pr.status]}."
            )
        facts = {
            "options": "\n".join(
                f"{LETTERS[i]}) “{quote_plain(lib.quotation(s['quote']).text)}”"
                for i, s in enumerate(shown)
            ),
            "value": value_words(name, target),
            "parameter": spec(name).quiz,
            "k": len(shown),
            "lines": "\n".join(lines),
        }
        deal = Deal(ctx.rs, ctx.players, rng.randrange(ctx.players), ctx.new_pack())
        features = {
            "readings": float(max(0, len(shown) - 3)),
            "read": float(any(lib.parameter(s["citing"][0], name).status == "read" for s in shown)),
        }
        return Candidate(
            deal=deal,
            seat=deal.dealer,
            variant="compare",
            answer=self.solve(deal, deal.dealer, data, ctx.rs, ctx.players),
            accepted=[letter, letter.lower()],
            facts=facts,
            features=features,
            themes=["sources", "side-by-side", name.replace("_", "-")],
            theme="side-by-side",
            data=data,
            quotes=list(data["quotes"]),
            question_key="compare",
            explain_key="compare",
        )

    # -- answers ----------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        if p.variant == "compare":
            return self._check_compare(p, text)
        letters = LETTERS[: len(ANSWERS)]
        got = letters_answer(text, letters, expected=f"answer with a letter ({', '.join(letters)})")
        if len(got) != 1:
            raise AnswerError(f"answer with one letter ({', '.join(letters)})")
        right = p.answer["letter"]
        if got[0] == right:
            return Verdict(True, f"Right: {right}.")
        return Verdict(
            False,
            f"Not quite: it is {right}, not {got[0]}.",
            retry=f"Not yet: {_NUDGES[ANSWERS[LETTERS.index(got[0])]]}",
        )

    def _check_compare(self, p: Puzzle, text: str) -> Verdict:
        letters = LETTERS[: len(p.answer["quotes"])]
        got = letters_answer(text, letters, expected=f"answer with a letter ({', '.join(letters)})")
        if len(got) != 1:
            raise AnswerError(f"answer with one letter ({', '.join(letters)})")
        right = p.answer["letter"]
        if got[0] == right:
            return Verdict(True, f"Right: {right}.")
        return Verdict(
            False,
            f"Not quite: it is {right}, not {got[0]}.",
            retry=f"Not yet: read {got[0]} again: what does it say happens, and to whom?",
        )

    def answer_words(self, p: Puzzle) -> list[str]:
        if p.variant == "compare":
            return ["hint", "quit"] + list(LETTERS[: len(p.answer["quotes"])])
        return ["hint", "quit"] + list(LETTERS[: len(ANSWERS)])

    def wrong_answer(self, p: Puzzle) -> str | None:
        a = p.answer
        if p.variant == "compare":
            return LETTERS[(LETTERS.index(a["letter"]) + 1) % len(a["quotes"])]
        return LETTERS[(LETTERS.index(a["letter"]) + 1) % len(ANSWERS)]


#: What each status means, as the explanations say it.
_STATUS_WORDS = {
    "stated": "stated (the source says it)",
    "read": "read (a close reading of the source's words gives it)",
    "chosen": "chosen (the source is silent, and the engine chose)",
}
