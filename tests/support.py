"""Helpers shared by the tests of every room: running ``laugh`` with piped input, scripting a
lesson's answers from the same puzzles the lesson poses, and an independent reading of a
puzzle's answer straight from engine queries."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tutor.engine.cards import RANKS, parse_cards, parse_rank
from tutor.engine.deal import Deal
from tutor.engine.records import action_from_json, action_to_json, replay
from tutor.engine.sources import default_library

ROOT = Path(__file__).resolve().parent.parent  # the project root
ESC = "\x1b"

#: A teacher's file that switches on every parameter of RULES.md 3.6.
HOUSE_SOURCES = Path(__file__).resolve().parent / "data" / "sources"


def run_laugh(
    args: list[str],
    stdin: str,
    home: Path,
    columns: int = 80,
    timeout: float = 120,
    extra_env: dict | None = None,
) -> subprocess.CompletedProcess:
    """Run ``python -m tutor ARGS`` with ``stdin`` piped in and ``LAUGH_HOME=home``: a process of
    its own, forked from one that has imported the tutor already (:func:`laugh_process`), so
    without Python's start-up and the imports (about 0.5 s of processor time a run).  Its
    standard streams are a pipe in and files out, built as CPython builds them; the result is
    what :func:`subprocess.run` gives (text, universal newlines), and it raises
    :class:`subprocess.TimeoutExpired` after ``timeout`` seconds."""
    env = dict(os.environ)
    env.update(
        {
            "LAUGH_HOME": str(home),
            "COLUMNS": str(columns),
            "LINES": "24",
            "PYTHONPATH": str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
            "PYTHONIOENCODING": "utf-8",
        }
    )
    env.pop("NO_COLOR", None)
    if extra_env:
        env.update(extra_env)
    return laugh_process(args, stdin, env, timeout=timeout)


_zygote: subprocess.Popen | None = None
_zygote_runs = 0


def laugh_process(
    args: list[str], stdin: str | None, env: dict[str, str], cwd: Path = ROOT, timeout: float = 120
) -> subprocess.CompletedProcess:
    """``python -m tutor ARGS`` as :func:`subprocess.run` runs it with ``input=stdin`` (None: the
    null device), ``env``, ``cwd``, ``capture_output=True``, ``text=True`` and UTF-8, in a child
    of ``tests/app/stream_zygote.py --serve`` (one a test process, started at its first run: a
    fresh interpreter that has imported every module of the tutor and run nothing).  Raises
    :class:`subprocess.TimeoutExpired` as that does."""
    import atexit
    import io
    import json
    import select
    import tempfile

    global _zygote, _zygote_runs
    if _zygote is None or _zygote.poll() is not None:
        own = tempfile.mkdtemp(prefix="laugh-zygote-")
        zenv = {k: v for k, v in os.environ.items() if k not in ("LAUGH_HOME", "COLUMNS", "LINES")}
        zenv.update(
            LAUGH_HOME=os.path.join(own, "home"),
            PYTHONIOENCODING="utf-8",
            PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        )
        with open(os.path.join(own, "stderr"), "wb") as err:
            _zygote = subprocess.Popen(
                [sys.executable, str(ROOT / "tests" / "app" / "stream_zygote.py"), "--serve"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                env=zenv,
                cwd=str(ROOT),
                text=True,
                encoding="utf-8",
            )
        zygote = _zygote
        atexit.register(lambda: (zygote.stdin.close(), zygote.wait(30)))
    _zygote_runs += 1
    with tempfile.TemporaryDirectory(prefix="laugh-run-") as out:
        req = {
            "id": _zygote_runs,
            "argv": list(args),
            "condition": "",
            "home": out,
            "out": out,
            "env": dict(env),
            "typed": stdin,
            "cwd": str(cwd),
            "timeout": max(1, round(timeout)),
        }
        _zygote.stdin.write(json.dumps(req) + "\n")
        _zygote.stdin.flush()
        # the child is killed at ``timeout`` (SIGALRM); the zygote answers as soon as it ends
        ready, _, _ = select.select([_zygote.stdout], [], [], timeout + 60)
        line = _zygote.stdout.readline() if ready else ""
        if not line:
            raise RuntimeError(f"the laugh zygote stopped answering; see {out}")
        status = json.loads(line)["status"]

        def read(name: str) -> str:
            with open(os.path.join(out, name), "rb") as f:
                return io.TextIOWrapper(io.BytesIO(f.read()), encoding="utf-8").read()

        stdout, stderr = read("stdout"), read("stderr")
    argv = [sys.executable, "-m", "tutor", *args]
    if status == -14:  # SIGALRM: its time was up
        raise subprocess.TimeoutExpired(argv, timeout, stdout, stderr)
    return subprocess.CompletedProcess(argv, status, stdout, stderr)


_spawner = None


class LaughProcess:
    """``python -m tutor ARGS`` left running, as :class:`subprocess.Popen` starts it with
    ``env``, ``cwd`` and pipes (``stdin``, ``stdout``, ``stderr``: ``subprocess.PIPE``, or None
    for the null device; ``text`` as Popen's): forked from a warm interpreter
    (``tests/app/stream_zygote.py --spawn``, one a test process), so without Python's start-up
    and the imports.  ``terminal``: the descriptor of a terminal (a pseudo-terminal's other
    end) that is its standard input, output and error and its controlling terminal, in a session
    of its own (``tests/terminals.py``); ``timeout``: seconds after which it is killed (SIGALRM;
    0 never).  What the tests ask of a Popen: ``pid``, ``returncode``, ``stdin``,
    ``stdout``, ``stderr``, ``poll``, ``wait`` (raising :class:`subprocess.TimeoutExpired`),
    ``send_signal``, ``terminate``, ``kill``."""

    def __init__(
        self,
        args: list[str],
        env: dict[str, str],
        cwd: Path = ROOT,
        stdin=None,
        stdout=None,
        stderr=None,
        text: bool = False,
        terminal: int | None = None,
        timeout: float = 0,
    ):
        import io
        import json
        import socket

        self.args = [sys.executable, "-m", "tutor", *args]
        self.returncode: int | None = None
        ends, theirs = [], []
        for n, want in enumerate((stdin, stdout, stderr)):
            if terminal is not None:  # the three are the terminal's (its controlling terminal)
                ours, child = None, os.dup(terminal)
            elif want == subprocess.PIPE:
                r, w = os.pipe()
                ours, child = (w, r) if n == 0 else (r, w)
            else:
                ours, child = None, os.open(os.devnull, os.O_RDONLY if n == 0 else os.O_WRONLY)
            ends.append(ours)
            theirs.append(child)
        try:
            sock = _spawn_socket()
            socket.send_fds(
                sock,
                [
                    json.dumps(
                        {
                            "argv": list(args),
                            "env": dict(env),
                            "cwd": str(cwd),
                            "tty": terminal is not None,
                            "timeout": timeout,
                        }
                    ).encode()
                ],
                theirs,
            )
            self.pid = json.loads(sock.recv(1 << 16))["pid"]
        finally:
            for fd in theirs:
                os.close(fd)

        def wrap(fd, n):
            if fd is None:
                return None
            if n == 0:
                raw = open(fd, "wb")
                return (
                    io.TextIOWrapper(
                        raw, write_through=True, line_buffering=False, encoding="utf-8"
                    )
                    if text
                    else raw
                )
            raw = open(fd, "rb")
            return io.TextIOWrapper(raw, encoding="utf-8") if text else raw

        self.stdin, self.stdout, self.stderr = (wrap(fd, n) for n, fd in enumerate(ends))

    def poll(self) -> int | None:
        import json

        if self.returncode is None:
            sock = _spawn_socket()
            sock.send(json.dumps({"status": self.pid}).encode())
            self.returncode = json.loads(sock.recv(1 << 16))["status"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        import time

        end = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if end is not None and time.monotonic() > end:
                raise subprocess.TimeoutExpired(self.args, timeout)
            time.sleep(0.01)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        import signal

        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        import signal

        self.send_signal(signal.SIGKILL)


def _spawn_socket():
    """The socket to this test process's ``stream_zygote.py --spawn`` (started at first)."""
    import socket
    import tempfile

    global _spawner
    if _spawner is None or _spawner[0].poll() is not None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        own = tempfile.mkdtemp(prefix="laugh-zygote-")
        zenv = {k: v for k, v in os.environ.items() if k not in ("LAUGH_HOME", "COLUMNS", "LINES")}
        zenv.update(
            LAUGH_HOME=os.path.join(own, "home"),
            PYTHONIOENCODING="utf-8",
            PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        )
        with open(os.path.join(own, "stderr"), "wb") as err:
            proc = subprocess.Popen(
                [
                    sys.executable,
                    str(ROOT / "tests" / "app" / "stream_zygote.py"),
                    "--spawn",
                    str(theirs.fileno()),
                ],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                env=zenv,
                cwd=str(ROOT),
            )
        theirs.close()
        _spawner = (proc, ours)
        import atexit

        atexit.register(lambda: (ours.close(), proc.wait(30)))  # it ends at the socket's end
    return _spawner[1]


def lesson_puzzles(lesson, seed: int):
    """Every puzzle of ``lesson`` for ``seed``, in the order the lesson poses them, with its page:
    a list of (page index, puzzle)."""
    from tutor.puzzles import generate
    from tutor.teaching.lessons import Block, puzzle_seed

    out = []
    for i, page in enumerate(lesson.pages):
        for item in page:
            if isinstance(item, Block) and item.kind == "puzzle":
                d = item.data
                for n in range(d["count"]):
                    out.append(
                        (
                            i,
                            generate(
                                d["kind"],
                                ruleset=d["ruleset"],
                                players=d["players"],
                                seed=puzzle_seed(seed, lesson.id, item.index, n),
                                difficulty=d["difficulty"],
                            ),
                        )
                    )
    return out


def lesson_script(lesson, seed: int, answer=None, retry: str = "no", second=None) -> list[str]:
    """The lines that take ``lesson`` (seed ``seed``) from its first page to the end: at each page,
    the answers to its puzzles (``answer(puzzle, k)`` for the k-th puzzle; default the expected
    answer; after a wrong one, the second try ``second(puzzle, k)``, default the same answer
    again), ``skip`` at a coached deal, then Enter; at the end ``retry`` if any answer was wrong."""
    answer = answer or (lambda p, k: p.accepted[0])
    second = second or answer
    by_page: dict[int, list] = {}
    for page, p in lesson_puzzles(lesson, seed):
        by_page.setdefault(page, []).append(p)
    lines: list[str] = []
    wrong = False
    k = 0
    for i in range(len(lesson.pages)):
        for p in by_page.get(i, []):
            a = answer(p, k)
            lines.append(a)
            if a.lower() in ("show",) or not p.grade(a).correct:
                wrong = True
                if a.lower() != "show":
                    lines.append(second(p, k))
            k += 1
        if any(getattr(item, "kind", None) == "coach" for item in lesson.pages[i]):
            lines.append("skip")  # the coached deal is offered, not played here
        lines.append("")
    if wrong:
        lines.append(retry)
    return lines


def wrong_answer(p) -> str:
    """An answer to ``p`` that reads but is graded wrong."""
    from tutor.puzzles.answers import wrong_answer as w

    text = w(p)
    assert text is not None and not p.grade(text).correct
    return text


JSON_KEYS = {
    "format",
    "id",
    "kind",
    "ruleset",
    "players",
    "seat",
    "record",
    "question",
    "answer",
    "accepted",
    "explanation",
    "quotes",
    "themes",
    "difficulty",
}


def engine_answer(obj: dict) -> dict:
    """The answer of an exported puzzle (puzzle@1 JSON), computed here straight from engine
    queries on its replayed record (and from the library for the non-position kinds)."""
    kind, seat, ans = obj["kind"], obj["seat"], obj["answer"]
    deal = replay(obj["record"])
    if kind == "spot-oversight":
        groups: dict = {}
        for a in deal.free_actions(seat):
            if a.kind == "claim":
                groups.setdefault((a.oversight, a.cards[0] >> 2), []).append(a)
        return {
            "claims": [
                {
                    "oversight": g[0].oversight,
                    "cards": [RANKS[c >> 2] + "CDHS"[c & 3] for c in g[0].cards],
                }
                for g in groups.values()
            ]
        }
    if kind == "capture-now":
        opts = deal.capture_options(seat)
        return {
            "at_risk": [RANKS[o.rank] for o in opts if o.at_risk],
            "safe": [RANKS[o.rank] for o in opts if not o.at_risk],
        }
    if kind == "settlement":
        assert deal.is_terminal()
        r = deal.result
        key = "points" if deal.ruleset.scoring == "pairs" else "net"
        return {key: list(getattr(r, key)), "asked": ans["asked"]}
    if kind == "legal-play":
        acts = deal.legal_actions() if deal.to_move == seat else []
        acts += [a for a in deal.free_actions(seat) if a.kind.startswith("declare")]
        right = [
            c["letter"]
            for c in ans["choices"]
            if deal.why_illegal(action_from_json(c["move"], 0)) is None
        ]
        return {
            "actions": [action_to_json(a) for a in dict.fromkeys(acts)],
            "choices": ans["choices"],
            "right": right,
        }
    if kind == "dead-pair":
        acts = list(deal.free_actions(seat)) + (
            deal.legal_actions() if deal.to_move == seat else []
        )
        ranks = sorted({a.cards[0] >> 2 for a in acts if a.kind == "declare_dead_pair"})
        return {"dead_pairs": [RANKS[r] for r in ranks]}
    if kind == "count":
        return {"unseen": {r: deal.unseen(seat, parse_rank(r)) for r in ans["unseen"]}}
    if kind == "deal-setup" and ans["asked"] == ["mournival"]:
        lib = default_library()
        named = ans["rulesets"]  # two rulesets side by side, this one among them
        assert obj["ruleset"] in named and len(set(named)) == 2
        rules = [str(lib.rulesets[r].table_mournival) for r in named]
        assert rules[0] != rules[1]
        right = [o for o in ans["options"] if list(o) == rules]
        assert len(right) == 1
        return {
            "asked": ["mournival"],
            "rulesets": named,
            "options": ans["options"],
            "letter": "ABCD"[ans["options"].index(right[0])],
        }
    if kind == "deal-setup":
        LIB = default_library()
        pc = LIB.rulesets[obj["ruleset"]].count(obj["players"])
        return {
            "hand": pc.hand,
            "table": pc.table,
            "ante": {"dealer": pc.ante_dealer, "other": pc.ante_other},
            "bonus": pc.last_in_bonus,
            "breakeven": pc.breakeven,
            "dealer": obj["record"]["dealer"],
            "eldest": (obj["record"]["dealer"] + 1) % obj["players"],
            "asked": ans["asked"],
        }
    if kind == "source-quiz":
        LIB = default_library()
        if "source" in ans:
            return {"source": LIB.quotation(obj["quotes"][0]).source, "options": ans["options"]}
        r1, r2 = list(ans["values"])
        name = ans["parameter"]
        pl = (
            obj["players"]
            if name in ("hand", "table", "ante_dealer", "ante_other", "last_in_bonus", "breakeven")
            else None
        )
        v1 = LIB.parameter(r1, name, pl).value
        v2 = LIB.parameter(r2, name, pl).value
        assert v1 != v2
        tolist = lambda v: list(v) if isinstance(v, (tuple, list)) else v  # noqa: E731
        return {
            "parameter": name,
            "values": {r1: tolist(v1), r2: tolist(v2)},
            "options": ans["options"],
        }
    if kind == "reading":
        LIB = default_library()
        name = ans["parameter"]
        tolist = lambda v: list(v) if isinstance(v, (tuple, list)) else v  # noqa: E731
        if "quotes" in ans:  # the same rule side by side: one sentence says it
            values = []
            for ref in ans["quotes"]:
                citing = [r for r in LIB.rulesets if ref in LIB.parameter(r, name).quotes]
                values.append({repr(tolist(LIB.parameter(r, name).value)) for r in citing})
            assert obj["quotes"] == ans["quotes"]
            return {**ans}
        p = LIB.parameter(obj["ruleset"], name)
        assert obj["quotes"] == [ans["quote"]]
        assert ans["quote"] in p.quotes
        # the right answer is what the ruleset's status says (stated, read or chosen), or
        # "some other value" where the value named is not the ruleset's; the options always in
        # one order: says, a close reading, open, some other value
        if p.status == "chosen":
            how = "open"
        elif tolist(ans["value"]) != tolist(p.value):
            how = "other"
        else:
            how = {"stated": "says", "read": "read"}[p.status]
        return {**ans, "how": how, "letter": "ABCD"[["says", "read", "open", "other"].index(how)]}
    if kind == "timeline":
        LIB = default_library()
        import re as _re

        def year_of(sid):
            src = LIB.sources[sid]
            m = _re.search(r"\b(1[0-9]{3}|20[0-9]{2})\b", f"{src.date or ''} {src.in_ or ''}")
            return int(m.group(1))

        def order(ys):
            return ["ABCDEFGH"[i] for i in sorted(range(len(ys)), key=lambda i: ys[i])]

        if "records" in ans:
            dates = [LIB.records[r].date for r in ans["records"]]
            # every two certainly in one order: their spans of years do not meet
            assert all(
                a.hi < b.lo or b.hi < a.lo for i, a in enumerate(dates) for b in dates[i + 1 :]
            )
            return {
                "order": order([d.lo if d.lo is not None else d.hi for d in dates]),
                "records": ans["records"],
            }
        if "sources" in ans:
            return {"order": order([year_of(s) for s in ans["sources"]]), "sources": ans["sources"]}
        if "record" in ans:
            d = LIB.records[ans["record"]].date
            shown = str(d.anchor) if d.form in ("year", "circa") else d.text
            return {
                "letter": "ABCD"[ans["options"].index(shown)],
                "options": ans["options"],
                "record": ans["record"],
            }
        # a record of the name: its own words, a part of them, or its reporter's words
        text = LIB.quotation(ans["quote"]).text
        names = [r for r in LIB.records.values() if r.kind == "name"]
        is_name = any(
            ans["quote"] in (r.quote, r.report) or (r.quote and text in LIB.quotation(r.quote).text)
            for r in names
        )
        return {"letter": "A" if is_name else "B", "quote": ans["quote"]}
    if kind == "claim-window":
        # the action at ``index`` opened an oversight of ``rank`` (the record replayed just
        # after it); it is still open when some seat may claim that rank now; the learner may,
        # unless the mistake is theirs
        from tutor.engine.parameters import claim_window

        i, r = ans["index"], ans["rank"]
        then = replay(obj["record"], upto=i + 1)
        made = next((o for o in then.oversights if o.index == i and o.rank == r), None)
        if made is None:
            case = "none"
        elif any(
            a.kind == "claim" and a.cards[0] >> 2 == r
            for q in range(obj["players"])
            for a in deal.free_actions(q)
        ):
            case = "own" if made.offender == seat else "open"
        else:
            case = "closed"
        who = [q for q in range(obj["players"]) if made is not None and q != made.offender]
        return {
            "choices": ans["choices"],
            "right": [c["letter"] for c in ans["choices"] if c["case"] == case],
            "case": case,
            "index": i,
            "rank": r,
            "claimants": who,
            "until": claim_window(made.kind) if made else None,
            "kind": made.kind.value if made else None,
        }
    if kind == "keep":
        # lying down: the won cards stay, the whole hand goes onto the table (RULES.md 1)
        seat = obj["seat"]
        assert [a.kind for a in deal.legal_actions(seat)] == ["lie_down"]
        kept, hand = sorted(deal.won_cards(seat)), sorted(deal.hand(seat))
        return {
            "choices": ans["choices"],
            "kept": kept,
            "to_table": hand,
            "right": [
                c["letter"]
                for c in ans["choices"]
                if sorted(c["kept"]) == kept and sorted(c["to_table"]) == hand
            ],
        }
    if kind == "end-of-play":
        deal.apply(action_from_json(ans["final"], 0))
        assert deal.phase != "play"
        while not deal.is_terminal():  # the last player plays on alone
            deal.apply(deal.legal_actions()[0])
        r = deal.result
        return {"final": ans["final"], "last_in": r.last_in, "leftovers_to": r.leftovers_to}
    if kind == "score-sheet":
        from tutor.engine.match import plan_games

        LIB = default_library()
        rs = LIB.rulesets[obj["ruleset"]]
        games = plan_games(rs, obj["players"], 0)
        rounds: dict = {}
        for g, row in zip(games, ans["sheet"]):
            assert (g.round, g.number, g.practice) == (row["round"], row["number"], row["practice"])
            rounds[g.round] = rounds.get(g.round, 0) + (0 if g.practice else row["points"])
        totals = [rounds[k] for k in sorted(rounds)]
        return {
            "rounds": totals,
            "cumulative": sum(totals),
            "seat": ans["seat"],
            "sheet": ans["sheet"],
        }
    if kind == "best-move":
        # the confirming analysis run afresh from the seed and budget the answer names: the same
        # figures, and the principles again from them
        from tutor.engine.analysis import analyse, decision_options, option_class, principles

        an = analyse(
            deal,
            seat,
            policy=ans["policy"],
            seed=ans["seed"],
            samples=ans["samples"],
            which="turn",
            stop_when_clear=False,
            min_samples=ans["samples"],
        )
        moves = [action_from_json(c["move"], 0) for c in ans["choices"]]
        classes = [option_class(deal, a) for a in moves]
        assert len(set(classes)) == len(classes)
        assert set(classes) == {option_class(deal, a) for a in decision_options(deal, seat, "turn")}
        choices = []
        # a listed move is any option of its class (the same play up to suits): its figures are
        # those of the option of that class the analysis holds
        held = {option_class(deal, o.action): o.action for o in an.options}
        for c, a in zip(ans["choices"], moves):
            v = an.value_of(held[option_class(deal, a)])
            choices.append(
                {
                    "letter": c["letter"],
                    "move": c["move"],
                    "text": c["text"],
                    "mean": round(v.mean, 4),
                    "ci95": round(v.ci95, 4),
                    "diff": round(v.diff, 4),
                    "diff_ci95": round(v.diff_ci95, 4),
                }
            )
        letter = {k: c["letter"] for c, k in zip(ans["choices"], classes)}
        second = an.runner_up
        found = sorted(
            (
                {
                    "letter": letter[option_class(deal, o)],
                    "key": p.key,
                    "advice": p.advice,
                    "quote": p.quote,
                    "text": p.text,
                }
                for o, p in principles(deal, seat, an)
            ),
            key=lambda x: x["letter"],
        )
        return {
            "choices": choices,
            "best": letter[option_class(deal, an.best.action)],
            "margin": round(-second.diff, 4),
            "margin_ci95": round(second.diff_ci95, 4),
            "unit": an.unit,
            "policy": ans["policy"],
            "samples": ans["samples"],
            "seed": ans["seed"],
            "selection": ans["selection"],
            "principles": found,
        }
    raise AssertionError(kind)


def position(ruleset, players, *, hands, table, won=None, dealer=0, to_move=None, started=True):
    """A deal state set up by hand (:meth:`Deal.from_position`): ``hands`` is a list of card
    strings per seat, ``table`` a card string; ``won`` optional card strings per seat.  Cards not
    named are outside the deal (a teaching fragment)."""
    return Deal.from_position(
        ruleset,
        players,
        dealer,
        hands=[parse_cards(h) for h in hands],
        table=parse_cards(table),
        won=[parse_cards(w) for w in (won or [""] * players)],
        to_move=to_move,
        started=started,
        complete=False,
    )


def wait_until(pred, timeout: float = 30.0, step: float = 0.02) -> bool:
    """Ask ``pred()`` every ``step`` seconds until it is true (True) or ``timeout`` seconds have
    passed (False): the one wait of the tests that watch a server, a page or a terminal."""
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return False


def axe_serious(page) -> list[str]:
    """What axe-core finds serious or critical on a Playwright ``page``, a line each."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']}"
        for v in found
        if v.get("impact") in ("serious", "critical")
    ]
