"""A commented template of a source file, with every ruleset parameter (``laugh sources new``).

The template loads as it stands (a four- and five-player stakes game in Parlett's numbers, every
value marked *chosen*), so a teacher can change one value at a time and try it at once.  Every
parameter of the parameter table (:mod:`tutor.engine.parameters`) is written out, with its
values and meaning as comments, so nothing has to be looked up elsewhere.
"""

from __future__ import annotations

import re

from tutor.engine.errors import UsageError
from tutor.engine.parameters import PARAMETERS, STATUS_MEANINGS

__all__ = ["source_template"]

_ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

#: The values the template starts from: Parlett's game, as data.
_START = {
    "first_dealer": "lowest_cut",
    "table_mournival": "dealer_takes",
    "captures": ["one_for_one", "one_for_three", "pair_for_pair", "prial_for_one"],
    "hand_plays": "free",
    "bonus_to": "last_in",
    "last_in_plays_on": "false",
    "leftovers_to": "dealer",
    "scoring": "stakes",
    "oversights": ["overlooked_table_mournival", "split_prial", "laid_down_dead_pair"],
    "captures_per_turn": "one",
    "declarations": ["prial", "mournival", "dead_pair"],
    "lie_down_pays": "null",
    "pot_to": "null",
    "match_format": "null",
}
_COUNTS = {
    4: {
        "hand": 10,
        "table": 12,
        "ante_dealer": 3,
        "ante_other": 2,
        "last_in_bonus": 3,
        "breakeven": 10,
    },
    5: {
        "hand": 8,
        "table": 12,
        "ante_dealer": 3,
        "ante_other": 2,
        "last_in_bonus": 5,
        "breakeven": 8,
    },
}


def _yaml_value(v: object) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(v) + "]"
    return str(v)


def _values_comment(name: str) -> str:
    spec = PARAMETERS[name]
    if spec.kind == "enum":
        vals = " | ".join(spec.values) + (" | null" if spec.nullable else "")
    elif spec.kind == "set":
        vals = "a list of any of " + ", ".join(spec.values)
    elif spec.kind == "bool":
        vals = "true | false"
    elif spec.kind == "payment":
        vals = "null | {stakes: N, to: each_in_play} | {stakes: N, to: pot}"
    elif spec.kind == "match":
        vals = "null | {rounds: R, games: G, practice: P}"
    else:
        vals = "a whole number" + (" or null" if spec.nullable else "")
    return vals


def source_template(source_id: str) -> str:
    """The text of a new source file with id ``source_id`` and one ruleset of the same id.

    Raises :class:`~tutor.engine.errors.UsageError` when ``source_id`` is not an id (lowercase
    letters and digits joined by dashes)."""
    if not _ID_RE.match(source_id):
        raise UsageError(
            f"{source_id!r} is not an id: use lowercase letters and digits joined "
            "by dashes, e.g. tuesday-club"
        )
    statuses = "; ".join(f"{k}: {v}" for k, v in STATUS_MEANINGS.items())
    out = [
        f"# A source file for Laugh and Lie Down: {source_id}",
        "# Put it in LAUGH_HOME/sources/ (or pass --sources DIR) and it is used everywhere:",
        "# laugh rules, simulate, play, puzzles, drills. `laugh rules --parameters` explains",
        "# every parameter; sources/README.md in the project describes the whole schema.",
        "# Every parameter has a value, a status and our note; stated and read values cite",
        "# quotations (ids from `quotations:` below, or another source's as source:id).",
        f"# Statuses: {statuses}.",
        f"id: {source_id}",
        "kind: house            # primary | reconstruction | rules-sheet | house",
        "citation: {author: Your name, title: Your title}",
        "text: null             # or the file name of the text the quotations are taken from",
        "summary: >-",
        "  In your own words: who plays this way, and how it differs from the sources.",
        'quotations: {}         # id: {text: "verbatim words", where: "section"}',
        "rulesets:",
        f"  {source_id}:",
        "    title: A short title",
        "    summary: One or two sentences in your own words.",
        "    players:           # one entry per player count; players x hand + table = 52",
    ]
    for n, values in _COUNTS.items():
        out.append(f"      {n}:")
        for name, v in values.items():
            spec = PARAMETERS[name]
            out.append(f"        # {name}: {spec.meaning} ({_values_comment(name)})")
            out.append(f"        {name}: {{value: {v}, status: chosen, note: Fill in.}}")
    for name, spec in PARAMETERS.items():
        if spec.scope != "ruleset":
            continue
        out.append(f"    # {name}: {spec.meaning}.")
        out.append(
            f"    #   values: {_values_comment(name)}"
            + (
                ""
                if spec.required
                else "; optional, default "
                + _yaml_value(
                    list(spec.default)
                    if isinstance(spec.default, tuple)
                    else ("null" if spec.default is None else spec.default)
                )
            )
        )
        out.append(
            f"    {name}: {{value: {_yaml_value(_START[name])}, status: chosen, note: Fill in.}}"
        )
    return "\n".join(out) + "\n"


