"""Position analysis: what each option of a seat is worth, in stakes (RULES.md 3.4-3.5, 4, 8).

:func:`analyse` answers, for one seat at one position, "what final result can I expect from each
thing I may do now?", from that seat's own view only (RULES.md 8: its hand, the table, every won
pile, the set-aside mournival, every hand's size and every action so far).

The options (:func:`decision_options`) are every legal action of the seat now: its turn actions
when it is to move, its free actions (declarations, claims, taking a table mournival), and
*hold* (make no free action now) where it has a free action that may wait.

Method: Monte Carlo over determinizations.  Sample ``i`` deals the cards the seat cannot see to
its opponents at random, consistently with their hand sizes and with every card already revealed
(:func:`determinize`), then, for every option in turn, applies the option to a copy of that deal
and plays the deal out to settlement with one rollout policy in every seat (a computer player of
:mod:`tutor.engine.bots`, ``counter`` by default).  Every option of sample ``i`` sees the same
determinization and the same random numbers, seat by seat (common random numbers), so that the
differences between options are sharp.

Estimator and units.  ``X[i][j]`` is the seat's final result in sample ``i`` after option ``j``:
net stakes under stakes scoring, points under pairs scoring (:meth:`Deal.returns`).  An option's
value is the sample mean of ``X[.][j]`` over ``n`` samples, with the 95% interval
``mean ± 1.96·s/√n`` (``s`` the sample standard deviation: a normal approximation).  Its
difference from the best option ``b`` (the highest mean) is the mean of the paired differences
``X[i][j] - X[i][b]``, with its own interval from their standard deviation.  Sampling stops early
(checked every few samples, after ``min_samples``) when the best option is clearly ahead (the
upper end of every other option's difference interval is below zero), or when every difference
interval is within ``target`` of its mean, or at the sample or time budget.  The intervals are
those of a fixed-size sample: the sequential stop makes their true coverage a little below 95%.

The determinizations use no inference from the opponents' choices (what a player did not take
says something about its hand only under a model of how it plays): every deal of the unseen
cards that fits the hand sizes and the proven holdings (:func:`known_holdings`) is equally likely.
Inside a rollout, claims race as in :func:`tutor.engine.bots.play_out`: every seat offers its
free action and the fastest reaction makes it.

Options that differ only by suits (the same ranks from the same places, touching the same open
oversights) are worth exactly the same under rules that never look at suits; they are sampled
once and share their figures.

Reproducibility: the figures depend only on the seat's view, the ``seed`` and the sample
budget, never on the clock or the machine (when a time budget is given instead, the number of
samples, and so the figures, depend on the machine's speed).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from tutor.engine.bots import BOT_NAMES, WillughbyBot, make_bot
from tutor.engine.cards import cards_of
from tutor.engine.deal import _NIB_CARDS, DECLARATIONS, NIB, OVER, PLAY, Action, Deal, _counts
from tutor.engine.errors import LaughError, UsageError
from tutor.engine.race import ClaimRace
from tutor.engine.records import action_to_json

#: The option of making no free action now (holding it), in option lists.
HOLD = None
#: Rollout policies: every computer player but ``expert`` (which analyses by rollouts itself).
POLICIES = tuple(b for b in BOT_NAMES if b != "expert")
Z95 = 1.96
_M64 = (1 << 64) - 1
_FULL = (1 << 52) - 1
_new = tuple.__new__


class NoDecision(LaughError):
    """The seat has nothing to choose at this position (not its turn and no free action)."""


# --- seeds and random streams ------------------------------------------------------------

def mix_seed(*parts: int) -> int:
    """A 64-bit hash of whole numbers (splitmix64 steps): the same on every machine, for seeding
    ``random.Random`` from several parts."""
    h = 0x9E3779B97F4A7C15
    for x in parts:
        h = (h ^ (x & _M64)) & _M64
        h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9 & _M64
        h = (h ^ (h >> 27)) * 0x94D049BB133111EB & _M64
        h ^= h >> 31
    return h


class _Source:
    """The uniform numbers of one seat in one sample: a list that grows on demand from a
    generator seeded by ``seed``, so that its ``k``-th number never depends on who read first."""

    __slots__ = ("buf", "seed", "gen")

    def __init__(self, buf: list[float], seed: int):
        self.buf = buf
        self.seed = seed
        self.gen: random.Random | None = None

    def extend(self) -> None:
        if self.gen is None:
            self.gen = random.Random(self.seed)
        r = self.gen.random
        self.buf.extend([r() for _ in range(32)])


class _Stream:
    """A reader of one :class:`_Source` from its start: the ``rng`` a rollout policy gets for
    one seat.  Offers ``random()`` and ``uniform(a, b)``, all that the computer players use."""

    __slots__ = ("src", "buf", "i")

    def __init__(self, src: _Source):
        self.src = src
        self.buf = src.buf
        self.i = 0

    def random(self) -> float:
        i = self.i
        self.i = i + 1
        buf = self.buf
        if i >= len(buf):
            self.src.extend()
        return buf[i]

    def uniform(self, a: float, b: float) -> float:
        return a + (b - a) * self.random()


# --- rollout policies --------------------------------------------------------------------

def _low_card(m: int) -> int:
    """The lowest card of a non-empty mask."""
    return (m & -m).bit_length() - 1


def _nth_card(m: int, k: int) -> int:
    """The ``k``-th lowest card (from 0) of mask ``m``."""
    for _ in range(k):
        m &= m - 1
    return (m & -m).bit_length() - 1


def _pick(p: int, kind: str, cards: int, t: int, rng) -> Action:
    """A one-for-one capture with a hand card drawn uniformly from mask ``cards`` (in card
    order, as the engine lists captures), taking the lone table card of its rank."""
    a = _nth_card(cards, int(rng.random() * cards.bit_count()))
    return _new(Action, (p, kind, (a,), (_low_card(t & (15 << (a & ~3))),), None))


class _Policy:
    """How every seat plays in a rollout: ``choose`` a turn action, ``free`` an action or None,
    and a ``reaction`` time for the claim race (as :class:`tutor.engine.bots.Bot`)."""

    name = "policy"

    def start(self, d: Deal) -> None:
        """Called before each rollout."""

    def choose(self, d: Deal, rng) -> Action:
        """The turn action of ``d.to_move``."""
        raise NotImplementedError

    def free(self, d: Deal, seat: int, rng) -> Action | None:
        raise NotImplementedError

    def reaction(self, seat: int, rng) -> float:
        raise NotImplementedError


class _BotPolicy(_Policy):
    """Any computer player by name, one per seat."""

    def __init__(self, name: str, players: int):
        self.name = name
        self.bots = [make_bot(name) for _ in range(players)]

    def start(self, d):
        for b in self.bots:
            b.start(d)

    def choose(self, d, rng):
        return self.bots[d.to_move].choose(d, d.legal_actions(), rng)

    def free(self, d, seat, rng):
        return self.bots[seat].free_action(d, seat, rng)

    def reaction(self, seat, rng):
        return self.bots[seat].reaction(rng)


class _CounterPolicy(_Policy):
    """The ``counter`` player (:class:`tutor.engine.bots.CounterBot`) working on the engine's
    masks: the same choice from the same random numbers, without building the list of legal
    actions or the counting report (:meth:`Deal.capture_options`) on every turn.  The tests
    check it against ``CounterBot`` on many positions of every ruleset.

    The fast path covers turns where the player can capture and declarations are free actions
    (or play goes on); any other turn asks the engine for its legal actions and chooses from them
    as ``CounterBot`` does.
    """

    name = "counter"

    def __init__(self):
        from_bot = make_bot("counter")
        self.lo, hi = from_bot.reaction_range
        self.span = hi - self.lo

    def choose(self, d, rng):
        p = d.to_move
        h = d.hands[p]
        t = d.table
        tc = _counts(t)
        y = h | (h >> 1)
        common = (y | (y >> 2)) & (tc | (tc >> 1) | (tc >> 2)) & NIB
        play_on = d.phase != PLAY
        if not common or not d._c11 or not (d._free or play_on) or d.turn_captures:
            return self.choose_from(d, d.legal_actions(), rng)
        kind = "play_on_capture" if play_on else "capture"
        if not common & (common - 1):                       # one rank in common
            shift = common.bit_length() - 1
            if (tc >> shift) & 7 == 1 and ((h >> shift) & 15).bit_count() == 1:
                return _new(Action, (p, kind, (_low_card(h & (15 << shift)),),
                                     (_low_card(t & (15 << shift)),), None))
        lone = tc & ~(tc >> 1) & ~(tc >> 2) & common        # one table card of the rank
        if not play_on and lone:
            risky = d.at_risk_ranks(p)
            if risky:
                return _pick(p, kind, h & (risky * 15), t, rng)
        if d._c13:
            three = tc & (tc >> 1) & common                 # three table cards of the rank
            if three:
                cards = h & (three * 15)
                a = _nth_card(cards, int(rng.random() * cards.bit_count()))
                shift = a & ~3
                return _new(Action, (p, kind, (a,), _NIB_CARDS[a >> 2][(t >> shift) & 15], None))
        if lone:
            return _pick(p, kind, h & (lone * 15), t, rng)
        # only ranks with two (or three) table cards: WillughbyBot._capture_by_table_count's
        # last group, in the engine's order of legal actions
        c22 = d._c22
        rest: list = []
        while common:
            low = common & -common
            common ^= low
            shift = low.bit_length() - 1
            nibs = _NIB_CARDS[shift >> 2]
            hc = nibs[(h >> shift) & 15]
            tcs = nibs[(t >> shift) & 15]
            nt = len(tcs)
            if nt == 2:
                for a in hc:
                    for b in tcs:
                        rest.insert(0, ((a,), (b,)))
                if c22 and len(hc) == 2:
                    rest.append((hc, tcs))
            else:
                for a in hc:
                    for b in tcs:
                        rest.append(((a,), (b,)))
        cs, tb = rest[int(rng.random() * len(rest))]
        return _new(Action, (p, kind, cs, tb, None))

    @staticmethod
    def choose_from(d, legal, rng):
        """``CounterBot.choose`` with the at-risk ranks worked out on the masks."""
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if first.kind == "capture":
            risky = d.at_risk_ranks(first.player)
            if risky:
                pick = [a for a in legal if a.kind == "capture" and len(a.cards) == 1
                        and (risky >> (a.table[0] & ~3)) & 1]
                if pick:
                    return pick[int(rng.random() * len(pick))]
        for a in legal:
            if a.kind[0] == "d":            # a declaration (hand_plays: turn)
                return a
        return WillughbyBot._capture_by_table_count(d, legal, rng)

    def free(self, d, seat, rng):
        if not d.free_possible(seat):
            return None
        acts = d.free_actions(seat)
        return acts[0] if acts else None

    def reaction(self, seat, rng):
        return self.lo + self.span * rng.random()


def make_policy(name: str, players: int) -> _Policy:
    """The rollout policy called ``name`` (one of :data:`POLICIES`) for ``players`` seats.

    Raises :class:`UsageError` for an unknown name or ``expert``."""
    if name not in POLICIES:
        raise UsageError(f"unknown rollout policy {name!r}; choose from {', '.join(POLICIES)}")
    if name == "counter":
        return _CounterPolicy()
    return _BotPolicy(name, players)


def rollout(d: Deal, policy: _Policy, rngs, hold: int | None = None) -> None:
    """Play ``d`` to settlement in place, every seat by ``policy``.

    ``rngs[q]`` is seat ``q``'s random source (``random()`` and ``uniform()``).  As in
    :func:`tutor.engine.bots.play_out`: after every action each seat may offer a free action, the
    fastest reaction acts first and the round repeats; then the player to move makes a turn
    action.  The race is the engine's (:class:`tutor.engine.race.ClaimRace`).  ``hold``: a seat
    that offers nothing in the first round (it holds its free actions until the next action is
    made).
    """
    n = d.n
    policy.start(d)
    free = policy.free
    react = policy.reaction
    choose = policy.choose
    skip = -1 if hold is None else hold
    while d.phase != OVER:
        while d.phase == PLAY and d.free_pending():
            race = ClaimRace(d)
            for q in range(n):
                if q == skip:
                    continue
                a = free(d, q, rngs[q])
                if a is not None:
                    race.enter(q, a, react(q, rngs[q]), checked=False)
            skip = -1
            if race.settle() is None:
                break
        skip = -1
        if d.phase == OVER:
            break
        d.apply_unchecked(choose(d, rngs[d.to_move]))


# --- determinizations --------------------------------------------------------------------

def unseen_mask(d: Deal, seat: int) -> int:
    """The cards ``seat`` cannot see (RULES.md 8): all of them are in its opponents' hands."""
    return _FULL & ~(d.hands[seat] | d.table | d.wonall | d.aside | d.discard)


