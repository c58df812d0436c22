"""``reading``: a source's sentence, the readings of it that the rulesets take, and the question
"which reading does the text support, and which words decide it?".

Built from the quotations and the stated/read/chosen provenance in ``sources/*.yaml``: each
sentence of ``puzzles/reading.yaml`` (``items``) names a quotation, the ruleset parameter it
bears on, the words that decide it (or, with ``open: true``, the words that leave it open) and a
few words of the same sentence that do not.  The readings offered are the parameter's values,
worded as :func:`tutor.engine.parameters.value_words` words them, plus "the sentence leaves it
open"; the right one is the value the rulesets that cite the sentence take (all must agree), or
"open".  The explanation says which rulesets take each reading, the status (stated, read) and
the note behind it.

A puzzle's ruleset is one whose parameter cites the sentence; a ruleset whose values cite none
of the sentences (a house ruleset, say) is left out.
"""

from __future__ import annotations

import re
import weakref

from tutor.engine.deal import Deal
from tutor.engine.errors import DataError
from tutor.engine.parameters import spec, value_words
from tutor.puzzles.base import (LETTERS, Candidate, PuzzleKind, Verdict, join, jsonable, library,
                                set_index)
from tutor.puzzles.model import AnswerError, definition
from tutor.puzzles.quoted import quote_plain
from tutor.puzzles.reader import read

OPEN = "open"
_PAIR = re.compile(r"\b([A-Da-d])\s*([1-9])\b")


def plain(text: str) -> str:
    """``text`` (words of a quotation) as the page shows it, without its markup."""
    return quote_plain(text)


#: The sentences of the library last asked about, with a weak reference to that library: a
#: library's ``id`` may be given to another once it is gone, but a reference to a library that
#: is gone never matches one that is not.
_CACHE: tuple[weakref.ref, list[dict]] | None = None


def sentences() -> list[dict]:
    """The sentences of ``puzzles/reading.yaml``, checked: each quotation exists, its deciding
    and other words stand in it, and every ruleset citing it for the parameter takes the same
    value.  Raises DataError naming the entry otherwise.  Worked out once for each library
    (:func:`tutor.puzzles.base.library`)."""
    global _CACHE
    lib = library()
    if _CACHE is not None and _CACHE[0]() is lib:
        return _CACHE[1]
    out = []
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
        out.append({"quote": ref, "parameter": name, "decides": decides, "others": others,
                    "open": bool(item.get("open")), "citing": citing,
                    "value": values.pop(), "note": str(item.get("note") or "").strip()})
    _CACHE = (weakref.ref(lib), out)
    return out


def pool_for(ruleset_id: str) -> list[dict]:
    """The sentences whose quotation the ruleset cites."""
    return [s for s in sentences() if ruleset_id in s["citing"]]


def _values(name: str) -> list:
    s = spec(name)
    if s.kind == "bool":
        return [True, False]
    return list(s.values)


