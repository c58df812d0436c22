"""The computer players that follow fixed rules (``random``, ``willughby``, ``counter``), the
:class:`Careless` wrapper, and :func:`play_out`, which plays a deal between computer players.

Every bot asks the engine for its choices; none re-implements a rule.  A bot answers two
questions: :meth:`Bot.choose` (which of the legal turn actions to make) and :meth:`Bot.free_action`
(whether to make a free action now: a declaration, a claim, taking a table mournival).  Claims
race: :meth:`Bot.reaction` draws a seeded reaction time in seconds, and the fastest claimant wins.

- ``random``: uniform over the legal turn actions; takes each free action at random.
- ``willughby``: Willughby's advice as the sources report it (Parlett, "To leave yourself as many
  future plays as possible"; du Coeur, "be sure to take all three"): declare at once, take all
  three of a table prial, take a lone table card before someone else does, hold back where two or
  three lie on the table; claims whatever it sees.
- ``counter``: willughby plus exact counting (RULES.md 8): takes at-risk options first and holds
  back every safe one.
- :class:`Careless` wraps any bot with a mistake rate: it overlooks a table mournival, splits a
  table prial, forgets declarations (so it may lie down holding them) and misses claims.

These players sit below the analysis (:mod:`tutor.engine.analysis` plays its rollouts with them)
and the ``expert`` (:mod:`tutor.engine.expert`); :mod:`tutor.engine.bots` names them all,
the expert included (:func:`tutor.engine.bots.make_bot`).
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Sequence
from typing import Protocol

from tutor.engine.deal import Action, Deal
from tutor.engine.errors import UsageError
from tutor.engine.race import ClaimRace

RULE_BOT_NAMES = ("random", "willughby", "counter")


class RandomSource(Protocol):
    """What a computer player draws its random numbers from: a ``random.Random`` in play, a
    stream of :mod:`tutor.engine.analysis.random_streams` in a rollout (all that the players use)."""

    def random(self) -> float: ...
    def uniform(self, a: float, b: float) -> float: ...


class Bot:
    """Base class: subclasses override :meth:`choose` and may override the others."""

    name = "bot"
    reaction_range = (0.6, 1.8)  # seconds

    def choose(self, deal: Deal, legal: list[Action], rng: RandomSource) -> Action:
        """Pick one of ``legal`` (the turn actions of ``deal.to_move``, never empty)."""
        raise NotImplementedError

    def free_action(self, deal: Deal, seat: int, rng: RandomSource) -> Action | None:
        """A free action ``seat`` makes now, or None.  Default: take the dealer's table mournival,
        declare everything, claim everything."""
        if not deal.free_possible(seat):
            return None
        acts = deal.free_actions(seat)
        return acts[0] if acts else None

    def start(self, deal: Deal) -> None:
        """Called once before each deal this bot plays (forgets per-deal memory)."""

    def reaction(self, rng: RandomSource) -> float:
        """Seconds this bot takes to react to a claimable oversight (seeded by ``rng``)."""
        lo, hi = self.reaction_range
        return rng.uniform(lo, hi)


class RandomBot(Bot):
    """Uniform over the legal turn actions; each free action taken with even odds against none."""

    name = "random"
    reaction_range = (0.4, 2.5)

    def choose(self, deal: Deal, legal: list[Action], rng: RandomSource) -> Action:
        return legal[int(rng.random() * len(legal))] if len(legal) > 1 else legal[0]

    def free_action(self, deal: Deal, seat: int, rng: RandomSource) -> Action | None:
        if not deal.free_possible(seat):
            return None
        acts = deal.free_actions(seat)
        if not acts:
            return None
        i = int(rng.random() * (len(acts) + 1))
        return acts[i] if i < len(acts) else None


#: Willughby's advice in words, by :meth:`WillughbyBot.advised`'s key (ours, after Parlett's
#: summary and du Coeur's words: "take all three").
ADVICE_WORDS = {
    "take_three": "take all three of the table's prial",
    "take_lone": "take a lone table card before someone else does",
    "": "none of your captures takes a lone table card or a prial's three; hold back where you may",
}


class WillughbyBot(Bot):
    """Willughby's advice: declare at once, take all three of a table prial, take a lone table card
    before someone else does, hold back where two or three lie on the table."""

    name = "willughby"
    reaction_range = (0.8, 1.6)

    def choose(self, deal: Deal, legal: list[Action], rng: RandomSource) -> Action:
        if len(legal) == 1:
            return legal[0]
        decl = [a for a in legal if a.kind.startswith("declare")]
        if decl:
            return decl[0]
        return self._capture_by_table_count(deal, legal, rng)

    @staticmethod
    def advised(deal: Deal, legal: list[Action]) -> tuple[str, list[Action]]:
        """Willughby's advice applied to a turn: ``(advice, actions)``, ``advice`` a key of
        :data:`ADVICE_WORDS` (``take_three``: all three of a table prial; ``take_lone``: a lone
        table card before someone else does) and the actions among ``legal`` (the seat's legal
        turn actions, what the seat may see) it picks between; ``("", [])`` where it picks none
        of them (hold back where it may: :data:`ADVICE_WORDS` ``""``).  Source: Parlett's summary of Willughby's
        advice, du Coeur's "be sure to take all three" (as :class:`WillughbyBot` plays)."""
        three, lone, _rest, _end = WillughbyBot._groups(deal, legal)
        if three:
            return "take_three", three
        if lone:
            return "take_lone", lone
        return "", []

    @staticmethod
    def _groups(
        deal: Deal, legal: list[Action]
    ) -> tuple[list[Action], list[Action], list[Action], Action | None]:
        three: list[Action] = []
        lone: list[Action] = []
        rest: list[Action] = []
        end: Action | None = None
        for a in legal:
            kind = a.kind
            if kind != "capture" and kind != "play_on_capture":
                if kind == "end_turn":
                    end = a
                else:
                    rest.append(a)
                continue
            if len(a.table) == 3:
                three.append(a)
                continue
            nt = deal.table_count(a.table[0] >> 2)
            if nt == 1 and len(a.cards) == 1:
                lone.append(a)
            elif nt >= 2 and len(a.table) == 1 and not (nt == 3):
                rest.insert(0, a)
            else:
                rest.append(a)
        return three, lone, rest, end

    @staticmethod
    def _capture_by_table_count(deal: Deal, legal: list[Action], rng: RandomSource) -> Action:
        three, lone, rest, end = WillughbyBot._groups(deal, legal)
        for group in (three, lone):
            if group:
                return group[int(rng.random() * len(group))]
        if end is not None:  # several captures a turn: hold back the rest
            return end
        if rest:
            return rest[int(rng.random() * len(rest))]
        return legal[0]


