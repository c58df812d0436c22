"""The engine speaks in structure (issue 29): outside ``tutor/engine`` no parameter value is
compared as a string, no module parses, rewrites or slices the engine's reasons, and the default
ruleset is named once, in the engine.

The checks read the source (Python's ``ast``), so they hold for code not yet run by any test:

- a comparison (``==``, ``!=``, ``in``, ``not in``), a set operation or a look-up in a literal
  table is flagged where a string of the parameter table's values (:mod:`tutor.engine.values`)
  meets a ruleset parameter (``rs.table_mournival == "set_aside_for_last_in"``,
  ``"one_for_one" in rs.captures``, ``{"stakes": ...}[rs.scoring]``, a local name read from one);
  a value whose name cannot be a plain word (``split_prial``, ``last_in``) is flagged whatever it
  meets.  Code asks the ruleset's :class:`~tutor.engine.game.Game`, or names an enum member.
- the engine's reasons (an exception's or outcome's ``.reason``, ``why_illegal(...)``, a
  parameter named ``reason``) are never sliced, indexed, split, stripped, replaced, re-cased or
  given to :mod:`re`, and no regular expression rewrites "player N": a screen says a reason with
  :meth:`~tutor.engine.reasons.Reason.words`.
- the default ruleset's id is spelled only in the engine (:data:`tutor.engine.game.DEFAULT_RULESET`).

And every rule in the engine (issue 43):

- no seat is compared with an oversight's ``offender`` (``o.offender == seat``, ``q !=
  offender``): who may claim is :meth:`~tutor.engine.deal.Deal.claimants`;
- no rank is counted to name a set (a ``Counter`` of ranks, a rank count or an action's cards
  compared with 2, 3 or 4): :func:`~tutor.engine.cards.sets_of` names pairs, prials and
  mournivals, :attr:`~tutor.engine.deal.Action.form` what a capture took;
- no settlement is worked out from a row's figures (``s.points - s.bonus``, ``s.leftovers //
  2``): :meth:`~tutor.engine.game.Game.result_parts`, :meth:`~tutor.engine.game.Game.working`
  and the row's own properties;
- no engine error's text is taken apart (``str(exc).removeprefix("action 0: ")`` under ``except
  RecordError as exc``), nor an action's kind (``a.kind.removeprefix("declare_")``): the errors
  carry their parts (``.index``, ``.problem``, ``.detail``, ``.reason`` with its ``.code``), an
  action its :attr:`~tutor.engine.deal.Action.declared`;
- no sentence of the rules is written outside the engine ("you may not claim it; the others
  may", "it is not dead: ...", "so it is no mistake", "you cannot capture sevens now", "a
  declaration takes your turn", "open to your claim", "the sevens may not be declared now
  (...)", "every capture you can make now will still be there", "lie down (when you cannot
  capture)": :data:`_RULE_PHRASES`): the engine words it (:meth:`~tutor.engine.deal.Deal.
  why_not_claimant`, :meth:`~tutor.engine.deal.Deal.dead_pair_reason`, :meth:`~tutor.engine.
  deal.LaidDown.why_closed`, :meth:`~tutor.engine.deal.Deal.why_no_capture`,
  :meth:`~tutor.engine.deal.Deal.dead_pair_declarable`, :meth:`~tutor.engine.deal.Deal.
  why_not_declarable`, :meth:`~tutor.engine.deal.Deal.nothing_at_risk`, :meth:`~tutor.engine.
  deal.Deal.claim_open`, :attr:`~tutor.engine.game.Game.declaration_timing`,
  :attr:`~tutor.engine.game.Game.capture_limit`, :data:`~tutor.engine.reasons.LIE_DOWN_WHEN`,
  ...) and a screen says its Reason;
- no puzzle definition (``puzzles/*.yaml``) keeps a rule's sentences by the values of its
  parameter (``words: {hand_plays: {free: ..., turn: ...}}``: :func:`rule_word_maps`): the
  kind says the Game's (:attr:`~tutor.engine.game.Game.declaration_timing`);
- no ruleset parameter whose value is a structure is tested for presence (``rs.lie_down_pays
  is not None``, ``bool(rs.match_format)``, ``not rs.oversights``): the Game says the rule
  (:attr:`~tutor.engine.game.Game.lying_down_pays`, ``has_match_format``,
  ``lists_oversights``).

Run as a script (``python tests/test_rule_knowledge.py [CHECKOUT]``) it prints what it finds in
a checkout, for the before and after of the issue's note.
"""

from __future__ import annotations