def known_holdings(d: Deal, seat: int) -> dict[tuple[int, int], int]:
    """What every action so far proves about the opponents' hands, beyond their sizes.

    Returns ``{(player, rank): k}``: ``player`` still holds at least ``k`` unseen cards of
    ``rank``.  Declaring a pair of a prial shows a third card of that rank kept in hand (RULES.md
    3.4); the proof lapses once the player plays a card of that rank from hand.  Every other
    action shows only the cards it moves (they are then seen), and a player who lies down is out.
    """
    mins: dict[tuple[int, int], int] = {}
    for a in d.history:
        if a.player == seat:
            continue
        if a.kind == "declare_prial":
            mins[(a.player, a.cards[0] >> 2)] = 1
        elif a.kind in ("capture", "play_on_capture", "declare_dead_pair", "declare_mournival",
                        "lie_down"):
            for c in a.cards:
                if (a.player, c >> 2) in mins:
                    mins[(a.player, c >> 2)] = 0
    return {k: v for k, v in mins.items() if v and d.hands[k[0]]}


class _Determinizer:
    """Deals the cards ``seat`` cannot see to its opponents, at random and consistently with
    their hand sizes and :func:`known_holdings`, on copies of one position."""

    def __init__(self, d: Deal, seat: int):
        self.base = d
        self.seat = seat
        self.cards = cards_of(unseen_mask(d, seat))
        self.opponents = [(q, d.hands[q].bit_count()) for q in range(d.n)
                          if q != seat and d.hands[q]]
        if sum(k for _, k in self.opponents) != len(self.cards):
            raise LaughError("the opponents' hand sizes do not match the unseen cards")
        self.needs = [(q, 0xF << (4 * r)) for (q, r), k in sorted(known_holdings(d, seat).items())]

    def deal(self, rng: random.Random) -> Deal:
        """A copy of the position with the opponents' hands dealt afresh by ``rng``.

        Uniform over the deals that fit (rejection sampling); after 2000 misfits, which only
        an unlikely history can cause, the proven cards are placed first."""
        cards = self.cards[:]
        masks = None
        for _ in range(2000 if self.needs else 1):
            rng.shuffle(cards)
            masks = self._split(cards)
            if all(masks[q] & m for q, m in self.needs):
                break
        else:
            masks = self._forced(cards, rng)
        o = self.base.clone()
        for q, m in masks.items():
            o.hands[q] = m
        return o

    def _split(self, cards: list[int]) -> dict[int, int]:
        out = {}
        i = 0
        for q, k in self.opponents:
            m = 0
            for c in cards[i:i + k]:
                m |= 1 << c
            out[q] = m
            i += k
        return out

    def _forced(self, cards: list[int], rng: random.Random) -> dict[int, int]:
        rest = cards[:]
        rng.shuffle(rest)
        out = {q: 0 for q, _ in self.opponents}
        room = dict(self.opponents)
        for q, m in self.needs:
            if out[q] & m:
                continue
            pick = next(c for c in rest if (1 << c) & m)
            rest.remove(pick)
            out[q] |= 1 << pick
            room[q] -= 1
        for q, _ in self.opponents:
            for c in rest[:room[q]]:
                out[q] |= 1 << c
            rest = rest[room[q]:]
        return out


