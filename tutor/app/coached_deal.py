"""A first deal with a coach, on the real play screen: the learner plays a seeded deal against
computer players while the coach stops at each new situation, shows what the course says of it
and where, and what the engine says may be done now; then the learner acts.  A second deal
follows with the coach silent unless asked (``why`` or ``coach`` at any prompt).

The deal is played by the play screen itself (:class:`tutor.app.play.DealPlayer`, its watch and
its prompts, through the I/O seam); the coach watches beside it as a
:class:`~tutor.app.play.practice_deal.DealObserver`: told of each of the learner's prompts, it asks the
engine which situations are present (:func:`tutor.teaching.coach.situations`) and speaks of
each new one; it takes the lines ``why`` and ``coach``.  Nothing here knows a rule: the words
are the course's (the lesson page a ``coach`` block names for each situation, and the
quotations on it) and the engine's (its moves and its parameter table's words).

In the first deal the computer players leave every claim to the learner, and the coach asks
"anything to claim?" at every oversight the learner may claim (its box told of oversights the
first time); in the second nobody asks, as said once when it begins (the lesson's aim: the
learner spots them alone), and the computer players claim as their level does.  Neither deal
is recorded in the progress store: the coach gives answers away.  :func:`coached_deals` runs both;
:func:`survey` plays the first with a scripted learner and says which situations arose (the
seed search and the tests use it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.padding import Padding
from rich.text import Text

from tutor.app.fit import TitledRule
from tutor.app.markdown import render_markdown
from tutor.app.play.inputs import QUIT_WORDS
from tutor.app.play.practice_deal import DealObserver, DealPlayer
from tutor.app.play.prompting import CLAIM_WORDS
from tutor.app.play.sheet import review_renderable, settlement_table
from tutor.engine.deal import Deal, Oversight, new_deal
from tutor.engine.errors import UsageError
from tutor.engine.levels import claimants, level, make_opponents, seat_names
from tutor.engine.rule_bots import ADVICE_WORDS, WillughbyBot
from tutor.puzzles.quoted import quote_text
from tutor.teaching.coach import (
    AT_THE_END,
    SITUATIONS,
    Seen,
    Stop,
    action_words,
    page_words,
    situations,
    stop_for,
    stop_quotes,
)
from tutor.teaching.lessons import CoachData, Lesson, course_index, open_lesson

__all__ = [
    "ASK_CLAIM",
    "ASK_WORDS",
    "NOW_TITLES",
    "ON_YOUR_OWN",
    "Coach",
    "CoachedResult",
    "CoachedSession",
    "allows",
    "coached_deals",
    "short_citation",
    "survey",
]

#: What asks the coach at any prompt of the deal.
ASK_WORDS = frozenset({"why", "coach"})
#: The learner's seat in a coached deal.
SEAT = 0
PAUSE = "Enter: back to the table> "
#: Between two boxes of the coach at one prompt.
NEXT = "Enter: the coach's next box> "
#: The coach's words before a stop's line of advice (ours; the quotation is the source's).
ADVICE = "One line of advice:"
#: What the coach asks at every oversight the learner may claim in the coached deal, once its
#: box has told of oversights.
ASK_CLAIM = "The coach asks: anything to claim? (name the cards, or Enter)> "
#: The heading of a situation when the learner asks ``why`` at a later position (the first
#: time's heading, "Your first capture", would not be this position's).
NOW_TITLES = {"capture": "Your capture"}
#: Said once, as the second deal begins: from then on nobody asks about claims (the lesson's
#: aim: the learner spots mistakes alone).
ON_YOUR_OWN = (
    "From now on nobody asks \u201canything to claim?\u201d: spotting a mistake "
    "and claiming it is yours alone."
)


def allows(data: dict, ruleset: str | None) -> bool:
    """Whether a ``coach`` block's ``data`` can be played under ``ruleset`` (None: its first):
    the block has a seeded deal for it."""
    return ruleset is None or ruleset in data["deals"]


class Coach(DealObserver):
    """The coach beside one deal: ``ctx`` the screen's context (its I/O, library, glyphs),
    ``stops`` the block's :class:`~tutor.teaching.coach.Stop` by name, ``ruleset_id`` the
    deal's ruleset (which picks the stops and their quotations), ``speaking``
    whether it stops by itself (else only when asked), ``lessons`` the lessons opened so far
    by id, shared with whoever else gives the same dict (the coaches of one session; default
    its own).  :attr:`arisen` lists the situations met, in order."""

    def __init__(
        self,
        ctx,
        stops: dict[str, Stop],
        ruleset_id: str,
        *,
        speaking: bool = True,
        lessons: dict[str, Lesson] | None = None,
    ):
        self.ctx = ctx
        self.stops = stops
        self.ruleset_id = ruleset_id
        self.speaking = speaking
        self.arisen: list[str] = []
        self.current: list[Seen] = []
        self.asked: set[Oversight] = set()
        self._since = 0
        self._lessons: dict[str, Lesson] = {} if lessons is None else lessons

    # -- the hooks ---------------------------------------------------------------------------

    def prompt(self, player: DealPlayer, where: str) -> bool:
        """Find the situations present; speak of the new ones (when speaking), one box at a
        time; then, at every oversight the learner may claim that is new since the coach last
        asked (the engine's :meth:`~tutor.engine.deal.Deal.open_oversights` and
        :meth:`~tutor.engine.deal.Deal.claimants`), ask (:meth:`ask_claim`): the box teaches
        first, the question follows.  Always False: back at the table the deal goes on by
        itself (a watch prompt keeps its countdown)."""
        deal = player.deal
        self.current = situations(
            deal, player.seat, player.names, player.symbols, since=self._since
        )
        self._since = len(deal.history)
        new = [s for s in self.current if s.situation not in self.arisen]
        self.arisen += [s.situation for s in new]
        open_ = {o for o in deal.open_oversights() if player.seat in deal.claimants(o)}
        fresh = open_ - self.asked
        if not self.speaking:
            return False
        self.asked |= open_
        if not (new or fresh):
            return False
        for i, s in enumerate(new):
            self.ctx.page(*self.stop_renderables(s))
            self.pause(NEXT if i < len(new) - 1 or fresh else PAUSE)
        if fresh:
            self.ask_claim(player)
            if player.quit:
                return False
        player.show()
        return False

    def ask_claim(self, player: DealPlayer) -> None:
        """Before telling of an oversight, ask: the learner's line is a claim, refereed by the
        play screen's watch as any claim is (a false claim said and recorded, a naming that is
        not whole asked again); Enter alone claims nothing."""
        player.show()  # the table as it stands, to look for it
        reply = player.io.read(ASK_CLAIM, None, words=CLAIM_WORDS)
        text = (reply.text if reply is not None else "").strip()
        if text.lower() in QUIT_WORDS:
            player.quit = True
            return
        if not text or text.lower() in ("pass", "no", "nothing", "none"):
            return
        player.claim(text, reply.at if reply is not None else player.clock.now())

    def line(self, player: DealPlayer, text: str) -> bool:
        """``why`` or ``coach``: speak of what is present now (or say that nothing is)."""
        if text.strip().lower() not in ASK_WORDS:
            return False
        if self.current:
            parts: list = []
            for s in self.current:
                parts += self.stop_renderables(s, now=True, applied=self.advice_here(player, s))
            self.ctx.page(*parts)
        else:
            self.ctx.say(
                "The coach: nothing new here. At your turn, moves lists what you may "
                "do; help lists what you can type.",
                style="cyan",
            )
        return True

    def advice_here(self, player: DealPlayer, s: Seen) -> list[str]:
        """The advice of the stop of ``s`` applied to the position at hand, for ``why``: at a
        capture on the learner's turn, the moves Willughby's advice picks now (the engine's
        :meth:`~tutor.engine.rule_bots.WillughbyBot.advised`, from the learner's legal moves
        and the table alone); else nothing."""
        deal, seat = player.deal, player.seat
        if s.situation != "capture" or deal.phase == "over" or deal.to_move != seat:
            return []
        advice, acts = WillughbyBot.advised(deal, deal.legal_actions(seat))
        if not acts:
            return [f"Willughby's advice, applied here: {ADVICE_WORDS[advice]}."]
        moves = " · ".join(action_words(a, self.ctx.symbols) for a in acts)
        return [f"Willughby's advice, applied here: {ADVICE_WORDS[advice]}: {moves}."]

    def finished(self, deal: Deal, names: Sequence[str], *, speak: bool | None = None) -> None:
        """The end of the deal: the end of play and the settlement (spoken when ``speak``,
        default :attr:`speaking`)."""
        seen = situations(deal, SEAT, names, self.ctx.symbols)
        end = [s for s in seen if s.situation not in self.arisen]
        self.arisen += [s.situation for s in end]
        self.current = seen
        if self.speaking if speak is None else speak:
            self.speak(end)

    # -- speaking ----------------------------------------------------------------------------

    def speak(self, seen: Sequence[Seen]) -> None:
        """Each situation: its heading, the page that teaches it and the page's words, the
        quotations, then the engine's facts."""
        parts: list = []
        for s in seen:
            parts += self.stop_renderables(s)
        self.ctx.page(*parts)

    def stop_renderables(self, s: Seen, *, now: bool = False, applied: Sequence[str] = ()) -> list:
        """One stop as one box (see :meth:`speak`): the heading, where the course teaches it
        and that page's words, its quotations each cited by source and section, the stop's
        line of advice where it has one, then the engine's facts.  ``now`` (the learner asked
        ``why``): the advice applied to the position at hand, the page named but not
        replayed: the heading of this position (:data:`NOW_TITLES`), where the course teaches
        it, the line of advice, ``applied`` (that advice applied to the position, the
        engine's: :meth:`advice_here`) and the engine's facts now."""
        ctx = self.ctx
        title = (
            NOW_TITLES.get(s.situation, SITUATIONS[s.situation]) if now else SITUATIONS[s.situation]
        )
        out: list = [
            Text(""),
            TitledRule(f"The coach · {'now: ' if now else ''}{title}", style="cyan", align="left"),
        ]
        stop = stop_for(self.stops, s.situation, self.ruleset_id)
        if stop is not None:
            where, words = self.page_of(stop)
            out.append(
                Text(("Taught in " + where[:1].lower() + where[1:]) if now else where, style="bold")
            )
            if now:
                if stop.advice:
                    out.append(Text(ADVICE, style="bold"))
                    out.append(self.quoted(stop.advice))
                out.extend(Padding(Text(f), (0, 0, 0, 2)) for f in applied)
                out.append(Text("The engine, now:", style="bold"))
                out.extend(Padding(Text(f), (0, 0, 0, 2)) for f in s.facts)
                return out
            if words:
                out.append(
                    Padding(
                        render_markdown(words, ctx.symbols, "•" if ctx.symbols else "-"),
                        (0, 0, 0, 2),
                    )
                )
            for ref in stop_quotes(stop, self.ruleset_id, ctx.library):
                out.append(self.quoted(ref))
            if stop.advice:
                out.append(Text(ADVICE, style="bold"))
                out.append(self.quoted(stop.advice))
        out.append(Text("The engine, now:", style="bold"))
        for f in s.facts:
            out.append(Padding(Text(f), (0, 0, 0, 2)))
        return out

    def quoted(self, ref: str) -> Padding:
        """The quotation ``ref`` verbatim, then its source and section alone
        (:func:`short_citation`): the lesson page the box names gives the whole citation."""
        ctx = self.ctx
        q = ctx.library.quotation(ref)
        open_q, close_q = ("“", "”") if ctx.symbols else ('"', '"')
        body = Text(open_q, style="italic")
        body.append_text(quote_text(q.text, style="italic"))
        body.append(close_q, style="italic")
        body.append(f" {ctx.glyphs.dash} {short_citation(ctx.library, ref)}", style="dim")
        return Padding(body, (0, 0, 0, 2))

    def page_of(self, stop: Stop) -> tuple[str, str | None]:
        """``(where, words)``: "Lesson 4, Capturing, page 1: A turn: you must capture", and
        the page's words the stop shows (None if the course has changed under it)."""
        lesson = self._lessons.get(stop.lesson)
        if lesson is None:
            lesson = self._lessons[stop.lesson] = open_lesson(stop.lesson)
        got = page_words(lesson, stop.page, stop.phrase)
        if got is None:
            return f"Lesson {lesson.number}, {lesson.title}: {stop.page}", None
        page, words = got
        return (f"Lesson {lesson.number}, {lesson.title}, page {page + 1}: {stop.page}", words)

    def pause(self, prompt: str = "") -> None:
        """At a terminal, wait for Enter (``prompt``: before the next box, or before the table
        comes back)."""
        if self.ctx.interactive:
            self.ctx.ask(prompt or PAUSE)


