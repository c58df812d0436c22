"""``timeline``: the records of the game and the sources of its rules, placed in time.

Everything comes from the source files: the records of the game's name (the ``attestations`` of
``sources/willughby.yaml``: year, how the date is written, author, work and the quotation) and
the sources' citations (their dates).  Four forms, cycled by the seed:

- ``order``: three or four records of the name, to be put in the order they were made (oldest
  first), answered by letters;
- ``when``: one record's words and maker: which of these dates is it?
- ``record``: a quotation: is it a record of the game's name (a line of verse, a dictionary
  entry) or a description of how the game is played (a sentence a ruleset cites)?
- ``sources``: the descriptions of the rules that can be dated, to be put in the order they were
  written (Willughby's c. 1665 first: the only primary source).

Works under every ruleset (none of it depends on the rules of play); its puzzles carry no
position.
"""

from __future__ import annotations

import re

from tutor.engine.deal import Deal
from tutor.puzzles.base import LETTERS, Candidate, PuzzleKind, Verdict, join, library, set_index
from tutor.puzzles.model import AnswerError
from tutor.puzzles.quoted import quote_plain
from tutor.puzzles.reader import letters_answer

#: The forms, in the order consecutive seeds take them.
FORMS = ("order", "record", "when", "sources", "order", "when")
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")


def records() -> list[dict]:
    """The dated records of the game's name, oldest first: ``{year, date, author, work, quote,
    text}`` from the attestations of every source file (an undated one, and one whose words are
    a description of the game by its only describer, are left out), one a year."""
    lib = library()
    out: dict[int, dict] = {}
    for src in lib.sources.values():
        for a in src.attestations:
            if a.get("year") is None:
                continue
            q = lib.quotation(a["quote"])
            if q.speaker == src.id or q.speaker == "willughby":
                continue        # the describer's own words: not a record of the name
            out.setdefault(int(a["year"]), {
                "year": int(a["year"]), "date": a.get("date") or str(a["year"]),
                "author": a["author"], "work": a["work"], "quote": a["quote"],
                "text": quote_plain(q.text)})
    return [out[y] for y in sorted(out)]


def source_year(src) -> int | None:
    """The year a source was written, read from its citation: the first year in its date, else
    in the larger work it appeared in (``Inter-Livery Card Game Event 2018``); None when the
    citation gives none."""
    for field in (src.date, src.in_):
        m = _YEAR.search(field or "")
        if m:
            return int(m.group(1))
    return None


def dated_sources() -> list[tuple[int, object]]:
    """``(year, source)`` for every source whose citation gives a year, oldest first."""
    lib = library()
    got = [(source_year(s), s) for s in lib.sources.values()]
    return sorted(((y, s) for y, s in got if y is not None), key=lambda x: x[0])


def rule_sentences() -> list:
    """Quotations that describe how the game is played: the first a ruleset cites for a
    parameter of play (the deal, the captures, the end of play), six words or more in the
    source's own voice, in a fixed order."""
    lib = library()
    refs: dict[str, None] = {}
    for rid, rs in lib.rulesets.items():
        n = 5 if 5 in rs.counts else rs.player_counts[0]
        for name, players in (("hand", n), ("table", n), ("captures", None),
                              ("last_in_plays_on", None), ("leftovers_to", None),
                              ("table_mournival", None)):
            for r in lib.parameter(rid, name, players).quotes[:1]:
                refs.setdefault(r, None)
    out = []
    for r in sorted(refs):
        q = lib.quotation(r)
        words = [w for w in quote_plain(q.text).split() if w.isalpha()]
        if q.speaker is None and len(words) >= 6:
            out.append(q)
    return out


def _shown_source(src) -> str:
    """A source as the options name it: its author's work, or the work it appeared in (without
    a year, which would give the order away)."""
    if src.author:
        return f"{src.author}, {src.title}"
    where = " ".join(_YEAR.sub("", src.in_ or "").split())
    return f"{src.title} ({where})" if where else src.title


