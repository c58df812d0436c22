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
from tutor.puzzles.base import (
    LETTERS,
    Candidate,
    JSONValue,
    PuzzleKind,
    Verdict,
    jsonable,
    library,
    set_index,
)
from tutor.puzzles.model import AnswerError, definition
from tutor.puzzles.quoted import quote_plain
from tutor.puzzles.reader import letters_answer, read
from tutor.puzzles.surface import overlap

OPEN = "open"
_PAIR = re.compile(r"\b([A-Ea-e])\s*([1-9])\b")


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


#: How a sentence gives a ruleset's value, as the parameter's status says: the text says it
#: (stated), a close reading of its words gives it (read), or it leaves it open and the engine
#: chose (chosen).
SAYS, READ = "says", "read"
#: The variants, in the order consecutive seeds take them: ``status`` (one sentence: which
#: reading, as what status, and which words decide it) and ``compare`` (the same rule in
#: several sources' words side by side: which of them says this value?).
VARIANTS = ("status", "status", "compare")


def right_reading(ruleset: str, item: dict) -> tuple[str, JSONValue] | None:
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


def _asked_reading(ruleset: str, item: dict) -> tuple[str, JSONValue]:
    """:func:`right_reading` of a sentence asked for ``ruleset`` (the pools leave out those of
    none); raises :class:`DataError` for one of none."""
    reading = right_reading(ruleset, item)
    if reading is None:
        raise DataError(f"reading: {item['quote']} leaves {item['parameter']} open, but "
                        f"{ruleset} states it: not a question for that ruleset")
    return reading


def status_pool(ruleset_id: str) -> list[dict]:
    """The sentences the ruleset cites whose status puzzle agrees with it
    (:func:`right_reading`)."""
    return [s for s in pool_for(ruleset_id) if right_reading(ruleset_id, s) is not None]


def compare_sets(ruleset_id: str) -> list[tuple[dict, list[dict]]]:
    """For each sentence the ruleset cites that decides its value (not open), the sentences of
    other sources on the same parameter whose rulesets take another value: ``(item, rivals)``
    where at least two rivals exist, so that of three or four sentences side by side exactly one
    says the item's value, and one of them shares as many words with the value as the item's
    sentence (:func:`tutor.puzzles.surface.overlap`)."""
    out = []
    every = sentences()
    for item in pool_for(ruleset_id):
        if item["open"] or right_reading(ruleset_id, item) is None:
            continue
        src = item["quote"].split(":")[0]
        rivals = [s for s in every if s["parameter"] == item["parameter"] and not s["open"]
                  and s["value"] != item["value"] and s["quote"].split(":")[0] != src]
        # adversarial filtering (issue 42): a set is asked only where some rival shares as
        # many words with the value asked as the sentence that says it (surface.overlap), so
        # that sentence is never the one sharing most
        asked = value_words(item["parameter"], jsonable(item["value"]))
        mine = overlap(library().quotation(item["quote"]).text, asked)
        if len(rivals) >= 2 and any(overlap(library().quotation(r["quote"]).text, asked) >= mine
                                    for r in rivals):
            out.append((item, rivals))
    return out


def _who(lib, ref: str) -> str:
    """A sentence's source in a few words: its author's surname, else where it appeared."""
    src = lib.sources[lib.quotation(ref).source]
    if src.author:
        return " ".join(src.author.split()[1:])
    return src.in_ or src.published or src.title