@dataclass
class CoachedResult:
    """What the coached deals left: the deals, each deal's situations met (in order), and
    whether the learner left early."""

    deals: list[Deal] = field(default_factory=list)
    arisen: list[list[str]] = field(default_factory=list)
    quit: bool = False


class CoachedSession:
    """The deals of a ``coach`` block (``data`` as :mod:`tutor.teaching.lessons` reads it)
    under ``ruleset`` (None: the block's first) with the learner at ``ctx``
    (:class:`tutor.app.context.Context`); ``pace`` the seconds before each computer player's
    move on a terminal.  :attr:`coach` is the coach of the deal being played, :attr:`player`
    its play screen; ``lessons``: the lessons its coaches open, by id (see :class:`Coach`; a
    caller running several sessions at one moment may share one dict; default the session's
    own).  Raises :class:`UsageError` for a ruleset the block has no deal for."""

    def __init__(
        self,
        ctx,
        data: CoachData,
        ruleset: str | None = None,
        *,
        pace: float = 1.0,
        lessons: dict[str, Lesson] | None = None,
    ):
        rid = ruleset or next(iter(data["deals"]))
        if rid not in data["deals"]:
            raise UsageError(
                f"this coached deal has no deal under {rid} (it has: {', '.join(data['deals'])})"
            )
        self.ctx, self.data, self.pace = ctx, data, pace
        self.n = data["players"]
        self.rs = ctx.library.ruleset(rid, self.n)
        self.level = level(data["level"])
        self.seed = data["deals"][rid]
        self.names = seat_names(self.n, SEAT)
        self.deal_rng = random.Random(self.seed)
        self.bot_rng = random.Random(f"{self.seed}:bots")
        self.reaction_rng = random.Random(f"{self.seed}:reactions")
        self.bots = make_opponents(self.level, self.n, SEAT)
        self.dealer = (SEAT - 1) % self.n  # the learner is eldest in the first deal
        self.result = CoachedResult()
        self.coach: Coach | None = None
        self.player: DealPlayer | None = None
        self.lessons: dict[str, Lesson] = {} if lessons is None else lessons

    def first(self) -> bool:
        """The coached deal; False when the learner left it."""
        ctx, lv, rid = self.ctx, self.level, self.rs.id
        ctx.say(f"A deal with a coach · {rid} · {self.n} players · seed {self.seed}", style="bold")
        ctx.say(
            f"You play at seat {SEAT}, against {lv.summary}. The first time something new "
            "happens, the coach stops: what the course says of it and on which page, and "
            "what the engine says you may do now. Then you act. In this deal the computer "
            "players leave every claim to you, and whenever there is something you may "
            "claim, the coach asks (in the second deal nobody will). Type why (or coach) at any prompt to hear "
            "the coach again, help for what you can type."
        )
        deal = new_deal(self.rs, self.n, self.dealer, self.deal_rng)
        coach = Coach(self.ctx, self.data["stops"], self.rs.id, lessons=self.lessons)
        return self._play(deal, coach, {}, "Coached deal")

    def second(self) -> bool:
        """The deal on the learner's own, the coach silent unless asked; False when the
        learner left it."""
        ctx, lv = self.ctx, self.level
        ctx.say()
        if ctx.interactive:
            ctx.ask("Enter for the second deal> ")
        ctx.say(
            "Now a deal on your own: the coach says nothing unless you ask (why or coach "
            f"at any prompt), and the computer players claim as {lv.name} players do. "
            + ON_YOUR_OWN,
            style="bold",
        )
        deal = new_deal(self.rs, self.n, (self.dealer + 1) % self.n, self.deal_rng)
        quiet = Coach(ctx, self.data["stops"], self.rs.id, speaking=False, lessons=self.lessons)
        if not self._play(deal, quiet, claimants(lv, self.n, SEAT), "Second deal"):
            return False
        while ctx.interactive:
            text = ctx.ask("Enter to finish (why: the coach on this deal)> ").strip().lower()
            if text not in ASK_WORDS:
                break
            quiet.speak([s for s in quiet.current if s.situation in AT_THE_END])
        return True

    def _play(self, deal: Deal, coach: Coach, claiming: dict, title: str) -> bool:
        """One deal with ``coach`` beside it, then the settlement, the end's stops, what did
        not arise (when the coach speaks) and the review of slips; False when the learner left
        it."""
        ctx, names, rid = self.ctx, self.names, self.rs.id
        self.coach = coach
        self.player = player = DealPlayer(
            deal,
            SEAT,
            self.bots,
            bot_rng=self.bot_rng,
            reaction_rng=self.reaction_rng,
            io=ctx.io,
            names=names,
            pace=self.pace,
            title=f"{title} · {rid} · {names[deal.dealer]} "
            f"deal{'' if deal.dealer == SEAT else 's'}",
            claiming=claiming,
            observer=coach,
        )
        self.result.deals.append(deal)
        self.result.arisen.append(coach.arisen)
        player.run()
        if not deal.is_terminal():
            self.result.quit = True
            ctx.say("You left the deal before its end.", style="yellow")
            return False
        ctx.say()
        ctx.show(settlement_table(deal, names, ctx.symbols))
        coach.finished(deal, names)
        if coach.speaking:
            ctx.show(_not_arisen(coach))
        ctx.say()
        ctx.show(
            review_renderable(
                player.mistakes,
                player.sightings,
                names=names,
                seat=SEAT,
                symbols=ctx.symbols,
                set_aside=deal.game.sets_aside_table_mournival,
            )
        )
        return True


