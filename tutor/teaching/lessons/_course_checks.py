"""Checks across the course: lesson ids unique, prerequisites that name earlier lessons, and no
puzzle set before its teaching or harder than its lesson allows."""

from __future__ import annotations

from tutor.teaching.lessons._common import _STEM_RE, _display
from tutor.teaching.lessons._model import Lesson, PuzzleData
from tutor.teaching.lessons._stops import stop_problems


def _course_problems(lessons: list[Lesson], known: list[str] | None = None) -> list[str]:
    """Duplicate ids and bad prerequisites.  ``known`` lists the ids of every file in course
    order, read from front matter alone (so a lesson that fails to load still counts)."""
    problems = teaching_problems(lessons) + coach_problems(lessons)
    seen: dict[str, Lesson] = {}
    for lesson in lessons:
        where = f"{_display(lesson.path)}:2: id"
        if lesson.id in seen:
            problems.append(
                f"{where}: lesson id '{lesson.id}' is also used by {_display(seen[lesson.id].path)}"
            )
        seen.setdefault(lesson.id, lesson)
    order = {
        lid: i
        for i, lid in enumerate(known if known is not None else [lesson.id for lesson in lessons])
    }
    for lesson in lessons:
        i = order.get(lesson.id, len(order))
        for pre in lesson.prerequisites:
            if pre not in order:
                problems.append(
                    f"{_display(lesson.path)}:1: prerequisites: unknown lesson "
                    f"'{pre}' (lessons: {', '.join(order)})"
                )
            elif order[pre] >= i:
                problems.append(
                    f"{_display(lesson.path)}:1: prerequisites: '{pre}' does not "
                    f"come before '{lesson.id}' in the course"
                )
    return problems


def _board_problems(lesson: Lesson, b, kind: str, where: str, stems: dict) -> list[str]:
    """What the block's puzzles would show that the lesson has not taught: the features every
    board of its kind shows under its ruleset (its pot or points line), and, set as the lesson
    sets them (:func:`tutor.puzzles.probe` from the block's first seed), whether any puzzle of
    the block can be found whose board shows only what is taught by then."""
    from tutor import puzzles
    from tutor.engine.sources import default_library
    from tutor.puzzles.model import board_features_table
    from tutor.teaching.lessons._common import puzzle_seed, resolve_players

    stem = lesson.path.stem
    d = b.puzzle()
    table = board_features_table()
    if d.get("ruleset"):
        rs = default_library().rulesets[d["ruleset"]]
        n = resolve_players(rs, d.get("players"))
        shown = set(puzzles.board_needs(kind, rs.id, n))
        later = [
            feat
            for f, feat in table.items()
            if f in shown and (feat.lesson is None or feat.lesson > stem)
        ]
        if later:

            def when(feat) -> str:
                taught = stems.get(feat.lesson)
                return (
                    f"taught in lesson {taught.number}, {taught.title}"
                    if taught
                    else f"taught in {feat.lesson}"
                    if feat.lesson
                    else "taught by no lesson"
                )

            return [
                f"{where}.ruleset: every board of '{kind}' under '{rs.id}' shows "
                + ", ".join(f"{feat.words} ({when(feat)})" for feat in later)
                + ", which come after this lesson"
            ]
    seed = puzzle_seed(0, lesson.id, b.index, 0)
    why = _probe(d["kind"], d.get("ruleset"), d.get("players"), seed)
    if why:
        return [f"{where}.kind: no puzzle of this block can be set in this lesson: {why}"]
    return []


#: What :func:`_probe` found, for the library it was found with (a weak reference, as for
#: :data:`_DRAWN`: the same block probed again in one process costs nothing).
_PROBED: dict = {"lib": None}


def _probe(spec: str, ruleset: str | None, players: int | None, seed: int) -> str | None:
    """:func:`tutor.puzzles.probe` of ``spec`` (a block's ``kind``) under ``ruleset`` with
    ``players`` from ``seed``, remembered for the default library: None when a puzzle can be
    set, else why not in a few words."""
    from tutor import puzzles

    memo = _for_library(_PROBED)
    key = (spec, ruleset, players, seed)
    if key not in memo:
        memo[key] = puzzles.probe(spec, ruleset, players, seed)
    why: str | None = memo[key]
    return why


def _for_library(memo: dict) -> dict:
    """``memo`` (:data:`_PROBED`, :data:`_DRAWN`), emptied first when the default library is
    not the one it was filled with (held by a weak reference): a cleared library cache, or
    another folder of sources, is checked afresh."""
    import weakref

    from tutor.engine.sources import default_library

    lib = default_library()
    if memo.get("lib") is None or memo["lib"]() is not lib:
        memo.clear()
        memo["lib"] = weakref.ref(lib)
    return memo


