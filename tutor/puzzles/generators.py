"""The seeded search that turns an id into exactly one puzzle, and a puzzle spec into a puzzle.

A puzzle id is ``KIND.RULESET.PLAYERS.SEED``.  Its puzzle is deterministic from (kind, ruleset,
players, seed, the kind's ``generator_version`` in ``puzzles/<kind>.yaml``): a
``random.Random(f"{kind}/{ruleset}/{players}/{seed}/v{version}")`` draws the plan (which variant,
decoy or not), and each attempt ``k`` plays a real deal with computer players from
:mod:`tutor.engine.bots` under ``random.Random(f".../v{version}/{k}")``.  The first attempt that
yields a suitable position (bounded) is the puzzle: the same id gives the same puzzle on any
machine.

Every answer comes from engine queries on the position; a generator never re-implements a rule.
A puzzle is kept only after its record is replayed with :func:`tutor.engine.records.replay` and
the answer recomputed from the replayed position comes out the same.

A *puzzle spec* names what to generate: ``KIND``; ``KIND/THEME`` for a puzzle of that kind
tagged with THEME that needs nothing taught after THEME's lesson (``legal-play/lie-down``);
either followed by ``@LESSON`` (a lesson file name without ``.md``) for a puzzle that needs
nothing taught after that lesson (in place of the theme's) and is no harder than the lesson
allows (:func:`max_stars`): lesson blocks ask for ``legal-play@04-capturing`` or
``legal-play/lie-down@06-lying-down``.
:func:`search` looks through seeds from the one given (as for a requested difficulty) and
returns the first puzzle that fits; its id is that puzzle's own, so it regenerates exactly.
"""

from __future__ import annotations

import hashlib
import random
import re
import weakref
from typing import Any

from tutor.engine.errors import LaughError, NotationError, UsageError
from tutor.engine.limits import MAX_ID_SEED, whole_number
from tutor.engine.records import replay, to_record
from tutor.engine.rulesets import Ruleset
from tutor.engine.safetext import clip
from tutor.engine.sources import Library, pinned_library
from tutor.puzzles.base import SET_STRIDE, Candidate, Ctx, Plan, PuzzleKind, library, player_name
from tutor.puzzles.model import Definition, Hints, Puzzle, board_features_table, definition
from tutor.puzzles.registry import KINDS, kind_of, taught_in

#: Attempts (derived sub-seeds) a generator makes before giving up on a seed.
MAX_ATTEMPTS = 60
#: Seeds searched for a puzzle of a requested difficulty.
DIFFICULTY_SEARCH = 80
#: Seeds searched for a puzzle of a requested theme or lesson (fewer than SET_STRIDE).
THEME_SEARCH = 400
assert THEME_SEARCH < SET_STRIDE


_LESSON = re.compile(r"^\d\d-[a-z0-9-]+$")


class GenerationError(LaughError):
    """No suitable position was found for a puzzle id within the bounded attempts."""


def parse_spec(spec: str) -> tuple[str, str | None, str | None]:
    """``(kind, theme, lesson)`` of a puzzle spec ``KIND[/THEME][@LESSON]`` (see the module
    docstring); UsageError naming the kinds (or the kind's themes) for an unknown one."""
    head, _, lesson = str(spec).partition("@")
    kind, _, theme = head.partition("/")
    check_kind(kind)
    if theme:
        themes = definition(kind).themes
        if theme not in themes:
            raise UsageError(
                f"puzzles of kind {kind} have no theme {theme!r}; themes: " + ", ".join(themes)
            )
    if lesson and not _LESSON.match(lesson):
        raise UsageError(f"{lesson!r} is not a lesson file name (such as 04-capturing)")
    return kind, theme or None, lesson or None