import ast
import functools
import gc
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The names of the ruleset parameters, and of the engine's attributes that carry one's value
#: (an action's capture form, a claim's oversight kind).
_PARAMETERS = frozenset(
    {
        "first_dealer",
        "table_mournival",
        "captures",
        "hand_plays",
        "bonus_to",
        "last_in_plays_on",
        "leftovers_to",
        "scoring",
        "oversights",
        "captures_per_turn",
        "declarations",
        "lie_down_pays",
        "pot_to",
        "match_format",
        "form",
        "oversight",
    }
)
#: String methods that take text apart or rewrite it.
_MUNGING = frozenset(
    {
        "split",
        "rsplit",
        "partition",
        "rpartition",
        "removeprefix",
        "removesuffix",
        "replace",
        "strip",
        "lstrip",
        "rstrip",
        "find",
        "rfind",
        "index",
        "rindex",
        "startswith",
        "endswith",
        "splitlines",
        "capitalize",
        "upper",
        "lower",
        "title",
        "swapcase",
    }
)
_RE_FUNCTIONS = frozenset(
    {"sub", "subn", "match", "search", "fullmatch", "findall", "finditer", "split"}
)


def parameter_values() -> tuple[frozenset[str], frozenset[str]]:
    """Every value of the parameter table's enums, and those of them that cannot be plain
    words (a name with an underscore)."""
    sys.path.insert(0, str(ROOT))
    from tutor.engine.values import ENUMS, PayTo

    values = {str(m) for e in (*ENUMS.values(), PayTo) for m in e}
    return frozenset(values), frozenset(v for v in values if "_" in v)


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in _walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _strings(node: ast.AST) -> list[str]:
    """The string literals ``node`` is, or holds (a tuple, list or set of them, or one given to
    ``set``, ``frozenset`` or ``tuple``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for e in node.elts for s in _strings(e)]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("set", "frozenset", "tuple")
        and node.args
    ):
        return _strings(node.args[0])
    return []


def _children(node: ast.AST) -> list[ast.AST]:
    """:func:`ast.iter_child_nodes` of ``node`` (the same nodes, in the same order), as a list
    kept on the node: the checks walk each tree many times and never change it, and Python's
    generator of fields was most of their time."""
    try:
        return node._kids  # type: ignore[attr-defined,no-any-return]
    except AttributeError:
        pass
    kids: list[ast.AST] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            kids.append(value)
        elif isinstance(value, list):
            kids += [v for v in value if isinstance(v, ast.AST)]
    node._kids = kids  # type: ignore[attr-defined]
    return kids


def _walk(node: ast.AST) -> list[ast.AST]:
    """:func:`ast.walk` of ``node`` (the same nodes, in the same order: breadth first), as a
    list kept on the node (:func:`_reads` walks the same expressions again and again)."""
    try:
        return [node, *node._below]  # type: ignore[attr-defined]
    except AttributeError:
        pass
    out = [node]
    i = 0
    while i < len(out):
        out += _children(out[i])
        i += 1
    node._below = tuple(out[1:])  # type: ignore[attr-defined]  # (no cycle: freed with the tree)
    return out


def _scopes(tree: ast.AST):
    """The module, then each function, with the statements that are its own."""
    yield tree
    for node in _walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield node


def _own_nodes(scope: ast.AST):
    """The nodes of ``scope`` not inside a nested function."""
    todo = list(_children(scope))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend(_children(node))


@functools.lru_cache(maxsize=1)  # the three checks read one file after another
def _parsed(source: str) -> tuple[ast.Module, list[tuple[ast.AST, list[ast.AST]]]]:
    """``source`` parsed, with each scope (:func:`_scopes`) and its own nodes."""
    tree = ast.parse(source)
    return tree, [(scope, list(_own_nodes(scope))) for scope in _scopes(tree)]


def _walked(source: str) -> list[ast.AST]:
    """Every node of ``source`` (as :func:`ast.walk` gives them), walked once for the checks
    that read one file after another."""
    return _walk(_parsed(source)[0])


@functools.lru_cache(maxsize=1)
def _docs(source: str) -> set[int]:
    """:func:`_docstrings` of ``source``, worked out once for the checks."""
    return _docstrings(_parsed(source)[0])


def _reads(node: ast.AST, names: set[str], attrs: frozenset[str], calls: frozenset[str]) -> bool:
    """``node`` reads one of ``attrs`` (``x.attr``), calls one of ``calls`` (``x.call(...)``),
    or names one of ``names``."""
    for n in _walk(node):
        if isinstance(n, ast.Attribute) and n.attr in attrs:
            return True
        if isinstance(n, ast.Name) and n.id in names:
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in calls:
            return True
    return False


def _target_names(targets) -> list[str]:
    """The names an assignment binds (not a subscript's or an attribute's)."""
    out = []
    for t in targets:
        if isinstance(t, ast.Name):
            out.append(t.id)
        elif isinstance(t, (ast.Tuple, ast.List)):
            out += _target_names(t.elts)
        elif isinstance(t, ast.Starred):
            out += _target_names([t.value])
    return out


def _bound(
    nodes: list[ast.AST], attrs: frozenset[str], calls: frozenset[str], start: set[str]
) -> set[str]:
    """The local names of a scope (its own ``nodes``) bound (at any depth of assignment) from an
    expression that reads ``attrs`` or calls ``calls``, with ``start`` (and names bound from
    those)."""
    names = set(start)
    changed = True
    while changed:
        changed = False
        for node in nodes:
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if _reads(node.value, names, attrs, calls):
                    for n in _target_names(targets):
                        if n not in names:
                            names.add(n)
                            changed = True
    return names


def value_comparisons(
    source: str, values: frozenset[str], distinct: frozenset[str]
) -> list[tuple[int, str]]:
    """Where ``source`` compares a parameter value as a string (see the module docstring)."""
    out: list[tuple[int, str]] = []
    calls = frozenset({"value"})
    for scope, own in _parsed(source)[1]:
        names = _bound(own, _PARAMETERS, calls, set())
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            names |= {a.arg for a in _walk(scope.args) if isinstance(a, ast.arg)} & _PARAMETERS

        def reads(node: ast.AST, names: set = names) -> bool:
            return _reads(node, names | _PARAMETERS, _PARAMETERS, calls)

        for node in own:
            if isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                for k, op in enumerate(operands):
                    found = set(_strings(op)) & values
                    others = operands[:k] + operands[k + 1 :]
                    if found and (found & distinct or any(reads(o) for o in others)):
                        out.append((node.lineno, ast.unparse(node)))
                        break
            elif isinstance(node, ast.BinOp) and isinstance(
                node.op, (ast.BitAnd, ast.BitOr, ast.Sub, ast.BitXor)
            ):
                for a, b in ((node.left, node.right), (node.right, node.left)):
                    if set(_strings(a)) & values and reads(b):
                        out.append((node.lineno, ast.unparse(node)))
                        break
            elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
                keys = set(_strings(ast.Tuple(elts=[k for k in node.value.keys if k])))
                if keys & values and (keys & distinct or reads(node.slice)):
                    out.append((node.lineno, ast.unparse(node)[:120]))
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and isinstance(node.func.value, ast.Dict)
                and node.args
            ):
                keys = set(_strings(ast.Tuple(elts=[k for k in node.func.value.keys if k])))
                if keys & values and (keys & distinct or reads(node.args[0])):
                    out.append((node.lineno, ast.unparse(node)[:120]))
    return out


def reason_munging(source: str) -> list[tuple[int, str]]:
    """Where ``source`` takes apart or rewrites the engine's reason text (see the module
    docstring)."""
    out: list[tuple[int, str]] = []
    attrs, calls = frozenset({"reason"}), frozenset({"why_illegal"})
    for scope, own in _parsed(source)[1]:
        start = set()
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            start = {
                a.arg
                for a in _walk(scope.args)
                if isinstance(a, ast.arg) and a.arg in ("reason", "why")
            }
        names = _bound(own, attrs, calls, start)

        def reads(node: ast.AST, names: set = names) -> bool:
            return _reads(node, names, attrs, calls)

        for node in own:
            if isinstance(node, ast.Subscript) and reads(node.value):
                out.append((node.lineno, ast.unparse(node)))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                f = node.func
                if f.attr in _MUNGING and reads(f.value):
                    out.append((node.lineno, ast.unparse(node)))
                elif (
                    isinstance(f.value, ast.Name) and f.value.id == "re" and f.attr in _RE_FUNCTIONS
                ):
                    pattern = node.args[0] if node.args else None
                    says_player = (
                        isinstance(pattern, ast.Constant)
                        and isinstance(pattern.value, str)
                        and "layer" in pattern.value
                    )
                    if says_player or any(reads(a) for a in node.args[1:]):
                        out.append((node.lineno, ast.unparse(node)[:120]))
    return out


def default_ruleset_named(source: str, rid: str) -> list[tuple[int, str]]:
    """Where ``source`` spells the default ruleset's id ``rid`` (docstrings aside)."""
    docs = _docs(source)
    return [
        (n.lineno, repr(n.value))
        for n in _walked(source)
        if isinstance(n, ast.Constant) and n.value == rid and id(n) not in docs
    ]


