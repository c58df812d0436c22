"""A practice match: K deals against computer players, the deal passing left.

:func:`play_match` finds the first dealer by the ruleset's cut, plays each deal with a
:class:`~tutor.app.play.practice_deal.DealPlayer`, and after each deal shows the settlement, the review of
the learner's mistakes (the rule-based slips, and the costliest decisions in stakes by the
engine's analysis: :mod:`tutor.app.play.review`) and the match totals; saves each deal record
(JSON Lines) under ``laugh_home()/records/``; records the graded moments (claims, at-risk
captures, declarations) and the figures of spotting oversights (hits, misses, false claims) in
the progress store; and, under a ruleset with a ``match_format``,
numbers the deals by the engine's plan of games (:func:`tutor.engine.match.plan_games`: the
practice game is game 1 of round 1) and ends with the score sheet ``laugh match`` prints
(:func:`tutor.app.match_sheet.sheet_renderable`).

Random sources, all from ``seed``: the cut and the shuffles (``seed``), the computer players'
choices (``"<seed>:bots"``) and their reaction times (``"<seed>:reactions:<level>"``), so a
seed reproduces the deals and the computer players' choices (and their claims, for the same
timing of the learner's).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.text import Text

from tutor.app.match_sheet import sheet_renderable
from tutor.app.play.practice_deal import DealPlayer
from tutor.app.play.review import REVIEW_SAMPLES, DealReview, review_deal
from tutor.app.play.sheet import review_renderable, settlement_table, totals_table
from tutor.engine.data import laugh_home
from tutor.engine.deal import Deal, new_deal
from tutor.engine.errors import UsageError
from tutor.engine.levels import Level, claimants, make_opponents, seat_names
from tutor.engine.match import Game, Match, first_dealer, plan_games
from tutor.engine.outputs import cannot_write, folder_problem, not_saved
from tutor.engine.records import dumps, to_record, write_records
from tutor.engine.rulesets import Ruleset
from tutor.puzzles.board import cards_text
from tutor.teaching.io import LearnerIO
from tutor.teaching.progress import ProgressStore
from tutor.teaching.words import is_quit

__all__ = ["MatchResult", "PlayOptions", "play_match", "records_dir"]


@dataclass
class PlayOptions:
    """What ``laugh play`` was asked for: ``deals`` deals of ``ruleset`` among ``players``,
    the learner at ``seat`` against computer players of ``level``, dealt from ``seed``; ``pace``
    the seconds before each computer player's move; ``export`` a JSON Lines file for the
    records; ``save`` keeps them; ``review_samples`` the playouts per decision of each deal's
    review (0: none)."""

    ruleset: Ruleset
    players: int
    deals: int
    seat: int
    level: Level
    seed: int = 1
    pace: float = 1.0
    export: str | None = None
    save: bool = True
    review_samples: int = REVIEW_SAMPLES


@dataclass
class MatchResult:
    """What a match left behind: the deals played (finished or not), each deal's
    :class:`DealPlayer` and :class:`~tutor.app.play.review.DealReview` (None where the deal was
    left unfinished or the review was not asked for), the totals, where the records went, and
    whether the learner quit."""

    deals: list[Deal] = field(default_factory=list)
    players: list[DealPlayer] = field(default_factory=list)
    reviews: list[DealReview | None] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    record_path: Path | None = None
    quit: bool = False
    names: list[str] = field(default_factory=list)


def records_dir() -> Path:
    """``laugh_home()/records``."""
    return laugh_home() / "records"


def play_match(
    opts: PlayOptions, *, io: LearnerIO, store: ProgressStore | None = None
) -> MatchResult:
    """Play a match as ``opts`` asks with the learner at ``io``
    (:class:`tutor.teaching.io.LearnerIO`: the deals are played through it, and its clock times
    every claim); returns what happened.
    ``store`` is a :class:`~tutor.teaching.progress.ProgressStore` (None: results are not
    recorded)."""
    match_games(opts.ruleset, opts.players, 0, opts.deals)  # a number the format refuses: first
    return _Session(opts, io, store).run()


class _Session:
    """One ``laugh play`` match, deal by deal (see :func:`play_match`)."""

    def __init__(self, opts: PlayOptions, io: LearnerIO, store: ProgressStore | None):
        self.opts, self.io, self.store = opts, io, store
        rs, n, seat, lv = opts.ruleset, opts.players, opts.seat, opts.level
        self.names = seat_names(n, seat)
        self.deal_rng = random.Random(opts.seed)
        self.bot_rng = random.Random(f"{opts.seed}:bots")
        self.reaction_rng = random.Random(f"{opts.seed}:reactions:{lv.name}")
        self.bots = make_opponents(lv, n, seat)
        self.result = MatchResult(names=self.names)
        game = rs.game()
        self.sheet = game.has_match_format and opts.deals >= 2
        self.pays = game.lying_down_pays and not game.has_stakes
        self.balances = [0] * n
        self.records: list[dict[str, Any]] = []
        self.record_path: Path | None = None
        self.unsaved: str | None = None  # why the deal records are not saved
        if opts.save:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            self.record_path = records_dir() / f"play-{stamp}-seed{opts.seed}.jsonl"

    def run(self) -> MatchResult:
        opts = self.opts
        if self.record_path is not None:  # a read-only or full disk: said at once
            why = folder_problem(self.record_path.parent)
            if why:
                self._not_saved(why)
                self.io.say(
                    f"Your deal records cannot be saved: {why}; playing on without saving them.",
                    style="yellow",
                )
        dealer = self._opening()
        self.games = match_games(opts.ruleset, opts.players, dealer, opts.deals)
        self.match = Match(opts.ruleset, opts.players, dealer, games=self.games, seed=opts.seed)
        for k in range(opts.deals):
            if not self._deal(k) or not self._next(k):
                break
        return self._finish()

    def _opening(self) -> int:
        """The heading and the cut for the first dealer; returns the first dealer."""
        io, opts, names = self.io, self.opts, self.names
        rs, seat, lv = opts.ruleset, opts.seat, opts.level
        io.say(
            f"Laugh and Lie Down · {rs.short_title} · {opts.players} players · {lv.name} · seed {opts.seed}",
            style="bold",
        )
        io.say(f"You play at seat {seat}, against {lv.summary}.", style="dim")
        dealer, cuts = first_dealer(rs, opts.players, self.deal_rng)
        if not cuts:
            io.say("The players choose the first dealer.")
        rule = rs.game().cut_words
        for cut in cuts:
            t = Text(f"Cut for the deal ({rule}): ")
            for i, (q, c) in enumerate(sorted(cut.cards.items())):
                if i:
                    t.append(", ")
                t.append(f"{names[q]} ")
                t.append_text(cards_text([c], io.symbols))
            io.show(t)
        io.say(f"{names[dealer]} deal{'' if dealer == seat else 's'} first; the deal passes left.")
        return dealer

    def _player(self, k: int, deal: Deal) -> DealPlayer:
        opts, names, seat = self.opts, self.names, self.opts.seat
        game = self.games[k]
        label = f"Deal {k + 1} of {opts.deals}"
        if self.sheet:
            label += f" ({game.label[0].lower()}{game.label[1:]})"
        return DealPlayer(
            deal,
            seat,
            self.bots,
            bot_rng=self.bot_rng,
            reaction_rng=self.reaction_rng,
            io=self.io,
            names=names,
            pace=opts.pace,
            title=f"{label} · {opts.ruleset.short_title} · {names[deal.dealer]} "
            f"deal{'' if deal.dealer == seat else 's'}",
            totals=self.match.totals if opts.deals > 1 else None,
            claiming=claimants(opts.level, opts.players, seat),
        )

    def _deal(self, k: int) -> bool:
        """Play deal ``k``; False when the learner left it unfinished."""
        io, opts, result = self.io, self.opts, self.result
        deal = new_deal(opts.ruleset, opts.players, self.games[k].dealer, self.deal_rng)
        player = self._player(k, deal)
        result.deals.append(deal)
        result.players.append(player)
        kept = False
        try:
            player.run()
        except (EOFError, KeyboardInterrupt):
            kept = True
            self._keep(deal)  # first saved, then said
            io.say()
            io.say(_saved_line(deal, self.record_path, k, self.unsaved), style="yellow")
            raise
        finally:
            if not kept:
                self._keep(deal)
        if not deal.is_terminal():
            result.quit = True
            io.say("You left the deal before its end.", style="yellow")
            if self.record_path is not None:
                io.say(
                    f"The deal so far is saved to {self.record_path}"
                    if not self.unsaved
                    else f"The deal so far is not saved ({self.unsaved}).",
                    style="dim",
                )
            return False
        self._after(k, deal, player)
        return True

    def _after(self, k: int, deal: Deal, player: DealPlayer) -> None:
        """The settlement, the review, the progress and the totals after deal ``k``."""
        io, opts, names, rs = self.io, self.opts, self.names, self.opts.ruleset
        game = self.games[k]
        self.match.record_deal(deal)  # the totals leave a practice game out
        if self.pays and not game.practice and deal.result is not None:
            # (a seat's net is None only where no stakes move: pairs scoring without payments)
            self.balances = [
                b + (r.net or 0) for b, r in zip(self.balances, deal.result.settlement)
            ]
        io.say()
        io.show(settlement_table(deal, names, io.symbols))
        io.say()
        review = review_with_progress(deal, opts.seat, names, opts.review_samples, io)
        self.result.reviews.append(review)
        io.show(
            review_renderable(
                player.mistakes,
                player.sightings,
                review=review,
                names=names,
                seat=opts.seat,
                symbols=io.symbols,
                set_aside=rs.game().sets_aside_table_mournival,
            )
        )
        if self.store is not None:
            record_deal(self.store, player, "play", rs.id, opts.seed, k, timed=not io.clock.piped)
        if opts.deals > 1:
            io.say()
            io.show(
                totals_table(
                    names,
                    self.match.totals,
                    k + 1,
                    rs.has_stakes,
                    any(g.practice for g in self.games[: k + 1]),
                    self.balances if self.pays else None,
                )
            )
        if self.record_path is not None:
            io.say(
                f"Deal record saved to {self.record_path}"
                if not self.unsaved
                else f"Deal record not saved ({self.unsaved}).",
                style="dim",
            )

    def _keep(self, deal: Deal) -> None:
        """Keep ``deal``'s record for ``--export``, and append it to the match's file of
        records (unless that cannot be saved: :attr:`unsaved` then says why)."""
        rec = to_record(deal)
        self.records.append(rec)
        if self.record_path is None or self.unsaved:
            return
        try:
            _append(self.record_path, rec)
        except OSError as exc:
            self._not_saved(f"{self.record_path} cannot be written ({exc.strerror or exc})")

    def _not_saved(self, why: str) -> None:
        """The deal records cannot be saved, for ``why``: none is tried again, each deal says
        so, and the command exits with status 1."""
        if not self.unsaved:
            not_saved(f"your deal records cannot be saved: {why}")
        self.unsaved = why

    def _next(self, k: int) -> bool:
        """Whether to play on after deal ``k`` (a terminal asks)."""
        if k + 1 < self.opts.deals and self.io.interactive:
            text = self.io.ask("Enter for the next deal, q to stop> ")
            if is_quit(text, menu=True):
                self.result.quit = True
                return False
        return True

    def _finish(self) -> MatchResult:
        io, opts, result = self.io, self.opts, self.result
        result.totals = list(self.match.totals)
        result.record_path = self.record_path
        if self.sheet and self.match.deals:
            io.say()
            io.show(sheet_renderable(self.match, opts.seat, self.names[opts.seat]))
        if opts.export:
            try:
                write_records(opts.export, self.records)
            except OSError as exc:
                raise cannot_write(opts.export, exc) from None
            n = len(self.records)
            io.say(f"Exported {n} deal record{'s' if n != 1 else ''} to {opts.export}")
        return result


def match_games(rs: Ruleset, players: int, first: int, deals: int) -> Sequence[Game]:
    """The games of a ``laugh play`` match of ``deals`` deals, from the engine's plan
    (:func:`tutor.engine.match.plan_games`): under a ruleset's ``match_format`` the first
    ``deals`` games of its rounds (the practice game is game 1 of round 1, as on ``laugh match``'s
    sheet); otherwise ``deals`` deals.  A single deal is never a match: it is no game of a sheet.
    Raises :class:`UsageError` for more deals than the format's rounds hold."""
    if not rs.game().has_match_format:
        return plan_games(rs, players, first, deals)
    if deals < 2:
        return [Game(0, first, False, None, None)]
    games = plan_games(rs, players, first)
    if deals > len(games):
        raise UsageError(
            f"a {rs.id} match is {rs.game().match_layout} "
            f"({len(games)} deals): play at most {len(games)} deals (laugh match "
            "keeps the whole sheet)"
        )
    return games[:deals]


