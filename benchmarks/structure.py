"""Module sizes, longest functions and complexity hot spots of a checkout's ``tutor/``.

    python benchmarks/structure.py [TREE] [-v]

-v lists the files whose public functions mention ``Any`` in their signature.

TREE defaults to this checkout.  Complexity is radon's cyclomatic complexity (``pip install
radon``; without it that part is left out, said in one line).  Nothing is run or timed.
"""

import ast
import json
import os
import re
import shutil
import subprocess
import sys

args = [a for a in sys.argv[1:] if a != "-v"]
tree = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
root = os.path.join(tree, "tutor")
files = []
funcs = []
inner_imports = 0
any_dicts = 0
any_sigs: dict[str, int] = {}
for dp, _dn, fn in os.walk(root):
    for f in fn:
        if not f.endswith(".py"):
            continue
        p = os.path.join(dp, f)
        src = open(p).read()
        n = src.count("\n")
        rel = os.path.relpath(p, tree)
        files.append((n, rel))
        t = ast.parse(src)
        for node in ast.walk(t):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                funcs.append((node.end_lineno - node.lineno + 1, f"{rel}:{node.name}"))
                for sub in ast.walk(node):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        if (
                            isinstance(sub, ast.ImportFrom)
                            and sub.module
                            and sub.module.startswith("tutor")
                        ):
                            inner_imports += 1
                        elif isinstance(sub, ast.ImportFrom) and sub.level > 0:
                            inner_imports += 1
                if not node.name.startswith("_"):
                    seg = ast.get_source_segment(src, node.returns) if node.returns else ""
                    if seg and re.search(r"dict\[str, Any\]", seg):
                        any_dicts += 1
                    sig = ast.unparse(node.args) + (
                        " -> " + ast.unparse(node.returns) if node.returns else ""
                    )
                    if re.search(r"\bAny\b", sig):
                        any_sigs[rel] = any_sigs.get(rel, 0) + 1
files.sort(reverse=True)
funcs.sort(reverse=True)
print(
    f"lines in tutor/: {sum(n for n, _ in files)} in {len(files)} files; over 500 lines: "
    + ", ".join(f"{r} {n}" for n, r in files if n > 500)
)
print("longest functions: " + ", ".join(f"{r} {n}" for n, r in funcs[:8]))
print(
    f"public functions with Any in their signature: {sum(any_sigs.values())}"
    + (
        "; by file: "
        + ", ".join(f"{r} {n}" for r, n in sorted(any_sigs.items(), key=lambda i: -i[1]))
        if "-v" in sys.argv
        else ""
    )
)
print(
    f"public functions returning dict[str, Any]: {any_dicts}; imports of the project's own modules inside functions: {inner_imports}"
)
radon = shutil.which("radon") or os.path.join(os.path.dirname(sys.executable), "radon")
if not os.path.exists(radon):
    sys.exit("complexity left out: radon is not installed (pip install radon)")
out = subprocess.run([radon, "cc", "-s", "-j", root], capture_output=True, text=True).stdout
data = json.loads(out)
blocks = [
    (b["complexity"], f"{os.path.relpath(k, tree)}:{b['name']}")
    for k, v in data.items()
    if isinstance(v, list)
    for b in v
]
blocks.sort(reverse=True)
print(
    f"blocks of complexity > 20 (radon D-F): {sum(1 for c, _ in blocks if c > 20)}; over 30: {sum(1 for c, _ in blocks if c > 30)}"
)
print("hot spots: " + ", ".join(f"{n} {c}" for c, n in blocks[:10]))
