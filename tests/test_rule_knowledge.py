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

Run as a script (``python tests/test_rule_knowledge.py [CHECKOUT]``) it prints what it finds in
a checkout, for the before and after of the issue's note.
"""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The names of the ruleset parameters, and of the engine's attributes that carry one's value
#: (an action's capture form, a claim's oversight kind).
_PARAMETERS = frozenset({"first_dealer", "table_mournival", "captures", "hand_plays", "bonus_to",
                         "last_in_plays_on", "leftovers_to", "scoring", "oversights",
                         "captures_per_turn", "declarations", "lie_down_pays", "pot_to",
                         "match_format", "form", "oversight"})
#: String methods that take text apart or rewrite it.
_MUNGING = frozenset({"split", "rsplit", "partition", "rpartition", "removeprefix",
                      "removesuffix", "replace", "strip", "lstrip", "rstrip", "find", "rfind",
                      "index", "rindex", "startswith", "endswith", "splitlines", "capitalize",
                      "upper", "lower", "title", "swapcase"})
_RE_FUNCTIONS = frozenset({"sub", "subn", "match", "search", "fullmatch", "findall", "finditer",
                           "split"})


def parameter_values() -> tuple[frozenset[str], frozenset[str]]:
    """Every value of the parameter table's enums, and those of them that cannot be plain
    words (a name with an underscore)."""
    sys.path.insert(0, str(ROOT))
    from tutor.engine.values import ENUMS, PayTo
    values = {str(m) for e in (*ENUMS.values(), PayTo) for m in e}
    return frozenset(values), frozenset(v for v in values if "_" in v)


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
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
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("set", "frozenset", "tuple") and node.args):
        return _strings(node.args[0])
    return []


def _scopes(tree: ast.AST):
    """The module, then each function, with the statements that are its own."""
    yield tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield node


def _own_nodes(scope: ast.AST):
    """The nodes of ``scope`` not inside a nested function."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))


@functools.lru_cache(maxsize=1)         # the three checks read one file after another
def _parsed(source: str) -> tuple[ast.Module, list[tuple[ast.AST, list[ast.AST]]]]:
    """``source`` parsed, with each scope (:func:`_scopes`) and its own nodes."""
    tree = ast.parse(source)
    return tree, [(scope, list(_own_nodes(scope))) for scope in _scopes(tree)]


def _reads(node: ast.AST, names: set[str], attrs: frozenset[str], calls: frozenset[str]) -> bool:
    """``node`` reads one of ``attrs`` (``x.attr``), calls one of ``calls`` (``x.call(...)``),
    or names one of ``names``."""
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and n.attr in attrs:
            return True
        if isinstance(n, ast.Name) and n.id in names:
            return True
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr in calls):
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


def _bound(nodes: list[ast.AST], attrs: frozenset[str], calls: frozenset[str],
           start: set[str]) -> set[str]:
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


def value_comparisons(source: str, values: frozenset[str], distinct: frozenset[str]
                      ) -> list[tuple[int, str]]:
    """Where ``source`` compares a parameter value as a string (see the module docstring)."""
    out: list[tuple[int, str]] = []
    calls = frozenset({"value"})
    for scope, own in _parsed(source)[1]:
        names = _bound(own, _PARAMETERS, calls, set())
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            names |= {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)} & _PARAMETERS

        def reads(node: ast.AST, names: set = names) -> bool:
            return _reads(node, names | _PARAMETERS, _PARAMETERS, calls)

        for node in own:
            if isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                for k, op in enumerate(operands):
                    found = set(_strings(op)) & values
                    others = operands[:k] + operands[k + 1:]
                    if found and (found & distinct or any(reads(o) for o in others)):
                        out.append((node.lineno, ast.unparse(node)))
                        break
            elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr,
                                                                      ast.Sub, ast.BitXor)):
                for a, b in ((node.left, node.right), (node.right, node.left)):
                    if set(_strings(a)) & values and reads(b):
                        out.append((node.lineno, ast.unparse(node)))
                        break
            elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
                keys = set(_strings(ast.Tuple(elts=[k for k in node.value.keys if k])))
                if keys & values and (keys & distinct or reads(node.slice)):
                    out.append((node.lineno, ast.unparse(node)[:120]))
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr == "get" and isinstance(node.func.value, ast.Dict)
                  and node.args):
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
            start = {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)
                     and a.arg in ("reason", "why")}
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
                elif (isinstance(f.value, ast.Name) and f.value.id == "re"
                      and f.attr in _RE_FUNCTIONS):
                    pattern = node.args[0] if node.args else None
                    says_player = (isinstance(pattern, ast.Constant)
                                   and isinstance(pattern.value, str)
                                   and "layer" in pattern.value)
                    if says_player or any(reads(a) for a in node.args[1:]):
                        out.append((node.lineno, ast.unparse(node)[:120]))
    return out


def default_ruleset_named(source: str, rid: str) -> list[tuple[int, str]]:
    """Where ``source`` spells the default ruleset's id ``rid`` (docstrings aside)."""
    tree = _parsed(source)[0]
    docs = _docstrings(tree)
    return [(n.lineno, repr(n.value)) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and n.value == rid and id(n) not in docs]


def _outside_engine(root: Path):
    for path in sorted((root / "tutor").rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[1] != "engine":
            yield rel, path.read_text(encoding="utf-8")


@functools.cache
def findings(root: Path = ROOT) -> dict[str, list[str]]:
    """Every finding of the three checks in the checkout at ``root`` (worked out once a run: the
    three tests below read it, on one worker)."""
    values, distinct = parameter_values()
    out: dict[str, list[str]] = {"values": [], "reasons": [], "default": []}
    for rel, text in _outside_engine(root):
        out["values"] += [f"{rel}:{ln}: {src}" for ln, src in
                          value_comparisons(text, values, distinct)]
        out["reasons"] += [f"{rel}:{ln}: {src}" for ln, src in reason_munging(text)]
        out["default"] += [f"{rel}:{ln}: {src}" for ln, src in
                           default_ruleset_named(text, "parlett")]
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


# -- the checks can fail ------------------------------------------------------------------------

BREACHES = '''
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
'''
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
    assert sorted(ln for ln, _ in reason_munging(BREACHES)) == [13, 14, 14, 15, 17, 17, 17], \
        reason_munging(BREACHES)
    assert [ln for ln, _ in default_ruleset_named(BREACHES, "parlett")] == [18]
    assert value_comparisons(FINE, values, distinct) == []
    assert reason_munging(FINE) == []
    assert default_ruleset_named(FINE, "parlett") == []


if __name__ == "__main__":
    got = findings(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)
    for key, rows in got.items():
        print(f"## {key}: {len(rows)}")
        for row in rows:
            print("  " + row)
