"""``source-quiz``: which source says this quotation?  Or: where do two readings disagree?

The answers come from the source files in ``sources/``: the quotation's source, or the one
parameter whose values differ between two rulesets (parameters are named as
:mod:`tutor.engine.parameters` words them for a quiz).

Every question has one right answer.  A "which source" quotation is drawn only from quotations
that stand verbatim in one source text alone (:func:`which_pool`: a sentence that Parlett and
the 2018 handout both print would have two right answers), that are not a title, a heading or a
byline, and that have at least five words; sources that say something alike are never offered
beside the right one.  Quotations are drawn in a fixed shuffled order indexed by the seed
(:func:`quote_index`), so the puzzles of one set (consecutive seeds, or a lesson block's seeds
:data:`~tutor.puzzles.base.SET_STRIDE` apart) never repeat a quotation until every one has
been asked.  Works under every ruleset.
"""

from __future__ import annotations

import random
import re
import weakref
from collections.abc import Iterable, Mapping
from typing import Any

from tutor.engine.deal import Deal
from tutor.engine.errors import LaughError
from tutor.engine.parameters import COUNT_PARAMETERS, RULESET_PARAMETERS, spec, value_words
from tutor.engine.rulesets import Ruleset
from tutor.engine.sources import Library, Quotation, Source, normalise, source_text
from tutor.puzzles.base import (
    LETTERS,
    SET_STRIDE,
    Candidate,
    Ctx,
    Plan,
    PuzzleKind,
    Verdict,
    join,
    jsonable,
    library,
)
from tutor.puzzles.model import AnswerError, Definition, Puzzle
from tutor.puzzles.quoted import quote_plain
from tutor.puzzles.reader import letters_answer

_WORDS_CACHE: dict[str, frozenset[str]] = {}
#: The pool of :func:`which_pool` and the library it was made from (held weakly: a library made
#: later at the same address is never taken for it).
_POOL: tuple[weakref.ref[Library], list[tuple[Source, Quotation]]] | None = None
_MARKUP = re.compile(r"<[^>]+>|\*\*|__|`")


def _words(text: str) -> frozenset[str]:
    got = _WORDS_CACHE.get(text)
    if got is None:
        got = frozenset(
            w
            for w in "".join(ch.lower() if ch.isalnum() else " " for ch in text).split()
            if len(w) > 2
        )
        _WORDS_CACHE[text] = got
    return got


def _similar(a: str, b: str) -> bool:
    wa, wb = _words(a), _words(b)
    if not wa or not wb:
        return False
    return len(wa & wb) / min(len(wa), len(wb)) >= 0.6


def _plain(text: str) -> str:
    """Normalised, markup removed, lower case."""
    return normalise(_MARKUP.sub("", text)).lower()


def is_heading(quote: Quotation, raw: str | None, source: Source) -> bool:
    """True when ``quote`` is a title, a heading, a byline or a label rather than a sentence of
    the text: it stands in the source's citation, or it fills a whole line of the text that is a
    Markdown heading, wholly bold, or has no closing punctuation and is not a list item."""
    plain = _plain(quote.text).rstrip(".:; ")
    cite = _plain(
        " ".join(str(x) for x in (source.title, source.author, source.in_, source.date) if x)
    )
    if plain and plain in cite:
        return True
    if raw is None:
        return False
    target = normalise(quote.text)
    for line in raw.splitlines():
        norm = normalise(line)
        if target not in norm:
            continue
        body = re.sub(r"^[-*•]\s*(?:[♥♦♣♠]\s*)?|^\d+\.\s*", "", norm)
        if norm.startswith("#") or (
            len(norm) <= len(target) + 14
            and (
                re.fullmatch(r"(<b>.*</b>|\*\*.*\*\*)", norm) is not None
                or (body == norm and not norm.rstrip().endswith((".", ":", ";", "!", "?")))
            )
        ):
            return True
    return False


