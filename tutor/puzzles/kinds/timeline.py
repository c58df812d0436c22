"""``timeline``: the records of the game and the sources of its rules, placed in time.

Everything comes from the source files: the records of the game (``records:``, every file's,
a teacher's too: kind, date in any form, own citation, own words or none, who reports it,
:meth:`tutor.engine.sources.Library.timeline`) and the sources' citations (their dates).  Four
forms, cycled by the seed:

- ``order``: three or four records, to be put in the order they were made (oldest first),
  answered by letters; only records whose dates cannot overlap are set side by side
  (:meth:`~tutor.engine.sources.RecordDate.apart`: ``by 1784`` comes before 1800, but is never
  set beside 1700);
- ``when``: one record's citation (and its own words, where it has some): which of these dates
  is it?  Every option is written alike: a year or a ``c.`` year as the year alone (``1665``
  beside ``1634``: a "c." on the options only where the answer is a c. record would give it
  away), any other form as the right one is (``16th century`` beside ``18th century``);
- ``record``: a line: is it from a record that only names the game, or from a description of
  how the game is played?  The lines (``options.lines`` of the definition) are drawn by
  spelling first, then side: old spelling stands on both sides (the records' words as Parlett
  prints them, Willughby's "perryall" in the compendium's rules) and so does modern (Forby, a
  line of S. R., du Coeur's report of Florio's dictionary; the modern texts' rules), and the
  game's name stands in some lines of each side, so neither tells the answer;
- ``sources``: the descriptions of the rules that can be dated, to be put in the order they were
  written (Willughby's c. 1665 first: the only primary source).

A record's words are shown only where it has its own; a record known from a citation alone is
shown by its citation, never with the words of whoever reports it.  Works under every ruleset
(none of it depends on the rules of play); its puzzles carry no position, and no ruleset or id
is shown with them before the answer.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from tutor.engine.deal import Deal
from tutor.engine.rulesets import Ruleset
from tutor.engine.sources import Record, RecordDate, Source
from tutor.puzzles.base import (
    LETTERS,
    Candidate,
    Ctx,
    Plan,
    PuzzleKind,
    Verdict,
    join,
    library,
    set_place,
)
from tutor.puzzles.model import AnswerError, Definition, Puzzle
from tutor.puzzles.quoted import quote_plain
from tutor.puzzles.reader import letters_answer
from tutor.puzzles.surface import alike_length

#: The forms, in the order consecutive seeds take them.
FORMS = ("order", "record", "when", "sources", "order", "when")
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
#: The date forms a "when" question may ask: a wrong date in the form of "by 1784" could be
#: true of it.
_WHEN_FORMS = ("year", "circa", "range", "decade", "century")


def records(kinds: tuple[str, ...] = ("name", "play")) -> list[Record]:
    """The dated records of ``kinds`` in date order (:class:`tutor.engine.sources.Record`),
    every source file's."""
    return [r for r in library().timeline(kinds) if r.date.dated]


def record_words(rec: Record) -> str | None:
    """A record's own words as the page shows them (None for one known from a citation)."""
    return quote_plain(library().quotation(rec.quote).text) if rec.quote else None


def record_line(rec: Record) -> str:
    """A record named for an option: its author's work and page, then its own words in
    quotation marks, or that none of them are given."""
    words = record_words(rec)
    head = ", ".join(p for p in (rec.author, rec.title, rec.page) if p)
    return f"{head}: “{words}”" if words else f"{head} (cited; none of its words given here)"


def _gives_year(rec: Record) -> bool:
    """True when the record's words or citation write a year (that would give a date away)."""
    return bool(
        _YEAR.search(
            " ".join(
                x
                for x in (record_words(rec) or "", rec.title, rec.page or "", rec.author or "")
                if x
            )
        )
    )


#: The spellings a ``record`` question's lines are drawn by: each line is first given a spelling
#: (``old``: as the 1500s and 1600s spelt, "downe", "perryall"; ``modern``), then a side
#: (record or description), so that neither the spelling nor the name in a line tells the side.
SPELLINGS = ("old", "modern")
#: A word of the game's name in any spelling ("laugh", "lye downe", "lay down", "lies down"):
#: a line of the ``record`` question names the game, or does not, as the line beside it does.
NAMED = re.compile(r"laugh|l[ai]y?e?s? ?-?downe?|lye", re.I)
#: The word of the name most lines hold: a line holding it stands beside a line that does too.
LAUGH = re.compile(r"laugh", re.I)
#: How far apart (a ratio) the lengths of the two lines a record question draws from may be.
LENGTH_RATIO = 1.3
SIDES = ("record", "description")