def determinize(d: Deal, seat: int, rng: random.Random) -> Deal:
    """A copy of ``d`` in which the cards ``seat`` cannot see are dealt to its opponents at random
    (``rng``), each opponent keeping its hand size, and every proven holding kept
    (:func:`known_holdings`).  Everything ``seat`` can see is unchanged."""
    return _Determinizer(d, seat).deal(rng)


# --- options -----------------------------------------------------------------------------

def decision_options(d: Deal, seat: int, which: str = "all") -> list[Action | None]:
    """The options of ``seat`` now, in the engine's order: its turn actions (when it is to move:
    :meth:`Deal.legal_actions`), then its free actions (:meth:`Deal.free_actions`), then
    :data:`HOLD` (None) when it has free actions and is not to move.

    ``which``: ``all``; ``turn`` (the turn actions only); ``free`` (the free actions and hold,
    hold meaning: go on to the next action without one).  Empty when the deal is over.
    """
    if which not in ("all", "turn", "free"):
        raise UsageError(f"which must be all, turn or free, not {which!r}")
    if d.phase == OVER:
        return []
    out: list[Action | None] = []
    to_move = d.to_move == seat
    if to_move and which != "free":
        out.extend(d.legal_actions())
    if which != "turn":
        free = d.free_actions(seat)
        out.extend(free)
        if free and (which == "free" or not to_move):
            out.append(HOLD)
    return out