def which_pool() -> list[tuple[Source, Quotation]]:
    """The quotations a "which source" question may show, as ``(source, quotation)`` in a fixed
    order: from secondary sources, in no one's voice but the source's own, five words or more,
    not a heading (:func:`is_heading`), standing verbatim (case and markup aside) in this
    source's text alone, and with at least two sources unlike it to offer beside it."""
    global _POOL
    lib = library()
    if _POOL is None or _POOL[0]() is not lib:
        raws = {s.id: source_text(s) for s in lib.sources.values()}
        flat = {sid: _plain(t) for sid, t in raws.items() if t}
        pool: list[tuple[Source, Quotation]] = []
        for s in lib.sources.values():
            if not s.is_text_of_rules:
                continue
            taught = s.id in voices()
            for q in s.quotations.values():
                if q.speaker is not None or len(_words(q.text)) < 5:
                    continue
                if taught and not voice_tells(q, s):
                    continue  # lesson 10 teaches nothing in it that gives its source away
                if is_heading(q, raws.get(s.id), s):
                    continue
                if any(q.text in w.text for w in s.quotations.values() if w.ref != q.ref):
                    continue  # a part of a longer quotation of it (that one is asked)
                plain = _plain(q.text)
                if any(plain in t for sid, t in flat.items() if sid != s.id):
                    continue  # stands in another source's text too: two right answers
                if len(_distractors(lib, s, q)[1]) < 2:
                    continue  # too few sources unlike it to offer beside it
                pool.append((s, q))
        _POOL = (weakref.ref(lib), pool)
    return _POOL[1]


def voices() -> dict[str, dict[str, Any]]:
    """What lesson 10's page "Each source's voice" teaches of each source, from the definition's
    ``options.voices``: ``{source id: {"signs": [...], "words": [...]}}``.  A sign is ``pence`` (stakes
    counted in pence); the words are that source's own (each stands in its text and in no other
    text of the rules: tests/puzzles/test_source_voices.py)."""
    from tutor.puzzles.model import definition

    return dict(definition("source-quiz").options.get("voices") or {})


#: The signs a voice may carry, each with how a quotation shows it and how it is said: only what
#: the question shows (it shows a quotation's words as plain text, so bold type, web-page tags
#: and emphasis are never signs here).
_SIGNS = {
    "pence": (
        lambda raw, plain: re.search(r"\b\d+p\b", plain) is not None,
        "its numbers: stakes counted in pence",
    ),
}


def has_word(text: str, word: str) -> bool:
    """True when ``word`` (a word or a phrase, case as written) stands whole in ``text``."""
    return re.search(r"(?<![A-Za-z])" + re.escape(word) + r"(?![A-Za-z])", text) is not None


def voice_tells(quote: Quotation, src: Source) -> list[str]:
    """What in ``quote`` gives ``src`` away among the things lesson 10's voice page teaches of
    it (:func:`voices`): its signs, then its own words, as phrases; [] when none (or when the
    page teaches nothing of ``src``)."""
    voice = voices().get(src.id)
    if not voice:
        return []
    raw, plain = quote.text, quote_plain(quote.text)
    out = [_SIGNS[sign][1] for sign in voice.get("signs", []) if _SIGNS[sign][0](raw, plain)]
    own = [w for w in voice.get("words", []) if has_word(plain, w)]
    if own:
        out.append("its own words, as that page lists them: " + join([f"“{w}”" for w in own]))
    return out


def _distractors(lib: Library, src: Source, quote: Quotation) -> tuple[set[str], list[str]]:
    """The sources that say something alike (never offered beside ``src``), and the sources
    that may be offered beside it."""
    sources = [s for s in lib.sources.values() if s.is_text_of_rules]
    alike = {
        s.id
        for s in sources
        for q in s.quotations.values()
        if s.id != src.id and _similar(q.text, quote.text)
    }
    others = [s.id for s in sources if s.id != src.id and s.id not in alike and s.quotations]
    return alike, others


def quote_index(seed: int, size: int) -> int:
    """The place in the shuffled pool of the quotation for ``seed``: seeds one apart get
    neighbouring places, across a multiple of :data:`~tutor.puzzles.base.SET_STRIDE` too (999
    and 1000 are places 999 and 1001), and seeds ``SET_STRIDE`` apart (a lesson block's) places
    ``SET_STRIDE + 1`` apart, so a set never repeats a quotation while the pool holds more than
    a set and no multiple of its size below eight times ``SET_STRIDE + 1`` (1001 = 7 x 11 x 13)
    is one of those steps.  (The places of :func:`~tutor.puzzles.base.set_index` wrap from 999
    to 1, which repeats within a set whenever the pool's size divides about 1000.)"""
    return (seed + seed // SET_STRIDE) % size


def _short(src: Source) -> str:
    who = src.author or src.title
    if src.author:
        return f"{who}, {src.title}" + (f" ({src.date})" if src.date else "")
    return (
        src.title
        + (f", {src.in_}" if src.in_ else "")
        + (f", {src.published}" if src.published else "")
    )


def _who(src: Source) -> str:
    """A source named in a few words: its author, else where it appeared, else its title."""
    return src.author or src.in_ or src.title


_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]+")
_FIRST_PERSON = re.compile(r"\b(?:I|I'd|I'm|my|me)\b[^.,;:]{0,30}")
_PENCE = re.compile(r"\b\d+p\b")
_NUMBER = re.compile(r"\b\d+\b")
_TEXT_WORDS: dict[str, frozenset[str]] = {}