class CounterBot(Bot):
    """Willughby plus exact counting: at-risk options first (RULES.md 8), every safe one held
    back for as long as there is an alternative."""

    name = "counter"
    reaction_range = (0.5, 1.2)

    def choose(self, deal: Deal, legal: list[Action], rng: RandomSource) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat = legal[0].player
        if legal[0].kind == "capture":
            risky = deal.at_risk_ranks(seat)  # the counting of capture_options, as a mask
            if risky:
                pick = [
                    a
                    for a in legal
                    if a.kind == "capture"
                    and len(a.cards) == 1
                    and (risky >> (a.table[0] & ~3)) & 1
                ]
                if pick:
                    return pick[int(rng.random() * len(pick))]
        decl = [a for a in legal if a.kind.startswith("declare")]
        if decl:
            return decl[0]
        return WillughbyBot._capture_by_table_count(deal, legal, rng)


class Wrapped(Bot):
    """A computer player that plays as ``inner`` does (its name, its reactions, every choice):
    the base of a player who changes only some of ``inner``'s choices (a subclass overrides
    :meth:`choose` or :meth:`free_action` and asks ``self.inner`` for the rest)."""

    def __init__(self, inner: Bot):
        self.inner = inner
        self.name = inner.name
        self.reaction_range = inner.reaction_range

    def start(self, deal: Deal) -> None:
        self.inner.start(deal)

    def reaction(self, rng: RandomSource) -> float:
        return self.inner.reaction(rng)

    def free_action(self, deal: Deal, seat: int, rng: RandomSource) -> Action | None:
        return self.inner.free_action(deal, seat, rng)

    def choose(self, deal: Deal, legal: list[Action], rng: RandomSource) -> Action:
        return self.inner.choose(deal, legal, rng)