def option_class(d: Deal, a: Action | None):
    """A key for the option ``a`` (None: hold) at ``d``: options with equal keys are the same play
    up to suits (the same ranks from the same places, touching the same open oversights), and
    so worth exactly the same under rules that never look at suits."""
    if a is None:
        return None
    ovs = d.oversights

    def where(c: int):
        bit = 1 << c
        return (c >> 2, tuple(i for i, o in enumerate(ovs) if o.mask & bit))

    return (a.player, a.kind, a.oversight, tuple(sorted(map(where, a.cards))),
            tuple(sorted(map(where, a.table))))


def describe_option(a: Action | None, symbols: bool = True, names: list[str] | None = None) -> str:
    """An option in words: the action's sentence, or ``hold`` for no free action now."""
    if a is None:
        return "hold (no free action now)"
    return a.describe(symbols, names)


def option_to_json(a: Action | None):
    """An option as a record action object, or the string ``"hold"``."""
    return "hold" if a is None else action_to_json(a)


# --- results -----------------------------------------------------------------------------

@dataclass(frozen=True)
class OptionValue:
    """One option's figures, in the deal's unit (net stakes, or points under pairs scoring).

    ``action`` is the option (None: hold).  ``mean`` is its expected final result for the seat
    and ``ci95`` the half-width of its 95% interval; ``diff`` its mean difference from the best
    option (0 for the best, negative otherwise) and ``diff_ci95`` that difference's half-width
    (paired samples); ``samples`` the rollouts behind them; ``group`` the index of its class of
    options that differ only by suits (they share their figures).
    """

    action: Action | None
    mean: float
    ci95: float
    diff: float
    diff_ci95: float
    samples: int
    group: int

    @property
    def loss(self) -> float:
        """Expected loss against the best option (>= 0)."""
        return max(0.0, -self.diff)

    def to_json(self) -> dict:
        """A machine-readable summary."""
        return {"action": option_to_json(self.action), "mean": round(self.mean, 4),
                "ci95": round(self.ci95, 4), "diff": round(self.diff, 4),
                "diff_ci95": round(self.diff_ci95, 4), "samples": self.samples,
                "group": self.group}


