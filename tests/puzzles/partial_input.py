"""A partial-input learner (issue 42): it answers multiple-choice puzzles from their wording
alone, and must do no better than chance allows.

The learner reads a puzzle's question text only (what the screen shows above the prompt, without
the board, the rules or the sources): the stem and its lettered options (``A) ...``, and the
numbered ones of a second question, ``1) ...``, where a puzzle asks one), or the
inline ``A) ..., or B) ...?`` of a two-way question.  It is general rather than a list of cues:
each option becomes a row of surface features and a logistic regression (scikit-learn, a test
dependency) learns which rows are right:

- the option's words and word pairs, and the words it shares with the stem;
- its position (A, B, ...) and whether it is the last;
- its length in characters and words, as is and against the item's mean, and whether it is the
  shortest or the longest;
- repeated values: how many other options carry the same part (the text between commas, colons
  and semicolons), the same value (the text after its last colon), and how alike it is to the
  others (word overlap), each as is and as a rank within the item;
- how many words it shares with the stem, as is and against the item's best;
- every pair of a stem word and one of the option's words (``x=stem|option``), so that it can
  learn "a question that says X is answered Y" where X and Y are not the same words: the value
  a question names and the status it is given, a ruleset's name and its rule.  Quotations are
  left out of the pairs: a quotation is the evidence the puzzle asks to read, and a learner
  pairing its words with the options (a sentence's words with the source whose voice it is,
  with the value it gives, with "a description of play") would be doing the puzzle, not
  guessing it.  This is a hypothesis-only baseline, as in NLP: the premise (the quoted text)
  is hidden from the pairs, the claim (what the question names, what the options name) is
  not.

The option with the highest score is its answer.  It is cross-validated by quotation and by
fact (:class:`~sklearn.model_selection.GroupKFold`): items that show the same quotation (any text
between “ and ”), ask the same question about no position (the same stem, as a setup question
asked again of the same ruleset), or test the same fact (:func:`facts`: a source's rule for one
parameter, a quoted sentence, a dated record) are in one group, joined transitively, so a
quotation, question or fact it is tested on was never in its training half.  A learner that
answers "what does Parlett do with a mournival dealt to the table?" from other puzzles asking
the same has learnt the rule, as a flash card teaches it, not read the answer off the wording;
what it must not do is answer a fact it never saw from how the question is put.

Two switches, for measuring only (the test runs with neither): ``PARTIAL_INPUT_PAIRS=0`` drops
the stem x option pairs, ``PARTIAL_INPUT_BY_FACT=0`` groups by quotation and question alone.

Chance is worked out per item (1 / its number of options) and averaged.  An item is a puzzle's
question with exactly one right option (a legal-play puzzle with several legal moves and a
timeline ordering are not single choices and are left out); a puzzle asking a second,
numbered question gives two items, named apart (``kind`` and ``kind/words``).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold
from threadpoolctl import threadpool_limits

import tutor.puzzles as P
from tutor.engine.sources import default_library

_LETTER_OPT = re.compile(r"^([A-H])\) (.*)$", re.M)
_NUMBER_OPT = re.compile(r"^([1-9])\) (.*)$", re.M)
_INLINE = re.compile(r"\bA\) (.+?),? or B\) (.+?)\?")
_QUOTED = re.compile(r"“([^”]+)”")
_TOKEN = re.compile(r"[a-z]+|\d+|[♣♦♥♠]")
PAIRS = os.environ.get("PARTIAL_INPUT_PAIRS", "1") != "0"
BY_FACT = os.environ.get("PARTIAL_INPUT_BY_FACT", "1") != "0"
_STOP = frozenset(
    "a an the of to in on and or is it its this be by for as with that which what who".split()
)


@dataclass
class Item:
    """One single-choice question read from a puzzle: ``stem`` (the question without its
    options), ``options`` (their texts, in order), ``right`` (the right option's index),
    ``quotes`` (the quotations the question shows), ``name`` (the kind, or ``kind/words``)."""

    name: str
    pid: str
    stem: str
    options: list[str]
    right: int
    quotes: list[str] = field(default_factory=list)
    position: bool = True
    facts: list[str] = field(default_factory=list)


def facts(p: P.Puzzle) -> list[str]:
    """The facts puzzle ``p`` tests, as keys: ``source|parameter`` for a source's rule (the
    ruleset's source, and each quoted source, for a reading, a disagreement between two
    rulesets or a setup question, and each ruleset's source a setup question names), ``quote|ref`` for a quoted sentence whose source is asked,
    ``record|ref`` for a dated record; none for a puzzle about a position."""
    d = p.data
    if d.get("position", True):
        return []
    src = default_library().ruleset_source
    keys: list[str] = []
    quoted = [d["quote"]] if isinstance(d.get("quote"), str) else list(d.get("quotes", []))
    if p.kind == "reading":
        keys += [
            f"{s}|{d['parameter']}" for s in [src[p.ruleset]] + [q.split(":")[0] for q in quoted]
        ]
    elif p.kind == "source-quiz":
        if d.get("variant") == "which":
            keys += [f"quote|{d['quote']}"]
        else:
            keys += [f"{src[r]}|{d['parameter']}" for r in d["rulesets"]]
    elif p.kind == "deal-setup":  # a question may name another ruleset beside the puzzle's
        named = dict.fromkeys(src[r] for r in [p.ruleset, *d.get("rulesets", [])])
        keys += [f"{s}|{f}" for s in named for f in d.get("asked", [])]
    elif p.kind == "timeline":
        keys += [f"record|{r}" for r in ([d["record"]] if "record" in d else d.get("records", []))]
        keys += [f"quote|{q}" for q in quoted]
    return keys


def items(p: P.Puzzle) -> list[Item]:
    """The single-choice items of puzzle ``p`` (none for a puzzle answered otherwise)."""
    q = p.question
    answer = p.accepted[0]
    quotes = _QUOTED.findall(q)
    letters = _LETTER_OPT.findall(q)
    numbers = _NUMBER_OPT.findall(q)
    out: list[Item] = []
    if letters:
        right = re.findall(r"[A-H]", answer)
        stem = _NUMBER_OPT.sub("", _LETTER_OPT.sub("", q))
        if len(right) == 1:
            keys = [k for k, _ in letters]
            out.append(
                Item(p.kind, p.id, stem, [t for _, t in letters], keys.index(right[0]), quotes)
            )
        if numbers:
            digit = re.findall(r"[1-9]", answer)
            if len(digit) == 1:
                keys = [k for k, _ in numbers]
                out.append(
                    Item(
                        f"{p.kind}/words",
                        p.id,
                        stem,
                        [t for _, t in numbers],
                        keys.index(digit[0]),
                        quotes,
                    )
                )
    elif m := _INLINE.search(q):
        right = re.findall(r"[AB]", answer.upper()[:1])
        if len(right) == 1:
            out.append(
                Item(
                    p.kind,
                    p.id,
                    q[: m.start()] + q[m.end() :],
                    [m.group(1), m.group(2)],
                    "AB".index(right[0]),
                    quotes,
                )
            )
    for it in out:
        it.position = p.has_position
        it.facts = facts(p)
    return out


def _words(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _content(text: str) -> set[str]:
    return {w for w in _words(text) if w not in _STOP}


def _parts(text: str) -> list[str]:
    return [s.strip().lower() for s in re.split(r"[,:;]", text) if s.strip()]


def _ranks(values: list[float]) -> list[float]:
    """Each value's rank within the item, 0 (lowest) to 1 (highest); ties share a rank."""
    order = sorted(set(values))
    top = max(len(order) - 1, 1)
    return [order.index(v) / top for v in values]


def features(item: Item) -> list[dict[str, float]]:
    """One feature dict per option of ``item`` (see the module docstring)."""
    opts = item.options
    n = len(opts)
    stem = _content(item.stem)
    claim = _content(_QUOTED.sub(" ", item.stem))
    words = [_words(o) for o in opts]
    content = [_content(o) for o in opts]
    parts = [_parts(o) for o in opts]
    values = [o.rsplit(":", 1)[-1].strip().lower() for o in opts]
    chars = [float(len(o)) for o in opts]
    nwords = [float(len(w)) for w in words]
    shared_stem = [float(len(c & stem)) for c in content]
    alike = []
    part_repeat = []
    for i in range(n):
        others = [j for j in range(n) if j != i]
        alike.append(
            sum(len(content[i] & content[j]) / max(1, len(content[i] | content[j])) for j in others)
            / max(1, len(others))
        )
        part_repeat.append(float(sum(1 for s in parts[i] for j in others if s in parts[j])))
    value_repeat = [float(Counter(values)[v] - 1) for v in values]
    columns = {
        "chars": chars,
        "words": nwords,
        "shared_stem": shared_stem,
        "alike": alike,
        "part_repeat": part_repeat,
        "value_repeat": value_repeat,
    }
    rows = []
    for i in range(n):
        f: dict[str, float] = {f"pos={i}": 1.0, "last": float(i == n - 1), "bias": 1.0}
        for name, col in columns.items():
            mean = sum(col) / n
            spread = (max(col) - min(col)) or 1.0
            f[name] = col[i] / (max(col) or 1.0)
            f[f"{name}-mean"] = (col[i] - mean) / spread
            f[f"{name}-rank"] = _ranks(col)[i]
            f[f"{name}-top"] = float(col[i] == max(col) and col.count(max(col)) == 1)
            f[f"{name}-bottom"] = float(col[i] == min(col) and col.count(min(col)) == 1)
        for w in set(words[i]):
            f[f"w={w}"] = 1.0
        for a, b in zip(words[i], words[i][1:]):
            f[f"ww={a} {b}"] = 1.0
        for w in content[i] & stem:
            f[f"stem={w}"] = 1.0
        if PAIRS:
            for s in claim:
                for w in _content(_QUOTED.sub(" ", opts[i])):
                    f[f"x={s}|{w}"] = 1.0
        rows.append(f)
    return rows


def _same_question(item: Item) -> str:
    """The stem as a key: the same question (say, what a ruleset does with a mournival dealt
    to the table) asked again is never both learnt from and tested on."""
    return "stem: " + " ".join(item.stem.lower().split())


def _groups(its: list[Item]) -> list[int]:
    """A group per item: items showing a quotation in common, asking the same question (the
    same stem) about no position, or testing a fact in common (:func:`facts`) share one
    (transitively)."""
    parent = list(range(len(its)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[str, int] = {}
    for i, it in enumerate(its):
        keys = [" ".join(q.lower().split()) for q in it.quotes]
        keys += [f"fact: {k}" for k in it.facts] if BY_FACT else []
        for key in keys if it.position else keys + [_same_question(it)]:
            if key in first:
                parent[root(i)] = root(first[key])
            else:
                first[key] = i
    return [root(i) for i in range(len(its))]


@dataclass
class Score:
    """The learner's cross-validated result on one kind's items: ``accuracy`` (share of items
    answered right), ``chance`` (mean of 1 / options), ``items`` and ``groups`` (counted)."""

    name: str
    accuracy: float
    chance: float
    items: int
    groups: int

    def line(self) -> str:
        return (
            f"{self.name:<22} learner {self.accuracy:.2f}  chance {self.chance:.2f}  "
            f"({self.items} items, {self.groups} quotation groups)"
        )


def one_thread() -> threadpool_limits:
    """The learners' numerical libraries (OpenBLAS, OpenMP) held to one thread, restored after.

    Their vectors are too small to gain from a second thread, and on a machine whose cores run
    the other test workers the second thread's busy-waiting cost more processor time than the
    fit itself (test_partial_input's claim-window and keep: 15.9 s of CPU with two threads,
    8.8 s with one).  One thread also sums in one order on any machine."""
    return threadpool_limits(limits=1)


def cross_validate(name: str, its: list[Item], folds: int = 5) -> Score:
    """Train on some quotation groups, answer the others, for every fold; the share of items
    answered right, beside chance."""
    with one_thread():
        return _cross_validate(name, its, folds)


def _cross_validate(name: str, its: list[Item], folds: int) -> Score:
    groups = _groups(its)
    chance = float(np.mean([1 / len(it.options) for it in its]))
    k = min(folds, len(set(groups)))
    if k < 2:
        raise ValueError(
            f"{name}: {len(set(groups))} quotation group(s), too few to cross-validate"
        )
    rows = [features(it) for it in its]
    # every option's features vectorised once (a column no training item has is all zeros
    # there, so its weight stays 0: the vocabulary of the test half tells the model nothing)
    x_all = DictVectorizer().fit_transform([f for r in rows for f in r]).tocsr()
    start = np.cumsum([0] + [len(r) for r in rows])
    right = 0
    for train, test in GroupKFold(n_splits=k).split(its, groups=groups):
        take = np.concatenate([np.arange(start[i], start[i + 1]) for i in train])
        y = [int(j == its[i].right) for i in train for j in range(len(its[i].options))]
        if len(set(y)) < 2:
            continue
        model = LogisticRegression(C=1.0, max_iter=2000)
        model.fit(x_all[take], y)
        for i in test:
            scores = model.decision_function(x_all[start[i] : start[i + 1]])
            right += int(int(np.argmax(scores)) == its[i].right)
    return Score(name, right / len(its), chance, len(its), len(set(groups)))


def score_puzzles(puzzles: list[P.Puzzle], form=None) -> dict[str, Score]:
    """The learner's :class:`Score` for each item name found in ``puzzles``; with ``form`` (a
    function of a puzzle), each form of a kind apart (``kind:form``), so that a form answered
    from its wording is not hidden behind another that is not."""
    by_name: dict[str, list[Item]] = {}
    for p in puzzles:
        for it in items(p):
            if form is not None:
                it.name = f"{it.name}:{form(p)}"
            by_name.setdefault(it.name, []).append(it)
    return {name: cross_validate(name, its) for name, its in sorted(by_name.items())}