def review_with_progress(
    deal: Deal, seat: int, names: Sequence[str], samples: int, io: LearnerIO
) -> DealReview | None:
    """The analysis of the learner's decisions in ``deal`` (:func:`review_deal`, ``samples``
    playouts a decision), None when ``samples`` is 0.  At a terminal, a progress bar appears once
    it takes more than a moment (a quarter of a second by ``io``'s clock), and goes when it is
    done."""
    if samples <= 0:
        return None
    if not io.interactive:
        return review_deal(deal, seat, names, samples=samples, symbols=io.symbols)
    t0 = io.clock.now()
    with ExitStack() as stack:
        bar: list[Callable[[float, float], None]] = []

        def progress(done: int, total: int, done_samples: int) -> None:
            if not bar:
                if io.clock.now() - t0 < 0.25:
                    return
                bar.append(stack.enter_context(io.progress("Reviewing your decisions")))
            part = min(done_samples / samples, 0.99)
            bar[0](done + part, total)

        return review_deal(
            deal, seat, names, samples=samples, symbols=io.symbols, progress=progress
        )


def _saved_line(deal: Deal, record_path: Path | None, k: int, unsaved: str | None) -> str:
    """The one line said when the learner leaves a deal with Ctrl-D or Ctrl-C, after the
    record was saved, or not (``unsaved``: why)."""
    if deal.is_terminal():
        what = f"deal {k + 1}, finished"
    else:
        n = len(deal.history)
        what = f"deal {k + 1} so far ({n} action{'s' if n != 1 else ''})"
    if record_path is None:
        return f"Left the match at {what}: not saved (--no-save)."
    if unsaved:
        return f"Left the match at {what}: not saved ({unsaved})."
    return f"Saved {what} to {record_path}."


