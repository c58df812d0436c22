"""Rapid settlement arithmetic under each ruleset (RULES.md 3.5).

Each question is a finished deal between computer players, shown as numbers: the ruleset's
antes, bonus and breakeven (or points for pairs), each player's won cards at the end of play, the
last player in, who made the last capture, where the leftovers and a set-aside mournival go.
The learner gives one player's net stakes (or points); the engine's settlement
(:class:`~tutor.engine.DealResult`) is the answer, and the working is shown afterwards.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from rich.table import Table
from rich.text import Text

from tutor.engine.bots import Careless, make_bot, play_out
from tutor.engine.deal import Deal, new_deal
from tutor.engine.errors import NotationError
from tutor.teaching.drills.base import Answered, DrillIO

__all__ = ["SettleDrill", "SettleQuestion", "SettleResult", "parse_signed", "won_in_play"]


@dataclass
class SettleQuestion:
    """A finished deal and the seat asked about."""

    deal: Deal
    seat: int

    @property
    def answer(self) -> int:
        return self.deal.returns()[self.seat]


@dataclass
class SettleResult:
    answers: list[Answered] = field(default_factory=list)
    quit: bool = False

    @property
    def right(self) -> int:
        return sum(1 for a in self.answers if a.correct)


def parse_signed(text: str) -> int:
    """A whole number, optionally signed: ``+3``, ``-2``, ``0``, ``3``."""
    t = text.strip().replace("−", "-").replace(" ", "")
    if not re.fullmatch(r"[+-]?\d+", t):
        raise NotationError(f"{text.strip()!r} is not a whole number: answer like +3, -2 or 0")
    return int(t)


def won_in_play(deal: Deal) -> list[int]:
    """Each seat's won cards before the end of the deal (before leftovers and a set-aside
    mournival are moved), counted from the deal's actions."""
    won = [0] * deal.n
    takes = deal.ruleset.table_mournival == "dealer_takes"
    for a in deal.history:
        if a.kind in ("capture", "play_on_capture"):
            won[a.player] += len(a.cards) + len(a.table)
        elif a.kind == "take_table_mournival":
            if takes:
                won[a.player] += len(a.cards)
        else:
            if a.kind != "lie_down":
                won[a.player] += len(a.cards)
    return won


def _aside(deal: Deal) -> int:
    if deal.ruleset.table_mournival != "set_aside_for_last_in":
        return 0
    return sum(len(a.cards) for a in deal.history if a.kind == "take_table_mournival")


