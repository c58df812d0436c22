"""The card-counting trainer.

A deal between computer players (one of them in the learner's seat) scrolls past, action by
action, at a chosen speed in cards per second.  At the end of play, or at a random stop, the
scroll stops and the learner, seeing only what is always in view (their hand and the table),
answers from memory:

1. how many of two given ranks are unseen (RULES.md 8: 4 - table - won piles - set aside - own
   hand);
2. which of their pairs are dead (the other two of the rank already won);
3. which of the table ranks they could capture are at risk (RULES.md 8).

Every answer is the engine's (:meth:`Deal.view`, :meth:`Deal.dead_pairs`,
:meth:`Deal.capture_options`).  The learner's own seat is played by a computer player too: the
drill trains counting, not choosing, and says so.  Accuracy before speed: only after a run of
perfect rounds at the current pace (``run``, 3 by default; a miss starts the run again) does the
speed rise by a quarter, as blackjack counting trainers do, and the drill says so.  With a
``limit`` each answer has that many seconds, shown as a live countdown on a terminal; running
out is a wrong answer.  A replay shows what was missed: the actions that moved the ranks asked
about, each pair's verdict and each capture's risk, with the engine's reasons.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from rich.text import Text

from tutor.engine.bots import Careless, make_bot, play_out
from tutor.engine.cards import RANK_PLURALS, parse_rank
from tutor.engine.deal import Action, Deal, new_deal
from tutor.engine.errors import LaughError, NotationError
from tutor.engine.observe import observe
from tutor.puzzles import Grade
from tutor.puzzles.board import action_text, grouped_text
from tutor.teaching.drills.base import Drill
from tutor.teaching.io import LearnerIO
from tutor.teaching.loop import Outcome, Question, Record, ask, go_on

__all__ = [
    "CountDrill",
    "CountQuestion",
    "CountRound",
    "CountResult",
    "parse_counts",
    "parse_ranks",
    "run",
    "SPEEDUP",
]

SPEEDUP = 1.25
_NONE = {"", "none", "no", "nothing", "-", "0", "nil"}


@dataclass
class CountRound:
    """One stop: the deal and where it stopped, the questions' answers and the learner's."""

    deal: Deal
    seat: int
    stop: int
    speed: float
    ranks: tuple[int, ...] = ()
    #: (question, right, seconds or None when no answer was typed in time)
    results: list[tuple[str, bool, float | None]] = field(default_factory=list)
    number: int = 1
    of: int | None = None

    @property
    def perfect(self) -> bool:
        return all(r for _, r, _ in self.results)


@dataclass
class CountResult:
    """A session: its rounds and the speed reached."""

    rounds: list[CountRound] = field(default_factory=list)
    speed: float = 0.0
    quit: bool = False


def parse_counts(text: str, n: int) -> list[int]:
    """``n`` whole numbers from ``2 0``, ``2, 0`` or ``7: 2, K: 0``; raises NotationError."""
    parts = re.split(r"[\s,;]+", text.strip())
    nums = []
    for p in parts:
        if not p:
            continue
        if ":" in p:
            p = p.split(":", 1)[1]
            if not p:
                continue
        if not (p.isascii() and p.isdigit() and len(p) <= 2):
            raise NotationError(
                f"{p!r} is not a number: answer {n} whole number"
                f"{'s' if n != 1 else ''}, for example 2 0"
            )
        nums.append(int(p))
    if len(nums) != n:
        raise NotationError(
            f"answer {n} number{'s' if n != 1 else ''} (one per rank, in order), not {len(nums)}"
        )
    return nums


def parse_ranks(text: str) -> set[int]:
    """Ranks from ``9 Q``, ``nines, queens``, or none (``none``, ``no``, empty)."""
    t = text.strip().lower()
    if t in _NONE:
        return set()
    out = set()
    for p in re.split(r"[\s,;]+", t):
        if not p or p in ("and",):
            continue
        out.add(parse_rank(p))
    return out


def _rank_list(ranks) -> str:
    rs = sorted(ranks)
    return ", ".join(RANK_PLURALS[r] for r in rs) if rs else "none"


class CountQuestion(Question):
    """One question at a counting stop, as the learner loop poses it: the question in words,
    ``count>``, one try read by ``parse`` (a reading error is said, never graded) and right when
    it gives ``want``; its verdict (``answer`` in words, when missed) and the ``replay`` of what
    was missed."""

    prompt = "count> "
    blank = ""  # read by the question: an empty line is none, or asked again

    def __init__(self, text: str, parse, want, answer: str, record: Record, replay):
        self.text = text
        self.parse = parse
        self.want = want
        self.answer = answer
        self.record = record
        self.replay = replay
        self.answer_help = text

    def pose(self, io: LearnerIO) -> None:
        io.say(self.text)

    def grade(self, text: str, attempt: int) -> Grade:
        return Grade(self.parse(text) == self.want, f"The answer: {self.answer}")

    def explain(self, io: LearnerIO, outcome: Outcome) -> None:
        if outcome.correct:
            secs = outcome.seconds
            io.say("✓" + (f" {secs:.1f} s" if secs is not None else ""), style="green")
            return
        if outcome.timed_out:
            io.say(f"✗ Time is up ({outcome.timeout:g} s). The answer: {self.answer}", style="red")
        else:
            io.say(f"✗ The answer: {self.answer}", style="red")
        self.replay()


class CountDrill(Drill):
    """Counting rounds for ``io``, recorded in ``store`` (see
    :class:`~tutor.teaching.drills.base.Drill`).  ``ruleset`` (a
    :class:`~tutor.engine.rulesets.Ruleset`) and ``players`` fix the game, else each round draws
    one from ``rulesets``; ``speed`` is the starting pace in cards per second; ``seed`` fixes
    the deals and the stops; ``run`` perfect rounds raise the pace; ``limit`` seconds an answer
    (None or 0: no clock)."""

    def __init__(
        self,
        io: LearnerIO,
        rulesets: list,
        ruleset=None,
        players: int | None = None,
        speed: float = 2.0,
        seed: int = 1,
        run: int = 3,
        limit: float | None = None,
        *,
        store=None,
    ):
        super().__init__(io, store)
        self.limit = limit or None
        self.rulesets = rulesets
        self.ruleset = ruleset
        self.players = players
        self.speed = speed
        self.seed = seed
        self.run_len = run
        self.rng = random.Random(f"{seed}:count")
        self._current: CountRound | None = None

    # -- making a round -------------------------------------------------------------------

    def make_round(self) -> CountRound:
        """A fresh deal played by computer players, and a stop in it."""
        rng = self.rng
        for _ in range(50):
            rs = self.ruleset or rng.choice(self.rulesets)
            n = (
                self.players
                if self.players is not None and self.players in rs.counts
                else rng.choice(rs.player_counts)
            )
            deal = new_deal(rs, n, rng.randrange(n), rng)
            bots = [Careless(make_bot("willughby"), 0.15) for _ in range(n)]
            play_out(deal, bots, rng)
            seat = rng.randrange(n)
            stops = self._stops(deal, seat)
            if not stops:
                continue
            if rng.random() < 0.3:
                stop = stops[-1]
            else:
                half = stops[len(stops) // 2 :] or stops
                stop = rng.choice(half)
            return CountRound(deal.replayed(stop), seat, stop, self.speed)
        raise LaughError("no deal with a stop found")  # pragma: no cover

    @staticmethod
    def _stops(deal: Deal, seat: int) -> list[int]:
        """History lengths after which play is still on and ``seat`` holds cards (at least
        four actions in)."""
        d = Deal(deal.ruleset, deal.n, deal.dealer, deal.pack)
        out = []
        for i, a in enumerate(deal.history):
            d.apply_unchecked(a)
            if i >= 3 and d.phase == "play" and d.hands[seat]:
                out.append(i + 1)
        return out

    # -- running --------------------------------------------------------------------------

    def session(self, rounds: int = 5) -> CountResult:
        """``rounds`` rounds; the speed rises after each run of perfect ones."""
        io = self.io
        res = CountResult(speed=self.speed)
        io.say(
            "Counting trainer: watch the deal; when it stops, answer from memory. The pace "
            f"rises only after {self.run_len} perfect round{'s' if self.run_len != 1 else ''} "
            "in a row at the current pace"
            + (f"; each answer has {self.limit:g} s." if self.limit else "."),
            style="bold",
        )
        perfect_run = 0
        mark = self.save_mark()
        try:
            for k in range(rounds):
                rnd = self.make_round()
                rnd.number, rnd.of = k + 1, rounds
                if not self.play_round(rnd, k + 1):
                    res.quit = True
                    break
                res.rounds.append(rnd)
                if rnd.perfect:
                    perfect_run += 1
                    if perfect_run >= self.run_len:
                        old = self.speed
                        self.speed = self.speed * SPEEDUP
                        perfect_run = 0
                        io.say(
                            f"{self.run_len} perfect rounds in a row at {old:.3g} cards a "
                            f"second: faster now, {self.speed:.3g} cards a second.",
                            style="bold green",
                        )
                    else:
                        io.say(
                            f"Perfect: {perfect_run} of {self.run_len} in a row before the "
                            "pace rises.",
                            style="dim",
                        )
                else:
                    if perfect_run:
                        io.say(
                            "A miss: the run of perfect rounds starts again at this pace.",
                            style="dim",
                        )
                    perfect_run = 0
        except (EOFError, KeyboardInterrupt):
            io.say("Counting stopped: " + self.saved_words(mark), style="yellow")
            raise
        res.speed = self.speed
        right = sum(1 for r in res.rounds for _, ok, _ in r.results if ok)
        asked = sum(len(r.results) for r in res.rounds)
        best = self.meta_best("drill.count.speed.best", self.speed)
        io.say(
            f"Counting: {right}/{asked} answers right, "
            f"{sum(1 for r in res.rounds if r.perfect)}/{len(res.rounds)} perfect rounds, "
            f"speed {self.speed:.3g} cards a second" + (" (a new best)" if best else "") + ".",
            style="bold",
        )
        return res

    def play_round(self, rnd: CountRound, number: int = 1) -> bool:
        """Scroll, stop, ask, replay.  False when the learner quits."""
        io = self.io
        self._current = rnd
        d0 = Deal(rnd.deal.ruleset, rnd.deal.n, rnd.deal.dealer, rnd.deal.pack)
        names = _names(rnd.deal.n, rnd.seat)
        io.say("")
        io.say(
            f"Round {number} · {rnd.deal.ruleset.short_title} · {rnd.deal.n} players · "
            f"{names[rnd.deal.dealer]} deal{'' if rnd.deal.dealer == rnd.seat else 's'} · "
            f"{rnd.speed:g} card{'' if rnd.speed == 1 else 's'} a second",
            style="bold",
        )
        t = Text("Table: ")
        t.append_text(grouped_text(d0.table_cards(), io.symbols))
        io.show(t)
        t = Text("Your hand: ", style="bold cyan")
        t.append_text(grouped_text(d0.hand(rnd.seat), io.symbols))
        io.show(t)
        io.say(
            "A computer player plays your seat too (Willughby's advice): this drill trains "
            "counting, not choosing. Watch every card, yours included.",
            style="dim",
        )
        if not go_on(io, "Enter to start> "):
            return False
        set_aside = rnd.deal.game.sets_aside_table_mournival
        lines = [
            action_text(a, names, rnd.seat, io.symbols, set_aside)
            for a in rnd.deal.history[: rnd.stop]
        ]
        self._scroll(lines, rnd.deal.history[: rnd.stop], rnd.speed)
        io.say("Stop!", style="bold yellow")
        return self.ask(rnd, names)

    def _scroll(self, lines: list[Text], actions: list[Action], speed: float) -> None:
        io = self.io
        with io.ticker() as show:  # on a terminal one line, redrawn in place
            for i, (line, a) in enumerate(zip(lines, actions), 1):
                t = Text(f"{i:>3}. ")
                t.append_text(line)
                show(t)
                io.clock.sleep(max(1, len(a.cards) + len(a.table)) / speed)

    def ask(self, rnd: CountRound, names: list[str]) -> bool:
        """The questions at the stop; records each answer; replays what was missed."""
        io = self.io
        d, seat = rnd.deal, rnd.seat
        view = observe(d, seat)
        t = Text("Table: ")
        t.append_text(grouped_text(view.table, io.symbols))
        io.show(t)
        t = Text("Your hand: ", style="bold cyan")
        t.append_text(grouped_text(view.hand, io.symbols))
        io.show(t)
        base = f"drill-count.{d.ruleset.id}.{d.n}.{self.seed}.{rnd.stop}.s{rnd.speed:g}"
        # 1. unseen
        ranks = self._pick_ranks(d, seat)
        rnd.ranks = ranks
        want = [view.unseen[r] for r in ranks]
        names_ = [RANK_PLURALS[r] for r in ranks]
        q = (
            f"How many {' and '.join(names_)} are unseen? One number for each, {names_[0]} "
            "first: for example 2 1."
        )
        if not self._ask(
            rnd,
            CountQuestion(
                q,
                lambda s: parse_counts(s, len(ranks)),
                want,
                " ".join(map(str, want)),
                Record(base + ".unseen", "count", ("counting", "unseen"), d.ruleset.id),
                lambda: self._replay_unseen(rnd, names, ranks),
            ),
            "unseen",
        ):
            return False
        # 2. dead pairs
        pairs = [r for r in range(13) if view.count(r).hand == 2]
        if pairs:
            dead = set(view.dead_pairs)
            q = f"Which of your pairs ({_rank_list(pairs)}) are dead? (ranks, or none)"
            if not self._ask(
                rnd,
                CountQuestion(
                    q,
                    parse_ranks,
                    dead,
                    _rank_list(dead),
                    Record(base + ".dead", "count", ("counting", "dead-pair"), d.ruleset.id),
                    lambda: self._replay_dead(rnd, names, pairs),
                ),
                "dead-pairs",
            ):
                return False
        # 3. at risk
        opts = d.capture_options(seat)
        if opts:
            risky = {o.rank for o in opts if o.at_risk}
            q = (
                f"You could capture {_rank_list(o.rank for o in opts)}. Which are at risk? "
                "(ranks, or none)"
            )

            def risks() -> None:
                for o in opts:
                    io.say(
                        f"  {RANK_PLURALS[o.rank]}: {'at risk' if o.at_risk else 'safe'}: "
                        f"{o.reason}",
                        style="dim",
                    )

            if not self._ask(
                rnd,
                CountQuestion(
                    q,
                    parse_ranks,
                    risky,
                    _rank_list(risky),
                    Record(base + ".risk", "count", ("counting-risk", "at-risk"), d.ruleset.id),
                    risks,
                ),
                "at-risk",
            ):
                return False
        return True

    def _ask(self, rnd: CountRound, question: CountQuestion, name: str) -> bool:
        """Put ``question`` to the learner through the learner loop (with the drill's time
        limit: running out is a wrong answer), recorded in the store, its verdict and (when
        missed) the replay said; the result kept in ``rnd.results`` under ``name``.  False when
        the learner quits."""
        out = ask(
            self.io,
            question,
            store=self.store,
            timeout=self.limit,
            label=f"Round {rnd.number}" if self.limit else None,
            total=self.limit,
            progress=(rnd.number, rnd.of) if rnd.of else None,
        )
        if out.left:
            return False
        rnd.results.append((name, out.correct, out.seconds))
        return True

    def _pick_ranks(self, d: Deal, seat: int) -> tuple[int, ...]:
        cands = sorted({a.rank for a in d.history if a.rank is not None})
        if len(cands) < 2:
            cands = list(range(13))
        pick = self.rng.sample(cands, 2)
        return tuple(sorted(pick))

    def _replay_unseen(self, rnd: CountRound, names, ranks) -> None:
        io = self.io
        d = rnd.deal
        set_aside = d.game.sets_aside_table_mournival
        view = observe(d, rnd.seat)
        for r in ranks:
            rc = view.count(r)
            io.say(
                f"  {RANK_PLURALS[r]}: 4 - table {rc.table} - won {rc.won_total}"
                + (f" - set aside {rc.set_aside}" if rc.set_aside else "")
                + f" - your hand {rc.hand} = {rc.unseen} unseen",
                style="bold",
            )
            for i, a in enumerate(d.history):
                if a.rank == r:
                    t = Text(f"    {i + 1:>3}. ")
                    t.append_text(action_text(a, names, rnd.seat, io.symbols, set_aside))
                    io.show(t)

    def _replay_dead(self, rnd: CountRound, names, pairs) -> None:
        io = self.io
        d = rnd.deal
        for r in pairs:
            word = d.pair_deadness(rnd.seat, r).words(rnd.seat, names)  # the engine's
            io.say(f"  {RANK_PLURALS[r]}: {word}.", style="dim")


def run(io: LearnerIO, store, request) -> None:
    """The drill as ``laugh drill count`` and the home screen run it (see
    :mod:`tutor.teaching.drills.registry`)."""
    s = request.settings
    CountDrill(
        io,
        request.rulesets,
        request.ruleset,
        request.players,
        s["speed"],
        request.seed,
        s["run"],
        s["limit"],
        store=store,
    ).session(s["rounds"])


def _names(n: int, seat: int) -> list[str]:
    names = [f"Player {q}" for q in range(n)]
    names[seat] = "You"
    return names