def max_stars(lesson: str) -> int:
    """The most stars a puzzle may have in ``lesson`` (a lesson file name without ``.md``): 2 in
    lessons 1-2, 3 in lessons 3-4, 4 in lessons 5-6, 5 from lesson 7 on."""
    n = int(lesson[:2])
    return 2 if n <= 2 else 3 if n <= 4 else 4 if n <= 6 else 5


def check_kind(kind: str) -> str:
    """``kind`` itself (a kind, or a spec ``KIND/THEME``), or UsageError listing the kinds."""
    if re.split(r"[/@]", str(kind))[0] not in KINDS:
        raise UsageError(f"unknown puzzle kind {kind!r}; choose from {', '.join(KINDS)}")
    return kind


def not_applicable(kind: str, rs: Ruleset) -> str | None:
    """Why ``kind`` does not apply under ``rs`` (one line), or None when it does."""
    return kind_of(kind).why_not(rs)


def applicable_rulesets(kind: str) -> list[str]:
    """The ids of the rulesets ``kind`` (or a spec's kind) applies to, decided by ruleset
    parameters."""
    k = parse_spec(kind)[0]
    return [rid for rid, rs in library().rulesets.items() if not_applicable(k, rs) is None]


def resolve_choice(
    kind: str, ruleset: str | None, players: int | None, seed: int
) -> tuple[str, int]:
    """The ruleset and player count for a seed: as given, or drawn from the seed among those the
    kind applies to.  Raises UsageError with the valid choices."""
    kind = parse_spec(kind)[0]
    return _resolve(kind, ruleset, players, seed, library(), applicable_rulesets(kind))


def _resolve(
    kind: str,
    ruleset: str | None,
    players: int | None,
    seed: int,
    lib: Library,
    valid: list[str],
) -> tuple[str, int]:
    """:func:`resolve_choice` for a parsed ``kind`` whose :func:`applicable_rulesets` are
    ``valid`` in ``lib`` (worked out once for a search over many seeds)."""
    rng = random.Random(f"{kind}/{seed}/choose")
    if ruleset is None:
        pool = [r for r in valid if players is None or players in lib.rulesets[r].counts]
        if not pool:
            raise UsageError(
                f"no ruleset for {kind} covers {players} players; rulesets: "
                + ", ".join(
                    f"{r} ({'/'.join(map(str, lib.rulesets[r].player_counts))})" for r in valid
                )
            )
        ruleset = rng.choice(pool)
    elif ruleset not in lib.rulesets:
        raise UsageError(f"unknown ruleset {ruleset!r}; choose from {', '.join(valid)}")
    elif ruleset not in valid:
        why = not_applicable(kind, lib.rulesets[ruleset])
        raise UsageError(
            f"{kind} puzzles do not apply to ruleset {ruleset}"
            + (f" ({why})" if why else "")
            + f"; choose from {', '.join(valid)}"
        )
    rs = lib.rulesets[ruleset]
    if players is None:
        players = rng.choice(rs.player_counts)
    elif players not in rs.counts:
        raise UsageError(
            f"ruleset {ruleset} is for {'/'.join(map(str, rs.player_counts))} "
            f"players, not {players}"
        )
    return ruleset, players


def make_id(kind: str, ruleset: str, players: int, seed: int) -> str:
    """``KIND.RULESET.PLAYERS.SEED``."""
    return f"{kind}.{ruleset}.{players}.{seed}"


def parse_id(puzzle_id: str) -> tuple[str, str, int, int]:
    """Split an id into (kind, ruleset, players, seed); UsageError saying the form if malformed."""
    parts = str(puzzle_id).strip().split(".")
    form = "a puzzle id is KIND.RULESET.PLAYERS.SEED, for example spot-oversight.parlett.5.1234"
    if len(parts) != 4:
        raise UsageError(f"malformed puzzle id {clip(puzzle_id)!r}: {form}")
    kind, ruleset, players, seed = parts
    check_kind(kind)
    try:
        if re.search(r"[/@]", kind):
            raise NotationError(kind)
        return kind, ruleset, whole_number(players, 1, 52), whole_number(seed, 0, MAX_ID_SEED)
    except NotationError:
        raise UsageError(
            f"malformed puzzle id {clip(puzzle_id)!r}: {form} (SEED a whole number "
            f"from 0 to {MAX_ID_SEED:,})"
        ) from None