def _source_words(src: Source) -> frozenset[str]:
    """Every word (lower case) of a source's collected text."""
    got = _TEXT_WORDS.get(src.id)
    if got is None:
        raw = source_text(src) or ""
        got = frozenset(w.lower() for w in _WORD.findall(raw))
        _TEXT_WORDS[src.id] = got
    return got


#: Words too common to tell one source from another, whoever happens to use them.
_COMMON = frozenset(
    """about above after again also always another any anyone because been
before being below both cannot could does doing down each either else every first from have
having here however into itself just later least less like made make many more most much must
never next once only other others over same should since some such than that their them then
there these they thing things this those though through under until very were what when where
whether which while whom whose will with within without would your yours sure need needs show
said says player players""".split()
)


def tells(quote: Quotation, src: Source, lib: Library, offered: Iterable[str] = ()) -> list[str]:
    """What in a quotation gives its source away, in a few phrases drawn from the text itself:
    its markup (the handout's bold type, the compendium's web-page tags, plain-text emphasis),
    its voice (a writer speaking for himself), its numbers (stakes in pence) and its words
    (those that stand in this source's text and in none of the other sources ``offered`` beside
    it, nor in any other text here where that can be said)."""
    raw = quote.text
    plain = quote_plain(raw)
    out = []
    if "**" in raw:
        out.append("its bold type, as the event's handout sets its key words")
    if "{%" in raw or "<cite>" in raw or "[@" in raw:
        out.append("its web-page markup, the template tags of the compendium's page")
    elif re.search(r"(?<!\*)\*[A-Za-z]+\*(?!\*)", raw):
        out.append("its plain-text emphasis between asterisks (*like this*)")
    m = _FIRST_PERSON.search(plain)
    if m:
        words = m.group(0).split()[:5]
        out.append(f"its voice: a writer speaking for himself (“{' '.join(words)}”)")
    pence = _PENCE.findall(plain)
    if pence:
        out.append(f"its numbers: stakes counted in pence ({', '.join(pence)})")
    own = _source_words(src)
    words = [
        w
        for w in dict.fromkeys(_WORD.findall(plain))
        if len(w) > 3
        and w.lower() not in _COMMON
        and "’" not in w
        and "'" not in w
        and w.lower() in own
    ]
    others = [s for s in lib.sources.values() if s.id != src.id and s.is_text_of_rules]
    alone = [w for w in words if not any(w.lower() in _source_words(o) for o in others)]
    rivals = [lib.sources[o] for o in offered if o != src.id]
    if alone:
        out.append(
            "its words, which no other source here uses: " + join([f"“{w}”" for w in alone[:3]])
        )
    elif rivals:
        among = [w for w in words if not any(w.lower() in _source_words(o) for o in rivals)]
        if among:
            out.append(
                "its words, which none of the other sources offered uses: "
                + join([f"“{w}”" for w in among[:3]])
            )
    return out


def _matter(src: Source) -> str:
    """What kind of text the source is, in a few words (its kind in the source file)."""
    return {
        "reconstruction": "that of a modern writer retelling Willughby's rules",
        "rules-sheet": "that of a short sheet of rules to play by",
        "house": "that of a club's own rules",
    }.get(src.kind, "its own")


def _show(name: str, v: object) -> str:
    return value_words(name, v)


#: :func:`option_weights` of the library last asked about (held weakly, as :data:`_POOL`).
_WEIGHTS: tuple[weakref.ref[Library], dict[str, tuple[float, float]]] | None = None