def record_lines() -> dict[tuple[str, str], list[str]]:
    """The lines a ``record`` question may show, by ``(spelling, side)``: quotation refs.

    The definition's ``options.lines`` names them (each records line a record's own words, a
    part of them, or a modern writer's report of it; each description a sentence that tells
    players what to do).  Every other record with its own words (a teacher's) joins the modern
    lines of its side: a record of the name with the records, a record of play with the
    descriptions.  A record of the name joins only where its words name the game (:data:`NAMED`):
    a bare word of it ("old-fashioned") is no line that "names the game"."""
    from tutor.puzzles.model import definition

    lib = library()
    got: dict[tuple[str, str], list[str]] = {(sp, side): [] for sp in SPELLINGS for side in SIDES}
    spec = definition("timeline").options.get("lines", {})
    for sp in SPELLINGS:
        for side in SIDES:
            got[(sp, side)] += [lib.quotation(ref).ref for ref in spec.get(sp, {}).get(side, [])]
    listed = {ref for refs in got.values() for ref in refs}
    for r in lib.timeline(["name", "play"]):
        if r.quote and r.quote not in listed and not _part_of_listed(r, listed):
            if r.kind == "name" and not NAMED.search(quote_plain(lib.quotation(r.quote).text)):
                continue
            got[("modern", "record" if r.kind == "name" else "description")].append(r.quote)
    return got


def _part_of_listed(rec: Record, listed: set[str]) -> bool:
    """True when a listed line is a part of ``rec``'s own words (then the record is shown by
    that part, never twice)."""
    lib = library()
    if rec.quote is None:  # (a record of its reporter's words only has no own words)
        return False
    full = lib.quotation(rec.quote).text
    return any(lib.quotation(ref).text in full for ref in listed)


def record_of_line(ref: str) -> Record | None:
    """The record a line stands for (:class:`tutor.engine.sources.Record`): the record whose own
    words it is, or a part of, or whose reporter's words it is; None for a description that is
    no record (a rule text's sentence)."""
    lib = library()
    text = lib.quotation(ref).text
    for r in lib.records.values():
        if r.quote == ref or r.report == ref or (r.quote and text in lib.quotation(r.quote).text):
            return r
    return None


def source_year(src: Source) -> int | None:
    """The year a source was written, read from its citation: the first year in its date, else
    in the larger work it appeared in (``Inter-Livery Card Game Event 2018``); None when the
    citation gives none."""
    for field in (src.date, src.in_):
        m = _YEAR.search(field or "")
        if m:
            return int(m.group(1))
    return None


def dated_sources() -> list[tuple[int, Source]]:
    """``(year, source)`` for every text of the rules (and the primary source) whose citation
    gives a year, oldest first (a file of records is no text of the rules)."""
    lib = library()
    got = [(source_year(s), s) for s in lib.sources.values() if s.kind != "records"]
    return sorted(((y, s) for y, s in got if y is not None), key=lambda x: x[0])


def _shown_source(src: Source) -> str:
    """A source as the options name it: its author's work, or the work it appeared in (without
    a year, which would give the order away)."""
    if src.author:
        return f"{src.author}, {src.title}"
    where = " ".join(_YEAR.sub("", src.in_ or "").split())
    return f"{src.title} ({where})" if where else src.title


def shown_date(date: RecordDate) -> str:
    """A date as a ``when`` question's options write it: a year or a ``c.`` year as the year
    alone (every option alike, so that "c." on the options never tells which record is asked
    about), any other form as written."""
    return str(date.anchor) if date.form in ("year", "circa") else date.text


def _apart_sets(recs: list[Record], k: int, rng: random.Random) -> list[Record] | None:
    """``k`` records whose dates are certainly in one order (every two apart), drawn at random,
    or None where there are not so many."""
    for _ in range(20):
        pool = rng.sample(recs, len(recs))
        picked: list[Record] = []
        for r in pool:
            if all(r.date.apart(p.date) for p in picked):
                picked.append(r)
            if len(picked) == k:
                return picked
    return None