def _key(kind: str, rs: Ruleset, players: int, seed: int, defn: Definition) -> str:
    return f"{kind}/{rs.id}/{players}/{seed}/v{defn.generator_version}"


def plan_of(kind: str, ruleset: str, players: int, seed: int) -> Plan:
    """The plan a puzzle id draws (cheap: no deal is played)."""
    defn = definition(kind)
    rs = library().ruleset(ruleset, players)
    return kind_of(kind).plan(
        random.Random(_key(kind, rs, players, seed, defn)), rs, players, seed, defn
    )


def build(kind: str, ruleset: str, players: int, seed: int) -> Puzzle:
    """The one puzzle of id ``KIND.RULESET.PLAYERS.SEED`` (arguments already resolved), made
    with one library throughout (:func:`tutor.engine.sources.pinned_library`).  Raises
    UsageError for an unknown ruleset or player count, GenerationError when no attempt fits."""
    with pinned_library():
        return _build(kind, ruleset, players, seed)


def _build(kind: str, ruleset: str, players: int, seed: int) -> Puzzle:
    defn = definition(kind)
    rs = library().ruleset(ruleset, players)
    gen = kind_of(kind)
    key = _key(kind, rs, players, seed, defn)
    plan = gen.plan(random.Random(key), rs, players, seed, defn)
    for attempt in range(MAX_ATTEMPTS):
        ctx = Ctx(kind, rs, players, seed, random.Random(f"{key}/{attempt}"), plan, defn, attempt)
        cand = gen.build(ctx)
        if cand is None:
            continue
        puzzle = assemble(gen, ctx, cand)
        if puzzle is not None:
            return puzzle
    raise GenerationError(
        f"no suitable position for puzzle {make_id(kind, rs.id, players, seed)} "
        f"in {MAX_ATTEMPTS} attempts; try another seed"
    )


def assemble(gen: PuzzleKind, ctx: Ctx, cand: Candidate) -> Puzzle | None:
    """Turn a candidate into a puzzle, then verify it: the record replays legally and the answer
    recomputed from the replayed position is the same.  None if verification fails."""
    lib = library()
    defn = ctx.defn
    rs = ctx.rs
    record = to_record(cand.deal, with_result=False)
    replayed = replay(record)
    if gen.solve(replayed, cand.seat, cand.data, rs, ctx.players) != cand.answer:
        return None
    facts = dict(cand.facts)
    facts.setdefault("ruleset", lib.rulesets[rs.id].title_in_text)  # always mid-sentence
    facts.setdefault("players", ctx.players)
    facts.setdefault("you", player_name(cand.seat))
    qkey = cand.question_key or cand.variant
    question = defn.question(qkey, facts)
    hints = defn.hint_list(qkey if qkey in defn.hints else cand.variant, facts)
    explanation = defn.explanation(cand.explain_key or cand.variant, facts)
    keys = [k for k in (cand.explain_key, cand.variant) if k]
    quote_keys = [cand.quote_key, *keys] if cand.quote_key else keys
    quotes = resolve_quotes(defn, quote_keys, rs, cand.quotes, ctx.players)
    problems: list[dict[str, Any]] = []
    for spec in defn.problem_specs(*keys):
        when = spec.get("when")
        if when and when not in cand.tags:
            continue
        for p in rs.problems:
            if p["id"] == spec["id"] and not any(x["id"] == p["id"] for x in problems):
                problems.append(
                    {
                        "id": p["id"],
                        "source": p.get("source"),
                        "summary": " ".join(str(p["summary"]).split()),
                    }
                )
    if problems:
        lead = defn.word("problem_lead", "A problem in the sources:")
        explanation += "".join(f"\n\n{lead} {p['summary']}" for p in problems)
    themes = list(dict.fromkeys(cand.themes))
    puzzle = Puzzle(
        id=make_id(ctx.kind, rs.id, ctx.players, ctx.seed),
        kind=ctx.kind,
        ruleset=rs.id,
        players=ctx.players,
        seat=cand.seat,
        record=record,
        question=question,
        answer=cand.answer,
        accepted=list(dict.fromkeys(cand.accepted)),
        explanation=explanation,
        quotes=quotes,
        themes=themes,
        difficulty=defn.rate_difficulty(cand.features),
        hints=hints,
        variant=cand.variant,
        data=cand.data,
        problems=problems,
        theme=cand.theme or (themes[0] if themes else ""),
        teaches=defn.page_for(cand.explain_key or "", cand.variant, cand.theme, *themes),
        _deal=replayed,
        _kind=gen,
    )
    late = gen.late_hints(puzzle)
    puzzle.hints = Hints(list(hints) + list(late))
    return puzzle