def short_citation(library, ref: str) -> str:
    """The source and section of the quotation ``ref``: ``Parlett, Cards and deal (the play)``,
    the source named by its author's surname (else the work or place it appeared in), the
    section by the last step of its place (``After Willughby, c.1665 > Cards and deal (the
    play)``); a quotation the source quotes from another says so (``Willughby, quoted in
    Parlett, closing notes``)."""
    q = library.quotation(ref)
    section = q.where.rsplit(" > ", 1)[-1]
    if q.quoting:
        return f"{q.quoting}, quoted in {section}"
    src = library.sources[q.source]
    who = " ".join(src.author.split()[1:]) if src.author else src.who
    return f"{who}, {section}"


def coached_deals(
    ctx, data: CoachData, ruleset: str | None = None, *, pace: float = 1.0
) -> CoachedResult:
    """Play a ``coach`` block's deals with the learner at ``ctx``: the first coached, then one
    with the coach silent unless asked (see :class:`CoachedSession`).  ``EOFError`` and
    ``KeyboardInterrupt`` pass through (nothing is saved: these deals are not recorded)."""
    session = CoachedSession(ctx, data, ruleset, pace=pace)
    if session.first():
        session.second()
    return session.result


def _not_arisen(coach: Coach) -> Text:
    """The situations this deal did not show, said plainly, with where the course teaches
    each; or that it showed them all."""
    missing = [s for s in SITUATIONS if s not in coach.arisen]
    if not missing:
        return Text("This deal showed every situation the coach stops for.", style="green")
    t = Text("This deal did not show: ", style="bold")
    parts = []
    for s in missing:
        stop = stop_for(coach.stops, s, coach.ruleset_id)
        where = coach.page_of(stop)[0].split(",")[0] if stop is not None else ""
        parts.append(
            f"{SITUATIONS[s][:1].lower()}{SITUATIONS[s][1:]}"
            + (f" ({where.lower()} teaches it)" if where else "")
        )
    t.append("; ".join(parts) + ".")
    return t