# -- rules worked out outside the engine (issue 43) ----------------------------------------------

#: The fields of a settlement row (:class:`~tutor.engine.deal.SeatSettlement`) that only a
#: settlement has, and the plainer ones it shares with other records (a drill's time ``bonus``).
_ROW_OWN = frozenset(
    {"ante", "for_cards", "pot_share", "leftovers", "set_aside", "won_in_play", "paid", "received"}
)
_ROW_SHARED = frozenset({"bonus", "points", "net", "won"})
#: The engine's counts of a rank, and the attributes holding an action's or a hand's cards.
_RANK_COUNTS = frozenset({"table_count", "hand_count", "won_count"})
_CARD_HOLDERS = frozenset({"cards", "table", "hand"})
#: The sizes of a set (RULES.md 2: a pair, a prial, a mournival).
_SET_SIZES = frozenset({2, 3, 4})


def _engine_errors(root: Path = ROOT) -> frozenset[str]:
    """The names of the engine's error classes (those of :mod:`tutor.engine.errors` and any
    class of ``tutor/engine`` derived from one), worked out once a run for each checkout."""
    return _engine_error_names(root)


@functools.cache  # the engine's files are parsed once a run, for every check that asks
def _engine_error_names(root: Path) -> frozenset[str]:
    """:func:`_engine_errors`, worked out."""
    names = {"LaughError"}  # (the root of every error the program raises, not only
    classes = [
        node
        for path in sorted((root / "tutor" / "engine").rglob("*.py"))
        for node in _walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
    ]
    changed = True
    while changed:
        changed = False
        for c in classes:
            bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in c.bases}
            if c.name not in names and bases & names:
                names.add(c.name)
                changed = True
    return frozenset(names - {"LaughError"})  # the engine's: the root is anyone's)