class SettleDrill:
    """Settlement questions.  ``rulesets`` to draw from (or one fixed ``ruleset``);
    ``seed`` fixes the deals."""

    def __init__(self, io: DrillIO, rulesets: list, ruleset=None, players: int | None = None,
                 seed: int = 1):
        self.io = io
        self.rulesets = rulesets
        self.ruleset = ruleset
        self.players = players
        self.seed = seed
        self.rng = random.Random(f"{seed}:settle")
        self.count = 0

    def make_question(self) -> SettleQuestion:
        rng = self.rng
        rs = self.ruleset or rng.choice(self.rulesets)
        n = self.players if self.players in rs.counts else rng.choice(rs.player_counts)
        deal = new_deal(rs, n, rng.randrange(n), rng)
        play_out(deal, [Careless(make_bot("willughby"), 0.15) for _ in range(n)], rng)
        return SettleQuestion(deal, rng.randrange(n))

    def facts(self, q: SettleQuestion):
        """The question's facts as a renderable."""
        d = q.deal
        rs, pc, res = d.ruleset, d.rules, d.result
        names = [f"Player {s}" for s in range(d.n)]
        names[q.seat] = "You"
        lines: list = [Text(f"{rs.id} · {d.n} players", style="bold")]
        if rs.scoring == "stakes":
            rule = (f"Antes: dealer {pc.ante_dealer}, others {pc.ante_other}; breakeven "
                    f"{pc.breakeven} won cards, 1 stake per 2 cards above or below")
        else:
            rule = "Points: 1 per pair won (won cards / 2)"
        if pc.last_in_bonus and rs.bonus_to:
            who = "the last player in" if rs.bonus_to == "last_in" else "the last capture"
            rule += f"; bonus {pc.last_in_bonus} to {who}"
        lines.append(Text(rule + "."))
        to = {"dealer": "the dealer", "last_in": "the last player in",
              "nobody": "nobody (discarded)"}[rs.leftovers_to]
        lines.append(Text(f"Leftovers (the last hand and the table) go to {to}."))
        t = Table(box=None, pad_edge=False, header_style="bold underline")
        t.add_column("player", no_wrap=True)
        t.add_column("won in play", justify="right")
        t.add_column("", overflow="fold")
        won = won_in_play(d)
        last_capture = next((a.player for a in reversed(d.history)
                             if a.kind in ("capture", "play_on_capture")), None)
        for s in range(d.n):
            notes = []
            if s == d.dealer:
                notes.append("dealer")
            if s == res.last_in:
                notes.append("last in")
            if rs.bonus_to == "last_pair" and s == last_capture:
                notes.append("last capture")
            t.add_row(Text(names[s], style="bold cyan" if s == q.seat else ""), str(won[s]),
                      ", ".join(notes))
        lines.append(t)
        extra = []
        if res.leftovers:
            extra.append(f"leftovers: {len(res.leftovers)} cards")
        aside = _aside(d)
        if aside:
            extra.append(f"set-aside mournival: {aside} cards (to the last player in)")
        if extra:
            lines.append(Text("; ".join(extra).capitalize() + "."))
        from rich.console import Group
        return Group(*lines)

    def working(self, q: SettleQuestion) -> str:
        """The settlement of the seat asked about, worked out."""
        d = q.deal
        pc, res = d.rules, d.result
        s = q.seat
        won = len(res.won[s])
        parts = []
        inplay = won_in_play(d)[s]
        if won != inplay:
            parts.append(f"won {inplay} in play + {won - inplay} at the end = {won}")
        if d.ruleset.scoring == "stakes":
            ante = pc.ante(s, d.dealer)
            bonus = pc.last_in_bonus if res.bonus_to == s else 0
            sum_text = f"-{ante} ante" + (f" + {bonus} bonus" if bonus else "") + \
                f" + ({won} - {pc.breakeven}) / 2 = {res.net[s]:+d}"
            parts.append(sum_text)
        else:
            bonus = (pc.last_in_bonus or 0) if res.bonus_to == s else 0
            parts.append(f"{won} / 2" + (f" + {bonus} bonus" if bonus else "")
                         + f" = {res.points[s]} points")
        return "; ".join(parts)

    def themes(self, q: SettleQuestion) -> list[str]:
        d = q.deal
        res = d.result
        out = ["settlement", "stakes" if d.ruleset.scoring == "stakes" else "pairs-scoring"]
        if len(res.won[q.seat]) != won_in_play(d)[q.seat]:
            out.append("leftovers")
        if res.bonus_to == q.seat and d.rules.last_in_bonus:
            out.append("bonus")
        return out

    def ask(self, q: SettleQuestion) -> Answered | None:
        io = self.io
        self.count += 1
        io.show(Text(""))
        io.show(self.facts(q))
        d = q.deal
        what = "net stakes" if d.ruleset.scoring == "stakes" else "points"
        io.say(f"Your {what}?")
        start = io.clock.now()
        while True:
            text = io.read("settle> ", None)
            if text is None or text.strip().lower() in ("q", "quit"):
                return None
            try:
                value = parse_signed(text)
            except NotationError as exc:
                io.say(str(exc), style="yellow")
                continue
            break
        secs = io.clock.now() - start
        ok = value == q.answer
        io.record(f"drill-settle.{d.ruleset.id}.{d.n}.{self.seed}.{self.count}", "settlement",
                  self.themes(q), ok, secs, d.ruleset.id)
        if ok:
            io.say(f"✓ {secs:.1f} s · {self.working(q)}", style="green")
        else:
            io.say(f"✗ {self.working(q)}", style="red")
        return Answered(ok, secs)

    def session(self, rounds: int = 10) -> SettleResult:
        io = self.io
        res = SettleResult()
        io.say("Settlement drill: give the result as fast as you can.", style="bold")
        for _ in range(rounds):
            a = self.ask(self.make_question())
            if a is None:
                res.quit = True
                break
            res.answers.append(a)
        if res.answers:
            mean = sum(a.seconds for a in res.answers) / len(res.answers)
            io.say(f"Settlement: {res.right}/{len(res.answers)} right, {mean:.1f} s an answer.",
                   style="bold")
        return res
