"""One generator per puzzle kind, and the seeded search that turns an id into exactly one puzzle.

A puzzle id is ``KIND.RULESET.PLAYERS.SEED``.  Its generator is deterministic from (kind,
ruleset, players, seed, the kind's ``generator_version`` in ``puzzles/<kind>.yaml``): a
``random.Random(f"{kind}/{ruleset}/{players}/{seed}/v{version}")`` draws the plan (which variant,
decoy or not), and each attempt ``k`` plays a real deal with computer players from
:mod:`tutor.engine.bots` under ``random.Random(f".../v{version}/{k}")``.  The first attempt that yields a
suitable position (bounded) is the puzzle: the same id gives the same puzzle on any machine.

Every answer comes from engine queries on the position (``free_actions``, ``legal_actions``,
``capture_options``, ``unseen``, ``dead_pairs``, ``why_illegal``, the deal's result, ruleset
parameters); a generator never re-implements a rule.  A puzzle is kept only after its record is
replayed with :func:`tutor.engine.records.replay` and the answer recomputed from the replayed position
comes out the same.

Some positions are rare in random play (a mournival among the table cards, a mournival in hand),
so a generator may *arrange* the shuffled pack (move the cards of one rank to the table or to one
player's hand) before the deal is played; the engine then checks that the arrangement landed
where intended, and play is as real as any other.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tutor.engine.bots import make_bot, play_out
from tutor.engine.cards import RANK_NAMES, RANK_PLURALS, codes, pretty_cards, rank_code
from tutor.engine.deal import Action, Deal
from tutor.engine.errors import LaughError, UsageError
from tutor.engine.records import action_to_json, replay, to_record
from tutor.engine.rulesets import COUNT_PARAMETERS, OVERSIGHT_KINDS, RULESET_PARAMETERS, Ruleset
from tutor.puzzles.model import KINDS, Definition, Puzzle, definition

#: Attempts (derived sub-seeds) a generator makes before giving up on a seed.
MAX_ATTEMPTS = 60
#: Seeds searched for a puzzle of a requested difficulty.
DIFFICULTY_SEARCH = 80


class GenerationError(LaughError):
    """No suitable position was found for a puzzle id within the bounded attempts."""


# --------------------------------------------------------------------------------------------
# Helpers shared by the generators


def _library():
    from tutor.engine.sources import default_library
    return default_library()


def player_name(seat: int, you: int | None = None) -> str:
    """``Player 2`` (``you`` marks the learner's seat: ``you (Player 2)``)."""
    return f"you (Player {seat})" if seat == you else f"Player {seat}"


def _names(players: int, you: int | None) -> list[str]:
    return [player_name(q, you) for q in range(players)]


def _join(items: list[str], word: str = "and") -> str:
    items = [i for i in items if i]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _counts_by_rank(cards) -> dict[int, int]:
    out: dict[int, int] = {}
    for c in cards:
        out[c >> 2] = out.get(c >> 2, 0) + 1
    return out


def _hand_indices(players: int, dealer: int, hand: int, seat: int) -> list[int]:
    """Pack positions dealt to ``seat`` (checked against the engine after dealing)."""
    q = (seat - (dealer + 1)) % players
    return [q + k * players for k in range(hand)]


def _place(pack: list[int], targets: list[int], cards: list[int]) -> None:
    """Swap ``cards`` into pack positions ``targets`` (distinct positions, distinct cards)."""
    for i, c in zip(targets, cards):
        j = pack.index(c)
        pack[i], pack[j] = pack[j], pack[i]


@dataclass
class Ctx:
    """What one generation attempt works with."""

    kind: str
    rs: Ruleset
    players: int
    seed: int
    rng: random.Random
    plan: dict[str, Any]
    defn: Definition

    @property
    def pc(self):
        return self.rs.count(self.players)

    def new_pack(self) -> list[int]:
        pack = list(range(52))
        self.rng.shuffle(pack)
        return pack

    def bots(self, rate: float, special: dict[int, float] | None = None,
             names: tuple[str, ...] = ("willughby", "counter")):
        """One bot per seat: seeded choice among ``names``, careless at ``rate`` (``special``
        gives some seats their own rate)."""
        special = special or {}
        return [make_bot(self.rng.choice(names), special.get(q, rate))
                for q in range(self.players)]

    def play(self, pack: list[int], dealer: int, bots, observer=None) -> Deal:
        deal = Deal(self.rs, self.players, dealer, pack)
        return play_out(deal, bots, self.rng, observer)


@dataclass
class Candidate:
    """A suitable position found by a generator, with everything the puzzle needs."""

    deal: Deal
    seat: int
    variant: str
    answer: dict[str, Any]
    accepted: list[str]
    facts: dict[str, Any]
    features: dict[str, float] = field(default_factory=dict)
    themes: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    tags: set[str] = field(default_factory=set)
    quotes: list[str] = field(default_factory=list)     # quotations the generator adds
    explain_key: str | None = None
    question_key: str | None = None


class KindGenerator:
    """Base class: :meth:`plan` (from the id's base rng), :meth:`build` (one attempt) and
    :meth:`solve` (the answer from a position, by engine queries)."""

    kind = ""
    not_applicable = ""      # why a ruleset the kind does not apply to is left out

    def applies(self, rs: Ruleset) -> bool:
        """Whether the kind makes sense under ``rs`` (decided by ruleset parameters only)."""
        return True

    def plan(self, base: random.Random, rs: Ruleset, players: int, defn: Definition) -> dict:
        return {"variant": "default"}

    def build(self, ctx: Ctx) -> Candidate | None:
        raise NotImplementedError

    def solve(self, deal: Deal, seat: int, data: dict[str, Any], rs: Ruleset,
              players: int) -> dict[str, Any]:
        raise NotImplementedError


def _describe(a: Action, you: int | None, players: int) -> str:
    return a.describe(True, _names(players, you))


# --------------------------------------------------------------------------------------------
# spot-oversight


def claim_groups(deal: Deal, seat: int) -> list[list[Action]]:
    """The seat's claims now (engine ``free_actions``), grouped by oversight and rank: each group
    is one thing to claim, its actions the card choices that claim it."""
    groups: dict[tuple, list[Action]] = {}
    for a in deal.free_actions(seat):
        if a.kind == "claim":
            groups.setdefault((a.oversight, a.cards[0] >> 2), []).append(a)
    return list(groups.values())


_DECOY_THEMES = ("took_three", "lay_down_pair", "lay_down_prial", "lay_down_mournival",
                 "mournival_taken", "capture_from_pair", "plain")


class SpotOversight(KindGenerator):
    kind = "spot-oversight"
    not_applicable = "its players cannot claim oversights"

    def applies(self, rs):
        return bool(rs.oversights)

    def decoy_themes(self, rs: Ruleset) -> list[str]:
        themes = ["lay_down_pair", "mournival_taken", "capture_from_pair"]
        if "one_for_three" in rs.captures:
            themes.append("took_three")
        if "laid_down_prial" not in rs.oversights:
            themes.append("lay_down_prial")
        if "laid_down_mournival" not in rs.oversights:
            themes.append("lay_down_mournival")
        return sorted(themes, key=_DECOY_THEMES.index)

    def plan(self, base, rs, players, defn):
        kinds = [k for k in OVERSIGHT_KINDS if k in rs.oversights]
        if base.random() < defn.decoy_rate:
            return {"variant": "decoy", "theme": base.choice(self.decoy_themes(rs))}
        return {"variant": base.choice(kinds)}

    def solve(self, deal, seat, data, rs, players):
        return {"claims": [{"oversight": g[0].oversight, "cards": codes(g[0].cards)}
                           for g in claim_groups(deal, seat)]}

    # -- arranging the pack -------------------------------------------------------------

    def _arranged(self, ctx: Ctx, what: str):
        """A pack, dealer and bots for ``what``: ``table_mournival``, ``table_prial``,
        ``hand_prial``, ``hand_mournival`` or ``natural``.  Returns (pack, dealer, bots, rank,
        seat) where rank/seat say what was arranged."""
        rng, n, pc = ctx.rng, ctx.players, ctx.pc
        pack = ctx.new_pack()
        dealer = rng.randrange(n)
        rank = rng.randrange(13)
        rank_cards = [rank * 4 + s for s in range(4)]
        table_pos = list(range(n * pc.hand, 52))
        seat = None
        if what == "table_mournival":
            _place(pack, rng.sample(table_pos, 4), rank_cards)
            # the dealer misses it, unless the plan wants it taken
            taken = ctx.plan.get("theme") == "mournival_taken"
            bots = ctx.bots(0.2, {dealer: 0.0 if taken else 1.0})
            if taken:
                bots[dealer] = make_bot("willughby")
        elif what == "table_prial":
            seat = rng.randrange(n)
            rng.shuffle(rank_cards)
            _place(pack, rng.sample(table_pos, 3) + [rng.choice(_hand_indices(n, dealer, pc.hand, seat))],
                   rank_cards)
            bots = ctx.bots(0.2, {seat: rng.uniform(0.5, 1.0)})
        elif what in ("hand_prial", "hand_mournival"):
            seat = rng.randrange(n)
            k = 3 if what == "hand_prial" else 4
            rng.shuffle(rank_cards)
            targets = rng.sample(_hand_indices(n, dealer, pc.hand, seat), k)
            if k == 3:   # the fourth card in another player's hand
                other = rng.choice([q for q in range(n) if q != seat])
                targets.append(rng.choice(_hand_indices(n, dealer, pc.hand, other)))
            _place(pack, targets, rank_cards)
            bots = ctx.bots(0.2, {seat: 1.0})
        else:
            bots = ctx.bots(rng.uniform(0.3, 0.7))
        return pack, dealer, bots, rank, seat

    def _check_arrangement(self, deal: Deal, what: str, rank: int, seat: int | None) -> bool:
        """The engine's deal holds the arranged cards where intended."""
        if what == "table_mournival":
            return sum(1 for c in deal.table_cards() if c >> 2 == rank) == 4
        if what == "table_prial":
            return sum(1 for c in deal.table_cards() if c >> 2 == rank) == 3
        if what in ("hand_prial", "hand_mournival"):
            need = 3 if what == "hand_prial" else 4
            return sum(1 for c in deal.hand(seat) if c >> 2 == rank) == need
        return True

    def _play_collect(self, ctx: Ctx, what: str, want: Callable[[Deal, Action, list], Any]):
        pack, dealer, bots, rank, seat = self._arranged(ctx, what)
        deal = Deal(ctx.rs, ctx.players, dealer, pack)
        if not self._check_arrangement(deal, what, rank, seat):
            return []
        found: list = []
        state = {"clear": True}

        def observer(d: Deal, a: Action) -> None:
            if a.kind in ("capture", "lie_down") and state["clear"] and d.phase == "play":
                hit = want(d, a, d.open_oversights())
                if hit is not None:
                    found.append((d.clone(), a, hit))
            state["clear"] = not d.open_oversights()

        play_out(deal, bots, ctx.rng, observer)
        return found

    # -- building -------------------------------------------------------------------------

    def build(self, ctx):
        variant = ctx.plan["variant"]
        if variant == "decoy":
            return self._build_decoy(ctx)
        what = {"overlooked_table_mournival": "table_mournival", "split_prial": "table_prial",
                "laid_down_prial": "hand_prial", "laid_down_mournival": "hand_mournival"
                }.get(variant, "natural")
        # half the split prials come from natural play, for variety
        if what == "table_prial" and ctx.rng.random() < 0.5:
            what = "natural"

        def want(d, a, open_):
            if len(open_) == 1 and open_[0].kind == variant:
                return open_[0]
            return None

        found = self._play_collect(ctx, what, want)
        if not found:
            return None
        deal, action, ov = ctx.rng.choice(found)
        seats = [q for q in range(ctx.players) if q != ov.offender]
        seat = ctx.rng.choice(seats)
        groups = claim_groups(deal, seat)
        if len(groups) != 1:
            return None
        return self._candidate(ctx, deal, seat, variant, action, ov, groups[0])

    def _candidate(self, ctx, deal, seat, variant, action, ov, group) -> Candidate:
        n = ctx.players
        cards = group[0].cards
        rank = cards[0] >> 2
        on_table = [c for c in deal.table_cards() if c >> 2 == rank]
        accepted = []
        for a in group:
            accepted.append("claim " + " ".join(codes(a.cards)))
        accepted.append(" ".join(c.lower() for c in reversed(codes(group[0].cards))))
        accepted.append(f"claim {RANK_PLURALS[rank]}")
        facts = self._facts(ctx, deal, seat, action)
        facts.update({
            "cards": pretty_cards(cards), "rank": RANK_NAMES[rank], "ranks": RANK_PLURALS[rank],
            "on_table": pretty_cards(on_table), "offender": player_name(ov.offender, seat),
            "take": len(cards), "choices": len(group),
        })
        tags: set[str] = set()
        features = {variant: 1.0, "table_cards": len(deal.table_cards())}
        if variant == "split_prial":
            facts["taken"] = pretty_cards(action.table)
            facts["played"] = pretty_cards(action.cards)
            facts["before"] = pretty_cards(sorted(on_table + list(action.table)))
        elif variant == "overlooked_table_mournival":
            facts["dealer"] = player_name(deal.dealer, seat)
        elif variant == "laid_down_dead_pair":
            holders = [q for q in range(n) if any(c >> 2 == rank for c in deal.won_cards(q))]
            facts["twin_holders"] = _join([player_name(q, seat) for q in holders])
            twins = [c for q in holders for c in deal.won_cards(q) if c >> 2 == rank]
            facts["twins"] = pretty_cards(twins)
            if ov.offender in holders:
                tags.add("own_twin")
                features["own_twin"] = 1.0
        elif variant in ("laid_down_prial", "laid_down_mournival"):
            facts["held"] = pretty_cards(on_table)
        themes = ["oversight", variant.replace("_", "-")]
        return Candidate(deal=deal, seat=seat, variant=variant,
                         answer=self.solve(deal, seat, {}, ctx.rs, n), accepted=accepted,
                         facts=facts, features=features, themes=themes, tags=tags)

    def _facts(self, ctx, deal, seat, action) -> dict[str, Any]:
        rs = ctx.rs
        lib = _library()
        names = ctx.defn.word("oversight_names", {})
        claimable = [names.get(k, k) for k in OVERSIGHT_KINDS if k in rs.oversights]
        not_claimable = [names.get(k, k) for k in OVERSIGHT_KINDS if k not in rs.oversights]
        return {
            "actor": player_name(action.player, seat), "action": _describe(action, seat, ctx.players),
            "ruleset": lib.rulesets[rs.id].title, "claimable": _join(claimable),
            "not_claimable": _join(not_claimable, "or") or "nothing else",
        }

    def _build_decoy(self, ctx):
        theme = ctx.plan["theme"]
        what = {"lay_down_prial": "hand_prial", "lay_down_mournival": "hand_mournival",
                "mournival_taken": "table_mournival"}.get(theme, "natural")
        rs = ctx.rs

        def tag_of(d: Deal, a: Action) -> list[str]:
            tags = []
            if a.kind == "capture":
                if len(a.table) == 3:
                    tags.append("took_three")
                rank = a.table[0] >> 2
                if len(a.table) == 1 and len(a.cards) == 1 and \
                        sum(1 for c in d.table_cards() if c >> 2 == rank) == 1:
                    tags.append("capture_from_pair")
                if len(d.history) and all(x.kind not in ("capture", "lie_down")
                                          for x in d.history[:-1]) and \
                        any(x.kind == "take_table_mournival" for x in d.history):
                    tags.append("mournival_taken")
            elif a.kind == "lie_down":
                held = _counts_by_rank(a.cards).values()
                if 2 in held:
                    tags.append("lay_down_pair")
                if 3 in held:
                    tags.append("lay_down_prial")
                if 4 in held:
                    tags.append("lay_down_mournival")
                if len(d.history) and all(x.kind not in ("capture", "lie_down")
                                          for x in d.history[:-1]) and \
                        any(x.kind == "take_table_mournival" for x in d.history):
                    tags.append("mournival_taken")
            return tags or ["plain"]

        def want(d, a, open_):
            return None if open_ else tag_of(d, a)

        found = self._play_collect(ctx, what, want)
        if not found:
            return None
        allowed = set(self.decoy_themes(rs)) | {"plain"}
        pick = [f for f in found if theme in f[2]]
        if not pick:
            # fall back to another tempting decoy, in a fixed order, then to any
            for t in _DECOY_THEMES:
                pick = [f for f in found if t in f[2] and t in allowed]
                if pick:
                    theme = t
                    break
        deal, action, tags = ctx.rng.choice(pick)
        seat = ctx.rng.choice([q for q in range(ctx.players) if q != action.player])
        if claim_groups(deal, seat) or deal.open_oversights():
            return None
        facts = self._facts(ctx, deal, seat, action)
        rank = (action.table or action.cards)[0] >> 2
        if theme.startswith("lay_down"):
            k = {"lay_down_pair": 2, "lay_down_prial": 3, "lay_down_mournival": 4}[theme]
            rank = next(r for r, m in sorted(_counts_by_rank(action.cards).items()) if m == k)
            where = self._pair_whereabouts(deal, seat, rank, action.cards)
            facts["whereabouts"] = where
        if theme == "mournival_taken":
            took = next(x for x in deal.history if x.kind == "take_table_mournival")
            rank = took.cards[0] >> 2
            facts["mournival"] = pretty_cards(took.cards)
            facts["dealer"] = player_name(deal.dealer, seat)
        facts.update({"rank": RANK_NAMES[rank], "ranks": RANK_PLURALS[rank]})
        features = {"decoy": 1.0, f"decoy_{theme}": 1.0, "table_cards": len(deal.table_cards())}
        return Candidate(deal=deal, seat=seat, variant="decoy",
                         answer=self.solve(deal, seat, {}, rs, ctx.players),
                         accepted=["nothing", "none", "no"], facts=facts, features=features,
                         themes=["oversight", "decoy", theme.replace("_", "-")],
                         data={"theme": theme}, explain_key=f"decoy_{theme}")

    @staticmethod
    def _pair_whereabouts(deal: Deal, seat: int, rank: int, laid) -> str:
        """Where the other cards of ``rank`` are, as the learner can see (or not)."""
        laid_r = [c for c in laid if c >> 2 == rank]
        won = [c for q in range(deal.players) for c in deal.won_cards(q) if c >> 2 == rank]
        table_other = [c for c in deal.table_cards() if c >> 2 == rank and c not in laid_r]
        parts = []
        if won:
            parts.append(f"{pretty_cards(won)} won")
        if table_other:
            parts.append(f"{pretty_cards(table_other)} already on the table")
        unseen = deal.unseen(seat, rank)
        if unseen:
            parts.append(f"{unseen} unseen")
        mine = [c for c in deal.hand(seat) if c >> 2 == rank]
        if mine:
            parts.append(f"{pretty_cards(mine)} in your hand")
        return _join(parts) or "none elsewhere"


# --------------------------------------------------------------------------------------------
# capture-now


class CaptureNow(KindGenerator):
    kind = "capture-now"

    def applies(self, rs):
        # without one-for-one captures no lone table card is ever at risk (RULES.md 8)
        return "one_for_one" in rs.captures

    def plan(self, base, rs, players, defn):
        return {"variant": "default", "prefer": base.choice(["counting", "hold-back", "any", "any"])}

    def solve(self, deal, seat, data, rs, players):
        opts = deal.capture_options(seat)
        return {"at_risk": [rank_code(o.rank) for o in opts if o.at_risk],
                "safe": [rank_code(o.rank) for o in opts if not o.at_risk]}

    @staticmethod
    def option_theme(o) -> str:
        if o.at_risk:
            return "at-risk"
        if o.table >= 2:
            return "hold-back"
        if o.unseen == 0:
            return "counting"
        return "endgame"

    def build(self, ctx):
        found = []

        def observer(d: Deal, a: Action) -> None:
            p = d.to_move
            if d.phase != "play" or p is None or a.kind in ("claim",):
                return
            opts = d.capture_options(p)
            if len(opts) >= 2 and sum(o.at_risk for o in opts) == 1:
                found.append(d.clone())

        rng = ctx.rng
        ctx.play(ctx.new_pack(), rng.randrange(ctx.players), ctx.bots(0.1), observer)
        if not found:
            return None
        prefer = ctx.plan["prefer"]
        themed = [d for d in found
                  if any(self.option_theme(o) == prefer for o in d.capture_options(d.to_move))]
        deal = rng.choice(themed or found)
        seat = deal.to_move
        opts = deal.capture_options(seat)
        risky = next(o for o in opts if o.at_risk)
        caps = [a for a in deal.legal_actions()
                if a.kind == "capture" and a.cards[0] >> 2 == risky.rank]
        accepted = [" ".join(codes(a.cards) + codes(a.table)) for a in caps]
        accepted.append(RANK_PLURALS[risky.rank])
        accepted.append(rank_code(risky.rank))
        lines = []
        for o in opts:
            verdict = "take it now" if o.at_risk else "can wait"
            lines.append(f"- {RANK_PLURALS[o.rank].capitalize()} ({o.table} on the table, "
                         f"{o.hand} in your hand, {o.unseen} unseen): {verdict}: {o.reason}.")
        themes_found = sorted({self.option_theme(o) for o in opts})
        safe = [o for o in opts if not o.at_risk]
        facts = {
            "rank": RANK_NAMES[risky.rank], "ranks": RANK_PLURALS[risky.rank],
            "capture": pretty_cards(caps[0].cards) + " takes " + pretty_cards(caps[0].table),
            "reason": risky.reason, "unseen": risky.unseen,
            "counting": "\n".join(lines),
            "safe_ranks": _join([RANK_PLURALS[o.rank] for o in safe]),
            "options": len(opts),
        }
        features = {"options": len(opts), "table_cards": len(deal.table_cards()),
                    "counting": float(any(self.option_theme(o) == "counting" for o in safe)),
                    "endgame": float(any(self.option_theme(o) == "endgame" for o in safe))}
        tags = set(themes_found)
        if any(o.table == 3 for o in opts):
            tags.add("table_prial")
        return Candidate(deal=deal, seat=seat, variant="default",
                         answer=self.solve(deal, seat, {}, ctx.rs, ctx.players),
                         accepted=accepted, facts=facts, features=features,
                         themes=["capture", "counting-risk"] + themes_found, tags=tags)


# --------------------------------------------------------------------------------------------
# settlement


class Settlement(KindGenerator):
    kind = "settlement"

    def plan(self, base, rs, players, defn):
        share = float(defn.options.get("all_share", 0.5))
        return {"variant": "all" if base.random() < share else "you"}

    def solve(self, deal, seat, data, rs, players):
        r = deal.result
        if r is None:
            raise LaughError("settlement puzzle position is not a finished deal")
        key = "net" if r.net is not None else "points"
        return {key: list(r.returns()), "asked": list(data["asked"])}

    def build(self, ctx):
        rng = ctx.rng
        n = ctx.players
        deal = ctx.play(ctx.new_pack(), rng.randrange(n), ctx.bots(rng.uniform(0.0, 0.4)))
        seat = rng.randrange(n)
        variant = ctx.plan["variant"]
        asked = list(range(n)) if variant == "all" else [seat]
        r = deal.result
        pc = ctx.pc
        stakes = r.net is not None
        values = r.returns()
        pre = replay(to_record(deal, with_result=False), upto=len(deal.history) - 1)
        aside = pre.set_aside()
        aside_to = next((q for q in range(n) if aside and set(aside) <= set(r.won[q])), None)
        lines = []
        for q in range(n):
            won = len(r.won[q])
            extra = []
            if r.leftovers_to == q and r.leftovers:
                extra.append(f"{len(r.leftovers)} leftovers")
            if aside_to == q:
                extra.append("the set-aside mournival")
            got = f"{won} cards" + (f" (with {_join(extra)})" if extra else "")
            who = player_name(q, seat) + (" (dealer)" if q == deal.dealer else "")
            bonus = (pc.last_in_bonus or 0) if q == r.bonus_to else 0
            if stakes:
                ante = pc.ante(q, deal.dealer)
                cards_part = values[q] + ante - bonus      # the engine's settlement, taken apart
                parts = f"against a breakeven of {pc.breakeven}: {_signed(cards_part)}; ante −{ante}"
                if bonus:
                    parts += f"; bonus +{bonus}"
                lines.append(f"- {who}: {got} {parts}: {_signed(values[q])}")
            else:
                parts = f"{won} ÷ 2 = {values[q] - bonus}" + (f", bonus +{bonus}" if bonus else "")
                lines.append(f"- {who}: {got}: {parts}: {values[q]} points")
        fmt = (lambda v: f"{v:+d}" if v else "0") if stakes else str
        canonical = " ".join(fmt(values[q]) for q in asked)
        accepted = [canonical, " ".join(str(values[q]) for q in asked)]
        if len(asked) > 1:
            accepted.append(", ".join(f"{q}: {fmt(values[q])}" for q in asked))
        last_cap = next((a.player for a in reversed(deal.history)
                         if a.kind in ("capture", "play_on_capture")), None)
        lib = _library()
        facts = {
            "you": player_name(seat), "breakdown": "\n".join(lines),
            "last_in": player_name(r.last_in, seat) if r.last_in is not None else "nobody",
            "bonus_to": player_name(r.bonus_to, seat) if r.bonus_to is not None else "nobody",
            "bonus": pc.last_in_bonus if pc.last_in_bonus is not None else 0,
            "leftovers": pretty_cards(r.leftovers) or "none",
            "leftovers_to": (player_name(r.leftovers_to, seat) if r.leftovers_to is not None
                             else "nobody (they are discarded)"),
            "last_capture": player_name(last_cap, seat) if last_cap is not None else "nobody",
            "ruleset": lib.rulesets[ctx.rs.id].title,
            "breakeven": pc.breakeven if pc.breakeven is not None else 0,
            "pot": pc.pot if pc.pot is not None else 0,
            "units": "stakes" if stakes else "points",
            "seat_order": ", ".join(player_name(q) for q in asked),
        }
        tags = {"stakes" if stakes else "pairs"}
        if r.bonus_to is not None:
            tags.add("bonus")
        if r.leftovers:
            tags.add("leftovers")
        if aside:
            tags.add("set_aside")
        if n == 4:
            tags.add("four_players")
        features = {"all": float(variant == "all"), "leftovers": float(bool(r.leftovers)),
                    "players": float(n),
                    "set_aside": float(bool(aside)),
                    "bonus_differs": float(r.bonus_to is not None and r.bonus_to != r.last_in),
                    "pairs": float(not stakes)}
        data = {"asked": asked, "aside": codes(aside), "aside_to": aside_to,
                "last_capture": last_cap}
        themes = ["settlement", "stakes" if stakes else "pairs-scoring"]
        if r.leftovers:
            themes.append("leftovers")
        if r.bonus_to is not None:
            themes.append("bonus")
        quotes = []
        for name in ("scoring", "leftovers_to", "bonus_to"):
            qs = lib.parameter(ctx.rs.id, name).quotes
            if qs:
                quotes.append(qs[0])
        return Candidate(deal=deal, seat=seat, variant=variant,
                         answer=self.solve(deal, seat, data, ctx.rs, n), accepted=accepted,
                         facts=facts, features=features, themes=themes, data=data, tags=tags,
                         quotes=quotes,
                         question_key=f"{variant}_{'stakes' if stakes else 'pairs'}")


# --------------------------------------------------------------------------------------------
# legal-play


def play_choices(deal: Deal, seat: int) -> list[Action]:
    """What ``seat`` may do now (engine): its turn actions if it is to move, and the
    declarations it may make (under ``hand_plays: free`` free actions), never claims."""
    acts: list[Action] = []
    if deal.to_move == seat and deal.phase == "play":
        acts.extend(deal.legal_actions())
    acts.extend(a for a in deal.free_actions(seat) if a.kind.startswith("declare"))
    seen = set()
    out = []
    for a in acts:
        if a not in seen:
            seen.add(a)
            out.append(a)
    return out


def choice_key(a: Action) -> tuple:
    """The group of a choice: kind, rank and form (so any 7 taking a lone 7 is one choice)."""
    if a.kind == "lie_down":
        return ("lie_down",)
    return (a.kind, a.cards[0] >> 2, len(a.cards), len(a.table))


def choice_groups(deal: Deal, seat: int) -> list[list[Action]]:
    """:func:`play_choices` grouped by :func:`choice_key`, in engine order."""
    groups: dict[tuple, list[Action]] = {}
    for a in play_choices(deal, seat):
        groups.setdefault(choice_key(a), []).append(a)
    return list(groups.values())


def choice_text(a: Action) -> str:
    """A choice as a learner types it: ``7H 7S`` (hand card first), ``QC QD``, ``lie down``."""
    if a.kind == "lie_down":
        return "lie down"
    return " ".join(codes(a.cards) + codes(a.table))


_FORMS = {(1, 1): "one_for_one", (1, 3): "one_for_three", (2, 2): "pair_for_pair",
          (3, 1): "prial_for_one"}


def choice_words(a: Action, words: dict[str, str]) -> str:
    """A choice in words for the explanation."""
    if a.kind == "lie_down":
        return words.get("lie_down", "lie down")
    if a.kind == "capture":
        form = _FORMS.get((len(a.cards), len(a.table)), "")
        return (f"{pretty_cards(a.cards)} takes {pretty_cards(a.table)} "
                f"({words.get(form, form.replace('_', ' '))})")
    return f"{words.get(a.kind, a.kind.replace('_', ' '))}: {pretty_cards(a.cards)}"


class LegalPlay(KindGenerator):
    kind = "legal-play"

    def themes_for(self, rs: Ruleset) -> list[str]:
        out = ["lie_down", "declaration", "several"]
        for form in ("one_for_three", "pair_for_pair", "prial_for_one"):
            out.append(form if form in rs.captures else f"no_{form}")
        return out

    def plan(self, base, rs, players, defn):
        return {"variant": "default", "theme": base.choice(self.themes_for(rs))}

    def solve(self, deal, seat, data, rs, players):
        return {"actions": [action_to_json(a) for a in play_choices(deal, seat)]}

    @staticmethod
    def probes(deal: Deal, seat: int) -> list[Action]:
        """Captures a learner might try with the cards in hand and on the table: every shape of
        RULES.md 3.2 (and one taking two) for each rank in both."""
        hand = _by_rank(deal.hand(seat))
        table = _by_rank(deal.table_cards())
        out = []
        for r in sorted(set(hand) & set(table)):
            h, t = hand[r], table[r]
            for nh, nt in ((1, 1), (1, 2), (1, 3), (2, 2), (3, 1)):
                if len(h) >= nh and len(t) >= nt and (nt != 3 or len(t) == 3):
                    out.append(Action.make(seat, "capture", h[:nh], t[:nt]))
        return out

    def features_of(self, deal: Deal, seat: int, groups) -> set[str]:
        feats = set()
        acts = [g[0] for g in groups]
        if any(a.kind == "lie_down" for a in acts):
            feats.add("lie_down")
        if any(a.kind.startswith("declare") for a in acts):
            feats.add("declaration")
        for a in acts:
            if a.kind == "capture":
                form = _FORMS[(len(a.cards), len(a.table))]
                feats.add(form)
        for p in self.probes(deal, seat):
            form = _FORMS.get((len(p.cards), len(p.table)))
            if form and deal.why_illegal(p) is not None and form not in feats:
                feats.add(f"no_{form}")
        if len(groups) >= 3:
            feats.add("several")
        return feats

    def build(self, ctx):
        rng = ctx.rng
        max_groups = int(ctx.defn.options.get("max_choices", 5))
        found = []

        def observer(d: Deal, a: Action) -> None:
            p = d.to_move
            if d.phase != "play" or p is None:
                return
            if p == d.dealer and not d.started and d.table_mournivals:
                return
            groups = choice_groups(d, p)
            if 1 <= len(groups) <= max_groups:
                found.append((d.clone(), groups))

        ctx.play(ctx.new_pack(), rng.randrange(ctx.players), ctx.bots(rng.uniform(0.2, 0.6)),
                 observer)
        if not found:
            return None
        theme = ctx.plan["theme"]
        pick = [(d, g) for d, g in found if theme in self.features_of(d, d.to_move, g)]
        if not pick:
            pick = [(d, g) for d, g in found if len(g) >= 2]
            theme = "several"
        if not pick:
            return None
        deal, groups = rng.choice(pick)
        seat = deal.to_move
        feats = self.features_of(deal, seat, groups)
        words = ctx.defn.word("forms", {})
        reps = [g[0] for g in groups]
        canonical = ", ".join(choice_text(a) for a in reps)
        accepted = [canonical]
        if len(reps) > 1:
            accepted.append(", ".join(choice_text(a) for a in reversed(reps)))
        alt = [g[-1] for g in groups]
        if alt != reps:
            accepted.append("; ".join(choice_text(a) for a in alt))
        lines = []
        for g in groups:
            a = g[0]
            more = f" (or any of {len(g)} such)" if len(g) > 1 else ""
            lines.append(f"- {choice_words(a, words)}{more}")
        refused = []
        for p in self.probes(deal, seat):
            why = deal.why_illegal(p)
            if why is not None:
                refused.append(f"- {pretty_cards(p.cards)} for {pretty_cards(p.table)}: {why}.")
        if not any(a.kind == "lie_down" for a in reps) and deal.to_move == seat:
            why = deal.why_illegal(Action.make(seat, "lie_down", deal.hand(seat)))
            if why:
                refused.append(f"- lie down: {why}.")
        facts = {
            "choices": "\n".join(lines), "count": len(groups),
            "refused": "\n".join(refused) if refused else "- nothing else in your hand "
                                                          "matches the table.",
            "hand_plays": ctx.defn.word("hand_plays", {}).get(ctx.rs.hand_plays, ""),
            "captures": _join([words.get(f, f) for f in ("one_for_one", "one_for_three",
                                                           "pair_for_pair", "prial_for_one")
                               if f in ctx.rs.captures]),
        }
        features = {"choices": len(groups),
                    "forbidden": float(any(f.startswith("no_") for f in feats)),
                    "declaration": float("declaration" in feats),
                    "rare_form": float(bool(feats & {"pair_for_pair", "prial_for_one",
                                                      "one_for_three"}))}
        tags = set(feats)
        return Candidate(deal=deal, seat=seat, variant="default",
                         answer=self.solve(deal, seat, {}, ctx.rs, ctx.players),
                         accepted=accepted, facts=facts, features=features,
                         themes=["legal-play"] + sorted(f.replace("_", "-") for f in feats),
                         tags=tags, data={"theme": theme})


def _by_rank(cards) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for c in sorted(cards):
        out.setdefault(c >> 2, []).append(c)
    return out


# --------------------------------------------------------------------------------------------
# dead-pair


def declarable_dead_pairs(deal: Deal, seat: int) -> list[int]:
    """Ranks of the pairs ``seat`` may declare as dead now: a ``declare_dead_pair`` among its
    free actions, or among its turn actions when it is to move (engine)."""
    acts = list(deal.free_actions(seat))
    if deal.to_move == seat and deal.phase == "play":
        acts += deal.legal_actions()
    return sorted({a.cards[0] >> 2 for a in acts if a.kind == "declare_dead_pair"})


def pairs_held(deal: Deal, seat: int) -> list[int]:
    """Ranks of which ``seat`` holds exactly two cards."""
    return sorted(r for r, k in _counts_by_rank(deal.hand(seat)).items() if k == 2)


class DeadPair(KindGenerator):
    kind = "dead-pair"

    def plan(self, base, rs, players, defn):
        return {"variant": "live" if base.random() < defn.decoy_rate else "dead"}

    def solve(self, deal, seat, data, rs, players):
        return {"dead_pairs": [rank_code(r) for r in declarable_dead_pairs(deal, seat)]}

    def build(self, ctx):
        rng = ctx.rng
        variant = ctx.plan["variant"]
        found = []

        def observer(d: Deal, a: Action) -> None:
            if d.phase != "play":
                return
            for q in range(d.players):
                if d.is_out(q) or q == a.player and a.kind == "declare_dead_pair":
                    continue
                pairs = pairs_held(d, q)
                if not pairs or len(pairs) > 3:
                    continue
                dead = declarable_dead_pairs(d, q)
                if bool(dead) == (variant == "dead"):
                    found.append((d.clone(), q))

        ctx.play(ctx.new_pack(), rng.randrange(ctx.players), ctx.bots(rng.uniform(0.3, 0.7)),
                 observer)
        if not found:
            return None
        if variant == "live":
            # prefer tempting pairs: the other two visible on the table or won, or not your turn
            def tempting(item):
                d, q = item
                for r in pairs_held(d, q):
                    if d.unseen(q, r) < 2:
                        return True
                return bool(d.dead_pairs(q))
            pick = [f for f in found if tempting(f)]
            found = pick or found
        deal, seat = rng.choice(found)
        pairs = pairs_held(deal, seat)
        dead = declarable_dead_pairs(deal, seat)
        lines = []
        tags = set()
        n = ctx.players
        for r in pairs:
            mine = [c for c in deal.hand(seat) if c >> 2 == r]
            holders = [q for q in range(n) if any(c >> 2 == r for c in deal.won_cards(q))]
            act = Action.make(seat, "declare_dead_pair", mine)
            why = deal.why_illegal(act)
            if why is None:
                where = _join([player_name(q, seat) for q in holders])
                lines.append(f"- {pretty_cards(mine)}: the other two {RANK_PLURALS[r]} are won "
                             f"(by {where}), so this pair can never be captured: declare it.")
                if seat in holders:
                    tags.add("own_twin")
            else:
                on_t = sum(1 for c in deal.table_cards() if c >> 2 == r)
                won = sum(1 for q in holders for c in deal.won_cards(q) if c >> 2 == r)
                lines.append(f"- {pretty_cards(mine)}: not now: {why}. (Of the other two: "
                             f"{won} won, {on_t} on the table, {deal.unseen(seat, r)} unseen.)")
                if deal.dead_pairs(seat) and r in deal.dead_pairs(seat):
                    tags.add("not_your_turn")
        if dead:
            accepted = [" ".join(codes(c for c in deal.hand(seat) if c >> 2 in dead))]
            accepted.append(", ".join(RANK_PLURALS[r] for r in dead))
            accepted.append("declare " + " ".join(rank_code(r) for r in dead))
            if len(pairs) == 1:
                accepted.append("yes")
        else:
            accepted = ["no", "none", "nothing"]
        held = [pretty_cards(c for c in deal.hand(seat) if c >> 2 == r) for r in pairs]
        facts = {"pairs": _join(held), "reasons": "\n".join(lines),
                 "hand_plays": ctx.defn.word("hand_plays", {}).get(ctx.rs.hand_plays, ""),
                 "npairs": len(pairs)}
        tempting = any(deal.unseen(seat, r) < 2 and r not in dead for r in pairs)
        features = {"pairs": len(pairs), "live": float(not dead), "tempting": float(tempting),
                    "won_cards": float(sum(len(deal.won_cards(q)) for q in range(n))),
                    "not_your_turn": float("not_your_turn" in tags),
                    "own_twin": float("own_twin" in tags)}
        themes = ["dead-pair", "declaration"] + (["decoy"] if not dead else [])
        return Candidate(deal=deal, seat=seat, variant=variant,
                         answer=self.solve(deal, seat, {}, ctx.rs, n), accepted=accepted,
                         facts=facts, features=features, themes=themes, tags=tags,
                         data={"pairs": [rank_code(r) for r in pairs]},
                         question_key="one" if len(pairs) == 1 else "several")


# --------------------------------------------------------------------------------------------
# count


class Count(KindGenerator):
    kind = "count"

    def plan(self, base, rs, players, defn):
        return {"variant": "default", "ranks": base.choice(defn.options.get("ranks", [1, 2, 3]))}

    def solve(self, deal, seat, data, rs, players):
        from tutor.engine.cards import parse_rank
        return {"unseen": {r: deal.unseen(seat, parse_rank(r)) for r in data["ranks"]}}

    def build(self, ctx):
        rng = ctx.rng
        found = []

        def observer(d: Deal, a: Action) -> None:
            if d.phase == "play" and len(d.history) >= 4:
                found.append(d.clone())

        ctx.play(ctx.new_pack(), rng.randrange(ctx.players), ctx.bots(0.2), observer)
        if not found:
            return None
        deal = rng.choice(found)
        n = ctx.players
        seat = rng.choice([q for q in range(n) if not deal.is_out(q)] or list(range(n)))
        view = deal.view(seat)
        # ranks with something to count: some cards seen, not all
        interesting = [r for r in range(13) if 0 < view.unseen[r] < 4 or
                       (view.unseen[r] == 0 and any(c >> 2 == r for c in view.table))]
        k = ctx.plan["ranks"]
        if len(interesting) < k:
            return None
        ranks = sorted(rng.sample(interesting, k))
        lines = []
        for r in ranks:
            t = sum(1 for c in view.table if c >> 2 == r)
            w = sum(1 for pile in view.won for c in pile if c >> 2 == r)
            s = sum(1 for c in view.set_aside if c >> 2 == r)
            h = sum(1 for c in view.hand if c >> 2 == r)
            u = deal.unseen(seat, r)
            if 4 - t - w - s - h != u:
                return None     # the explanation's sum must agree with the engine
            aside = f" − {s} set aside" if s else ""
            lines.append(f"- {RANK_PLURALS[r].capitalize()}: 4 − {t} on the table − {w} won"
                         f"{aside} − {h} in your hand = {u} unseen.")
        holders = [q for q in range(n) if q != seat and view.hand_sizes[q]]
        if any(deal.unseen(seat, r) for r in ranks):
            if len(holders) == 1:
                where = (f"They can only be in {player_name(holders[0])}'s hand: every other "
                         "player is out.")
            else:
                where = ("They can only be in the hands of the players still holding cards: "
                         f"{_join([player_name(q) for q in holders])}.")
        else:
            where = "Every card of them is in sight: none is hidden in anyone's hand."
        answer_ranks = [rank_code(r) for r in ranks]
        values = [deal.unseen(seat, r) for r in ranks]
        accepted = [" ".join(map(str, values)),
                    ", ".join(f"{rc}: {v}" for rc, v in zip(answer_ranks, values))]
        facts = {"ranks": _join([RANK_PLURALS[r] for r in ranks]), "counting": "\n".join(lines),
                 "where": where, "k": k}
        features = {"ranks": k, "won_cards": float(sum(len(p) for p in view.won)),
                    "laid_down": float(any(a.kind == "lie_down" for a in deal.history)),
                    "one_holder": float(len(holders) == 1)}
        return Candidate(deal=deal, seat=seat, variant="default",
                         answer=self.solve(deal, seat, {"ranks": answer_ranks}, ctx.rs, n),
                         accepted=accepted, facts=facts, features=features,
                         themes=["counting", "unseen"], data={"ranks": answer_ranks,
                                                              "holders": holders},
                         question_key="one" if k == 1 else "several")


# --------------------------------------------------------------------------------------------
# deal-setup

SETUP_FIELDS = ("hand", "table", "ante", "bonus", "breakeven")
_SETUP_PARAMS = {"hand": ("hand",), "table": ("table",), "ante": ("ante_dealer", "ante_other"),
                 "bonus": ("last_in_bonus",), "breakeven": ("breakeven",)}


def setup_answer(rs: Ruleset, players: int) -> dict[str, Any]:
    """The deal-setup facts of a ruleset and player count (ruleset parameters)."""
    pc = rs.count(players)
    return {"hand": pc.hand, "table": pc.table,
            "ante": {"dealer": pc.ante_dealer, "other": pc.ante_other},
            "bonus": pc.last_in_bonus, "breakeven": pc.breakeven}


class DealSetup(KindGenerator):
    kind = "deal-setup"

    def plan(self, base, rs, players, defn):
        choices = list(defn.options.get("fields", list(SETUP_FIELDS) + ["all"]))
        return {"variant": base.choice(choices)}

    def solve(self, deal, seat, data, rs, players):
        return {**setup_answer(rs, players), "asked": list(data["asked"])}

    def build(self, ctx):
        rng = ctx.rng
        n = ctx.players
        dealer = rng.randrange(n)
        deal = Deal(ctx.rs, n, dealer, ctx.new_pack())
        variant = ctx.plan["variant"]
        asked = list(SETUP_FIELDS) if variant == "all" else [variant]
        ans = setup_answer(ctx.rs, n)
        lib = _library()

        def text(f):
            if f == "ante":
                a = ans["ante"]
                return "none" if a["dealer"] is None else f"{a['dealer']}/{a['other']}"
            v = ans[f]
            return "none" if v is None else str(v)

        canonical = " ".join(text(f) for f in asked)
        accepted = [canonical]
        if len(asked) > 1:
            accepted.append(", ".join(f"{f} {text(f)}" for f in asked))
        elif asked == ["ante"] and ans["ante"]["dealer"] is not None:
            accepted.append(f"{ans['ante']['dealer']} {ans['ante']['other']}")
        quotes: list[str] = []
        lines = []
        statuses = []
        labels = ctx.defn.word("fields", {})
        for f in asked:
            for name in _SETUP_PARAMS[f]:
                p = lib.parameter(ctx.rs.id, name, n)
                statuses.append(p.status)
                for q in p.quotes[:2]:
                    if q not in quotes:
                        quotes.append(q)
                note = f" ({p.status}: {p.note.strip()})" if p.status != "stated" and p.note else ""
                lines.append(f"- {labels.get(name, name)}: "
                             f"{'none' if p.value is None else p.value}{note}")
        tags = set(asked) | {"stakes" if ans["breakeven"] is not None else "pairs"}
        features = {"fields": len(asked), "not_five": float(n != 5),
                    "not_stated": float(any(s != "stated" for s in statuses)),
                    "ante": float("ante" in asked), "breakeven": float("breakeven" in asked),
                    "pairs": float(ans["breakeven"] is None)}
        facts = {"ruleset": lib.rulesets[ctx.rs.id].title, "players": n,
                 "facts": "\n".join(lines), "field": labels.get(variant, variant)}
        scoring = "stakes" if ans["breakeven"] is not None else "pairs"
        return Candidate(deal=deal, seat=deal.dealer, variant=variant,
                         answer=self.solve(deal, deal.dealer, {"asked": asked}, ctx.rs, n),
                         accepted=accepted, facts=facts, features=features,
                         themes=["deal-setup", scoring] + asked, tags=tags,
                         data={"asked": asked, "position": False}, quotes=quotes,
                         question_key=f"{variant}_{scoring}" if f"{variant}_{scoring}"
                         in ctx.defn.questions else variant)


# --------------------------------------------------------------------------------------------
# source-quiz


_WORDS_CACHE: dict[str, frozenset[str]] = {}


def _words(text: str) -> frozenset[str]:
    got = _WORDS_CACHE.get(text)
    if got is None:
        got = frozenset(w for w in "".join(ch.lower() if ch.isalnum() else " "
                                           for ch in text).split() if len(w) > 2)
        _WORDS_CACHE[text] = got
    return got


def _similar(a: str, b: str) -> bool:
    wa, wb = _words(a), _words(b)
    if not wa or not wb:
        return False
    return len(wa & wb) / min(len(wa), len(wb)) >= 0.6


LETTERS = "ABCDEF"


class SourceQuiz(KindGenerator):
    kind = "source-quiz"

    def plan(self, base, rs, players, defn):
        share = float(defn.options.get("which_share", 0.7))
        return {"variant": "which" if base.random() < share else "disagree"}

    def solve(self, deal, seat, data, rs, players):
        lib = _library()
        if data["variant"] == "which":
            q = lib.quotation(data["quote"])
            return {"source": q.source, "options": list(data["options"])}
        p1 = lib.parameter(data["rulesets"][0], data["parameter"], data.get("players"))
        p2 = lib.parameter(data["rulesets"][1], data["parameter"], data.get("players"))
        if p1.value == p2.value:
            raise LaughError("source-quiz: the two rulesets agree on the asked parameter")
        return {"parameter": data["parameter"],
                "values": {data["rulesets"][0]: _jsonable(p1.value),
                           data["rulesets"][1]: _jsonable(p2.value)},
                "options": list(data["options"])}

    def _short(self, src) -> str:
        who = src.author or src.title
        return f"{who}, {src.title}" + (f" ({src.date})" if src.date else "") \
            if src.author else f"{src.title}" + (f", {src.in_}" if src.in_ else "") + \
            (f", {src.published}" if src.published else "")

    def build(self, ctx):
        if ctx.plan["variant"] == "which":
            return self._which(ctx)
        return self._disagree(ctx)

    def _which(self, ctx):
        rng = ctx.rng
        lib = _library()
        sources = [s for s in lib.sources.values() if s.kind != "primary"]
        pool = [(s, q) for s in sources for q in s.quotations.values()
                if q.speaker is None and len(_words(q.text)) >= 5]
        src, quote = rng.choice(pool)
        # sources that say something alike cannot be distractors
        alike = {s.id for s in sources for q in s.quotations.values()
                 if s.id != src.id and _similar(q.text, quote.text)}
        others = [s.id for s in sources if s.id != src.id and s.id not in alike]
        k = int(rng.choice(ctx.defn.options.get("choices", [3, 4])))
        if len(others) < k - 1:
            return None
        home = lib.ruleset_source.get(ctx.rs.id)
        picked = rng.sample(others, k - 1)
        if home and home != src.id and home not in picked and home not in alike:
            picked[0] = home
        options = [src.id] + picked
        rng.shuffle(options)
        letter = LETTERS[options.index(src.id)]
        opts_text = "\n".join(f"{LETTERS[i]}) {self._short(lib.sources[o])}"
                              for i, o in enumerate(options))
        data = {"variant": "which", "quote": quote.ref, "options": options, "position": False}
        facts = {"quote": quote.text, "options": opts_text, "letter": letter,
                 "source": self._short(src), "where": quote.where,
                 "alike": _join(sorted(alike)) or "none"}
        accepted = [letter, src.id, letter.lower()]
        if src.author:
            accepted.append(src.author.split()[-1])
        deal = Deal(ctx.rs, ctx.players, rng.randrange(ctx.players), ctx.new_pack())
        features = {"choices": k, "alike": float(bool(alike)),
                    "rules_sheet": float(src.kind == "rules-sheet"),
                    "short": float(len(_words(quote.text)) < 10)}
        return Candidate(deal=deal, seat=deal.dealer, variant="which",
                         answer=self.solve(deal, 0, data, ctx.rs, ctx.players),
                         accepted=accepted, facts=facts, features=features,
                         themes=["sources", "which-source"], data=data, quotes=[quote.ref])

    def _disagree(self, ctx):
        rng = ctx.rng
        lib = _library()
        r1 = ctx.rs.id
        src1 = lib.ruleset_source[r1]
        others = [r for r in lib.rulesets if lib.ruleset_source[r] != src1]
        if not others:
            return None
        r2 = rng.choice(others)
        n = ctx.players if ctx.players in lib.rulesets[r2].counts else None
        names = list(RULESET_PARAMETERS) + ([p for p in COUNT_PARAMETERS] if n else [])
        diff, same = [], []
        for name in names:
            pl = n if name in COUNT_PARAMETERS else None
            p1, p2 = lib.parameter(r1, name, pl), lib.parameter(r2, name, pl)
            if p1.implicit and p2.implicit:
                continue        # neither source file says anything about it
            (diff if p1.value != p2.value else same).append(name)
        if not diff or len(same) < 2:
            return None
        answer = rng.choice(diff)
        k = min(int(rng.choice(ctx.defn.options.get("choices", [3, 4]))), len(same) + 1)
        options = [answer] + rng.sample(same, k - 1)
        rng.shuffle(options)
        labels = ctx.defn.word("parameters", {})
        opts_text = "\n".join(f"{LETTERS[i]}) {labels.get(o, o.replace('_', ' '))}"
                              for i, o in enumerate(options))
        pl = n if answer in COUNT_PARAMETERS else None
        p1, p2 = lib.parameter(r1, answer, pl), lib.parameter(r2, answer, pl)
        quotes = [q for q in (p1.quotes[:1] + p2.quotes[:1])]
        letter = LETTERS[options.index(answer)]
        data = {"variant": "disagree", "rulesets": [r1, r2], "parameter": answer,
                "players": pl, "options": options, "position": False}
        facts = {"r1": lib.rulesets[r1].title, "r2": lib.rulesets[r2].title,
                 "options": opts_text, "letter": letter,
                 "parameter": labels.get(answer, answer.replace("_", " ")),
                 "v1": _show(p1.value), "v2": _show(p2.value),
                 "s1": p1.status, "s2": p2.status,
                 "players": f" for {n} players" if pl else ""}
        accepted = [letter, answer, letter.lower()]
        deal = Deal(ctx.rs, ctx.players, rng.randrange(ctx.players), ctx.new_pack())
        features = {"choices": k, "disagree": 1.0, "count_parameter": float(pl is not None)}
        return Candidate(deal=deal, seat=deal.dealer, variant="disagree",
                         answer=self.solve(deal, 0, data, ctx.rs, ctx.players),
                         accepted=accepted, facts=facts, features=features,
                         themes=["sources", "disagreement", answer.replace("_", "-")],
                         data=data, quotes=quotes)


def _signed(v: int) -> str:
    """``+3``, ``−1`` or ``0`` (with a true minus sign), for explanations."""
    return f"+{v}" if v > 0 else (f"−{-v}" if v < 0 else "0")


def _jsonable(v):
    if isinstance(v, (tuple, list, frozenset, set)):
        return list(v)
    return v


def _show(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (tuple, list)):
        return ", ".join(str(x).replace("_", " ") for x in v) or "none"
    return str(v).replace("_", " ")


# --------------------------------------------------------------------------------------------
# The registry and the seeded search

GENERATORS: dict[str, KindGenerator] = {g.kind: g for g in (
    SpotOversight(), CaptureNow(), Settlement(), LegalPlay(), DeadPair(), Count(), DealSetup(),
    SourceQuiz())}
assert tuple(GENERATORS) == KINDS


def check_kind(kind: str) -> str:
    """``kind`` itself, or UsageError listing the valid kinds."""
    if kind not in GENERATORS:
        raise UsageError(f"unknown puzzle kind {kind!r}; choose from {', '.join(KINDS)}")
    return kind


def applicable_rulesets(kind: str) -> list[str]:
    """The ids of the rulesets ``kind`` applies to (decided by ruleset parameters)."""
    gen = GENERATORS[check_kind(kind)]
    return [rid for rid, rs in _library().rulesets.items() if gen.applies(rs)]


def resolve_choice(kind: str, ruleset: str | None, players: int | None,
                   seed: int) -> tuple[str, int]:
    """The ruleset and player count for a seed: as given, or drawn from the seed among those the
    kind applies to.  Raises UsageError with the valid choices."""
    lib = _library()
    valid = applicable_rulesets(kind)
    rng = random.Random(f"{kind}/{seed}/choose")
    if ruleset is None:
        pool = [r for r in valid if players is None or players in lib.rulesets[r].counts]
        if not pool:
            raise UsageError(f"no ruleset for {kind} covers {players} players; rulesets: "
                             + ", ".join(f"{r} ({'/'.join(map(str, lib.rulesets[r].player_counts))})"
                                         for r in valid))
        ruleset = rng.choice(pool)
    elif ruleset not in lib.rulesets:
        raise UsageError(f"unknown ruleset {ruleset!r}; choose from {', '.join(valid)}")
    elif ruleset not in valid:
        why = GENERATORS[kind].not_applicable
        raise UsageError(f"{kind} puzzles do not apply to ruleset {ruleset}"
                         + (f" ({why})" if why else "") + f"; choose from {', '.join(valid)}")
    rs = lib.rulesets[ruleset]
    if players is None:
        players = rng.choice(rs.player_counts)
    elif players not in rs.counts:
        raise UsageError(f"ruleset {ruleset} is for {'/'.join(map(str, rs.player_counts))} "
                         f"players, not {players}")
    return ruleset, players


def make_id(kind: str, ruleset: str, players: int, seed: int) -> str:
    """``KIND.RULESET.PLAYERS.SEED``."""
    return f"{kind}.{ruleset}.{players}.{seed}"


def parse_id(puzzle_id: str) -> tuple[str, str, int, int]:
    """Split an id into (kind, ruleset, players, seed); UsageError saying the form if malformed."""
    parts = str(puzzle_id).strip().split(".")
    form = ("a puzzle id is KIND.RULESET.PLAYERS.SEED, for example "
            "spot-oversight.parlett.5.1234")
    if len(parts) != 4:
        raise UsageError(f"malformed puzzle id {puzzle_id!r}: {form}")
    kind, ruleset, players, seed = parts
    check_kind(kind)
    if not players.isdigit() or not seed.isdigit():
        raise UsageError(f"malformed puzzle id {puzzle_id!r}: {form}")
    return kind, ruleset, int(players), int(seed)


def build(kind: str, ruleset: str, players: int, seed: int) -> Puzzle:
    """The one puzzle of id ``KIND.RULESET.PLAYERS.SEED`` (arguments already resolved)."""
    lib = _library()
    defn = definition(kind)
    rs = lib.ruleset(ruleset, players)
    gen = GENERATORS[kind]
    key = f"{kind}/{rs.id}/{players}/{seed}/v{defn.generator_version}"
    plan = gen.plan(random.Random(key), rs, players, defn)
    for attempt in range(MAX_ATTEMPTS):
        ctx = Ctx(kind, rs, players, seed, random.Random(f"{key}/{attempt}"), plan, defn)
        cand = gen.build(ctx)
        if cand is None:
            continue
        puzzle = assemble(gen, ctx, cand)
        if puzzle is not None:
            return puzzle
    raise GenerationError(f"no suitable position for puzzle {make_id(kind, rs.id, players, seed)} "
                          f"in {MAX_ATTEMPTS} attempts; try another seed")


def assemble(gen: KindGenerator, ctx: Ctx, cand: Candidate) -> Puzzle | None:
    """Turn a candidate into a puzzle, then verify it: the record replays legally and the answer
    recomputed from the replayed position is the same.  None if verification fails."""
    lib = _library()
    defn = ctx.defn
    rs = ctx.rs
    record = to_record(cand.deal, with_result=False)
    replayed = replay(record)
    if gen.solve(replayed, cand.seat, cand.data, rs, ctx.players) != cand.answer:
        return None
    facts = dict(cand.facts)
    facts.setdefault("ruleset", lib.rulesets[rs.id].title)
    facts.setdefault("players", ctx.players)
    facts.setdefault("you", player_name(cand.seat))
    qkey = cand.question_key or cand.variant
    question = defn.question(qkey, facts)
    hints = defn.hint_list(qkey if qkey in defn.hints else cand.variant, facts)
    explanation = defn.explanation(cand.explain_key or cand.variant, facts)
    keys = [k for k in (cand.explain_key, cand.variant) if k]
    quotes = resolve_quotes(defn, keys, rs, cand.quotes)
    problems = []
    for spec in defn.problem_specs(*keys):
        when = spec.get("when")
        if when and when not in cand.tags:
            continue
        for p in rs.problems:
            if p["id"] == spec["id"] and not any(x["id"] == p["id"] for x in problems):
                problems.append({"id": p["id"], "source": p.get("source"),
                                 "summary": " ".join(str(p["summary"]).split())})
    if problems:
        lead = defn.word("problem_lead", "A problem in the sources:")
        explanation += "".join(f"\n\n{lead} {p['summary']}" for p in problems)
    themes = list(dict.fromkeys(cand.themes))
    return Puzzle(
        id=make_id(ctx.kind, rs.id, ctx.players, ctx.seed), kind=ctx.kind, ruleset=rs.id,
        players=ctx.players, seat=cand.seat, record=record, question=question,
        answer=cand.answer, accepted=list(dict.fromkeys(cand.accepted)),
        explanation=explanation, quotes=quotes, themes=themes,
        difficulty=defn.rate_difficulty(cand.features), hints=hints, variant=cand.variant,
        data=cand.data, problems=problems, _deal=replayed)


def resolve_quotes(defn: Definition, keys: list[str], rs: Ruleset, extra: list[str]) -> list[str]:
    """The quotation refs for a puzzle: the definition's for the first of ``keys`` (a list of refs, or
    ``{parameter: P, among: [...]}``: those of ``among`` behind the ruleset's parameter ``P``,
    else ``fallback``), then ``extra``.  Every ref is checked against the library."""
    lib = _library()
    spec = defn.quote_spec(*keys)
    refs: list[str] = []
    specs = spec if isinstance(spec, list) else [spec]
    for s in specs:
        if isinstance(s, str):
            refs.append(s)
        elif isinstance(s, dict):
            behind = set(lib.parameter(rs.id, s["parameter"]).quotes)
            among = s.get("among")
            if among is None:
                chosen = list(lib.parameter(rs.id, s["parameter"]).quotes)[: s.get("limit", 2)]
            else:
                chosen = [r for r in among if r in behind][: s.get("limit", 2)]
            refs.extend(chosen or list(s.get("fallback", [])))
    refs.extend(extra)
    out = []
    for r in refs:
        lib.quotation(r)            # raises for an unknown ref
        if r not in out:
            out.append(r)
    return out