#: How many puzzles of each timeline block the check draws (the seeds a lesson taken with seeds
#: 0, 1, ... would pose first).
RECORD_DRAWS = 12


def record_problems(lessons: list[Lesson]) -> list[str]:
    """A puzzle about a record the lesson does not show: each ``timeline`` puzzle block's
    puzzles, drawn at :data:`RECORD_DRAWS` seeds, may ask only about records of the kinds a
    ``records`` block before it shows (the records come from the data, a teacher's too, so a
    record added is taught before it is asked).  One line ``FILE:LINE: KEY: message`` each."""
    from tutor import puzzles
    from tutor.engine.sources import default_library
    from tutor.puzzles.kinds.timeline import records_in
    from tutor.teaching.lessons._common import puzzle_seed

    lib = default_library()
    problems = []
    for lesson in lessons:
        shown: set[str] = set()
        for b in lesson.blocks():
            if b.kind == "records":
                kinds = b.records()["kinds"]
                shown |= {r.id for r in lib.records.values() if kinds is None or r.kind in kinds}
                continue
            if b.kind != "puzzle" or b.puzzle()["kind"].partition("/")[0] != "timeline":
                continue
            missing: dict[str, None] = {}
            for s in range(RECORD_DRAWS):
                p = puzzles.generate(
                    b.puzzle()["kind"],
                    ruleset=b.puzzle()["ruleset"],
                    players=b.puzzle()["players"],
                    seed=puzzle_seed(s, lesson.id, b.index, 0),
                    difficulty=b.puzzle()["difficulty"],
                )
                for rid in records_in(p):
                    if rid not in shown:
                        missing.setdefault(rid, None)
            for rid in missing:
                r = lib.records[rid]
                problems.append(
                    f"{_display(lesson.path)}:{b.line}: puzzle: its puzzles ask "
                    f"about the record '{rid}' ({r.date.text}, {r.citation_text}), "
                    "which the lesson does not show before them: add a records "
                    "block that shows it"
                )
    return problems


def coach_problems(lessons: list[Lesson]) -> list[str]:
    """Each ``coach`` block's stops against the course: the lesson, the page, the words shown
    and the quotations of every stop must stand in the course
    (:func:`tutor.teaching.coach.stop_problems`)."""
    by_id = {lesson.id: lesson for lesson in lessons}
    problems = []
    for lesson in lessons:
        for b in lesson.blocks("coach"):
            for name, stop in b.coach()["stops"].items():
                problems += [
                    f"{_display(lesson.path)}:{b.line}: coach.stops.{name}: {why}"
                    for why in stop_problems(stop, by_id)
                ]
    return problems


def teaching_problems(lessons: list[Lesson]) -> list[str]:
    """Puzzles set before their teaching: for each puzzle block of ``lessons`` (the course, in
    order), a problem when its theme is taught in a later lesson
    (:func:`tutor.puzzles.taught_in`), or without a theme when the kind's question is first
    taught in a later lesson (the block's puzzles are then drawn from what its own lesson has
    taught: see :class:`Block`), when no lesson teaches it, or when its difficulty is
    above what the lesson's place allows (:func:`tutor.puzzles.max_stars`: lessons 1-2 two
    stars, 3-4 three, 5-6 four), or when its puzzles' boards would show a rule taught later
    (:func:`_board_problems`: a claim, a dead pair declared, the breakeven, ... as
    ``puzzles/board.yaml`` names them).  Also a problem for every lesson the puzzle kinds'
    definitions name that is not a lesson of the course.  Each problem is one line ``FILE:LINE: KEY:
    message``."""
    from tutor import puzzles

    stems = {lesson.path.stem: lesson for lesson in lessons}
    problems = []
    for lesson in lessons:
        stem = lesson.path.stem
        if not _STEM_RE.match(stem):
            continue
        for b in lesson.blocks("puzzle"):
            d = b.puzzle()
            kind = d["kind"].partition("/")[0].partition("@")[0]
            theme = d.get("theme")
            where = f"{_display(lesson.path)}:{b.line}: puzzle"
            need = puzzles.taught_in(kind, theme) if theme else puzzles.definition(kind).lesson
            what = f"'{kind}'" + (f" on '{theme}'" if theme else "")
            if need is None:
                problems.append(f"{where}.theme: no lesson teaches puzzles of {what}")
            elif need > stem:
                taught = stems.get(need)
                name = f"lesson {taught.number}, {taught.title}" if taught else need
                problems.append(
                    f"{where}.{'theme' if theme else 'kind'}: puzzles of {what} "
                    f"are taught in {name}, which comes after this lesson"
                )
            cap = puzzles.max_stars(stem)
            if d.get("difficulty") is not None and d["difficulty"] > cap:
                problems.append(
                    f"{where}.difficulty: {d['difficulty']} stars is above what "
                    f"lesson {lesson.number or stem[:2]} allows ({cap})"
                )
            if need is not None and need <= stem:
                problems.extend(_board_problems(lesson, b, kind, where, stems))
    if lessons and all(_STEM_RE.match(x.path.stem) for x in lessons):
        for kind in puzzles.KINDS:
            defn = puzzles.definition(kind)
            named = [defn.lesson] + [v for v in defn.themes.values() if v]
            for name in dict.fromkeys(n for n in named if n):
                if name not in stems:
                    problems.append(
                        f"{defn.path.name}:1: lesson: '{name}' is not a lesson of "
                        f"the course (lessons: {', '.join(stems)})"
                    )
    return problems