def _wrong_dates(rec: Record, recs: list[Record], rng: random.Random) -> list[RecordDate]:
    """Three dates in ``rec``'s form that it cannot be: about the other records' years first,
    then a century or two away, each apart from the right one and from each other."""
    anchors = [r.date.anchor for r in recs if r.id != rec.id and r.date.anchor is not None]
    rng.shuffle(anchors)
    assert rec.date.anchor is not None  # (a dated record's)
    anchors += [rec.date.anchor + d for d in rng.sample([-150, -100, -60, 60, 100, 150], 6)]
    out: list[RecordDate] = []
    for year in anchors:
        d = rec.date.like(year)
        if (
            d is None
            or not d.apart(rec.date)
            or any(d.text == o.text or not d.apart(o) for o in out)
        ):
            continue
        out.append(d)
        if len(out) == 3:
            return out
    return out


#: What a form of the question makes (:meth:`Timeline._order` and the others): the puzzle's
#: data, the facts its wording is filled with, the accepted answers, the difficulty features and
#: the theme.
_Form = tuple[dict[str, Any], dict[str, Any], list[str], dict[str, float], str]


def seed_plan(seed: int) -> Plan:
    """A timeline seed's plan: its form (``variant``, one of :data:`FORMS`) and, for the record
    form, the ``side`` of its line (:data:`SIDES`), both from the seed's place
    (:func:`~tutor.puzzles.base.set_place`), so a run gives each form and side equally often
    (issue 42: drawn from the seed's own generator, a shuffled run gave the record side 0.67
    of what a wording-only learner read, against 0.50)."""
    place = set_place(seed, len(FORMS) * len(SIDES))
    return {"variant": FORMS[place % len(FORMS)], "side": SIDES[place // len(FORMS) % len(SIDES)]}


class Timeline(PuzzleKind):
    name = "timeline"

    def plan(
        self, base: random.Random, rs: Ruleset, players: int, seed: int, defn: Definition
    ) -> Plan:
        return seed_plan(seed)

    def plan_may_fit(self, plan: Plan, theme: str) -> bool:
        want = {
            "dates-in-order": "order",
            "date-of-record": "when",
            "name-or-rules": "record",
            "sources-in-order": "sources",
        }.get(theme)
        return want is None or plan["variant"] == want

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        v = data["variant"]
        lib = library()
        if v == "order":
            dates = [lib.records[r].date for r in data["records"]]
            order = sorted(range(len(dates)), key=lambda i: dates[i].key)
            return {"order": [LETTERS[i] for i in order], "records": list(data["records"])}
        if v == "sources":
            got = [source_year(lib.sources[sid]) for sid in data["sources"]]
            order = sorted(range(len(got)), key=lambda i: (got[i] is None, got[i] or 0))
            return {"order": [LETTERS[i] for i in order], "sources": list(data["sources"])}
        if v == "when":
            rec = lib.records[data["record"]]
            return {
                "letter": LETTERS[data["options"].index(shown_date(rec.date))],
                "options": list(data["options"]),
                "record": rec.id,
            }
        ref = data["quotes"][0]
        line = record_of_line(ref)
        is_record = line is not None and line.kind == "name"
        return {"letter": "A" if is_record else "B", "quote": ref}

    def build(self, ctx: Ctx) -> Candidate | None:
        v = ctx.plan["variant"]
        deal = Deal(ctx.rs, ctx.players, ctx.rng.randrange(ctx.players), ctx.new_pack())
        cand = getattr(self, f"_{v}")(ctx)
        if cand is None:
            return None
        data, facts, accepted, features, theme = cand
        data.update({"variant": v, "position": False, "hide_id": True})
        return Candidate(
            deal=deal,
            seat=deal.dealer,
            variant=v,
            answer=self.solve(deal, 0, data, ctx.rs, ctx.players),
            accepted=accepted,
            facts=facts,
            features=features,
            themes=["timeline", theme],
            theme=theme,
            data=data,
            quotes=list(data.get("quotes", [])),
        )

    # -- the forms -----------------------------------------------------------------------

    def _order(self, ctx: Ctx) -> _Form | None:
        rng = ctx.rng
        every = records()
        recs = [r for r in every if not _gives_year(r)]
        picked = _apart_sets(recs, min(len(recs), rng.choice([3, 4])), rng)
        if picked is None or len(picked) < 3:
            return None
        k = len(picked)
        order = sorted(range(k), key=lambda i: picked[i].date.key)
        right = " ".join(LETTERS[i] for i in order)
        lines = "\n".join(f"{LETTERS[i]}) {record_line(r)}" for i, r in enumerate(picked))
        told = "\n".join(
            f"- {LETTERS[i]}) {picked[i].date.text}: "
            f"{', '.join(p for p in (picked[i].author, picked[i].title) if p)}"
            for i in order
        )
        data = {"records": [r.id for r in picked], "quotes": _quotes_of(picked)}
        years = sorted(r.date.key[1] for r in picked)
        facts = {
            "items": lines,
            "told": told,
            "k": k,
            "first": every[0].date.text,
            "last": every[-1].date.text,
            "example": _example(right, k),
        }
        features = {
            "items": k,
            "close": float(min(b - a for a, b in zip(years, years[1:])) < 10),
            "spread": float(years[-1] - years[0] < 100),
        }
        return (
            data,
            facts,
            [right, right.replace(" ", ""), right.lower()],
            features,
            "dates-in-order",
        )

    def _when(self, ctx: Ctx) -> _Form | None:
        rng = ctx.rng
        recs = records()
        askable = [r for r in recs if r.date.form in _WHEN_FORMS and not _gives_year(r)]
        if not askable:
            return None
        rec = rng.choice(askable)
        wrong = _wrong_dates(rec, recs, rng)
        if len(wrong) < 3:
            return None
        dates = [rec.date] + wrong
        rng.shuffle(dates)
        options = [shown_date(d) for d in dates]
        if len(set(options)) < len(options):
            return None
        letter = LETTERS[options.index(shown_date(rec.date))]
        words = record_words(rec)
        data = {"options": options, "record": rec.id, "quotes": _quotes_of([rec])}
        facts = {
            "record": record_line(rec)
            if words
            else ", ".join(p for p in (rec.author, rec.title, rec.page) if p)
            + " (cited; none of its words are given here)",
            "options": "\n".join(f"{LETTERS[i]}) {t}" for i, t in enumerate(options)),
            "date": rec.date.text,
            "author": rec.who,
            "work": rec.title,
            # its author and work, the work once where it has no author (its "who")
            "maker": ", ".join(dict.fromkeys(p for p in (rec.author, rec.title) if p)),
            "neighbours": _neighbours(recs, rec),
        }
        features = {"close": float(any(abs(d.key[1] - rec.date.key[1]) < 10 for d in wrong))}
        facts["roughly"] = (
            ""
            if rec.date.form != "circa"
            else f" (about {rec.date.anchor}: the option {rec.date.anchor})"
        )
        accepted = [letter, letter.lower()] + (
            [str(rec.date.anchor)] if rec.date.form in ("year", "circa") else []
        )
        return data, facts, accepted, features, "date-of-record"

    def _record(self, ctx: Ctx) -> _Form | None:
        rng = ctx.rng
        lines = record_lines()
        spellings = [sp for sp in SPELLINGS if all(lines[(sp, side)] for side in SIDES)]
        if not spellings:
            return None
        lib = library()
        # the spelling first, then the side: an old spelling is as often a description; the
        # line is one of a record and a description of like length (issue 42: old records are
        # short fragments, old descriptions whole sentences, and "a short line is a record"
        # answered three in four), both naming the game or neither, so that neither its
        # length nor the name tells its side
        text = {
            ref: quote_plain(lib.quotation(ref).text) for refs in lines.values() for ref in refs
        }
        pairs = {
            sp: [
                (r, d)
                for r in lines[(sp, "record")]
                for d in lines[(sp, "description")]
                if alike_length(text[r], text[d], LENGTH_RATIO)
                and all(bool(x.search(text[r])) == bool(x.search(text[d])) for x in (NAMED, LAUGH))
            ]
            for sp in spellings
        }
        spellings = [sp for sp in spellings if pairs[sp]]
        if not spellings:
            return None
        sp = rng.choice(spellings)
        side = ctx.plan.get("side", "")
        if side not in SIDES:
            side = rng.choice(SIDES)
        # the record the longer of the two as often as the shorter, where both are found
        longer = [
            [pr for pr in pairs[sp] if (len(text[pr[0]]) > len(text[pr[1]])) == flag]
            for flag in (True, False)
        ]
        pair = rng.choice(rng.choice([c for c in longer if c]))
        ref = pair[SIDES.index(side)]
        q = lib.quotation(ref)
        rec = record_of_line(ref)
        is_record = side == "record"
        if rec is not None and rec.kind == "name":
            who = lib.reporter(rec)
            given = f", as {who.split(',')[0]} gives it" if who else ""
            head = f"{rec.citation_text} ({rec.date.text})"
            if ref == rec.report:
                why = (
                    f"It is {lib.sources[q.source].who} reporting {head}: a record of the "
                    "name, told in a modern writer's words, with nothing of how the game is "
                    "played."
                )
            elif ref != rec.quote and rec.quote:
                why = (
                    f"It is part of {head}{given}: “"
                    f"{quote_plain(lib.quotation(rec.quote).text)}”, a line that names the "
                    "game in passing, with nothing of how it is played."
                )
            else:
                why = (
                    f"It is {head}{given}: a line that names the game in passing, with "
                    "nothing of how it is played."
                )
        elif rec is not None:
            why = (
                f"It is {rec.citation_text} ({rec.date.text}), a description of play: "
                "it tells the players what to do."
            )
        else:
            src = lib.sources[q.source]
            whole = next(
                (w for w in src.quotations.values() if w.ref != q.ref and q.text in w.text), None
            )
            if whole is not None:
                # a part of a longer sentence (shown beside a record of like length): the
                # sentence it comes from is what tells players what to do
                why = (
                    f"It is part of a sentence from {src.who}, under {whole.where}: "
                    f"“{quote_plain(whole.text)}”, which tells players what to do, so it is "
                    "from a description of play, whatever its spelling and whether or not "
                    "it names the game."
                )
            else:
                why = (
                    f"It is from {src.who}, under {q.where}: it tells players what to do, "
                    "so it is a description of play, whatever its spelling and whether or "
                    "not it names the game."
                )
        data = {"quotes": [q.ref], "side": side, "spelling": sp}
        letter = "A" if is_record else "B"
        facts = {"text": quote_plain(q.text), "why": why}
        return (
            data,
            facts,
            [letter, letter.lower(), "record" if is_record else "rules"],
            {"rules": float(not is_record)},
            "name-or-rules",
        )

    def _sources(self, ctx: Ctx) -> _Form | None:
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

        def kind(s: Source) -> str:
            return "the primary source" if s.kind == "primary" else s.kind.replace("-", " ")

        told = "\n".join(
            f"- {LETTERS[i]}) {picked[i][1].date or picked[i][0]}: "
            f"{_shown_source(picked[i][1])} ({kind(picked[i][1])})"
            for i in order
        )
        data: dict[str, Any] = {"sources": [src.id for _, src in picked]}
        facts: dict[str, Any] = {
            "items": lines,
            "told": told,
            "k": k,
            "example": _example(right, k),
        }
        features: dict[str, float] = {"items": k}
        return (
            data,
            facts,
            [right, right.replace(" ", ""), right.lower()],
            features,
            "sources-in-order",
        )

    # -- answers ---------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        v = p.variant
        if v in ("order", "sources"):
            return self._check_order(p, text)
        if v == "when":
            options = p.answer["options"]
            letters = LETTERS[: len(options)]
            names = _year_names(options)
            got = letters_answer(
                text, letters, names, expected=f"answer with a letter ({', '.join(letters)})"
            )
            if len(got) != 1:
                raise AnswerError(f"answer with one letter ({', '.join(letters)})")
            right = p.answer["letter"]
            if got[0] == right:
                return Verdict(True, f"Right: {right}.")
            from tutor.engine.sources import parse_date

            said = parse_date(options[LETTERS.index(got[0])])
            want = parse_date(options[LETTERS.index(right)])
            when = "late" if said.key > want.key else "early"
            return Verdict(
                False,
                f"Not quite: it is {right}, not {got[0]}.",
                retry=f"Not yet: {got[0]} is too {when}. Look at the list of "
                "records on the lesson's page about the name in old books.",
            )
        got = letters_answer(
            text,
            "AB",
            {"record": "A", "name": "A", "rules": "B", "description": "B", "rule": "B"},
            expected="answer A (a record of the name) or B (the rules)",
        )
        if len(got) != 1:
            raise AnswerError(
                "answer with one letter: A (a record that only names the game) "
                "or B (a description of how it is played)"
            )
        right = p.answer["letter"]
        if got[0] == right:
            return Verdict(True, f"Right: {right}.")
        return Verdict(
            False,
            f"Not quite: it is {right}, not {got[0]}.",
            retry="Not yet: does the sentence tell anyone how to play, or does it "
            "only name the game?",
        )

    def _check_order(self, p: Puzzle, text: str) -> Verdict:
        k = len(p.answer["order"])
        letters = LETTERS[:k]
        got = letters_answer(
            text, letters, expected=f"answer with the letters {', '.join(letters)} in order"
        )
        if sorted(got) != list(letters):
            raise AnswerError(
                f"give each of the letters {', '.join(letters)} once, oldest "
                "first (for example `" + " ".join(reversed(letters)) + "`)"
            )
        right = p.answer["order"]
        if got == right:
            return Verdict(True, "Right: " + " ".join(right) + ".")
        lib = library()
        ys: list[Any]  # (a record's date key, or a source's year: one kind a puzzle)
        if "records" in p.answer:
            ys = [lib.records[r].date.key for r in p.answer["records"]]
        else:
            ys = [source_year(lib.sources[sid]) for sid in p.answer["sources"]]
        years = {LETTERS[i]: y for i, y in enumerate(ys)}
        # the first neighbouring pair out of order: the part that is wrong
        a, b = next((x, y) for x, y in zip(got, got[1:]) if years[x] > years[y])
        in_place = sum(1 for x, y in zip(got, right) if x == y)
        return Verdict(
            False,
            "Not quite: oldest first it is " + " ".join(right) + ".",
            credit=in_place / k,
            retry=f"Not yet: {b} is older than {a}, so {b} comes before it.",
        )

    def answer_words(self, p: Puzzle) -> list[str]:
        if p.variant == "record":
            return ["hint", "quit", "A", "B"]
        n = len(p.answer.get("order") or p.answer.get("options") or [])
        return ["hint", "quit"] + list(LETTERS[:n])

    def wrong_answer(self, p: Puzzle) -> str | None:
        if p.variant in ("order", "sources"):
            return " ".join(reversed(p.answer["order"]))
        if p.variant == "when":
            i = LETTERS.index(p.answer["letter"])
            return LETTERS[(i + 1) % len(p.answer["options"])]
        return "B" if p.answer["letter"] == "A" else "A"


def records_in(p: Puzzle) -> list[str]:
    """The ids of the records a timeline puzzle ``p`` asks about or shows (its order, its
    date, or the record a record-or-description question quotes, a part of or reports)."""
    if p.kind != "timeline":
        return []
    a = p.answer
    if "records" in a:
        return list(a["records"])
    if "record" in a:
        return [a["record"]]
    rec = record_of_line(a["quote"]) if a.get("quote") else None
    return [rec.id] if rec is not None else []


def _quotes_of(recs: list[Record]) -> list[str]:
    """What the explanation quotes for ``recs``: each record's own words, or, for one known from
    a citation, its reporter's words about it (shown with the reporter's citation)."""
    return [ref for r in recs for ref in [r.quote or r.report] if ref]


def _year_names(options: list[str]) -> dict[str, str]:
    """The year of each option written as a year (``1591``, ``c. 1665``), as a word naming its
    letter: a learner may type the year instead of the letter."""
    from tutor.engine.sources import parse_date

    out = {}
    for i, t in enumerate(options):
        d = parse_date(t)
        if d.form in ("year", "circa"):
            out[str(d.anchor)] = LETTERS[i]
    return out


def _example(right: str, k: int) -> str:
    """An example order of ``k`` letters that is not the answer ``right``."""
    for ex in (" ".join(LETTERS[:k]), " ".join(reversed(LETTERS[:k]))):
        if ex != right:
            return ex
    return " ".join(LETTERS[1:k] + LETTERS[:1])


def _neighbours(recs: list[Record], rec: Record) -> str:
    """Where the record stands among the others, in words."""
    i = recs.index(rec)
    before = recs[i - 1] if i else None
    after = recs[i + 1] if i + 1 < len(recs) else None
    parts = []
    if before:
        parts.append(f"after {before.who} ({before.date.text})")
    if after:
        parts.append(f"before {after.who} ({after.date.text})")
    return join(parts)