def resolve_quotes(
    defn: Definition, keys: list[str], rs: Ruleset, extra: list[str], players: int | None = None
) -> list[str]:
    """The quotation refs for a puzzle: the definition's for the first of ``keys`` (a list of refs, or
    ``{parameter: P, among: [...]}``: those of ``among`` behind the ruleset's parameter ``P``,
    else ``fallback``), then ``extra``.  Every ref is checked against the library.

    Only the puzzle's own ruleset and player count are quoted (:func:`own_quotes`): a quotation
    of another source (Parlett's deal under Wolffauer's rules) or about another player count
    ("making a pot of 11p" beside a pot of 9) is left out; where that leaves nothing, a spec's
    ``fallback`` is quoted (an advice every reading shares, say).  A kind whose questions are
    about the sources themselves (``options.own_quotes: false``) quotes any source."""
    lib = library()
    spec = defn.quote_spec(*keys)
    if defn.options.get("own_quotes", True):
        allowed = own_quotes(rs.id, players)
    else:  # a question about the sources themselves: any source's words
        allowed = {q.ref for s in lib.sources.values() for q in s.quotations.values()}
    refs: list[str] = []
    specs = spec if isinstance(spec, list) else [spec]
    fallback: list[str] = []
    for s in specs:
        if isinstance(s, str):
            refs.append(s)
        else:
            fallback.extend(s.fallback)
            behind = [r for r in lib.parameter(rs.id, s.parameter).quotes if r in allowed]
            chosen = [r for r in (behind if s.among is None else s.among) if r in behind][: s.limit]
            refs.extend(chosen)
    refs.extend(extra)
    out = []
    for r in refs:
        lib.quotation(r)  # raises for an unknown ref
        if r not in out and r in allowed:
            out.append(r)
    if not out:
        for r in fallback:
            lib.quotation(r)
            if r not in out and (
                players is None or r not in _count_bound(lib) or players in _count_bound(lib)[r]
            ):
                out.append(r)
    return out


#: What :func:`own_quotes` has worked out, for the library last asked about (a weak reference
#: to it: a library's ``id`` may be given to another once it is gone).
_OWN: dict[object, Any] = {"lib": None}


def _cache(lib: Library) -> dict[object, Any]:
    if _OWN["lib"] is None or _OWN["lib"]() is not lib:
        _OWN.clear()
        _OWN["lib"] = weakref.ref(lib)
    return _OWN


def _count_bound(lib: Library) -> dict[str, set[int]]:
    """Quotation ref -> the player counts some ruleset cites it for, per count (only refs
    cited by a per-player-count parameter)."""
    cache = _cache(lib)
    got: dict[str, set[int]] | None = cache.get("counts")
    if got is None:
        got = {}
        for params in lib.parameters.values():
            for p in params:
                if p.players is not None:
                    for r in p.quotes:
                        got.setdefault(r, set()).add(p.players)
        cache["counts"] = got
    return got