class Timeline(PuzzleKind):
    name = "timeline"

    def plan(self, base, rs, players, seed, defn):
        return {"variant": FORMS[set_index(seed) % len(FORMS)]}

    def plan_may_fit(self, plan, theme):
        want = {"dates-in-order": "order", "date-of-record": "when",
                "name-or-rules": "record", "sources-in-order": "sources"}.get(theme)
        return want is None or plan["variant"] == want

    def solve(self, deal, seat, data, rs, players):
        v = data["variant"]
        if v == "order":
            years = {r["quote"]: r["year"] for r in records()}
            got = [years[q] for q in data["quotes"]]
            order = sorted(range(len(got)), key=lambda i: got[i])
            return {"order": [LETTERS[i] for i in order], "records": list(data["quotes"])}
        if v == "sources":
            lib = library()
            got = [source_year(lib.sources[sid]) for sid in data["sources"]]
            order = sorted(range(len(got)), key=lambda i: got[i])
            return {"order": [LETTERS[i] for i in order], "sources": list(data["sources"])}
        if v == "when":
            year = {r["quote"]: r["year"] for r in records()}[data["quotes"][0]]
            return {"letter": LETTERS[data["options"].index(year)],
                    "options": list(data["options"]), "record": data["quotes"][0]}
        is_record = data["quotes"][0] in {r["quote"] for r in records()}
        return {"letter": "A" if is_record else "B", "quote": data["quotes"][0]}

    def build(self, ctx):
        v = ctx.plan["variant"]
        deal = Deal(ctx.rs, ctx.players, ctx.rng.randrange(ctx.players), ctx.new_pack())
        cand = getattr(self, f"_{v}")(ctx)
        if cand is None:
            return None
        data, facts, accepted, features, theme = cand
        data.update({"variant": v, "position": False})
        return Candidate(deal=deal, seat=deal.dealer, variant=v,
                         answer=self.solve(deal, 0, data, ctx.rs, ctx.players),
                         accepted=accepted, facts=facts, features=features,
                         themes=["timeline", theme], theme=theme, data=data,
                         quotes=list(data.get("quotes", [])))

    # -- the forms -----------------------------------------------------------------------

    def _order(self, ctx):
        rng = ctx.rng
        all_recs = records()
        # a record whose words name its own year would give the order away
        recs = [r for r in all_recs if not _YEAR.search(r["text"])]
        k = min(len(recs), rng.choice([3, 4]))
        if k < 3:
            return None
        picked = rng.sample(recs, k)
        years = [r["year"] for r in picked]
        order = sorted(range(k), key=lambda i: years[i])
        right = " ".join(LETTERS[i] for i in order)
        lines = "\n".join(f"{LETTERS[i]}) {r['author']}, {r['work']}: “{r['text']}”"
                          for i, r in enumerate(picked))
        told = "\n".join(f"- {LETTERS[i]}) {picked[i]['date']}: {picked[i]['author']}, "
                         f"{picked[i]['work']}" for i in order)
        data = {"quotes": [r["quote"] for r in picked]}
        facts = {"items": lines, "told": told, "k": k, "first": all_recs[0]["date"],
                 "last": all_recs[-1]["date"], "example": _example(right, k)}
        spread = max(years) - min(years)
        features = {"items": k, "close": float(min(b - a for a, b in
                                                  zip(sorted(years), sorted(years)[1:])) < 10),
                    "spread": float(spread < 100)}
        return data, facts, [right, right.replace(" ", ""), right.lower()], features, \
            "dates-in-order"

    def _when(self, ctx):
        rng = ctx.rng
        recs = records()
        if len(recs) < 4:
            return None
        # a record whose words name its own year would give the answer away
        rec = rng.choice([r for r in recs if not _YEAR.search(r["text"])])
        others = rng.sample([r for r in recs if r["year"] != rec["year"]], 3)
        options = [rec["year"]] + [r["year"] for r in others]
        rng.shuffle(options)
        dates = {r["year"]: r["date"] for r in recs}
        letter = LETTERS[options.index(rec["year"])]
        data = {"options": options, "quotes": [rec["quote"]]}
        facts = {"text": rec["text"], "author": rec["author"], "work": rec["work"],
                 "options": "\n".join(f"{LETTERS[i]}) {dates[y]}" for i, y in enumerate(options)),
                 "date": rec["date"],
                 "neighbours": _neighbours(recs, rec)}
        features = {"close": float(any(abs(y - rec["year"]) < 10 for y in options
                                       if y != rec["year"]))}
        return data, facts, [letter, letter.lower(), str(rec["year"])], features, \
            "date-of-record"

    def _record(self, ctx):
        rng = ctx.rng
        recs = records()
        rules = rule_sentences()
        if not recs or not rules:
            return None
        lib = library()
        is_record = rng.random() < 0.5
        if is_record:
            rec = rng.choice(recs)
            text, ref = rec["text"], rec["quote"]
            why = (f"It is {rec['author']}, {rec['work']} ({rec['date']}): a line that names "
                   "the game in passing, with nothing of how it is played. Records like it "
                   f"are all we have of the game from {recs[0]['date']} to {recs[-1]['date']}, "
                   "besides Willughby's description.")
        else:
            q = rng.choice(rules)
            text, ref = quote_plain(q.text), q.ref
            src = lib.sources[q.source]
            who = src.author or (f"the {src.in_} sheet" if src.in_ else src.title)
            why = (f"It is from {who}, under {q.where}: it tells players what to do, in the words "
                   "of a modern retelling of the rules, not a record of the name in an old book.")
        data = {"quotes": [ref]}
        letter = "A" if is_record else "B"
        facts = {"text": text, "why": why}
        return data, facts, [letter, letter.lower(), "record" if is_record else "rules"], \
            {"rules": float(not is_record)}, "name-or-rules"

    def _sources(self, ctx):
        rng = ctx.rng
        dated = dated_sources()
        if len(dated) < 3:
            return None
        k = min(len(dated), rng.choice([3, 4]))
        picked = rng.sample(dated, k)
        years = [y for y, _ in picked]
        if len(set(years)) < k:
            return None
        order = sorted(range(k), key=lambda i: years[i])
        right = " ".join(LETTERS[i] for i in order)
        lines = "\n".join(f"{LETTERS[i]}) {_shown_source(s)}" for i, (_, s) in enumerate(picked))
        told = "\n".join(f"- {LETTERS[i]}) {picked[i][1].date or picked[i][0]}: "
                         f"{_shown_source(picked[i][1])} ({'the primary source' if picked[i][1].kind == 'primary' else picked[i][1].kind.replace('-', ' ')})"
                         for i in order)
        data = {"sources": [src.id for _, src in picked]}
        facts = {"items": lines, "told": told, "k": k, "example": _example(right, k)}
        features = {"items": k}
        return data, facts, [right, right.replace(" ", ""), right.lower()], features, \
            "sources-in-order"

    # -- answers ---------------------------------------------------------------------------

    def check(self, p, text):
        v = p.variant
        if v in ("order", "sources"):
            return self._check_order(p, text)
        if v == "when":
            options = p.answer["options"]
            letters = LETTERS[:len(options)]
            names = {str(y): LETTERS[i] for i, y in enumerate(options)}
            got = letters_answer(text, letters, names,
                                 expected=f"answer with a letter ({', '.join(letters)})")
            if len(got) != 1:
                raise AnswerError(f"answer with one letter ({', '.join(letters)})")
            right = p.answer["letter"]
            if got[0] == right:
                return Verdict(True, f"Right: {right}.")
            said = options[LETTERS.index(got[0])]
            when = "later" if said > options[LETTERS.index(right)] else "earlier"
            return Verdict(False, f"Not quite: it is {right}, not {got[0]}.",
                           retry=f"Not yet: {got[0]} is too {when}. Look at the list of "
                                 "records on the lesson's page about the name in old books.")
        got = letters_answer(text, "AB", {"record": "A", "name": "A", "rules": "B",
                                          "description": "B", "rule": "B"},
                             expected="answer A (a record of the name) or B (the rules)")
        if len(got) != 1:
            raise AnswerError("answer with one letter: A (a record of the name) or B (a "
                              "description of the rules)")
        right = p.answer["letter"]
        if got[0] == right:
            return Verdict(True, f"Right: {right}.")
        return Verdict(False, f"Not quite: it is {right}, not {got[0]}.",
                       retry="Not yet: does the sentence tell anyone how to play, or does it "
                             "only name the game?")

    def _check_order(self, p, text):
        k = len(p.answer["order"])
        letters = LETTERS[:k]
        got = letters_answer(text, letters,
                             expected=f"answer with the letters {', '.join(letters)} in order")
        if sorted(got) != list(letters):
            raise AnswerError(f"give each of the letters {', '.join(letters)} once, oldest "
                              "first (for example `" + " ".join(reversed(letters)) + "`)")
        right = p.answer["order"]
        if got == right:
            return Verdict(True, "Right: " + " ".join(right) + ".")
        if "records" in p.answer:
            by_ref = {r["quote"]: r["year"] for r in records()}
            ys = [by_ref[q] for q in p.answer["records"]]
        else:
            lib = library()
            ys = [source_year(lib.sources[sid]) for sid in p.answer["sources"]]
        years = {LETTERS[i]: y for i, y in enumerate(ys)}
        # the first neighbouring pair out of order: the part that is wrong
        a, b = next((x, y) for x, y in zip(got, got[1:]) if years[x] > years[y])
        in_place = sum(1 for x, y in zip(got, right) if x == y)
        return Verdict(False, "Not quite: oldest first it is " + " ".join(right) + ".",
                       credit=in_place / k,
                       retry=f"Not yet: {b} is older than {a}, so {b} comes before it.")

    def answer_words(self, p):
        if p.variant == "record":
            return ["hint", "quit", "A", "B"]
        n = len(p.answer.get("order") or p.answer.get("options") or [])
        return ["hint", "quit"] + list(LETTERS[:n])

    def wrong_answer(self, p):
        if p.variant in ("order", "sources"):
            return " ".join(reversed(p.answer["order"]))
        if p.variant == "when":
            i = LETTERS.index(p.answer["letter"])
            return LETTERS[(i + 1) % len(p.answer["options"])]
        return "B" if p.answer["letter"] == "A" else "A"


def _example(right: str, k: int) -> str:
    """An example order of ``k`` letters that is not the answer ``right``."""
    for ex in (" ".join(LETTERS[:k]), " ".join(reversed(LETTERS[:k]))):
        if ex != right:
            return ex
    return " ".join(LETTERS[1:k] + LETTERS[:1])


def _neighbours(recs: list[dict], rec: dict) -> str:
    """Where the record stands among the others, in words."""
    i = recs.index(rec)
    before = recs[i - 1] if i else None
    after = recs[i + 1] if i + 1 < len(recs) else None
    parts = []
    if before:
        parts.append(f"after {before['author']} ({before['date']})")
    if after:
        parts.append(f"before {after['author']} ({after['date']})")
    return join(parts)
