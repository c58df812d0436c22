"""A whole match against computer players, saved after every deal and resumable (``laugh match``,
the home screen's match, the track's practice match).

:func:`play_saved_match` starts a match (:meth:`tutor.engine.match.Match.start`: the first
dealer by the ruleset's cut, the deal passing left, the ruleset's match format where it has
one: under ``inter-livery-2018`` two rounds of five games, the first a practice game) or plays
on a saved one.  Each deal is played with the interactive deal player
(:class:`tutor.app.play.practice_deal.DealPlayer`); after it come the settlement, the review of the
learner's play and the running totals (:class:`MatchSession`).  The match is saved (JSON,
:meth:`Match.to_json`, with every finished deal's record) in ``laugh_home()/matches/`` after
every deal.  Quitting (``quit``, Ctrl-D, Ctrl-C) keeps what is finished and says so in one line;
a resumed match plays on from the next deal, which is dealt as it would have been (each deal has
its own random stream of the seed, and so do the computer players' choices and reaction times
in it).  At the end, the score sheet (:mod:`tutor.app.match_sheet`); a sheet file (HTML) goes
with the match (``meta.sheet``): it is rewritten after every deal, on resuming too, so it is
never behind the saved match.

Light at import: the game loads only when a deal is played (the home screen imports this).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from tutor.app.sessions import DEFAULT_LEVEL, REVIEW_SAMPLES_HELP, resolve, session_io
from tutor.engine import jsonfile
from tutor.engine.atomic import write_atomic
from tutor.engine.data import laugh_home
from tutor.engine.errors import DataError, LaughError, RecordError, UsageError
from tutor.engine.game import DEFAULT_RULESET
from tutor.engine.levels import LEVELS, claimants, level, make_opponents, seat_names
from tutor.engine.match import Match
from tutor.engine.outputs import check_output, not_saved, write_text
from tutor.engine.sources import default_library
from tutor.teaching.words import is_quit

if TYPE_CHECKING:  # the game loads only when a deal is played
    from tutor.app.play.practice_deal import DealPlayer
    from tutor.teaching.io import LearnerIO
    from tutor.teaching.progress import ProgressStore

#: What builds the deal player (:class:`tutor.app.play.practice_deal.DealPlayer`'s arguments).
MakePlayer = Callable[..., "DealPlayer"]

#: The longest pace (seconds between the computer players' moves) ``--pace`` or a saved match
#: may ask for.
LONGEST_PACE = 30.0


def matches_dir() -> Path:
    """Where matches are saved: ``laugh_home()/matches``."""
    return laugh_home() / "matches"


def play_saved_match(
    *,
    ruleset: str | None = None,
    players: int | None = None,
    deals: int | None = None,
    seat: int | None = None,
    level_name: str | None = None,
    seed: int | None = None,
    pace: float | None = None,
    resume: str | None = None,
    sheet: str | None = None,
    review_samples: int = REVIEW_SAMPLES_HELP,
    io: LearnerIO | None = None,
    make_player: MakePlayer | None = None,
) -> int:
    """Start a match, or with ``resume`` play on a saved one (``""``: the last unfinished, or
    with ``sheet`` the last played; else the file ``resume``), and play it to its end or until
    the learner quits; returns the exit status.  The options are ``laugh match``'s, None where
    not given: ``ruleset`` (default :data:`DEFAULT_RULESET`), ``players``, ``deals`` (default
    the ruleset's match format, else one per player), ``seat`` (0), ``level_name``
    (:data:`DEFAULT_LEVEL`), ``seed`` (a new one), ``pace`` (seconds, 1), ``sheet`` (an HTML
    file kept with the match), ``review_samples`` (playouts per decision in each deal's
    review).  ``io`` (a :class:`tutor.teaching.io.LearnerIO`) and ``make_player`` let tests
    inject input, time and output and the deal player.

    Raises :class:`UsageError` when ``resume`` is given with a set-up option, or for a choice
    that does not fit; :class:`LaughError` for a saved match that cannot be resumed; a
    ``sheet`` that cannot be written is refused before anything is played (CannotWrite)."""
    if sheet:
        check_output(sheet)
    if resume is not None:
        given = [
            name
            for name, v in (
                ("--ruleset", ruleset),
                ("--players", players),
                ("--deals", deals),
                ("--seat", seat),
                ("--level", level_name),
                ("--seed", seed),
            )
            if v is not None
        ]
        if given:
            raise UsageError(
                f"--resume plays on the saved match as it was set up; leave out {', '.join(given)}"
            )
        path = Path(resume) if resume else latest_unfinished(finished=bool(sheet))
        held = own_match(path, new=False)
        try:
            match = load_match(path)
        except BaseException:
            if held is not None:
                held.release()
            raise
        pace = pace if pace is not None else match.meta.get("pace", 1.0)
    else:
        rs, players = resolve(ruleset or DEFAULT_RULESET, players)
        lv = level(level_name or DEFAULT_LEVEL)
        seat = seat if seat is not None else 0
        if not 0 <= seat < players:
            raise UsageError(f"--seat must be from 0 to {players - 1}")
        seed = seed if seed is not None else random.SystemRandom().randrange(1, 10**6)
        pace = pace if pace is not None else 1.0
        match = Match.start(
            rs,
            players,
            seed,
            deals=deals,
            meta={"seat": seat, "level": lv.name, "pace": pace, "started_at": time.time()},
        )
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = matches_dir() / f"match-{stamp}-{rs.id}-seed{seed}.json"
        held = own_match(path, new=True)
    try:
        _, io, store = session_io(None, True, io)  # (the match keeps its own seed)
        session = MatchSession(
            match,
            path,
            io=io,
            store=store,
            pace=pace,
            make_player=make_player,
            review_samples=review_samples,
        )
        try:
            return session.run(sheet=sheet)
        finally:
            if store is not None:
                store.close()
    finally:
        if held is not None:
            held.release()


def own_match(path: Path, new: bool):
    """Take the saved match at ``path`` for this process alone while it is played (a lock
    beside it, ``.NAME.lock``, and this process's id in ``.NAME.pid``:
    :func:`tutor.app.owner.hold`); None where no lock can be made there (a missing or
    read-only folder: the match is said not to be saved there anyway); its folder is made
    for a ``new`` match only.  Raises
    :class:`~tutor.app.owner.InUse` in one line naming the process playing it already (two
    processes on one match each overwrote the other's deals: issue 41)."""
    from tutor.app.owner import hold

    try:
        if new:
            path.parent.mkdir(parents=True, exist_ok=True)
        return hold(path.parent / f".{path.name}.lock", f"the saved match {path}")
    except OSError:
        return None


def latest_unfinished(finished: bool = False) -> Path:
    """The most recently saved match that is not over (a file that cannot be read as a saved
    match counts as unfinished: :func:`load_match` then says what is wrong with it); with
    ``finished``, when none is unfinished, the most recently saved match (for its score
    sheet).  Raises :class:`UsageError` when there is none."""
    folder = matches_dir()
    candidates: list[tuple[float, str, Path]] = []
    over: list[tuple[float, str, Path]] = []
    for f in folder.glob("match-*.json") if folder.is_dir() else ():
        try:
            obj = jsonfile.load(f)
            deals = obj.get("deals") if isinstance(obj, dict) else None
            planned = obj.get("deals_planned") if isinstance(obj, dict) else None
            unfinished = not (
                isinstance(deals, list) and isinstance(planned, int) and len(deals) >= planned
            )
        except DataError:
            unfinished = True  # a damaged file: load_match will say what is wrong
        try:
            (candidates if unfinished else over).append((f.stat().st_mtime, f.name, f))
        except OSError:  # gone since it was listed
            continue
    if not candidates and finished and over:
        return max(over)[2]
    if not candidates:
        raise UsageError(
            f"no unfinished match to resume in {folder}; start one with laugh match --ruleset R"
        )
    return max(candidates)[2]


#: What a refusal of a damaged saved match ends with: what to do next.
START_AFRESH = "; start a new one with laugh match"


def load_match(path: Path) -> Match:
    """A saved match, checked whole before anything is played: read within the JSON limits
    (:mod:`tutor.engine.jsonfile`), every key and deal checked (:meth:`Match.from_json`), and
    ``meta`` holding the learner's seat, a level, and a pace from 0 to 30 seconds.  Raises
    :class:`LaughError` in one line naming the file and the key that is wrong, and what to do."""
    try:
        obj = jsonfile.load(path, what="a saved match")
    except DataError as exc:
        if not path.exists():  # a path mistyped: a usage error
            raise UsageError(f"the saved match {exc}") from None
        reason = getattr(exc, "reason", str(exc))
        said = (
            reason
            if reason.startswith(("not a saved match", "cannot be read"))
            else f"not a saved match ({reason})"
        )
        raise LaughError(f"{path}: {said}{START_AFRESH}") from None
    try:
        match = Match.from_json(obj, default_library().rulesets)
        _check_meta(match)
    except RecordError as exc:
        raise LaughError(
            f"{path}: the saved match cannot be resumed ({exc}){START_AFRESH}"
        ) from None
    return match


def _check_meta(match: Match) -> None:
    """The learner's settings a saved match keeps in ``meta``; RecordError naming the key."""
    meta = match.meta
    seat = meta.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < match.players:
        raise RecordError(f"meta.seat: must be a seat from 0 to {match.players - 1}")
    if meta.get("level") not in LEVELS:
        raise RecordError(f"meta.level: must be one of {', '.join(LEVELS)}")
    pace = meta.get("pace", 1.0)
    if (
        isinstance(pace, bool)
        or not isinstance(pace, (int, float))
        or not 0 <= pace <= LONGEST_PACE
    ):
        raise RecordError(f"meta.pace: must be a number of seconds from 0 to {LONGEST_PACE:g}")
    started = meta.get("started_at", 0)
    if isinstance(started, bool) or not isinstance(started, (int, float)):
        raise RecordError("meta.started_at: must be a time (seconds)")
    sheet = meta.get("sheet")
    if sheet is not None and not (
        isinstance(sheet, str)
        and os.path.isabs(sheet)
        and sheet.lower().endswith(".html")
        and len(sheet) <= 4096
        and "\0" not in sheet
    ):
        raise RecordError("meta.sheet: must be the full path of an HTML file (.html)")


def save_match(match: Match, path: Path) -> None:
    """Write the match to ``path`` whole or not at all, through the path
    (:func:`tutor.engine.atomic.write_atomic`).  Raises OSError when it cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, match.dumps() + "\n")


class MatchSession:
    """Plays ``match`` from its next deal to its end (or until the learner quits), saving it
    to ``path`` after every deal.  ``io`` the learner's terminal, as for ``laugh play``;
    ``store`` a progress store (the graded moments of each deal are recorded), or None;
    ``make_player`` builds the deal player (default :class:`tutor.app.play.practice_deal.DealPlayer`)."""

    def __init__(
        self,
        match: Match,
        path: Path,
        *,
        io: LearnerIO,
        store: ProgressStore | None = None,
        pace: float = 1.0,
        make_player: MakePlayer | None = None,
        review_samples: int = 0,
    ):
        self.match = match
        self.review_samples = review_samples
        self.path = path
        self.io = io
        self.store = store
        self.pace = pace
        self.symbols = io.symbols
        self.seat = match.meta["seat"]
        self.level = level(match.meta["level"])
        self.names = seat_names(match.players, self.seat)
        if make_player is None:
            # The game and its screen load only when a deal is played (start-up benchmark).
            from tutor.app.play.practice_deal import DealPlayer

            make_player = DealPlayer
        self.make_player = make_player
        self._save_failed: str | bool = False  # why the match could not be saved
        self._sheet_failed = False

    def run(self, sheet: str | None = None) -> int:
        """Play on; returns the exit status (0, or 130 after Ctrl-C).  ``sheet`` (an HTML file;
        default: the one kept with the match, ``meta.sheet``) is kept with the match and
        written now, after every deal, and when the match ends or stops; a sheet kept with
        the match that cannot be written is said once, and the match goes on without it."""
        m = self.match
        if sheet:
            m.meta["sheet"] = os.path.abspath(sheet)
        self.sheet = m.meta.get("sheet")
        self._save()
        if m.is_over:
            self.io.say(f"This match is over ({len(m.deals)} deals); its results:", style="bold")
            self._the_end()
            return 0
        self._heading()
        self._write_sheet(quiet=True)
        try:
            while not m.is_over:
                if not self._play_next():
                    self._stopped()
                    return 0
                if not m.is_over and self.io.interactive:
                    text = self.io.ask("Enter for the next deal, q to stop> ")
                    if is_quit(text, menu=True):
                        self._stopped()
                        return 0
        except EOFError:
            self._stopped()
            return 0
        except KeyboardInterrupt:
            self.io.say()
            self._stopped()
            return 130
        self.io.say()
        self.io.say("The match is over.", style="bold")
        self._the_end()
        return 0

    # -- the deals ---------------------------------------------------------------------------

    def _heading(self) -> None:
        m, rs = self.match, self.match.ruleset
        self.io.say(
            f"Match · {rs.short_title} · {m.players} players · {self.level.name} · seed {m.seed}",
            style="bold",
        )
        self.io.say(f"You play at seat {self.seat}, against {self.level.summary}.", style="dim")
        fmt = rs.match_format
        if fmt:
            practice = " (the first a practice game, not scored)" if fmt.get("practice") else ""
            self.io.say(f"{fmt['rounds']} rounds of {fmt['games']} games{practice}.")
        else:
            self.io.say(f"{len(m.games)} deals.")
        if not self._save_failed:
            self.io.say(
                f"Saved after every deal in {self.path} (a deal left unfinished starts "
                "again when you resume).",
                style="dim",
            )
        if self.sheet:
            self.io.say(f"The score sheet {self.sheet} is rewritten after every deal.", style="dim")
        if m.deals:
            self.io.say(f"Resumed after {len(m.deals)} of {len(m.games)} deals.", style="bold")
            self._totals()
        else:
            self._cuts()
            first = self.names[m.first]
            self.io.say(
                f"{first} deal{'' if m.first == self.seat else 's'} first; the deal passes left."
            )

    def _cuts(self) -> None:
        from tutor.puzzles.board import cards_text

        rs = self.match.ruleset
        if not self.match.cuts:
            self.io.say("The players choose the first dealer.")
            return
        rule = rs.game().cut_words
        for cut in self.match.cuts:
            t = Text(f"Cut for the deal ({rule}): ")
            for i, (q, c) in enumerate(sorted(cut.cards.items())):
                if i:
                    t.append(", ")
                t.append(f"{self.names[q]} ")
                t.append_text(cards_text([c], self.symbols))
            self.io.show(t)

    def _play_next(self) -> bool:
        """Play the next game; False when the learner left it unfinished."""
        from tutor.app.play.session import record_deal, review_with_progress
        from tutor.app.play.sheet import review_renderable, settlement_table

        m = self.match
        game = m.next_game
        if game is None:
            raise AssertionError("the match is over: it has no next game")
        deal = m.new_deal()
        k = game.index
        label = (
            f"{game.label} ({k + 1} of {len(m.games)})"
            if game.round is not None
            else f"Deal {k + 1} of {len(m.games)}"
        )
        dealer = self.names[game.dealer]
        deals = "deal" if game.dealer == self.seat else "deals"
        player = self.make_player(
            deal,
            self.seat,
            make_opponents(self.level, m.players, self.seat),
            bot_rng=random.Random(f"{m.seed}:bots:{k}"),
            reaction_rng=random.Random(f"{m.seed}:reactions:{self.level.name}:{k}"),
            io=self.io,
            names=self.names,
            pace=self.pace,
            title=f"{label} · {m.ruleset.short_title} · {dealer} {deals}",
            totals=list(m.totals),
            claiming=claimants(self.level, m.players, self.seat),
        )
        player.run()
        if not deal.is_terminal():
            return False
        m.record_deal(deal)
        self._save()
        self._write_sheet(quiet=True)
        self.io.say()
        if game.practice:
            self.io.say("The practice game: not scored.", style="dim")
        self.io.show(settlement_table(deal, self.names, self.symbols))
        self.io.say()
        review = review_with_progress(deal, self.seat, self.names, self.review_samples, self.io)
        self.io.show(
            review_renderable(
                player.mistakes,
                player.sightings,
                review=review,
                names=self.names,
                seat=self.seat,
                symbols=self.symbols,
                set_aside=m.ruleset.game().sets_aside_table_mournival,
            )
        )
        if self.store is not None:
            record_deal(
                self.store, player, "match", m.ruleset.id, m.seed, k, timed=self.io.interactive
            )
        self.io.say()
        self._totals()
        return True

    def _totals(self) -> None:
        """The running totals; at the end of a round of the match format (after game 5 of
        round 1 under ``inter-livery-2018``), that round's totals first."""
        from tutor.app.play.sheet import totals_table

        m = self.match
        stakes = m.ruleset.has_stakes
        played = m.games[: len(m.deals)]
        last = played[-1] if played else None
        fmt = m.ruleset.match_format
        if last is not None and last.round is not None and fmt and last.number == fmt["games"]:
            games = [(g, d) for g, d in zip(played, m.deals) if g.round == last.round]
            scored = [d for g, d in games if not g.practice]
            sums = [sum(d.returns()[q] for d in scored) for q in range(m.players)]
            left_out = len(games) - len(scored)
            note = (
                f" ({len(scored)} games scored; the practice game not scored)"
                if left_out
                else f" ({len(scored)} games)"
            )
            self.io.show(
                totals_table(
                    self.names, sums, len(scored), stakes, title=f"Round {last.round} totals{note}"
                )
            )
            if len(m.games) > len(m.deals):
                self.io.say(
                    f"Round {last.round} is over; round {last.round + 1} begins.", style="dim"
                )
            self.io.say()
        practice = any(g.practice for g in played)
        self.io.show(totals_table(self.names, m.totals, len(m.deals), stakes, practice))
        self.io.say(
            f"{len(m.deals)} of {len(m.games)} deals played; "
            + ("saved." if not self._save_failed else f"not saved ({self._save_failed})."),
            style="dim",
        )

    # -- saving and the end ------------------------------------------------------------------

    def _save(self) -> None:
        """Save the match (whole, or the file stays as it was); :attr:`_save_failed` says why
        it could not be, until a later save succeeds (said once, when it first fails)."""
        try:
            save_match(self.match, self.path)
        except OSError as exc:
            if not self._save_failed:
                self.io.say(
                    f"The match cannot be saved to {self.path} "
                    f"({exc.strerror or exc}); playing on, trying again after every "
                    "deal.",
                    style="yellow",
                )
            self._save_failed = f"{self.path}: {exc.strerror or exc}"
            return
        if self._save_failed:
            self.io.say(f"The match is saved in {self.path} again.", style="dim")
        self._save_failed = False

    def _unsaved(self) -> None:
        """At the end: a match that could not be saved is noted (the command exits 1)."""
        if self._save_failed:
            not_saved(f"the match cannot be saved ({self._save_failed})")

    def _stopped(self) -> None:
        m = self.match
        self._write_sheet()
        if self._save_failed:
            self.io.say(
                f"Match stopped after {len(m.deals)} of {len(m.games)} deals; it could not "
                f"be saved ({self._save_failed}).",
                style="yellow",
            )
            self._unsaved()
            return
        self.io.say(
            f"Match saved after {len(m.deals)} of {len(m.games)} deals; laugh match "
            "--resume plays on.",
            style="bold",
        )

    def _the_end(self) -> None:
        from tutor.app.match_sheet import deals_renderable, sheet_renderable

        m = self.match
        self.io.show(deals_renderable(m, self.names))
        self.io.say()
        if m.ruleset.game().has_match_format:
            self.io.show(sheet_renderable(m, self.seat, self.names[self.seat]))
            self.io.say()
        best = max(m.totals)
        winners = [self.names[q] for q in range(m.players) if m.totals[q] == best]
        score = f"{best:+d}" if m.ruleset.has_stakes else f"{best} points"
        self.io.say(f"First: {' and '.join(winners)}, with {score}.", style="bold")
        self._write_sheet()
        if self._save_failed:
            self.io.say(f"The match could not be saved ({self._save_failed}).", style="yellow")
            self._unsaved()
            return
        self.io.say(f"The match is saved in {self.path}.", style="dim")

    def _write_sheet(self, quiet: bool = False) -> None:
        """Write the score sheet (HTML) to ``self.sheet``, if any.  ``quiet`` (at the start and
        after each deal): a write that fails is said once, in yellow, and the match goes on;
        else (the match ended or stopped) it is said, and a write that fails raises
        :class:`tutor.engine.outputs.CannotWrite` (exit status 1)."""
        from tutor.app.match_sheet import sheet_html

        if not self.sheet or (quiet and self._sheet_failed):
            return
        try:
            write_text(self.sheet, sheet_html(self.match, self.names, self.seat))
        except LaughError as exc:
            if not quiet:
                raise
            self._sheet_failed = True
            self.io.say(f"{exc}; playing on, and trying again at the end.", style="yellow")
            return
        if not quiet:
            self.io.say(f"Score sheet written to {self.sheet}.")