@dataclass(frozen=True)
class Analysis:
    """The analysis of one seat's options at one position.

    ``options`` are :class:`OptionValue` best first (ties in the engine's order); ``unit`` is
    ``stakes`` or ``points``; ``samples`` the determinizations drawn; ``rollouts`` the deals
    played out; ``seconds`` the time taken; ``stopped`` why sampling stopped: ``forced`` (one
    option), ``clear`` (the best clearly ahead), ``precise`` (every difference interval within
    the target), ``budget`` (samples or time ran out).
    """

    seat: int
    policy: str
    seed: int
    unit: str
    options: tuple[OptionValue, ...]
    samples: int
    rollouts: int
    seconds: float
    stopped: str
    target: float

    @property
    def best(self) -> OptionValue:
        """The option with the highest expected result."""
        return self.options[0]

    @property
    def forced(self) -> bool:
        """True when every option is the same play (one class of options, or one option)."""
        return len({o.group for o in self.options}) == 1

    def value_of(self, action: Action | None) -> OptionValue:
        """The figures of ``action`` (None: hold); raises :class:`NoDecision` if it is not an
        option here."""
        if action is not None:
            action = Action.make(action.player, action.kind, action.cards, action.table,
                                 action.oversight)
        for o in self.options:
            if o.action == action:
                return o
        raise NoDecision(f"{describe_option(action)} is not an option of player {self.seat} here")

    def max_diff_ci95(self) -> float:
        """The widest difference interval (half-width) among the options, 0 if forced."""
        return max((o.diff_ci95 for o in self.options if o.group != self.best.group), default=0.0)

    def to_json(self) -> dict:
        """A machine-readable summary."""
        return {"seat": self.seat, "policy": self.policy, "seed": self.seed, "unit": self.unit,
                "samples": self.samples, "rollouts": self.rollouts,
                "seconds": round(self.seconds, 3), "stopped": self.stopped,
                "target": self.target, "best": option_to_json(self.best.action),
                "options": [o.to_json() for o in self.options]}