#: How many lesson seeds ``laugh lessons check`` draws each puzzle block at
#: (:func:`serve_problems`); the test suite draws fewer, a ``slow`` test this many.
SERVE_DRAWS = 50


def serve_problems(
    lessons: list[Lesson], draws: int = SERVE_DRAWS, whole_course: bool = False
) -> list[str]:
    """Puzzles that do not serve their block's objective: each puzzle block whose objective
    lists the themes that serve it is drawn as a lesson taken with seeds 0 to ``draws`` - 1
    would pose it (puzzle ``s % count`` of the block at seed ``s``), and every puzzle drawn
    must ask about one of those themes (:attr:`tutor.puzzles.Puzzle.asks`: its themes, not a
    decoy's).  With ``whole_course`` (the course as shipped) every objective tested by a
    puzzle block must list its themes.  One line ``FILE:LINE: KEY: message`` each: for a
    block, how many of the puzzles drawn miss, and the first (its lesson seed and what it
    asks)."""
    problems = []
    for lesson in lessons:
        where = _display(lesson.path)
        for oid in lesson.objective_ids:
            if whole_course and oid not in lesson.objective_themes and lesson.objective_blocks(oid):
                problems.append(
                    f"{where}:1: objectives: '{oid}' lists no themes: say which "
                    "puzzle themes serve it (themes: [...])"
                )
        for b in lesson.blocks("puzzle"):
            d = b.puzzle()
            serving = lesson.objective_themes.get(d.get("objective") or "")
            if not serving or d.get("theme") is None:
                continue  # (a missing pin is the file's own problem)
            missed, first = _draw(lesson.id, b.index, d, tuple(serving), draws)
            if missed:
                problems.append(
                    f"{where}:{b.line}: puzzle: {missed} of {draws} puzzles drawn "
                    f"do not serve the objective '{d['objective']}' (themes: "
                    f"{', '.join(serving)}): {first}"
                )
    return problems


#: What :func:`_draw` found, for the library it was found with (a weak reference: the same
#: block drawn again in one process, as the tests check the course many times, costs nothing).
_DRAWN: dict = {"lib": None}


def _draw(
    lesson_id: str, index: int, d: PuzzleData, serving: tuple[str, ...], draws: int
) -> tuple[int, str]:
    """``(missed, first)``: how many of the ``draws`` puzzles of the block (``d`` its data,
    ``index`` its place in lesson ``lesson_id``) ask about none of ``serving``, and the first of
    them in a few words ("" when none)."""
    from tutor import puzzles
    from tutor.engine.errors import LaughError
    from tutor.teaching.lessons._common import puzzle_seed

    _for_library(_DRAWN)
    key = (
        lesson_id,
        index,
        d["kind"],
        d.get("ruleset"),
        d.get("players"),
        d.get("difficulty"),
        d["count"],
        serving,
        draws,
    )
    if key in _DRAWN:
        return _DRAWN[key]
    missed, first = 0, ""
    for s in range(draws):
        try:
            p = puzzles.generate(
                d["kind"],
                ruleset=d.get("ruleset"),
                players=d.get("players"),
                seed=puzzle_seed(s, lesson_id, index, s % d["count"]),
                difficulty=d.get("difficulty"),
            )
        except LaughError as exc:
            missed += 1
            first = first or f"at lesson seed {s} no puzzle can be set ({exc})"
            continue
        if not p.asks & set(serving):
            missed += 1
            first = first or (
                f"at lesson seed {s} it asks about "
                f"{', '.join(sorted(p.asks)) or 'nothing'} ({p.id})"
            )
    _DRAWN[key] = (missed, first)
    return missed, first