def survey(
    data: CoachData,
    ruleset: str | None,
    answer: Callable[[DealPlayer, str], str],
    width: int = 80,
    lessons: dict[str, Lesson] | None = None,
) -> tuple[list[str], Deal]:
    """The situations the first deal of ``data`` under ``ruleset`` shows a scripted learner,
    in order, and the deal: ``answer(player, prompt)`` gives each line the learner types (piped:
    no real time); ``lessons``: the lessons opened, shared between surveys (see
    :class:`Coach`).  For the seed search and the tests."""
    import io as _io

    from tutor.app.context import Context, Glyphs
    from tutor.app.learner_io import ScriptedIO
    from tutor.app.std_streams import make_console

    holder: dict = {}
    console = make_console(file=_io.StringIO(), width=width, plain=True)
    io = ScriptedIO(lambda prompt: answer(holder["session"].player, prompt), console)
    session = holder["session"] = CoachedSession(
        Context(io, Glyphs()), data, ruleset, pace=0.0, lessons=lessons
    )
    session.first()
    assert session.coach is not None  # the first deal has begun
    return session.coach.arisen, session.result.deals[0]


# --------------------------------------------------------------------------------------------
# Finding a deal that shows the situations


def scripted_learner(
    seed: int, *, declares: bool = True, claims: bool = True, bot: str | None = None
) -> Callable[[DealPlayer, str], str]:
    """A learner for :func:`survey`: at its turn a move chosen at random (``seed``) among the
    engine's legal actions, or by the computer player ``bot`` (a name of
    :func:`tutor.engine.bots.make_bot`); each declaration it may make (``declares``), each
    claim open to it (``claims``, also when the coach asks); Enter otherwise."""
    from tutor.app.play.practice_deal import NAME_PROMPT, TURN_PROMPT, WHICH_PROMPT
    from tutor.engine.bots import make_bot

    rng = random.Random(seed)
    chooser = make_bot(bot) if bot else None

    def answer(player: DealPlayer | None, prompt: str) -> str:
        if player is None or prompt == WHICH_PROMPT:
            return "1" if prompt == WHICH_PROMPT else ""
        d, seat = player.deal, player.seat
        free = d.free_actions(seat)
        open_claims = [a for a in free if a.kind == "claim"]
        if prompt == NAME_PROMPT:
            return open_claims[0].notation() if open_claims else ""
        if prompt == ASK_CLAIM:
            return open_claims[0].notation() if claims and open_claims else ""
        if claims and open_claims:
            return open_claims[0].notation()
        decl = [a for a in free if a.kind.startswith("declare") or a.kind == "take_table_mournival"]
        if declares and decl:
            return decl[0].notation()
        if prompt == TURN_PROMPT and d.to_move == seat:
            legal = d.legal_actions()
            a = chooser.choose(d, legal, rng) if chooser else rng.choice(legal)
            return a.notation()
        return ""

    return answer