class Reading(PuzzleKind):
    name = "reading"

    def why_not(self, rs):
        if not status_pool(rs.id):
            return "none of its values cites a source sentence set as a reading puzzle"
        return None

    def plan(self, base, rs, players, seed, defn):
        k = set_index(seed)
        variant = VARIANTS[k % len(VARIANTS)]
        if variant == "compare" and not compare_sets(rs.id):
            variant = "status"
        turn = k // len(VARIANTS)
        if variant == "compare":
            return {"variant": variant, "item": turn % len(compare_sets(rs.id))}
        # how the sentence gives the value (the text says it, a close reading, open) is drawn
        # in turn among those the ruleset's sentences have, then the sentence: no reading is
        # right most of the time (issue 42: "the text says" was, and a learner went by it)
        pool = status_pool(rs.id)
        hows: dict[str, list[int]] = {}
        for i, s in enumerate(pool):
            hows.setdefault(_asked_reading(rs.id, s)[0], []).append(i)
        order = [hows[h] for h in (SAYS, READ, OPEN) if h in hows]
        among = order[turn % len(order)]
        return {"variant": variant, "item": among[(turn // len(order)) % len(among)]}

    def plan_may_fit(self, plan, theme):
        if theme == "side-by-side":
            return plan["variant"] == "compare"
        if theme == "reading":
            return plan["variant"] == "status"
        return True

    def solve(self, deal, seat, data, rs, players):
        if data["variant"] == "compare":
            lib = library()
            target = jsonable(data["value"])
            says = [i for i, ref in enumerate(data["quotes"])
                    if any(jsonable(lib.parameter(r, data["parameter"]).value) == target
                           for r in data["citing"][i])]
            if len(says) != 1:
                raise DataError("reading: the sentences side by side do not single one out")
            return {"parameter": data["parameter"], "quotes": list(data["quotes"]),
                    "letter": LETTERS[says[0]]}
        item = next(s for s in sentences() if s["quote"] == data["quote"]
                    and s["parameter"] == data["parameter"])
        how, value = _asked_reading(rs.id, item)
        right = [how, value]
        return {"quote": item["quote"], "parameter": item["parameter"],
                "readings": [list(r) for r in data["readings"]], "words": list(data["words"]),
                "reading": LETTERS[[list(r) for r in data["readings"]].index(right)],
                "word": data["words"].index(item["decides"]) + 1}

    def build(self, ctx):
        if ctx.plan["variant"] == "compare":
            return self._compare(ctx)
        return self._status(ctx)

    # -- one sentence: which reading, given how -------------------------------------------

    def _status(self, ctx):
        rng = ctx.rng
        lib = library()
        item = status_pool(ctx.rs.id)[ctx.plan["item"]]
        name = item["parameter"]
        q = lib.quotation(item["quote"])
        how, value = _asked_reading(ctx.rs.id, item)
        p = lib.parameter(ctx.rs.id, name)
        shown = jsonable(p.value)            # the ruleset's value (the engine's, when chosen)
        others = [jsonable(v) for v in _values(name) if jsonable(v) != shown]
        other = rng.choice(others) if others else None
        # each value offered both ways, the text saying it and a close reading (issue 42: the
        # value shown twice, the ruleset's, was right three times in four)
        readings = [[SAYS, shown], [READ, shown]]
        if other is not None:
            readings += [[SAYS, other], [READ, other]]
        readings.append([OPEN, None])
        rng.shuffle(readings)
        words = [item["decides"]] + item["others"][:2]
        rng.shuffle(words)
        data = {"quote": item["quote"], "parameter": name, "readings": readings,
                "words": words, "position": False, "variant": "status", "hide_id": True}

        def reading_words(r) -> str:
            kind, v = r
            if kind == OPEN:
                return "it leaves it open: the engine had to choose"
            # the two leads alike in length and in the words the question shares (issue 42)
            lead = "the text says it in so many words" if kind == SAYS else \
                "a close reading of its words gives"
            return f"{lead}: {value_words(name, v)}"

        options = "\n".join(f"{LETTERS[i]}) {reading_words(r)}" for i, r in enumerate(readings))
        word_lines = "\n".join(f"{k + 1}) “{plain(w)}”" for k, w in enumerate(words))
        right: list[JSONValue] = [how, value]
        letter = LETTERS[readings.index(right)]
        number = words.index(item["decides"]) + 1
        taken: dict = {}
        for rid in lib.rulesets:
            pr = lib.parameter(rid, name)
            taken.setdefault(repr(jsonable(pr.value)), []).append(
                (lib.ruleset_name(rid), pr.status))
        # the ruleset by a name that gives none of its values away (its title stays in laugh
        # rules): "tournament scoring" or "points" would tell a reading before it is read
        title = lib.ruleset_name(ctx.rs.id)
        decides = plain(item["decides"])
        if how == OPEN:
            verdict = (f"{letter}{number}: the sentence leaves it open, and under {title} the "
                       f"engine chose: {value_words(name, shown)}. The words “{decides}” go no "
                       "further.")
        elif how == READ:
            verdict = (f"{letter}{number}: a close reading of its words gives it, as {title} "
                       f"reads it: {value_words(name, value)}. The words “{decides}” decide it, "
                       "though not in so many words.")
        else:
            verdict = (f"{letter}{number}: the text says it: {value_words(name, value)}. The "
                       f"words “{decides}” decide it.")
        lines = []
        for i, r in enumerate(readings):
            if r == right:
                continue
            kind, v = r
            if kind == OPEN:
                lines.append(f"- {LETTERS[i]}) The engine did not have to choose: the words "
                             "give the value.")
            elif v == shown and kind == SAYS:
                lines.append(f"- {LETTERS[i]}) The text does not say it in so many words: the "
                             "value is read from them (or, where it is chosen, not there at "
                             "all).")
            elif v == shown:
                lines.append(f"- {LETTERS[i]}) No reading is needed: the text says it outright."
                             if how == SAYS else
                             f"- {LETTERS[i]}) The words do not give it, even read closely.")
            else:
                who = taken.get(repr(v)) or []
                whose = "; ".join(f"{t[:1].upper()}{t[1:]} takes it, {_STATUS_WORDS[st]}"
                                  for t, st in who)
                lines.append(f"- {LETTERS[i]}) {value_words(name, v)}: this sentence does not "
                             "say so" + (f". {whose}" if whose else "") + ".")
        for k, w in enumerate(words):
            if w != item["decides"]:
                lines.append(f"- {k + 1}) “{plain(w)}” does not decide it: it fits every "
                             "reading.")
        status = (f"{title[:1].upper()}{title[1:]} marks its value {_STATUS_WORDS[p.status]}"
                  + (f". {' '.join(p.note.split())}" if p.note else "."))
        facts = {"quote": quote_plain(q.text), "source": _who(lib, item["quote"]),
                 "where": q.where, "options": options, "words": word_lines,
                 "example": next(f"{LETTERS[i]}{k}" for i in range(len(readings))
                                 for k in range(1, len(words) + 1)
                                 if (LETTERS[i], k) != (letter, number)),
                 "verdict": verdict, "others": "\n".join(lines),
                 "note": item["note"], "status": status, "ruleset": title,
                 "parameter": spec(name).quiz}
        accepted = [f"{letter}{number}", f"{letter.lower()} {number}", f"{letter}, {number}"]
        deal = Deal(ctx.rs, ctx.players, rng.randrange(ctx.players), ctx.new_pack())
        features = {"open": float(how == OPEN), "read": float(how == READ),
                    "readings": float(len(readings) - 3)}
        themes = ["sources", "reading", name.replace("_", "-"),
                  {SAYS: "stated", READ: "read", OPEN: "open"}[how]]
        return Candidate(deal=deal, seat=deal.dealer, variant={SAYS: "decided", READ: "read",
                                                               OPEN: "open"}[how],
                         answer=self.solve(deal, deal.dealer, data, ctx.rs, ctx.players),
                         accepted=accepted, facts=facts, features=features, themes=themes,
                         theme="reading", data=data, quotes=[item["quote"]],
                         question_key="status", explain_key="status")

    # -- the same rule side by side --------------------------------------------------------

    def _compare(self, ctx):
        rng = ctx.rng
        lib = library()
        item, rivals = compare_sets(ctx.rs.id)[ctx.plan["item"]]
        name = item["parameter"]
        k = min(len(rivals), rng.choice([2, 3]))
        # one rival a source, as far as they go
        by_source: dict[str, dict] = {}
        # the rivals that share most words with the value asked first (surface.overlap), so
        # the sentence that says it is not the one sharing most words with the question
        # (issue 42: it was right 0.61 of the time against 0.32 by chance)
        asked = value_words(name, jsonable(item["value"]))
        shuffled = rng.sample(rivals, len(rivals))
        shuffled.sort(key=lambda r: -overlap(lib.quotation(r["quote"]).text, asked))
        for r in shuffled:
            by_source.setdefault(r["quote"].split(":")[0], r)
        picked = list(by_source.values())[:k]
        if len(picked) < 2:
            picked = rng.sample(rivals, 2)
        shown = [item] + picked
        rng.shuffle(shown)
        target = jsonable(item["value"])
        data = {"variant": "compare", "parameter": name, "value": target,
                "quotes": [s["quote"] for s in shown], "citing": [s["citing"] for s in shown],
                "position": False, "hide_id": True}
        letter = LETTERS[shown.index(item)]
        lines = []
        for i, s in enumerate(shown):
            rid = s["citing"][0]
            pr = lib.parameter(rid, name)
            lines.append(f"- {LETTERS[i]}) {_who(lib, s['quote'])}, under "
                         f"{lib.quotation(s['quote']).where}: {value_words(name, s['value'])}"
                         f"; the words “{plain(s['decides'])}” give it, "
                         f"{_STATUS_WORDS[pr.status]}.")
        facts = {"options": "\n".join(f"{LETTERS[i]}) “{quote_plain(lib.quotation(s['quote']).text)}”"
                                       for i, s in enumerate(shown)),
                 "value": value_words(name, target), "parameter": spec(name).quiz,
                 "k": len(shown), "lines": "\n".join(lines)}
        deal = Deal(ctx.rs, ctx.players, rng.randrange(ctx.players), ctx.new_pack())
        features = {"readings": float(len(shown) - 3), "read": float(any(
            lib.parameter(s["citing"][0], name).status == "read" for s in shown))}
        return Candidate(deal=deal, seat=deal.dealer, variant="compare",
                         answer=self.solve(deal, deal.dealer, data, ctx.rs, ctx.players),
                         accepted=[letter, letter.lower()], facts=facts, features=features,
                         themes=["sources", "side-by-side", name.replace("_", "-")],
                         theme="side-by-side", data=data, quotes=list(data["quotes"]),
                         question_key="compare", explain_key="compare")

    # -- answers ----------------------------------------------------------------------------

    def check(self, p, text):
        if p.variant == "compare":
            return self._check_compare(p, text)
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
        readings = p.answer["readings"]
        said = readings[LETTERS.index(picked[0])]
        want = readings[LETTERS.index(p.answer["reading"])]
        if ok_reading:
            nudge = "the reading is right, but not the words that decide it"
        elif said[1] == want[1] and said[0] != want[0]:
            nudge = ("the value is right, but not how the text gives it: does it say so in so "
                     "many words, or do you read it from them?")
        elif want[0] == OPEN:
            nudge = "ask whether the sentence gives this value at all"
        else:
            nudge = "the value you chose is not the one this ruleset takes from the sentence"
        if not ok_reading and not ok_words:
            nudge += "; the words are not right either"
        return Verdict(False, "Not quite: " + "; ".join(parts) + ".",
                       credit=0.5 if (ok_reading or ok_words) else 0.0,
                       retry=f"Not yet: {nudge}.")

    def _check_compare(self, p, text):
        letters = LETTERS[:len(p.answer["quotes"])]
        got = letters_answer(text, letters, expected=f"answer with a letter ({', '.join(letters)})")
        if len(got) != 1:
            raise AnswerError(f"answer with one letter ({', '.join(letters)})")
        right = p.answer["letter"]
        if got[0] == right:
            return Verdict(True, f"Right: {right}.")
        return Verdict(False, f"Not quite: it is {right}, not {got[0]}.",
                       retry=f"Not yet: read {got[0]} again: what does it say happens, and to "
                             "whom?")

    def answer_words(self, p):
        if p.variant == "compare":
            return ["hint", "quit"] + list(LETTERS[:len(p.answer["quotes"])])
        return ["hint", "quit"] + list(LETTERS[:len(p.answer["readings"])])

    def wrong_answer(self, p):
        a = p.answer
        if p.variant == "compare":
            return LETTERS[(LETTERS.index(a["letter"]) + 1) % len(a["quotes"])]
        other = LETTERS[(LETTERS.index(a["reading"]) + 1) % len(a["readings"])]
        return f"{other}{a['word']}"


#: What each status means, as the explanations say it.
_STATUS_WORDS = {"stated": "stated (the source says it)",
                 "read": "read (a close reading of the source's words gives it)",
                 "chosen": "chosen (the source is silent, and the engine chose)"}