class Reading(PuzzleKind):
    name = "reading"

    def why_not(self, rs):
        if not pool_for(rs.id):
            return "none of its values cites a source sentence set as a reading puzzle"
        return None

    def plan(self, base, rs, players, seed, defn):
        pool = pool_for(rs.id)
        return {"variant": "default", "item": set_index(seed) % len(pool)}

    def solve(self, deal, seat, data, rs, players):
        lib = library()
        item = next(s for s in sentences() if s["quote"] == data["quote"]
                    and s["parameter"] == data["parameter"])
        right = OPEN if item["open"] else jsonable(lib.parameter(rs.id, item["parameter"]).value)
        return {"quote": item["quote"], "parameter": item["parameter"],
                "readings": list(data["readings"]), "words": list(data["words"]),
                "reading": LETTERS[data["readings"].index(right)],
                "word": data["words"].index(item["decides"]) + 1}

    def build(self, ctx):
        rng = ctx.rng
        lib = library()
        item = pool_for(ctx.rs.id)[ctx.plan["item"]]
        name = item["parameter"]
        q = lib.quotation(item["quote"])
        values = _values(name)
        readings = [jsonable(v) for v in values][:3] + [OPEN]
        if jsonable(item["value"]) not in readings:
            readings[0] = jsonable(item["value"])
        words = [item["decides"]] + item["others"][:2]
        rng.shuffle(words)
        right = OPEN if item["open"] else jsonable(item["value"])
        data = {"quote": item["quote"], "parameter": name, "readings": readings,
                "words": words, "position": False}
        taken: dict = {}
        for rid in lib.rulesets:
            v = jsonable(lib.parameter(rid, name).value)
            taken.setdefault(repr(v), []).append(lib.rulesets[rid].title)

        def reading_words(v) -> str:
            if v == OPEN:
                return "the sentence leaves it open: both readings fit its words"
            return value_words(name, v)

        options = "\n".join(f"{LETTERS[i]}) {reading_words(v)}" for i, v in enumerate(readings))
        word_lines = "\n".join(f"{k + 1}) “{plain(w)}”" for k, w in enumerate(words))
        letter = LETTERS[readings.index(right)]
        number = words.index(item["decides"]) + 1
        p = lib.parameter(ctx.rs.id, name)
        lines = []
        for i, v in enumerate(readings):
            if v == right:
                continue
            if v == OPEN:
                lines.append(f"- {LETTERS[i]}) It does not leave it open: "
                             f"“{plain(item['decides'])}” settles it.")
            else:
                who = taken.get(repr(v))
                whose = (f"This is how {join(who)} take{'s' if len(who) == 1 else ''} it, from "
                         "other words" if who else "No ruleset here takes it so")
                lines.append(f"- {LETTERS[i]}) {reading_words(v)}: {whose}; this sentence "
                             "does not say so.")
        for k, w in enumerate(words):
            if w != item["decides"]:
                lines.append(f"- {k + 1}) “{plain(w)}” does not decide it: it fits every "
                             "reading.")
        if item["open"]:
            verdict = (f"{letter}{number}: the sentence leaves it open. The words "
                       f"“{plain(item['decides'])}” can be read more than one way.")
        else:
            verdict = (f"{letter}{number}: {reading_words(right)}. The words "
                       f"“{plain(item['decides'])}” decide it.")
        status = (f"The ruleset's value is {p.status} ({'the source says it' if p.status == 'stated' else 'a close reading of the source' if p.status == 'read' else 'the tutor’s choice'})"
                  + (f": {' '.join(p.note.split())}" if p.note else "."))
        src = lib.sources[q.source]
        who = " ".join(src.author.split()[1:]) if src.author else (src.in_ or src.title)
        facts = {"quote": quote_plain(q.text), "source": who, "where": q.where,
                 "options": options, "words": word_lines,
                 "example": next(f"{LETTERS[i]}{k}" for i in range(len(readings))
                                 for k in range(1, len(words) + 1)
                                 if (LETTERS[i], k) != (letter, number)),
                 "verdict": verdict, "others": "\n".join(lines),
                 "note": item["note"], "status": status,
                 "parameter": spec(name).quiz}
        accepted = [f"{letter}{number}", f"{letter.lower()} {number}", f"{letter}, {number}"]
        deal = Deal(ctx.rs, ctx.players, rng.randrange(ctx.players), ctx.new_pack())
        features = {"open": float(item["open"]), "read": float(p.status != "stated"),
                    "readings": float(len(readings) - 3)}
        themes = ["sources", "reading", name.replace("_", "-"), "open" if item["open"]
                  else p.status]
        return Candidate(deal=deal, seat=deal.dealer, variant="open" if item["open"] else "decided",
                         answer=self.solve(deal, deal.dealer, data, ctx.rs, ctx.players),
                         accepted=accepted, facts=facts, features=features, themes=themes,
                         theme="reading", data=data, quotes=[item["quote"]])

    # -- answers ----------------------------------------------------------------------------

    def check(self, p, text):
        n_read = len(p.answer["readings"])
        n_words = len(p.answer["words"])
        letters = LETTERS[:n_read]
        spaced = _PAIR.sub(r"\1 \2", text)
        got = read(spaced, words={ch.lower(): ch for ch in letters}, cards=False, ranks=False,
                   numbers=True, expected=f"answer with a letter and a number, for example "
                                          f"`{letters[0]}1`")
        picked = [w for w in got.words if w]
        if len(picked) != 1 or len(got.numbers) != 1:
            raise AnswerError(f"answer with one letter ({', '.join(letters)}) for the reading "
                              f"and one number (1 to {n_words}) for the words")
        num = got.numbers[0]
        if not 1 <= num <= n_words:
            raise AnswerError(f"the words are numbered 1 to {n_words}")
        ok_reading = picked[0] == p.answer["reading"]
        ok_words = num == p.answer["word"]
        right = f"{p.answer['reading']}{p.answer['word']}"
        if ok_reading and ok_words:
            return Verdict(True, f"Right: {right}.")
        parts = []
        if not ok_reading:
            parts.append(f"the reading is {p.answer['reading']}, not {picked[0]}")
        if not ok_words:
            parts.append(f"the deciding words are {p.answer['word']}, not {num}")
        retry = ("Not yet: " + ("the reading is right, but not the words"
                                if ok_reading else "the words are right, but not the reading"
                                if ok_words else "neither the reading nor the words")
                 + ". Read the sentence once more, word by word.")
        return Verdict(False, "Not quite: " + "; ".join(parts) + ".",
                       credit=0.5 if (ok_reading or ok_words) else 0.0, retry=retry)

    def answer_words(self, p):
        return ["hint", "quit"] + list(LETTERS[:len(p.answer["readings"])])

    def wrong_answer(self, p):
        a = p.answer
        other = LETTERS[(LETTERS.index(a["reading"]) + 1) % len(a["readings"])]
        return f"{other}{a['word']}"