def offender_comparisons(source: str) -> list[tuple[int, str]]:
    """Where ``source`` compares a seat with an oversight's offender (``o.offender == seat``,
    ``q != offender``, ``ov.offender in holders``): who may claim is the engine's
    (:meth:`~tutor.engine.deal.Deal.claimants`)."""

    def offender(node: ast.AST) -> bool:
        return (
            isinstance(node, ast.Attribute)
            and node.attr == "offender"
            or isinstance(node, ast.Name)
            and node.id == "offender"
        )

    return [
        (node.lineno, ast.unparse(node))
        for node in _walked(source)
        if isinstance(node, ast.Compare)
        and any(offender(o) for o in [node.left, *node.comparators])
    ]


def _is_size(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant)
        and node.value in _SET_SIZES
        and not isinstance(node.value, bool)
    )


def set_counting(source: str) -> list[tuple[int, str]]:
    """Where ``source`` counts the cards of a rank to name a set: a ``Counter`` of ranks
    (``Counter(rank_of(c) for c in a.cards)``), a rank count or the length of an action's or a
    hand's cards compared with 2, 3 or 4 (``deal.table_count(r) == 3`` taken as a prial,
    ``len(a.table) == 3`` as "took three"): what a set is, and what a capture took, are the
    engine's (:func:`~tutor.engine.cards.sets_of`, :attr:`~tutor.engine.deal.Action.form`)."""
    out: list[tuple[int, str]] = []
    for node in _walked(source):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "Counter"
            and node.args
            and _reads(node.args[0], {"rank_of"}, frozenset(), frozenset())
        ):
            out.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            operands = [node.left, *node.comparators]
            if not any(_is_size(o) for o in operands):
                continue
            for o in operands:
                counted = (
                    isinstance(o, ast.Call)
                    and isinstance(o.func, ast.Attribute)
                    and o.func.attr in _RANK_COUNTS
                )
                length = (
                    isinstance(o, ast.Call)
                    and isinstance(o.func, ast.Name)
                    and o.func.id == "len"
                    and len(o.args) == 1
                    and isinstance(o.args[0], ast.Attribute)
                    and o.args[0].attr in _CARD_HOLDERS
                )
                if counted or length:
                    out.append((node.lineno, ast.unparse(node)))
                    break
    return out


def settlement_arithmetic(source: str) -> list[tuple[int, str]]:
    """Where ``source`` works out a settlement from a row's figures (``s.points - s.bonus``,
    ``s.leftovers // 2``): arithmetic with a field only a settlement row has, or between two of
    its fields.  The working is the engine's (:meth:`~tutor.engine.game.Game.working`,
    :meth:`~tutor.engine.game.Game.result_parts`)."""
    out: list[tuple[int, str]] = []

    def fields(node: ast.AST) -> set[str]:
        """The row fields ``node`` is, or adds up (text joined is no arithmetic)."""
        if isinstance(node, ast.Attribute):
            return {node.attr} & (_ROW_OWN | _ROW_SHARED)
        if isinstance(node, ast.UnaryOp):
            return fields(node.operand)
        if isinstance(node, ast.BinOp):
            return fields(node.left) | fields(node.right)
        return set()

    for node in _walked(source):
        if isinstance(node, ast.BinOp) and isinstance(
            node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod)
        ):
            left, right = fields(node.left), fields(node.right)
            if (left | right) & _ROW_OWN or (left and right):
                out.append((node.lineno, ast.unparse(node)))
    return out