def records_template(name: str) -> str:
    """The text of a new file of records of the game (a source of kind ``records``) with id
    ``name``: it loads as it stands and adds nothing until a record is written in; every key
    and each form of date is shown in comments, with an example to copy for each.

    Raises :class:`~tutor.engine.errors.UsageError` when ``name`` is not an id (lowercase
    letters and digits joined by dashes)."""
    if not _ID_RE.match(name):
        raise UsageError(
            f"{name!r} is not an id: use lowercase letters and digits joined by "
            "dashes, e.g. name-records-2"
        )
    from tutor.engine.sources import RECORD_KINDS

    kinds = "; ".join(f"{k}: {v}" for k, v in RECORD_KINDS.items())
    return "\n".join(
        [
            f"# Records of the game: {name}",
            "# This file is read at every start from your folder (LAUGH_HOME/sources). Each record",
            "# you add below is shown by `laugh sources`, placed in the timeline puzzles, taught in",
            "# lesson 1 and printed in the class pack, with its citation exactly as you give it.",
            "# `laugh sources check` names the file, line and key of every problem; a file with a",
            "# problem is left out (the program says so in one line) and never stops it.",
            "# Everything outside a quotation's text is in your own words.",
            f"id: {name}",
            "kind: records",
            "citation: {author: null, title: My records of the game}   # this file, not a record",
            "text: null    # or the file name (beside this one) of a text your quotations stand in",
            "summary: >-",
            "  Records of the game found since the program was written: where they were found.",
            "",
            "# The words of a record, verbatim, each with an id the record names (quote:). With",
            '# text: null above they are listed as "cited, not checked". To use an example,',
            "# remove the first '#' of each of its lines.",
            "quotations:",
            "#  pamphlet-words:",
            '#    text: "A game at Laugh and lie downe, which the boys do play"',
            '#    where: "Preface"',
            "",
            "# Each record: id, kind, date, citation, and optionally quote, reported_by, report, note.",
            f"# - kind: {kinds}",
            "# - date: a year (1702), c. 1665, by 1784 (at the latest), after 1700, 1590-1600,",
            "# - ... 1590s, 18th century, early/mid/late 17th century, or null (undated)",
            "# - citation: {author: ..., title: ..., page: ...} (author and page may be left out)",
            "# - quote: the id of a quotation above: its own words (leave it out if you have none:",
            "# - ... a record without words is shown as cited, never given invented ones)",
            "# - reported_by: a source id (laugh sources lists them) or a citation",
            "# - ... {author: ..., title: ..., date: ..., page: ...} of whoever reports it",
            "# - report: the id of a quotation above: the reporter's own words about it",
            "records:",
            "#  - id: pamphlet-1702",
            "#    kind: name",
            "#    date: 1702",
            "#    citation: {author: Anon., title: A True Relation, page: p. 4}",
            "#    quote: pamphlet-words",
            "#  - id: ballad-century",
            "#    kind: name",
            "#    date: 18th century",
            "#    citation: {title: A broadside ballad}",
            "#    reported_by: {author: A. Historian, title: Notes on old games, date: '2021'}",
            "#  - id: inventory-by-1784",
            "#    kind: name",
            "#    date: by 1784",
            "#    citation: {title: A shop's inventory, page: fol. 12}",
            "#    note: Known from a citation only, in a pamphlet of that year.",
            "",
        ]
    )
