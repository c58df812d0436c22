"""``coach``: a deal played against computer players with a coach, who stops at each new
situation and points to the lesson page that teaches it; then a second deal, the coach silent
unless asked.

```yaml
level: beginner                 # the computer players (a level of tutor.engine.levels)
players: 5                      # default 5
deals:                          # one seeded deal per ruleset the block may be played under;
  parlett: 1234                 #   the first is the course's, the others for a track that
  inter-livery-2018: 5678       #   fixes the ruleset
stops:                          # every situation of tutor.teaching.coach.SITUATIONS
  capture: {lesson: capturing, page: "A turn: you must capture", from: "On your turn",
            quotes: [parlett:capture-one-or-three]}
  settlement/inter-livery-2018: {...}   # a situation's stop for one ruleset's deal
```

A stop names a lesson (its id), a page of it (its first heading), the words from which the
coach shows that page's paragraph (``from``), and quotations quoted on that page; ``advice``
(optional) is one more quotation (``source:id``, quoted somewhere in the course) the coach
gives as one line of advice (at the first capture: Willughby's, in Parlett's summary).  This reader
checks the shape, the rulesets, the seeds and the quotations; the pages are checked against
the course by ``laugh lessons check`` (:func:`tutor.teaching.coach.stop_problems`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.teaching.lessons._common import _ID_RE, _REF_RE, _shown
from tutor.teaching.lessons._model import CoachData, Stop
from tutor.teaching.lessons._stops import SITUATIONS

if TYPE_CHECKING:
    from tutor.teaching.lessons._blockcheck import BlockChecker

DESCRIPTION = (
    "a deal against computer players with a coach who stops at each new situation "
    "(its seeded deal per ruleset, the level, the lesson page of each stop), then "
    "a deal with the coach silent unless asked"
)

_STOP_KEYS = ("lesson", "page", "from", "quotes", "advice")
_MAX_SEED = 999_999_999_999_999_999


def parse(ck: BlockChecker, content: str, line: int) -> CoachData | None:
    """``{"level", "players", "deals": {ruleset: seed}, "stops": {name: Stop}}``: a stop's
    name is its situation, or ``situation/ruleset`` for the deal under that ruleset."""
    from tutor.engine.levels import LEVELS

    got = ck.mapping(
        "coach", content, line, ("level", "players", "deals", "stops"), ("deals", "stops")
    )
    if got is None:
        return None
    data, lines = got
    ok = True
    level = data.get("level", "beginner")
    if level not in LEVELS:
        ck.fail(
            lines.get("level", line),
            "coach.level",
            f"unknown level {_shown(level)} (levels: {', '.join(LEVELS)})",
        )
        ok = False
    good, players = ck.whole_number("coach", data, lines, "players", 2, 8, 5, line)
    ok &= good
    deals = _deals(ck, data["deals"], players, lines.get("deals", line))
    stops = {}
    raw = data["stops"]
    where = lines.get("stops", line)
    if not isinstance(raw, dict):
        ck.fail(
            where,
            "coach.stops",
            f"must map each situation to its stop (situations: {', '.join(SITUATIONS)})",
        )
        return None
    for key in raw:
        sit, _, rid = str(key).partition("/")
        if sit not in SITUATIONS:
            ck.fail(
                where,
                f"coach.stops.{_shown(key)}",
                f"unknown situation (situations: {', '.join(SITUATIONS)})",
            )
            ok = False
        elif rid and deals is not None and rid not in deals:
            ck.fail(
                where,
                f"coach.stops.{key}",
                f"'{rid}' is not a ruleset of the block's deals ({', '.join(deals)})",
            )
            ok = False
        else:
            stop = _stop(ck, key, sit, raw[key], where)
            ok &= stop is not None
            stops[key] = stop
    for sit in SITUATIONS:
        if sit not in raw:
            ck.fail(
                where,
                f"coach.stops.{sit}",
                "missing: the coach needs a lesson page for every situation",
            )
            ok = False
    if not ok or deals is None:
        return None
    assert players is not None  # a default is given
    return CoachData(level=level, players=players, deals=deals, stops=stops)


def _deals(ck: BlockChecker, raw, players: int | None, where: int) -> dict[str, int] | None:
    """``{ruleset: seed}``: known rulesets covering ``players``, whole-number seeds."""
    if not isinstance(raw, dict) or not raw:
        ck.fail(where, "coach.deals", "must map a ruleset to the seed of its deal (parlett: 1234)")
        return None
    out = {}
    for rid, seed in raw.items():
        rs = ck.ruleset("coach", rid, where, key="deals")
        if rs is None or not ck.players("coach", rs, players, where):
            return None
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MAX_SEED:
            ck.fail(
                where, f"coach.deals.{rid}", f"{_shown(seed)} is not a seed (a whole number from 0)"
            )
            return None
        out[rid] = seed
    return out


def _stop(ck: BlockChecker, name: str, sit: str, raw, where: int):
    """The :class:`~tutor.teaching.coach.Stop` of the stop ``name`` (a situation, or
    ``situation/ruleset``), or None after a problem."""
    from tutor.engine.errors import DataError

    key = f"coach.stops.{name}"
    if (
        not isinstance(raw, dict)
        or set(raw) - set(_STOP_KEYS)
        or not {"lesson", "page", "from"} <= set(raw)
    ):
        ck.fail(where, key, "must be {lesson: ID, page: HEADING, from: WORDS, quotes: [...]}")
        return None
    lesson, page, phrase = raw["lesson"], raw["page"], raw["from"]
    if not isinstance(lesson, str) or not _ID_RE.match(lesson):
        ck.fail(where, f"{key}.lesson", f"{_shown(lesson)} is not a lesson id")
        return None
    for name, v in (("page", page), ("from", phrase)):
        if not isinstance(v, str) or not v.strip():
            ck.fail(where, f"{key}.{name}", "must be non-empty text")
            return None
    quotes = raw.get("quotes", [])
    if not isinstance(quotes, list) or not all(
        isinstance(q, str) and _REF_RE.match(q) for q in quotes
    ):
        ck.fail(where, f"{key}.quotes", "must be a list of quotations (source:id)")
        return None
    for q in quotes:
        try:
            ck.library.quotation(q)
        except DataError as exc:
            ck.fail(where, f"{key}.quotes", str(exc))
            return None
    advice = raw.get("advice")
    if advice is not None:
        if not isinstance(advice, str) or not _REF_RE.match(advice):
            ck.fail(where, f"{key}.advice", "must be one quotation (source:id)")
            return None
        try:
            ck.library.quotation(advice)
        except DataError as exc:
            ck.fail(where, f"{key}.advice", str(exc))
            return None
    return Stop(sit, lesson, page.strip(), " ".join(phrase.split()), tuple(quotes), advice)