def error_text_munging(source: str, errors: frozenset[str]) -> list[tuple[int, str]]:
    """Where ``source`` takes apart the text of an engine error it caught (``str(exc)`` sliced,
    split or stripped, for ``except RecordError as exc``) or an action's kind
    (``a.kind.removeprefix("declare_")``): the errors carry their parts as fields (``.index``,
    ``.problem``, ``.detail``, ``.reason``), an action its declaration
    (:attr:`~tutor.engine.deal.Action.declared`)."""
    out: list[tuple[int, str]] = []

    def munged(node: ast.AST, text) -> bool:
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return text(node.value)
        return (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and text(node.func.value)
            and node.func.attr in _MUNGING
        )

    def kind(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr == "kind"

    for node in _walked(source):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and kind(node.func.value)
            and node.func.attr in ("removeprefix", "removesuffix", "split", "partition")
            or isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Slice)
            and kind(node.value)
        ):
            out.append((node.lineno, ast.unparse(node)))
        if not (isinstance(node, ast.ExceptHandler) and node.name and node.type is not None):
            continue
        types = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
        if not any(
            (t.id if isinstance(t, ast.Name) else getattr(t, "attr", "")) in errors for t in types
        ):
            continue

        def text(n: ast.AST, name: str = node.name) -> bool:
            return (
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Name)
                and n.func.id == "str"
                and len(n.args) == 1
                and isinstance(n.args[0], ast.Name)
                and n.args[0].id == name
            )

        out += [
            (n.lineno, ast.unparse(n)) for stmt in node.body for n in _walk(stmt) if munged(n, text)
        ]
    return out


#: The ruleset parameters whose value is a structure or None (a payment, a match format, the
#: oversights listed): tested for presence, they decide a rule the ruleset's Game names
#: (:attr:`~tutor.engine.game.Game.lying_down_pays`, :attr:`~tutor.engine.game.Game.
#: has_match_format`, :attr:`~tutor.engine.game.Game.lists_oversights`).
_PRESENCE = frozenset({"lie_down_pays", "match_format", "oversights"})


def parameter_presence(source: str) -> list[tuple[int, str]]:
    """Where ``source`` tests a ruleset parameter for presence itself (``rs.lie_down_pays is
    not None``, ``bool(rs.match_format)``, ``if not rs.oversights``): the rule it decides is
    the Game's to say."""
    out: list[tuple[int, str]] = []

    def param(node: ast.AST | None) -> bool:
        return isinstance(node, ast.Attribute) and node.attr in _PRESENCE

    for node in _walked(source):
        tested: list[ast.AST | None] = []
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(isinstance(o, ast.Constant) and o.value is None for o in operands):
                tested += operands
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            tested.append(node.operand)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "bool" and node.args:
                tested.append(node.args[0])
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            tested.append(node.test)
        elif isinstance(node, ast.BoolOp):
            tested += node.values
        elif isinstance(node, ast.comprehension):
            tested += node.ifs
        if any(param(t) for t in tested):
            at = node.target if isinstance(node, ast.comprehension) else node
            out.append((at.lineno, ast.unparse(node)[:120]))
    return out


#: Phrases of the rules' sentences: who may claim, what is or is not a mistake, whether a pair
#: is dead and what that means.  A screen's own words around them are its own; the sentence
#: that states the rule is the engine's (a :class:`~tutor.engine.reasons.Reason` it words, or
#: a wording it names once, such as :data:`~tutor.engine.reasons.FALSE_CLAIM`).
_RULE_PHRASES = (
    "may not claim",
    "others may",
    "anyone may claim",
    "may claim an oversight",
    "it is no mistake",
    "not a mistake",
    "not dead:",
    "never be captured",
    "still be captured",
    "nobody can capture",
    "claim has lapsed",
    "cannot capture ",
    "only one capture",
    "dead pair you may declare",
    "declaration takes your turn",
    "declaration is a free action",
    "open to your claim",
    "takes your turn",
    "may not be declared",
    "still be there",
    "when you cannot capture",
)


def rule_sentences(source: str) -> list[tuple[int, str]]:
    """Where ``source`` writes a sentence of the rules itself (a string, or a part of an
    f-string, holding one of :data:`_RULE_PHRASES`; docstrings aside): "you may not claim it;
    the others may", "it is not dead: ...", "so it is no mistake"."""
    docs = _docs(source)
    return [
        (n.lineno, n.value[:100])
        for n in _walked(source)
        if isinstance(n, ast.Constant)
        and isinstance(n.value, str)
        and id(n) not in docs
        and any(p in n.value.lower() for p in _RULE_PHRASES)
    ]