def _append(path: Path, rec: dict[str, Any]) -> None:
    """Append ``rec`` as one line of ``path``, on disk before returning (synced).  Raises
    OSError when it cannot be written (a full disk: no part of the line is left)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = memoryview((dumps(rec) + "\n").encode("utf-8"))
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        end = os.lseek(fd, 0, os.SEEK_END)
        try:
            while data:
                data = data[os.write(fd, data) :]
            os.fsync(fd)
        except OSError:
            os.ftruncate(fd, end)
            raise
    finally:
        os.close(fd)


def record_deal(
    store: ProgressStore,
    player: DealPlayer,
    context: str,
    ruleset_id: str,
    seed: int | str,
    k: int,
    timed: bool = True,
) -> None:
    """Record deal ``k`` of a ``context`` (``play`` or ``match``) of ``seed`` in ``store``: its
    graded moments as answers (claims, declarations, at-risk captures) and its figures of
    spotting oversights (:meth:`~tutor.teaching.progress.ProgressStore.record_sighting`); a
    time only when ``timed`` (typed at a terminal)."""
    source = f"{context}:{ruleset_id}:{seed}:{k}"
    for i, o in enumerate(player.opportunities):
        store.record_answer(
            f"{source}:{o.index}:{i}",
            o.kind,
            o.themes,
            o.correct,
            o.seconds if timed else None,
            ruleset=ruleset_id,
        )
    for s in player.sightings:
        store.record_sighting(
            context,
            s.kind,
            s.outcome,
            s.seconds if timed else None,
            ruleset=ruleset_id,
            source=f"{source}:{s.index}",
        )