def own_quotes(ruleset: str, players: int | None = None) -> set[str]:
    """The quotations a puzzle under ``ruleset`` (with ``players`` players) may quote: those of
    the source file that gives the ruleset, and those the ruleset cites for any parameter;
    without a quotation bound to another player count (one cited only for other counts'
    deals, pots and breakevens)."""
    lib = library()
    cache = _cache(lib)
    key = (ruleset, players)
    got: set[str] | None = cache.get(key)
    if got is None:
        src = lib.sources[lib.ruleset_source[ruleset]]
        refs = {q.ref for q in src.quotations.values()}
        for p in lib.parameters[ruleset]:
            refs.update(p.quotes)
        if players is not None:
            bound = _count_bound(lib)
            refs = {r for r in refs if r not in bound or players in bound[r]}
        got = cache[key] = refs
    return got


# --------------------------------------------------------------------------------------------
# Lessons and themes


def needs(puzzle: Puzzle) -> str | None:
    """The lesson (file name without ``.md``) by which everything ``puzzle`` asks and its board
    shows is taught: the latest of its kind's lesson, its themes' lessons and the lessons of
    what its board shows (:func:`tutor.puzzles.render.board_features`, ``puzzles/board.yaml``);
    None when one of them is taught by no lesson (a house rule)."""
    defn = definition(puzzle.kind)
    out = defn.lesson or ""
    for t in puzzle.themes:
        if t in defn.themes:
            lesson = defn.themes[t]
            if lesson is None:
                return None
            out = max(out, lesson)
    table = board_features_table()
    for f in shows(puzzle):
        lesson = table[f].lesson
        if lesson is None:
            return None
        out = max(out, lesson)
    return out or None


def shows(puzzle: Puzzle) -> set[str]:
    """What ``puzzle``'s board shows besides its question (features of ``puzzles/board.yaml``;
    worked out once and kept in ``puzzle.data["shows"]``)."""
    got = puzzle.data.get("shows")
    if got is None:
        from tutor.puzzles.render import board_features

        got = puzzle.data["shows"] = sorted(board_features(puzzle))
    return set(got)


def shown_later(puzzle: Puzzle, lesson: str) -> list[str]:
    """The features ``puzzle``'s board shows that are taught after ``lesson`` (or by no
    lesson), in the order of ``puzzles/board.yaml``."""
    table = board_features_table()
    got = shows(puzzle)
    return [
        f for f, feat in table.items() if f in got and (feat.lesson is None or feat.lesson > lesson)
    ]


def search(
    spec: str,
    ruleset: str | None,
    players: int | None,
    seed: int,
    difficulty: int | None = None,
    exclude: tuple[str, ...] = (),
    unlike: Puzzle | None = None,
    bound: int | None = None,
) -> Puzzle:
    """The puzzle of ``spec`` for ``seed`` (see the module docstring): for a plain kind with no
    difficulty, the puzzle of the seed itself; otherwise the first of the seeds from ``seed`` on
    that fits (with a difficulty: of that difficulty, else the nearest found within the bounded
    search).  ``exclude`` lists ids not to return; ``unlike`` a puzzle whose question must not
    come back (a fresh puzzle never asks the same question about the same position:
    :func:`same_question`).  ``bound`` caps the seeds searched (default :data:`THEME_SEARCH`
    for a theme or lesson, else :data:`DIFFICULTY_SEARCH`).  Raises UsageError for a bad spec
    or choice, GenerationError when no seed in the bounded search fits the theme or lesson (its
    message says why the puzzles found did not fit, such as a board that shows a rule taught
    later).
    """
    with pinned_library():
        return _search(spec, ruleset, players, seed, difficulty, exclude, unlike, bound)