def _stats(xs: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width (normal approximation) of ``xs``."""
    n = len(xs)
    if n == 0:
        return 0.0, math.inf
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    v = sum((x - m) * (x - m) for x in xs) / (n - 1)
    return m, Z95 * math.sqrt(max(v, 0.0) / n)


def _diff_stats(xs: list[float], ys: list[float]) -> tuple[float, float]:
    k = min(len(xs), len(ys))
    return _stats([a - b for a, b in zip(xs[:k], ys[:k])])


# --- the analysis ------------------------------------------------------------------------

def analyse(d: Deal, seat: int, *, policy: str = "counter", seed: int = 0,
            samples: int | None = None, seconds: float | None = None, target: float = 0.1,
            min_samples: int = 32, stop_when_clear: bool = True, prune: bool = False,
            which: str = "all", options: list[Action | None] | None = None,
            progress: Callable[[int], None] | None = None) -> Analysis:
    """Analyse ``seat``'s options at position ``d`` from its own view (see the module docstring
    for the estimator, its unit and its intervals).

    ``policy``: the rollout player (:data:`POLICIES`).  ``seed``: any whole number; the same
    view, seed and sample budget give the same figures.  ``samples``: the most determinizations
    to draw (default 4000 when no ``seconds`` either); ``seconds``: a time budget instead (or as
    well).  ``target``: the half-width in the deal's unit at which a difference interval is
    precise enough.  ``min_samples``: samples before any early stop.  ``stop_when_clear``: stop
    once the best option is clearly ahead.  ``prune``: stop sampling an option once it is clearly
    worse than the best (its figures then rest on fewer samples).  ``which``/``options``: the
    options to compare (:func:`decision_options`; default all).  ``progress(k)`` is called with
    the samples done after each batch.

    Raises :class:`NoDecision` when ``seat`` has no option now, :class:`UsageError` for a bad
    argument.
    """
    if not 0 <= seat < d.n:
        raise UsageError(f"there is no player {seat} in a {d.n}-player deal")
    if target <= 0:
        raise UsageError("the target half-width must be above 0")
    if samples is not None and samples < 1:
        raise UsageError("the sample budget must be at least 1")
    if samples is None and seconds is None:
        samples = 4000
    opts = decision_options(d, seat, which) if options is None else list(options)
    if not opts:
        raise NoDecision(f"player {seat} has nothing to decide now")
    pol = make_policy(policy, d.n)
    t0 = time.perf_counter()

    keys: dict = {}
    group_of: list[int] = []
    reps: list[Action | None] = []
    for a in opts:
        k = option_class(d, a)
        if k not in keys:
            keys[k] = len(reps)
            reps.append(a)
        group_of.append(keys[k])
    g = len(reps)
    values: list[list[float]] = [[] for _ in range(g)]
    active = list(range(g))
    det = _Determinizer(d, seat)
    n_players = d.n
    hold_seat = seat
    unit = d.ruleset.unit
    rollouts = 0
    stopped = "budget"
    i = 0
    min_n = min(min_samples, samples) if samples is not None else min_samples
    check_at = min_n
    seed_base = mix_seed(seed, seat)
    while True:
        if samples is not None and i >= samples:
            break
        if seconds is not None and i >= 1 and time.perf_counter() - t0 >= seconds:
            break
        s = mix_seed(seed_base, i)
        rng = random.Random(s)
        base = det.deal(rng)
        rr = rng.random
        sources = [_Source([rr() for _ in range(24)], mix_seed(s, q + 1)) for q in range(n_players)]
        for j in active:
            a = reps[j]
            x = base.clone()
            if a is not None:
                x.apply_unchecked(a)
                rollout(x, pol, [_Stream(src) for src in sources])
            else:
                rollout(x, pol, [_Stream(src) for src in sources], hold=hold_seat)
            values[j].append(x.result.returns()[seat])
        rollouts += len(active)
        i += 1
        if g == 1 and i >= min_n:
            stopped = "forced"
            break
        if i >= check_at:
            if progress is not None:
                progress(i)
            check_at = i + max(8, i // 6)
            verdict = _check(values, active, target, stop_when_clear, prune)
            if verdict:
                stopped = verdict
                break
    seconds_taken = time.perf_counter() - t0
    if progress is not None:
        progress(i)
    return _summarise(d, seat, opts, group_of, values, active, pol.name, seed, unit, i, rollouts,
                      seconds_taken, stopped, target)


def _best(values: list[list[float]], active: list[int]) -> int:
    means = {j: sum(values[j]) / len(values[j]) for j in active}
    top = max(means.values())
    return min(j for j in active if means[j] == top)


def _check(values, active, target, stop_when_clear, prune) -> str | None:
    """After a batch: the reason to stop, or None; drops clearly worse options from ``active``
    when ``prune``."""
    b = _best(values, active)
    clear = True
    precise = True
    worse = []
    for j in range(len(values)):
        if j == b:
            continue
        m, h = _diff_stats(values[j], values[b])
        if m + h >= 0:
            clear = False
        elif j in active:
            worse.append(j)
        if h > target and (j in active or not prune):
            precise = False
    if stop_when_clear and clear:
        return "clear"
    if precise:
        return "precise"
    if prune and worse and len(active) - len(worse) >= 1:
        for j in worse:
            active.remove(j)
        if len(active) == 1 and stop_when_clear:
            return "clear"
    return None


def _summarise(d, seat, opts, group_of, values, active, policy, seed, unit, samples, rollouts,
               seconds, stopped, target) -> Analysis:
    b = _best(values, active)
    per_group = []
    for j, xs in enumerate(values):
        m, h = _stats(xs)
        if j == b:
            dm, dh = 0.0, 0.0
        else:
            dm, dh = _diff_stats(xs, values[b])
        per_group.append((m, h, dm, dh, len(xs)))
    out = []
    for idx, a in enumerate(opts):
        j = group_of[idx]
        m, h, dm, dh, k = per_group[j]
        out.append((idx, OptionValue(a, m, h, dm, dh, k, j)))
    out.sort(key=lambda t: (t[1].group != b, -t[1].mean, t[0]))
    return Analysis(seat, policy, seed, unit, tuple(o for _, o in out), samples, rollouts, seconds,
                    stopped, target)


# --- annotating a deal -----------------------------------------------------------------------

#: Loss thresholds in the deal's unit (stakes, or points under pairs scoring), lowest first: a
#: chosen option that is worse than the best by at least this much, with a 95% interval on the
#: difference that excludes zero, is an inaccuracy, a mistake or a blunder.  A stake is one pair
#: of won cards: a blunder gives away at least a pair's worth, a mistake half a pair's worth
#: (a pair lost one time in two), an inaccuracy a fifth of one.
LOSS_CLASSES = (("inaccuracy", 0.2), ("mistake", 0.5), ("blunder", 1.0))


def classify(loss: float, loss_ci95: float) -> str:
    """``best``, ``good``, ``inaccuracy``, ``mistake`` or ``blunder`` for a chosen option that is
    ``loss`` (>= 0, with 95% half-width ``loss_ci95``) below the best (:data:`LOSS_CLASSES`).

    ``best``: no loss at all (the best option, or the same play up to suits); ``good``: a loss
    below the first threshold, or one whose interval reaches zero."""
    if loss <= 0:
        return "best"
    verdict = "good"
    if loss - loss_ci95 > 0:
        for name, at in LOSS_CLASSES:
            if loss >= at:
                verdict = name
    return verdict


@dataclass(frozen=True)
class Decision:
    """One decision of a seat in a deal, annotated.

    ``index`` is the index in the record's actions of the action made next (the position is the
    one before it); ``seat`` the deciding player; ``played`` what it did (an action, or None
    when it held a free action while the turn went on); ``analysis`` its options' figures;
    ``loss`` the played option's expected loss against the best, with ``loss_ci95``, in the
    deal's unit; ``verdict`` from :func:`classify`.
    """

    index: int
    seat: int
    played: Action | None
    analysis: Analysis
    loss: float
    loss_ci95: float
    verdict: str

    def to_json(self) -> dict:
        """A machine-readable summary."""
        an = self.analysis
        return {"index": self.index, "seat": self.seat, "played": option_to_json(self.played),
                "best": option_to_json(an.best.action), "loss": round(self.loss, 4),
                "loss_ci95": round(self.loss_ci95, 4), "verdict": self.verdict,
                "samples": an.samples, "stopped": an.stopped,
                "options": [o.to_json() for o in an.options]}


def _free_keys(d: Deal, seat: int) -> set:
    return {(a.kind, a.oversight, a.cards) for a in d.free_actions(seat)}


def decision_points(deal: Deal, seats=None, at: int | None = None) -> list[tuple[int, int, Action | None, Deal]]:
    """The decisions of a finished or partial deal worth analysing: ``(index, seat, played,
    position)`` with ``position`` a copy of the deal before action ``index``.

    A decision is an action a seat made where it had options that are not all the same play
    (forced moves are left out), or a hold: a seat that could make a free action it had not
    been offered before, while the turn went on without it (a claim or declaration left for
    later; a claim another player makes first is a race, not a decision).  ``seats`` limits the
    seats (default all); ``at`` keeps only the decisions before action ``at``.
    """
    if seats is None:
        seats = range(deal.n)
    seats = set(seats)
    d = Deal(deal.ruleset, deal.n, deal.dealer, deal.pack)
    offered: list[set] = [set() for _ in range(deal.n)]
    out = []
    for k, a in enumerate(deal.history):
        if at is None or k == at:
            for q in sorted(seats):
                if q == a.player:
                    opts = decision_options(d, q)
                    if len({option_class(d, o) for o in opts}) > 1:
                        out.append((k, q, a, d.clone()))
                    offered[q] |= _free_keys(d, q)
                elif a.kind in ("capture", "lie_down", "play_on_capture") or (
                        a.kind in DECLARATIONS and not d._free):
                    new = _free_keys(d, q) - offered[q]
                    if new:
                        offered[q] |= new
                        out.append((k, q, None, d.clone()))
        d.apply_unchecked(a)
    return out


def annotate(deal: Deal, seats=None, at: int | None = None, *, policy: str = "counter",
             seed: int = 0, samples: int = 1000, target: float = 0.1,
             progress: Callable[[int, int], None] | None = None) -> list[Decision]:
    """Analyse every decision of ``deal`` (:func:`decision_points`) and class each played option
    by its loss (:func:`classify`).

    ``policy``, ``seed``, ``samples`` and ``target`` go to :func:`analyse` (which stops early
    once the best option is clearly ahead); the seed of decision ``(index, seat)`` is mixed from
    ``seed``, ``index`` and ``seat``.  ``progress(done, total)`` is called after each decision.
    Returns the decisions in the order of the deal.
    """
    points = decision_points(deal, seats, at)
    out = []
    if progress is not None:
        progress(0, len(points))
    for i, (k, q, played, pos) in enumerate(points):
        an = analyse(pos, q, policy=policy, seed=mix_seed(seed, k, q), samples=samples,
                     target=target)
        mine = an.value_of(played)
        loss = max(0.0, -mine.diff) if mine.group != an.best.group else 0.0
        ci = mine.diff_ci95 if loss else 0.0
        out.append(Decision(k, q, played, an, loss, ci, classify(loss, ci)))
        if progress is not None:
            progress(i + 1, len(points))
    return out