def _pairs(lib: Library) -> list[tuple[list[str], list[str]]]:
    """Every disagreement question the library can ask: for each ruleset and player count it
    is played at, and each ruleset of another source, the parameters the two differ on and
    those they agree on (as :meth:`SourceQuiz._disagree` finds them)."""
    out = []
    for r1 in lib.rulesets:
        for n in lib.rulesets[r1].player_counts:
            for r2 in lib.rulesets:
                if lib.ruleset_source[r1] == lib.ruleset_source[r2]:
                    continue
                pl2 = n if n in lib.rulesets[r2].counts else None
                diff, same = _differ(lib, r1, r2, pl2)
                if diff and len(same) >= 2:
                    out.append((diff, same))
    return out


def _differ(lib: Library, r1: str, r2: str, n: int | None) -> tuple[list[str], list[str]]:
    """The parameters rulesets ``r1`` and ``r2`` differ on and those they agree on (the
    per-player-count ones at ``n`` players, when both are played at ``n``), leaving out those
    neither file says anything about."""
    names = list(RULESET_PARAMETERS) + (list(COUNT_PARAMETERS) if n else [])
    diff: list[str] = []
    same: list[str] = []
    for name in names:
        pl = n if name in COUNT_PARAMETERS else None
        p1, p2 = lib.parameter(r1, name, pl), lib.parameter(r2, name, pl)
        if p1.implicit and p2.implicit:
            continue  # neither source file says anything about it
        (diff if p1.value != p2.value else same).append(name)
    return diff, same


def option_weights(k: float = 3.5, rounds: int = 60) -> dict[str, tuple[float, float]]:
    """For each parameter, the weight it is drawn with as the answer of a disagreement and as
    a wrong option: ``(answer, wrong)``, fitted so that, over every question the library can
    ask (:func:`_pairs`, each as likely), a parameter offered is the answer about one time in
    ``k`` (the options a question offers, on average), whichever parameter it is.  Without
    them the answer was the parameter the sources most often disagree on (issue 42).  Worked
    out once for each library; deterministic."""
    global _WEIGHTS
    lib = library()
    if _WEIGHTS is not None and _WEIGHTS[0]() is lib:
        return _WEIGHTS[1]
    pairs = _pairs(lib)
    names = sorted({x for d, s in pairs for x in d + s})
    a = dict.fromkeys(names, 1.0)
    b = dict.fromkeys(names, 1.0)
    for _ in range(rounds):
        right = dict.fromkeys(names, 0.0)
        wrong = dict.fromkeys(names, 0.0)
        for diff, same in pairs:
            ta = sum(a[x] for x in diff)
            tb = sum(b[x] for x in same)
            for x in diff:
                right[x] += a[x] / ta
            for x in same:
                wrong[x] += min(1.0, (k - 1) * b[x] / tb)
        for x in names:
            if right[x] + wrong[x] == 0:
                continue
            share = right[x] / (right[x] + wrong[x])  # want 1 / k
            step = ((1 / k) / share) ** 0.5 if share > 0 else 2.0
            a[x] = min(max(a[x] * step, 1e-3), 1e3)
            b[x] = min(max(b[x] / step, 1e-3), 1e3)
    out = {x: (a[x], b[x]) for x in names}
    _WEIGHTS = (weakref.ref(lib), out)
    return out


def _weighted_sample(
    rng: random.Random, names: list[str], weights: list[float], k: int
) -> list[str]:
    """``k`` of ``names`` without replacement, each drawn with the chance its weight gives
    (Efraimidis and Spirakis' keys), from ``rng``."""
    keyed = sorted(zip(names, weights), key=lambda nw: -(rng.random() ** (1.0 / nw[1])))
    return [n for n, _ in keyed[:k]]