def _search(
    spec: str,
    ruleset: str | None,
    players: int | None,
    seed: int,
    difficulty: int | None,
    exclude: tuple[str, ...],
    unlike: Puzzle | None,
    bound: int | None,
) -> Puzzle:
    kind, theme, lesson = parse_spec(spec)
    if theme is None and lesson is None and difficulty is None and not exclude and unlike is None:
        rid, n = resolve_choice(kind, ruleset, players, seed)
        return _build(kind, rid, n, seed)
    gen = kind_of(kind)
    if bound is None:
        bound = THEME_SEARCH if theme or lesson else DIFFICULTY_SEARCH
    best: Puzzle | None = None
    why: dict[str, int] = {}
    lib, valid = library(), applicable_rulesets(kind)  # the same for every seed
    for s in range(seed, seed + bound):
        rid, n = _resolve(kind, ruleset, players, s, lib, valid)
        if theme and not gen.plan_may_fit(plan_of(kind, rid, n, s), theme):
            why[f"none carries the theme {theme}"] = (
                why.get(f"none carries the theme {theme}", 0) + 1
            )
            continue
        try:
            p = _build(kind, rid, n, s)
        except GenerationError:
            continue
        if p.id in exclude or (unlike is not None and same_question(p, unlike)):
            continue
        reason = misfit(p, theme, lesson)
        if reason:
            why[reason] = why.get(reason, 0) + 1
            continue
        if difficulty is None or p.difficulty == difficulty:
            return p
        if best is None or abs(p.difficulty - difficulty) < abs(best.difficulty - difficulty):
            best = p
    if best is None:
        because = ""
        if why:
            top = max(why, key=lambda k: why[k])
            because = f": {top}"
        raise GenerationError(
            f"no {spec} puzzle found in {bound} seeds from {seed}"
            + (f" under {ruleset}" if ruleset else "")
            + because
        )
    return best


def same_question(a: Puzzle, b: Puzzle) -> bool:
    """True when ``a`` asks what ``b`` asks: the same question with the same answer, about the
    same position (or about none)."""
    if a.question != b.question or a.answer != b.answer:
        return False
    if not (a.has_position and b.has_position):
        return True
    return a.record == b.record and a.seat == b.seat


def misfit(puzzle: Puzzle, theme: str | None, lesson: str | None = None) -> str:
    """Why ``puzzle`` does not answer a spec's ``theme`` and ``lesson`` (see :func:`fits`), in
    a few words ("" when it does): its theme, a theme or a board taught later, or too many
    stars."""
    if theme is not None and theme != puzzle.theme and theme not in puzzle.themes:
        return f"none carries the theme {theme}"
    bound = lesson or (taught_in(puzzle.kind, theme) if theme else None)
    if bound:
        need = needs(puzzle)
        if need is None or need > bound:
            later = shown_later(puzzle, bound)
            if later:
                feat = board_features_table()[later[0]]
                when = (
                    f"taught in {feat.lesson}" if feat.lesson else "a house rule no lesson teaches"
                )
                return f"their boards show {feat.words} ({when})"
            return (
                f"they ask what is taught in {need}"
                if need
                else "they ask about a house rule no lesson teaches"
            )
    if lesson is not None and puzzle.difficulty > max_stars(lesson):
        return f"they are harder than {max_stars(lesson)} stars"
    return ""


def fits(puzzle: Puzzle, theme: str | None, lesson: str | None = None) -> bool:
    """Whether ``puzzle`` answers a spec's ``theme`` and ``lesson``: it carries the theme (as its
    main theme or a tag) and needs nothing taught after the theme's lesson; with ``lesson`` it
    needs nothing taught after that lesson (whatever the theme's), its board shows nothing
    taught after it, and it has at most :func:`max_stars` stars."""
    return not misfit(puzzle, theme, lesson)


def derived_seed(text: str) -> int:
    """A 48-bit seed from ``text`` (SHA-256, the same on every machine)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")