def rule_word_maps(text: str) -> list[tuple[int, str]]:
    """Where a puzzle definition (``puzzles/*.yaml``, its text) keeps the sentences of a rule
    that a ruleset's value picks: a map named for a ruleset parameter and keyed by that
    parameter's values (``words: {hand_plays: {free: "...", turn: "..."}}``), from which a kind
    takes the sentence under its ruleset's value.  The Game says the rule under the value
    (:attr:`~tutor.engine.game.Game.declaration_timing`, ...).  Other words of a definition are
    data a teacher edits (questions, hints, nudges, option texts keyed by a case or an
    oversight's kind); they are not read here."""
    import yaml

    sys.path.insert(0, str(ROOT))
    from tutor.engine.values import ENUMS

    enums = {name: {str(m) for m in e} for name, e in ENUMS.items()}
    out: list[tuple[int, str]] = []
    todo = [yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))]
    while todo:
        node = todo.pop()
        if isinstance(node, yaml.SequenceNode):
            todo += node.value
        if not isinstance(node, yaml.MappingNode):
            continue
        for key, value in node.value:
            todo.append(value)
            name = key.value if isinstance(key, yaml.ScalarNode) else None
            if (
                name in enums
                and isinstance(value, yaml.MappingNode)
                and value.value
                and all(isinstance(k, yaml.ScalarNode) for k, _ in value.value)
                and {k.value for k, _ in value.value} <= enums[name]
                and all(isinstance(v, yaml.ScalarNode) for _, v in value.value)
            ):
                out.append((key.start_mark.line + 1, name))
    return sorted(out)