class SourceQuiz(PuzzleKind):
    name = "source-quiz"

    def plan(
        self, base: random.Random, rs: Ruleset, players: int, seed: int, defn: Definition
    ) -> Plan:
        share = float(defn.options.get("which_share", 0.7))
        return {"variant": "which" if base.random() < share else "disagree"}

    def plan_may_fit(self, plan: Plan, theme: str) -> bool:
        if theme == "which-source":
            return plan["variant"] == "which"
        if theme == "disagreement":
            return plan["variant"] == "disagree"
        return True

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        lib = library()
        if data["variant"] == "which":
            q = lib.quotation(data["quote"])
            return {"source": q.source, "options": list(data["options"])}
        p1 = lib.parameter(data["rulesets"][0], data["parameter"], data.get("players"))
        p2 = lib.parameter(data["rulesets"][1], data["parameter"], data.get("players"))
        if p1.value == p2.value:
            raise LaughError("source-quiz: the two rulesets agree on the asked parameter")
        return {
            "parameter": data["parameter"],
            "values": {
                data["rulesets"][0]: jsonable(p1.value),
                data["rulesets"][1]: jsonable(p2.value),
            },
            "options": list(data["options"]),
        }

    def build(self, ctx: Ctx) -> Candidate | None:
        if ctx.plan["variant"] == "which":
            return self._which(ctx)
        return self._disagree(ctx)

    def _which(self, ctx: Ctx) -> Candidate | None:
        rng = ctx.rng
        lib = library()
        pool = list(which_pool())
        if not pool:
            return None
        random.Random(f"source-quiz/v{ctx.defn.generator_version}/order").shuffle(pool)
        # each source asked as often as any other, in turn from seed to seed, its quotations
        # in turn (issue 42: asked by its share of the pool, a source with many quotations was
        # the answer more often than it was offered, and one with few less)
        by_source: dict[str, list[tuple[Source, Quotation]]] = {}
        for s, q in pool:
            by_source.setdefault(s.id, []).append((s, q))
        ids = sorted(by_source)
        place = quote_index(ctx.seed, len(pool))
        mine = by_source[ids[place % len(ids)]]
        src, quote = mine[(place // len(ids)) % len(mine)]
        alike, others = _distractors(lib, src, quote)
        k = min(int(rng.choice(ctx.defn.options.get("choices", [3, 4]))), len(others) + 1)
        # the sources beside it drawn alike, those asked first (issue 42: a source never asked
        # was offered beside every other, and "never that one" answered)
        asked = [o for o in others if o in by_source]
        picked = rng.sample(asked, min(k - 1, len(asked)))
        picked += rng.sample([o for o in others if o not in asked], k - 1 - len(picked))
        options = [src.id] + picked
        rng.shuffle(options)
        letter = LETTERS[options.index(src.id)]
        opts_text = "\n".join(
            f"{LETTERS[i]}) {_short(lib.sources[o])}" for i, o in enumerate(options)
        )
        data = {
            "variant": "which",
            "quote": quote.ref,
            "options": options,
            "position": False,
            "hide_id": True,
        }  # the id names a ruleset, whose source may be the answer
        wrong = [
            f"{LETTERS[i]}) {_who(lib.sources[o])}" for i, o in enumerate(options) if o != src.id
        ]
        taught = voice_tells(quote, src)
        found = taught or tells(quote, src, lib, options)
        why = (
            (
                "What gives it away (lesson 10, “Each source's voice”): "
                if taught
                else "What gives it away: "
            )
            + "; ".join(found)
            + "."
            if found
            else f"No word of it is found only there; its manner is {_matter(src)}."
        )
        facts = {
            "quote": quote_plain(quote.text),
            "options": opts_text,
            "letter": letter,
            "source": _short(src),
            "where": quote.where,
            "tells": why,
            "alike": join(sorted(alike)) or "none",
            "others": join(wrong),
            "example": LETTERS[(options.index(src.id) + 1) % k],
        }
        accepted = [letter, src.id, letter.lower()]
        if src.author:
            accepted.append(src.author.split()[-1])
        deal = Deal(ctx.rs, ctx.players, rng.randrange(ctx.players), ctx.new_pack())
        features = {
            "choices": k,
            "alike": float(bool(alike)),
            "rules_sheet": float(src.kind == "rules-sheet"),
            "short": float(len(_words(quote.text)) < 10),
        }
        return Candidate(
            deal=deal,
            seat=deal.dealer,
            variant="which",
            answer=self.solve(deal, 0, data, ctx.rs, ctx.players),
            accepted=accepted,
            facts=facts,
            features=features,
            themes=["sources", "which-source"],
            theme="which-source",
            data=data,
            quotes=[quote.ref],
        )

    def _disagree(self, ctx: Ctx) -> Candidate | None:
        rng = ctx.rng
        lib = library()
        r1 = ctx.rs.id
        src1 = lib.ruleset_source[r1]
        others = [r for r in lib.rulesets if lib.ruleset_source[r] != src1]
        if not others:
            return None
        r2 = rng.choice(others)
        n = ctx.players if ctx.players in lib.rulesets[r2].counts else None
        diff, same = _differ(lib, r1, r2, n)
        if not diff or len(same) < 2:
            return None
        # each option as likely to be right as any other (issue 42: a parameter the sources
        # often disagree on, the first dealer, was the answer wherever it was offered, and one
        # they rarely do, the hand, never): the answer is drawn the less often the more the
        # sources disagree on it, and the wrong options the more often (each a real point of
        # disagreement between other sources, so a plausible one)
        weights = option_weights()
        answer = _weighted_sample(rng, diff, [weights[x][0] for x in diff], 1)[0]
        k = min(int(rng.choice(ctx.defn.options.get("choices", [3, 4]))), len(same) + 1)
        options = [answer] + _weighted_sample(rng, same, [weights[x][1] for x in same], k - 1)
        rng.shuffle(options)
        opts_text = "\n".join(f"{LETTERS[i]}) {spec(o).quiz}" for i, o in enumerate(options))
        pl = n if answer in COUNT_PARAMETERS else None
        p1, p2 = lib.parameter(r1, answer, pl), lib.parameter(r2, answer, pl)
        quotes = [q for q in (p1.quotes[:1] + p2.quotes[:1])]
        letter = LETTERS[options.index(answer)]
        data = {
            "variant": "disagree",
            "rulesets": [r1, r2],
            "parameter": answer,
            "players": pl,
            "options": options,
            "position": False,
            "hide_id": True,
        }
        same_lines = [
            f"- {LETTERS[options.index(o)]}) {spec(o).quiz}: both say "
            f"{_show(o, lib.parameter(r1, o, n if o in COUNT_PARAMETERS else None).value)}"
            for o in options
            if o != answer
        ]
        # the rulesets by names that give none of their values away (a title such as "points,
        # last player plays on" would answer the question); their titles stay in laugh rules
        facts = {
            "r1": lib.ruleset_name(r1),
            "r2": lib.ruleset_name(r2),
            "options": opts_text,
            "letter": letter,
            "parameter": spec(answer).quiz,
            "v1": _show(answer, p1.value),
            "v2": _show(answer, p2.value),
            "s1": p1.status,
            "s2": p2.status,
            "same": "\n".join(same_lines),
            "players": f" for {n} players" if pl else "",
            "example": LETTERS[(options.index(answer) + 1) % k],
        }
        accepted = [letter, answer, letter.lower()]
        deal = Deal(ctx.rs, ctx.players, rng.randrange(ctx.players), ctx.new_pack())
        features = {"choices": k, "disagree": 1.0, "count_parameter": float(pl is not None)}
        return Candidate(
            deal=deal,
            seat=deal.dealer,
            variant="disagree",
            answer=self.solve(deal, 0, data, ctx.rs, ctx.players),
            accepted=accepted,
            facts=facts,
            features=features,
            themes=["sources", "disagreement", answer.replace("_", "-")],
            theme="disagreement",
            data=data,
            quotes=quotes,
        )

    # -- answers ----------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        lib = library()
        options = p.answer["options"]
        letters = LETTERS[: len(options)]
        names: dict[str, str] = {}
        for i, o in enumerate(options):
            names[o] = letters[i]
            if o in lib.sources:
                s = lib.sources[o]
                if s.author:
                    names[s.author] = letters[i]
                    names[s.author.split()[-1]] = letters[i]
            else:
                names[o.replace("_", " ")] = letters[i]
        picked = letters_answer(
            text, letters, names, expected=f"answer with a letter ({', '.join(letters)})"
        )
        if len(picked) != 1:
            raise AnswerError(f"answer with one letter ({', '.join(letters)})")
        right = p.answer.get("source") or p.answer.get("parameter")
        letter = letters[options.index(right)]
        if picked[0] == letter:
            return Verdict(True, f"Right: {letter}.")
        return Verdict(
            False,
            f"Not quite: it is {letter}, not {picked[0]}.",
            retry="Not yet. "
            + (
                "Listen to the voice and the vocabulary of the sentence."
                if p.variant == "which"
                else "Compare the two rulesets on each option."
            ),
        )

    def answer_words(self, p: Puzzle) -> list[str]:
        return (
            ["hint", "quit"] + list(LETTERS[: len(p.answer["options"])]) + list(p.answer["options"])
        )

    def wrong_answer(self, p: Puzzle) -> str | None:
        a = p.answer
        right = a.get("source") or a.get("parameter")
        i = a["options"].index(right)
        return LETTERS[(i + 1) % len(a["options"])]
