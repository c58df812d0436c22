"""Hypothesis helpers shared by the fuzz tests of YAML files (sources, lessons, puzzle
definitions): mutations of a real file's text as a careless editor or a hostile file would make
them."""

from __future__ import annotations

from hypothesis import strategies as st

#: Lines and fragments that YAML treats specially, and some that are plain mistakes.
SNIPPETS = [
    "&a", "*a", "<<: *a", "? [x]", ": y", "!!python/object/apply:os.system [ls]", "!!binary x",
    "!!int abc", "- - -", "{", "}", "[", "]", "'", '"', "|", ">", "%YAML 1.1", "---", "...",
    "\t", "key: value", "  - item", "x: &a [1, 2]", "y: *a", "y: *nowhere", "0: zero", "1.5: x",
    "null: ~", "true: yes", "date: 2018-13-45", "n: " + "9" * 5000, "s: \"\\xff\"", "#", ":",
    "a: b: c", "- a\n b", "\ufeff", "\u2028", "é", "☃", "\x00",
    "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    + "\n".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9)),
    "[" * 2000, "- " * 500 + "x",
]

values = (st.sampled_from(SNIPPETS) | st.text(max_size=20)
          | st.from_regex(r"[a-z0-9_\-:\[\]{},&*!|>'\" #@%.]{0,20}", fullmatch=True))


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
        how = data.draw(st.sampled_from(["drop", "duplicate", "swap", "indent", "dedent",
                                         "value", "insert", "replace", "truncate"]), label="how")
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