def _outside_engine(root: Path):
    for path in sorted((root / "tutor").rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[1] != "engine":
            yield rel, path.read_text(encoding="utf-8")


@functools.cache
def findings(root: Path = ROOT) -> dict[str, list[str]]:
    """Every finding of the checks in the checkout at ``root`` (worked out once a run: the
    tests below read it, on one worker).  Python's cycle collector is paused meanwhile: the
    syntax trees hold no cycle (each is freed when its file is read), and the collector's
    passes over them, as they were built, were a third of the time."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _findings(root)
    finally:
        if paused:
            gc.enable()


def _findings(root: Path) -> dict[str, list[str]]:
    """:func:`findings`, worked out."""
    values, distinct = parameter_values()
    out: dict[str, list[str]] = {
        "values": [],
        "reasons": [],
        "default": [],
        "offenders": [],
        "sets": [],
        "settlement": [],
        "error_text": [],
        "presence": [],
        "rule_sentences": [],
    }
    errors = _engine_errors(root)
    for rel, text in _outside_engine(root):
        out["values"] += [
            f"{rel}:{ln}: {src}" for ln, src in value_comparisons(text, values, distinct)
        ]
        out["reasons"] += [f"{rel}:{ln}: {src}" for ln, src in reason_munging(text)]
        out["default"] += [
            f"{rel}:{ln}: {src}" for ln, src in default_ruleset_named(text, "parlett")
        ]
        out["offenders"] += [f"{rel}:{ln}: {src}" for ln, src in offender_comparisons(text)]
        out["sets"] += [f"{rel}:{ln}: {src}" for ln, src in set_counting(text)]
        out["settlement"] += [f"{rel}:{ln}: {src}" for ln, src in settlement_arithmetic(text)]
        out["error_text"] += [f"{rel}:{ln}: {src}" for ln, src in error_text_munging(text, errors)]
        out["presence"] += [f"{rel}:{ln}: {src}" for ln, src in parameter_presence(text)]
        out["rule_sentences"] += [f"{rel}:{ln}: {src}" for ln, src in rule_sentences(text)]
    out["rule_word_maps"] = [
        f"{path.relative_to(root)}:{ln}: {name}"
        for path in sorted((root / "puzzles").glob("*.yaml"))
        for ln, name in rule_word_maps(path.read_text(encoding="utf-8"))
    ]
    return out


# -- the checks ---------------------------------------------------------------------------------


@pytest.mark.xdist_group("rule_knowledge")
def test_no_parameter_value_is_compared_as_a_string_outside_the_engine():
    assert findings()["values"] == []


@pytest.mark.xdist_group("rule_knowledge")
def test_no_module_outside_the_engine_takes_apart_an_engine_reason():
    assert findings()["reasons"] == []


@pytest.mark.xdist_group("rule_knowledge")
def test_the_default_ruleset_is_named_once_in_the_engine():
    from tutor.engine.game import DEFAULT_RULESET
    from tutor.engine.sources import default_library

    assert DEFAULT_RULESET in default_library().rulesets
    assert findings()["default"] == []


@pytest.mark.xdist_group("rule_knowledge")
def test_who_may_claim_is_asked_of_the_engine_not_worked_out_from_the_offender():
    assert findings()["offenders"] == []


@pytest.mark.xdist_group("rule_knowledge")
def test_no_module_outside_the_engine_counts_ranks_to_name_a_set():
    assert findings()["sets"] == []


@pytest.mark.xdist_group("rule_knowledge")
def test_no_module_outside_the_engine_works_out_a_settlement_from_its_rows():
    assert findings()["settlement"] == []


@pytest.mark.xdist_group("rule_knowledge")
def test_no_module_outside_the_engine_takes_apart_an_engine_error_or_an_action_kind():
    assert findings()["error_text"] == []


@pytest.mark.xdist_group("rule_knowledge")
def test_no_module_outside_the_engine_tests_a_parameter_for_presence():
    assert findings()["presence"] == []


@pytest.mark.xdist_group("rule_knowledge")
def test_no_module_outside_the_engine_writes_a_rule_sentence():
    assert findings()["rule_sentences"] == []


@pytest.mark.xdist_group("rule_knowledge")
def test_no_puzzle_definition_keeps_a_rule_s_sentences_by_its_values():
    assert findings()["rule_word_maps"] == []


# -- the checks can fail ------------------------------------------------------------------------

BREACHES = """
def one(deal, rs, exc, names, seat):
    set_aside = deal.ruleset.table_mournival == "set_aside_for_last_in"
    if rs.scoring == "stakes" or "one_for_one" in rs.captures:
        pass
    scoring = rs.value("scoring")
    if scoring != "pot":
        pass
    if x.kind == "split_prial":
        pass
    themes = {"stakes": 1, "pairs": 2}[rs.scoring]
    decl = set(rs.declarations) & {"prial", "mournival"}
    text = re.sub(r"player (\\d+)'s hand", "your hand", str(exc))
    head = exc.reason.partition("? ")[0]
    short = deal.why_illegal(a)[10:]
    why = exc.reason
    first = why[0].upper() + why[1:]
    return "parlett"
"""
FINE = '''
def two(deal, game, status, section, variant, a):
    """The default is "parlett"."""
    if deal.game.sets_aside_table_mournival and game.allows(CaptureForm.ONE_FOR_ONE):
        pass
    if status in ("read", "chosen") or section == "stakes" or a.kind == "capture":
        pass
    return exc.reason.words(0, ["You"], capital=True) + "."
'''


def test_the_checks_catch_each_kind_of_breach_and_pass_the_engine_s_way():
    values, distinct = parameter_values()
    found = value_comparisons(BREACHES, values, distinct)
    assert sorted(ln for ln, _ in found) == [3, 4, 4, 7, 9, 11, 12], found
    assert sorted(ln for ln, _ in reason_munging(BREACHES)) == [13, 14, 14, 15, 17, 17, 17], (
        reason_munging(BREACHES)
    )
    assert [ln for ln, _ in default_ruleset_named(BREACHES, "parlett")] == [18]
    assert value_comparisons(FINE, values, distinct) == []
    assert reason_munging(FINE) == []
    assert default_ruleset_named(FINE, "parlett") == []


#: Issue 43's breaches, one a line (each the form it was found in), then the engine's way.
HOUSE_BREACHES = """
def one(deal, seat, ov, a, s, n, offender):
    mine = [o for o in deal.open_oversights() if o.offender == seat]
    seats = [q for q in range(n) if q != offender]
    own = ov.offender in holders
    held = Counter(rank_of(c) for c in a.cards).values()
    prials = [r for r in range(13) if deal.table_count(r) == 3]
    took_three = len(a.table) == 3
    working = seat_working(scoring, points=s.points - s.bonus)
    part = s.leftovers // 2
    end = r.leftovers + r.set_aside
    try:
        action_from_json(v, 0)
    except RecordError as exc:
        raise ValueError(str(exc).removeprefix("action 0: ")) from None
    what = a.kind.removeprefix("declare_")
"""
HOUSE_FINE = """
def two(deal, seat, ov, a, s, clock, res):
    mine = [o for o in deal.open_oversights() if seat not in deal.claimants(o)]
    held = set(sets_of(a.cards).values())
    prials = [r for r, k in sets_of(deal.table_cards()).items() if k is CardSet.PRIAL]
    took_three = a.form is CaptureForm.ONE_FOR_THREE and len(groups) == 3
    working = seat_working(scoring, points=s.points_for_won)
    parts = deal.game.result_parts(s)
    line = f"ante {s.ante}" + (f"; bonus +{s.bonus}" if s.bonus else "")
    left = clock.total + res.bonus
    try:
        action_from_json(v, 0)
    except RecordError as exc:
        raise ValueError(exc.problem) from None
    except OSError as exc:
        text = str(exc).split(": ")[0]
    what = a.declared
"""


def test_the_house_checks_catch_each_breach_of_issue_43_and_pass_the_engine_s_way():
    lines = {ln: text.strip() for ln, text in enumerate(HOUSE_BREACHES.splitlines(), 1)}
    got = {
        name: sorted(ln for ln, _ in found)
        for name, found in (
            ("offenders", offender_comparisons(HOUSE_BREACHES)),
            ("sets", set_counting(HOUSE_BREACHES)),
            ("settlement", settlement_arithmetic(HOUSE_BREACHES)),
            ("error_text", error_text_munging(HOUSE_BREACHES, _engine_errors())),
        )
    }
    assert got == {
        "offenders": [3, 4, 5],
        "sets": [6, 7, 8],
        "settlement": [9, 10, 11],
        "error_text": [15, 16],
    }, {k: [lines[ln] for ln in v] for k, v in got.items()}
    assert offender_comparisons(HOUSE_FINE) == []
    assert set_counting(HOUSE_FINE) == []
    assert settlement_arithmetic(HOUSE_FINE) == []
    assert error_text_munging(HOUSE_FINE, _engine_errors()) == []
    assert {"RecordError", "NotationError", "IllegalAction"} <= _engine_errors()


#: The breaches of the rule-sentence and presence checks, one a line, then the engine's way.
SENTENCE_BREACHES = """
def one(deal, rs, seat, mine, found, who, ranks):
    why = f"that is your own mistake ({mine[0].kind}), and you may not claim it; the others may"
    lapsed = f"{who} laid them down by mistake, but the claim has lapsed"
    live = f"it is not dead: the other two {ranks} are not both among the won cards"
    moment = f"It is {who}'s turn. You may claim an oversight at any time."
    no = f"you cannot capture {RANK_PLURALS[x]} now"
    nudge = "you named a rank you cannot capture now"
    many = "and you can make only one capture this turn: take one of them now"
    dead = f"the {RANK_PLURALS[x]} are a dead pair you may declare"
    turn = "Not yet: under this ruleset a declaration takes your turn, and it is not yours."
    free = "Not yet: under this ruleset a declaration is a free action: it need not wait."
    why = "open to your claim"
    pays = rs.lie_down_pays is not None
    sheet = bool(rs.match_format) and not rs.oversights
    if rs.match_format:
        pass
    short = "is a declaration, which takes your turn under this ruleset"
    refused = f"the {RANK_PLURALS[x]} may not be declared now ({why})"
    safe = "None of them is at risk: every capture you can make now will still be there"
    line = ("", "  ld            lie down (when you cannot capture)")
"""
SENTENCE_FINE = '''
def two(deal, rs, seat, o, names, who):
    """A pair is dead when its other two are won: a rule said in a docstring, as here."""
    why = deal.why_not_claimant(o, seat).words(seat, names)
    moment = f"It is {who}'s turn. {deal.game.at_any_time}."
    no = deal.why_no_capture(seat, x).words(seat)
    nudge = f"you named {NO_CAPTURE_NAMED}"
    many = f"and {deal.game.capture_limit}: take one of them now"
    dead = deal.dead_pair_declarable(seat, x).words(seat)
    turn = f"Not yet: {deal.game.declaration_timing}, and it is not your turn."
    why = deal.claim_open(seat, r).words(seat, names)
    hold = "A hold is a free action (a claim, a declaration) left while the turn went on"
    pays = rs.game().lying_down_pays
    sheet = rs.game().has_match_format and not rs.game().lists_oversights
    line = "No mistakes: every claim made" if pays else "a pair you named is not dead"
    if rs.bonus_to is not None and deal.result.leftovers_to is not None:
        pass
    short = f"is a declaration, and {deal.game.declaration_timing}"
    refused = deal.why_not_declarable(seat, x, why).words(seat, names)
    safe = f"None of them is at risk: {deal.nothing_at_risk(seat).words(seat)}."
    line = ("", f"  ld            lie down ({LIE_DOWN_WHEN})")
    ask = "For each rank you can capture, ask: could an opponent take it before your next turn?"
'''


def test_the_sentence_and_presence_checks_catch_their_breaches_and_pass_the_engine_s_way():
    found = rule_sentences(SENTENCE_BREACHES)
    assert sorted(ln for ln, _ in found) == [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 18, 19, 20, 21], (
        found
    )
    found = parameter_presence(SENTENCE_BREACHES)
    assert sorted(ln for ln, _ in found) == [14, 15, 15, 16], found
    assert rule_sentences(SENTENCE_FINE) == []
    assert parameter_presence(SENTENCE_FINE) == []


#: A puzzle definition keeping a rule's sentences by its values (line 3), and one keeping words
#: a teacher edits: names and nudges by an oversight's kind, a quotation by parameter.
WORD_MAP_BREACH = """
words:
  hand_plays:
    free: Under this ruleset a declaration is a free action, made at any time.
    turn: Under this ruleset a declaration is your whole turn.
"""
WORD_MAP_FINE = """
quotes:
  default:
    - {parameter: hand_plays, limit: 1}
words:
  oversight_names:
    split_prial: a split prial
  nudges:
    split_prial: Look at {moment}.
"""


def test_the_word_map_check_catches_its_breach_and_passes_the_engine_s_way():
    assert rule_word_maps(WORD_MAP_BREACH) == [(3, "hand_plays")]
    assert rule_word_maps(WORD_MAP_FINE) == []


if __name__ == "__main__":
    got = findings(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)
    for key, rows in got.items():
        print(f"## {key}: {len(rows)}")
        for row in rows:
            print("  " + row)