#: The learners a deal is tried with before it is called sure to show a situation.
SURVEY_LEARNERS = (
    ("random, declares and claims", dict(seed=1)),
    ("random, another", dict(seed=2)),
    ("random, never declares", dict(seed=3, declares=False)),
    ("random, never claims", dict(seed=4, claims=False)),
    ("Willughby's advice", dict(seed=5, bot="willughby")),
    ("counts the cards", dict(seed=6, bot="counter")),
)


def sure_situations(data: CoachData, ruleset: str | None) -> list[str]:
    """The situations the first deal of ``data`` under ``ruleset`` shows every learner of
    :data:`SURVEY_LEARNERS` (in :data:`SITUATIONS` order).  The lessons the coach quotes are
    opened once for all of them."""
    shown = None
    lessons: dict[str, Lesson] = {}
    for _, kw in SURVEY_LEARNERS:
        got = set(survey(data, ruleset, scripted_learner(**kw), lessons=lessons)[0])
        shown = got if shown is None else shown & got
    return [s for s in SITUATIONS if s in (shown or ())]


def search_seeds(data: CoachData, ruleset: str, seeds: range) -> list[tuple[int, list[str]]]:
    """Each seed of ``seeds`` with the situations its first deal (``data``'s, with that seed
    under ``ruleset``) is sure to show (:func:`sure_situations`), the most first.  How a
    ``coach`` block's seeds are chosen."""
    out = []
    for seed in seeds:
        trial: CoachData = {**data, "deals": {**data["deals"], ruleset: seed}}
        out.append((seed, sure_situations(trial, ruleset)))
    return sorted(out, key=lambda x: -len(x[1]))


def course_coach_block():
    """The course's first ``coach`` block and its lesson: ``(lesson, block)``.  Raises
    :class:`UsageError` when no lesson of the course has one."""
    for entry in course_index():
        lesson = open_lesson(entry.id)
        for b in lesson.blocks("coach"):
            return lesson, b
    raise UsageError("no lesson of the course has a coached deal")


def home_coached_deals(ctx, ruleset: str | None = None, *, pace: float = 1.0) -> CoachedResult:
    """The course's coached deals (:func:`course_coach_block`) played from the home screen (or
    ``laugh coach``), under ``ruleset`` (None: the block's first)."""
    lesson, block = course_coach_block()
    ctx.say(f"From lesson {lesson.number}, {lesson.title}.", style="dim")
    return coached_deals(ctx, block.coach(), ruleset, pace=pace)