class Careless(Bot):
    """Wraps ``inner`` with a mistake rate ``rate`` (0-1): each chance of a mistake is taken with
    that probability.  Mistakes: leaving a table mournival for others (dealer), splitting a table
    prial, forgetting a declaration (for good, so the bot may lie down holding it) and missing a
    claim.  A mistake of each kind of RULES.md 4 follows from these."""

    def __init__(self, inner: Bot, rate: float):
        if not 0.0 <= rate <= 1.0:
            raise UsageError(f"mistake rate must be between 0 and 1, got {rate}")
        self.inner = inner
        self.rate = rate
        self.name = f"careless-{inner.name}"
        lo, hi = inner.reaction_range
        self.reaction_range = (lo * (1 + rate), hi * (1 + 2 * rate))
        self._forgotten: set[tuple[int, int]] = set()  # (seat, rank)
        self._missed: set[tuple[object, ...]] = set()
        self._decided: set[tuple[object, ...]] = set()

    def start(self, deal: Deal) -> None:
        self._forgotten.clear()
        self._missed.clear()
        self._decided.clear()
        self.inner.start(deal)

    def _mistake(self, rng: RandomSource) -> bool:
        return self.rate > 0 and rng.random() < self.rate

    def _overlooks(self, key: tuple[object, ...], rng: RandomSource) -> bool:
        """Whether this claim (or table mournival) is overlooked: decided once, then for good."""
        if key not in self._decided:
            self._decided.add(key)
            if self._mistake(rng):
                self._missed.add(key)
        return key in self._missed

    def _forgets(self, seat: int, a: Action, rng: RandomSource) -> bool:
        key = (seat, a.cards[0] >> 2)
        if key in self._forgotten:
            return True
        if key not in self._decided:
            self._decided.add(key)
            if self._mistake(rng):
                self._forgotten.add(key)
                return True
        return False

    def choose(self, deal: Deal, legal: list[Action], rng: RandomSource) -> Action:
        if len(legal) > 1:
            splits = [a for a in legal if deal.would_split_prial(a)]
            if splits and self._mistake(rng):
                return splits[0]
            keep = [
                a
                for a in legal
                if not (a.kind.startswith("declare") and self._forgets(a.player, a, rng))
            ]
            if keep:
                legal = keep
        return self.inner.choose(deal, legal, rng)

    def free_action(self, deal: Deal, seat: int, rng: RandomSource) -> Action | None:
        if not deal.free_possible(seat):
            return None
        for a in deal.free_actions(seat):
            if a.kind == "claim" or a.kind == "take_table_mournival":
                if self._overlooks((a.kind, seat, a.oversight, a.cards), rng):
                    continue
                return a
            if self._forgets(seat, a, rng):
                continue
            if isinstance(self.inner, RandomBot):
                return self.inner.free_action(deal, seat, rng)
            return a
        return None


def rule_bot(name: str) -> Bot:
    """A fresh rule-following bot by name (:data:`RULE_BOT_NAMES`); raises :class:`UsageError`."""
    classes = {"random": RandomBot, "willughby": WillughbyBot, "counter": CounterBot}
    from tutor.engine.names import find_name

    return classes[find_name(name, RULE_BOT_NAMES, "computer player")]()


def play_out(
    deal: Deal,
    bots: Sequence[Bot],
    rng: _random.Random,
    observer: Callable[[Deal, Action], object] | None = None,
) -> Deal:
    """Play ``deal`` to its end with one bot per seat, and return it.

    After every action, each seat may make free actions: every bot that wants one draws a
    reaction time and enters the claim race (:class:`tutor.engine.race.ClaimRace`); the fastest
    acts first (so a seed reproduces the race exactly).  Then the
    player to move makes a turn action.  ``observer(deal, action)``, if given, is called after
    every action (for invariant checks or display).
    """
    n = deal.n
    seats = range(n)
    for bot in bots:
        bot.start(deal)
    while deal.phase != "over":
        while deal.phase == "play" and deal.free_pending():
            race = ClaimRace(deal)
            for seat in seats:
                a = bots[seat].free_action(deal, seat, rng)
                if a is not None:
                    race.enter(seat, a, bots[seat].reaction(rng), checked=False)
            won = race.settle()
            if won is None:
                break
            if observer:
                observer(deal, won.action)
        if deal.phase == "over":
            break
        legal = deal.legal_actions()
        a = bots[deal._mover].choose(deal, legal, rng)
        deal.apply_unchecked(a)
        if observer:
            observer(deal, a)
    return deal
