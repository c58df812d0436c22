"""Helpers shared by the fuzz tests (marker ``fuzz``): how many examples each runs, and
mutations of a YAML file's text (sources, lessons, puzzle definitions) as a careless editor or a
hostile file would make them.

Every ``pytest`` runs the fuzz tests under the short profile: a few examples each, derandomized,
a few seconds in all.  ``pytest -m fuzz`` runs the long profile: random examples, as many as fit
in LAUGH_FUZZ_MINUTES minutes (default 10) shared among the fuzz tests by what an example of
each costs, or LAUGH_FUZZ_EXAMPLES examples each when that is set.  (tests/conftest.py chooses
the profile and sets :data:`PROFILE`.)
"""

from __future__ import annotations

import os

from hypothesis import settings
from hypothesis import strategies as st

#: The hypothesis profile in use, ``short`` or ``long`` (set by tests/conftest.py).
PROFILE = "short"
#: How many fuzz tests share the long run's minutes.
FUZZ_TESTS = 5


def fuzz_settings(cost: float, short: int = 20) -> settings:
    """Settings for a fuzz test whose examples take about ``cost`` seconds each (measured on two
    busy cores): ``short`` examples under the short profile; under the long one, its share of
    LAUGH_FUZZ_MINUTES, or LAUGH_FUZZ_EXAMPLES."""
    if PROFILE != "long":
        return settings(max_examples=short)
    fixed = os.environ.get("LAUGH_FUZZ_EXAMPLES")
    if fixed:
        return settings(max_examples=int(fixed))
    minutes = float(os.environ.get("LAUGH_FUZZ_MINUTES", "10"))
    return settings(max_examples=max(10, int(minutes * 60 / FUZZ_TESTS / cost)))


#: Lines and fragments that YAML treats specially, and some that are plain mistakes.
SNIPPETS = [
    "&a",
    "*a",
    "<<: *a",
    "? [x]",
    ": y",
    "!!python/object/apply:os.system [ls]",
    "!!binary x",
    "!!int abc",
    "- - -",
    "{",
    "}",
    "[",
    "]",
    "'",
    '"',
    "|",
    ">",
    "%YAML 1.1",
    "---",
    "...",
    "\t",
    "key: value",
    "  - item",
    "x: &a [1, 2]",
    "y: *a",
    "y: *nowhere",
    "0: zero",
    "1.5: x",
    "null: ~",
    "true: yes",
    "date: 2018-13-45",
    "n: " + "9" * 5000,
    's: "\\xff"',
    "#",
    ":",
    "a: b: c",
    "- a\n b",
    "\ufeff",
    "\u2028",
    "é",
    "☃",
    "\x00",
    "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    + "\n".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9)),
    "[" * 2000,
    "- " * 500 + "x",
]

values = (
    st.sampled_from(SNIPPETS)
    | st.text(max_size=20)
    | st.from_regex(r"[a-z0-9_\-:\[\]{},&*!|>'\" #@%.]{0,20}", fullmatch=True)
)


def mutate_yaml(data, text: str, first: int = 0) -> str:
    """One to four mutations of ``text`` (lines before ``first`` are left alone): lines dropped,
    duplicated, swapped, re-indented or replaced, a value rewritten, a snippet inserted, the text
    cut short."""
    lines = text.split("\n")
    for _ in range(data.draw(st.integers(1, 4), label="mutations")):
        if len(lines) <= first:
            lines.append("")
        i = data.draw(st.integers(first, len(lines) - 1), label="line")
        j = data.draw(st.integers(first, len(lines) - 1), label="other line")
        how = data.draw(
            st.sampled_from(
                [
                    "drop",
                    "duplicate",
                    "swap",
                    "indent",
                    "dedent",
                    "value",
                    "insert",
                    "replace",
                    "truncate",
                ]
            ),
            label="how",
        )
        if how == "drop":
            del lines[i]
        elif how == "duplicate":
            lines.insert(j, lines[i])
        elif how == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif how == "indent":
            lines[i] = " " * data.draw(st.integers(1, 4), label="spaces") + lines[i]
        elif how == "dedent":
            lines[i] = lines[i].lstrip()
        elif how == "value":
            head, sep, _ = lines[i].partition(": ")
            lines[i] = head + (sep or ": ") + data.draw(values, label="value")
        elif how == "insert":
            lines.insert(i, data.draw(values, label="snippet"))
        elif how == "replace":
            lines[i] = data.draw(values, label="snippet")
        else:
            keep = "\n".join(lines)
            cut = data.draw(st.integers(0, len(keep)), label="cut")
            lines = keep[:cut].split("\n")
    return "\n".join(lines)
