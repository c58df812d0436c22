"""``spot-oversight``: someone has just played; is there anything for you to claim, and what?

One variant per oversight kind of RULES.md 4 that the ruleset lists, plus decoys (an action that
looks like a mistake and is not: among them a prial or a dead pair declared, as the rules ask,
rather than laid down).  By design the seeds of a ruleset cycle through every
oversight kind it allows and its decoys (:meth:`SpotOversight.cycle`), so a set of puzzles covers
them all.  The answer is the seat's claims now (the engine's legal actions); the explanation
addresses the last action and every other tempting group of cards on the table (a pair, prial
or mournival laid down earlier, four of a rank on the table), saying from the engine's record
of the deal why each is, or is not, open to a claim; the actions those verdicts rest on are
kept in ``data["history"]`` and shown with the position.

Some positions are rare in random play (a mournival among the table cards, a prial or
mournival in one hand), so the generator may *arrange* the shuffled pack (move the cards of one
rank to the table or to one player's hand, :func:`tutor.engine.deal.deal_order` saying where
each card goes) before the deal is played; the engine then checks that the arrangement landed
where intended, and play is as real as any other.

Not for a ruleset that lists no oversights.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from tutor.engine.bots import Bot, Wrapped, make_bot, play_out
from tutor.engine.cards import (
    RANK_NAMES,
    RANK_PLURALS,
    CardSet,
    codes,
    make_card,
    pretty_cards,
    rank_of,
    sets_of,
)
from tutor.engine.deal import (
    CLAIM_FILLER,
    Action,
    ClaimWords,
    Deal,
    Oversight,
    claim_sizes,
    deal_order,
    reachable_oversights,
    read_claim_words,
)
from tutor.engine.errors import AmbiguousAction, IllegalAction, IncompleteAction, InvalidAction
from tutor.engine.parameters import OVERSIGHT_KINDS
from tutor.engine.records import to_record
from tutor.engine.rule_bots import RandomSource
from tutor.engine.rulesets import Ruleset
from tutor.engine.seats import seat_names
from tutor.engine.values import CaptureForm, Declaration, OversightKind
from tutor.puzzles.base import (
    Candidate,
    Ctx,
    Plan,
    PuzzleKind,
    Verdict,
    describe,
    join,
    library,
    player_name,
    set_place,
)
from tutor.puzzles.kinds.spot_story import COUNTING, RULESET, claim_groups, decided_by, table_story
from tutor.puzzles.model import AnswerError, Definition, Puzzle, definition
from tutor.puzzles.reader import NOTHING_WORDS, heard, tokens

#: The learner's own mistake of each oversight kind: the very surface of the kind, and not the
#: learner's to claim (RULES.md 3.4: anyone but the one who made the mistake).
OWN: dict[str, str] = {k: f"own_{k}" for k in OVERSIGHT_KINDS}
_DECOY_THEMES = (
    "took_three",
    "lay_down_pair",
    "lay_down_prial",
    "lay_down_mournival",
    "mournival_taken",
    "capture_from_pair",
    "prial_declared",
    "dead_pair_declared",
    "mournival_before_play",
    "split_at_play_end",
    "mournival_at_play_end",
    *OWN.values(),
    "plain",
)
#: The oversight kind each decoy looks like (a claim on it is a false claim of that kind; the
#: plain decoy looks like none).
DECOY_LOOKS_LIKE = {
    "took_three": "split_prial",
    "capture_from_pair": "split_prial",
    "lay_down_pair": "laid_down_dead_pair",
    "lay_down_prial": "laid_down_prial",
    "lay_down_mournival": "laid_down_mournival",
    "mournival_taken": "overlooked_table_mournival",
    "prial_declared": "laid_down_prial",
    "dead_pair_declared": "laid_down_dead_pair",
    "mournival_before_play": "overlooked_table_mournival",
    "split_at_play_end": "split_prial",
    "mournival_at_play_end": "overlooked_table_mournival",
    "plain": "",
    **{own: k for k, own in OWN.items()},
}
#: The decoys with the very look of a split prial or an overlooked table mournival made by
#: another player (issue 42), each where the rules make it no mistake, or none open now:
#:
#: - ``mournival_before_play``: four of a rank dealt to the table and another player's
#:   declaration before play; play has not begun, so the dealer may still take them (RULES.md
#:   3.3: only a mournival left when play begins is overlooked);
#: - ``split_at_play_end``: another player took one of a table prial with their last card, so
#:   that play ended with it (RULES.md 3.4: every oversight unclaimed then lapses), and the last
#:   player in plays on alone (``last_in_plays_on``: the table stays);
#: - ``mournival_at_play_end``: a table mournival the dealer left, unclaimed when another
#:   player's action ended play (the same rule).
BY_OTHERS: dict[str, tuple[str, ...]] = {
    OversightKind.SPLIT_PRIAL: ("split_at_play_end",),
    OversightKind.OVERLOOKED_TABLE_MOURNIVAL: ("mournival_before_play", "mournival_at_play_end"),
}
#: The decoys that carry a claimable kind's surface cue (four of a rank on the table; a
#: one-for-one capture leaving two of the rank; a lie-down holding two or more of a rank): the
#: learner's own mistake of every kind, a lie-down of cards no claim may take, and the look of a
#: split prial or a table mournival by another player (:data:`BY_OTHERS`).
CUED_DECOYS = frozenset(
    {
        *OWN.values(),
        "lay_down_pair",
        "lay_down_prial",
        "lay_down_mournival",
        *(t for ts in BY_OTHERS.values() for t in ts),
    }
)
#: The theme of a position that counting, or the ruleset, decides (:func:`~tutor.puzzles.kinds.
#: spot_story.decided_by`: the engine gives the other answer had the count gone the other way,
#: or under another reading of the rules); ``data["decided_by"]`` says which (issue 42).
JUDGED = {COUNTING: "judged-by-counting", RULESET: "judged-by-ruleset"}
#: How often a dead pair (to claim) and a live pair (a decoy) are shown after a later capture
#: that left the pair laid down on the table, rather than right after the lie-down, when the
#: deal played has both: the capture looks like nothing, and the count of the pair's rank
#: decides (issue 42).  Other players claim a dead pair soon, so a deal has a later one less
#: often than a live one: every dead pair found later is taken, and a live one a tenth of the
#: time, so that both come about as often (a learner who looks at the last action alone is
#: right on about half of them).
#:
#: ``split``: the share of split prials shown after the next action (a capture or a lie-down of
#: another rank), the prial's rank unseen by the computer players so that the split stays open
#: that long: the last action looks like nothing, and a learner who reads it alone misses the
#: claim (issue 42: with every split prial shown just after the capture, the board's look alone
#: was right 0.60 of the time at some levels).
LATER_SHARE = {"claim": 1.0, "decoy": 0.1, "split": 0.5}
#: The actions a decoy may follow: a capture, a lie-down, a declaration.
_DECOY_ACTIONS = frozenset(
    {
        "capture",
        "lie_down",
        "declare_prial",
        "declare_dead_pair",
        "declare_mournival",
        "declare_pair",
    }
)
_WORDS = frozenset(NOTHING_WORDS | {"pass"})
#: Said for a claim naming a number of cards no claim of the ruleset takes (never graded),
#: whatever is open: the words a live table's referee says.
_NAME_ALL = "which cards? A claim names all the cards it takes (or the rank alone)"
#: What a search of a deal finds after an action (:meth:`SpotOversight._play_collect`): the
#: open oversight to claim, or a decoy's tags.
_Hit = TypeVar("_Hit")
#: A deal found, the action just made and what was found after it.
_Found = tuple[Deal, Action, _Hit]


def says_nothing(text: str) -> bool:
    """True when an answer says there is nothing to claim (``nothing``, ``pass``, ``no``, an
    empty line) rather than claiming."""
    return all(w.lower() in _WORDS for w in tokens(text))


def _place(pack: list[int], targets: list[int], cards: list[int]) -> None:
    """Swap ``cards`` into pack positions ``targets`` (distinct positions, distinct cards)."""
    for i, c in zip(targets, cards):
        j = pack.index(c)
        pack[i], pack[j] = pack[j], pack[i]


def _positions(order: Sequence[int | None], seat: int | None) -> list[int]:
    """Pack positions dealt to ``seat`` (None: the table), from :func:`deal_order`."""
    return [i for i, q in enumerate(order) if q == seat]


class SpotOversight(PuzzleKind):
    name = "spot-oversight"

    def why_not(self, rs: Ruleset) -> str | None:
        if not rs.game().lists_oversights:
            return "its players cannot claim oversights"
        if not self.reachable(rs):
            return "none of the oversights it lists can arise in its play"
        return None

    def decoy_themes(self, rs: Ruleset) -> list[str]:
        """The decoys that are tempting under ``rs`` (an action that looks like a claimable
        mistake there but is not)."""
        game = rs.game()
        themes = ["lay_down_pair", "mournival_taken", "capture_from_pair"]
        if game.declares(Declaration.PRIAL):
            themes.append("prial_declared")
        if game.declares(Declaration.DEAD_PAIR):
            themes.append("dead_pair_declared")
        if game.allows(CaptureForm.ONE_FOR_THREE):
            themes.append("took_three")
        if not game.claimable(OversightKind.LAID_DOWN_PRIAL):
            themes.append("lay_down_prial")
        if not game.claimable(OversightKind.LAID_DOWN_MOURNIVAL):
            themes.append("lay_down_mournival")
        mournival = game.claimable(OversightKind.OVERLOOKED_TABLE_MOURNIVAL)
        if mournival and game.declarations_are_free and game.declares(Declaration.PRIAL):
            themes.append("mournival_before_play")
        if rs.last_in_plays_on:  # the table stays when play ends: what lapsed is still seen
            if game.split_prial_claimable:
                themes.append("split_at_play_end")
            if mournival:
                themes.append("mournival_at_play_end")
        themes += [OWN[k] for k in self.reachable(rs)]
        return sorted(themes, key=_DECOY_THEMES.index)

    @staticmethod
    def reachable(rs: Ruleset) -> list[str]:
        """The oversight kinds ``rs`` lists that play can make (the engine's
        :func:`~tutor.engine.deal.reachable_oversights`)."""
        return list(reachable_oversights(rs))

    def cycle(self, rs: Ruleset, rate: float) -> list[str]:
        """The variants the seeds of ``rs`` cycle through: each oversight kind it lists that play
        can make (:meth:`reachable`) once, then ``decoy`` slots, about ``rate`` of the cycle."""
        kinds = self.reachable(rs)
        decoys = max(1, round(len(kinds) * rate / (1 - rate))) if rate < 1 else len(kinds)
        return kinds + ["decoy"] * decoys

    def plan(
        self, base: random.Random, rs: Ruleset, players: int, seed: int, defn: Definition
    ) -> Plan:
        slots = self.cycle(rs, defn.decoy_rate)
        place = set_place(seed, len(slots) * len(self.decoy_themes(rs)))
        variant = slots[place % len(slots)]
        if variant == "decoy":
            decoys = self.decoy_themes(rs)
            return {"variant": "decoy", "theme": decoys[(place // len(slots)) % len(decoys)]}
        return {"variant": variant}

    def plan_may_fit(self, plan: Plan, theme: str) -> bool:
        if theme == "decoy":
            return plan["variant"] == "decoy"
        if theme.replace("-", "_") in _DECOY_THEMES:
            return plan.get("theme") == theme.replace("-", "_")
        if theme.replace("-", "_") in OVERSIGHT_KINDS:
            return plan["variant"] == theme.replace("-", "_")
        return True

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        return {
            "claims": [
                {"oversight": g[0].oversight, "cards": codes(g[0].cards)}
                for g in claim_groups(deal, seat)
            ]
        }

    # -- arranging the pack -------------------------------------------------------------

    def _arranged(self, ctx: Ctx, what: str) -> tuple[list[int], int, list[Bot], int, int | None]:
        """A pack, dealer and bots for ``what``: ``table_mournival``, ``table_prial``,
        ``hand_prial``, ``hand_mournival``, ``declared_prial`` (a prial in one hand, declared
        in time) or ``natural``.  Returns (pack, dealer, bots, rank,
        seat) where rank/seat say what was arranged."""
        rng, n, pc = ctx.rng, ctx.players, ctx.pc
        pack = ctx.new_pack()
        dealer = rng.randrange(n)
        rank = rng.randrange(13)
        rank_cards = [make_card(rank, s) for s in range(4)]
        order = deal_order(n, dealer, pc.hand)
        table_pos = _positions(order, None)
        seat: int | None = None
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
            _place(
                pack, rng.sample(table_pos, 3) + [rng.choice(_positions(order, seat))], rank_cards
            )
            bots = ctx.bots(0.2, {seat: rng.uniform(0.5, 1.0)})
        elif what in ("hand_prial", "hand_mournival", "declared_prial"):
            seat = rng.randrange(n)
            k = 4 if what == "hand_mournival" else 3
            rng.shuffle(rank_cards)
            targets = rng.sample(_positions(order, seat), k)
            if k == 3:  # the fourth card in another player's hand
                other = rng.choice([q for q in range(n) if q != seat])
                targets.append(rng.choice(_positions(order, other)))
            _place(pack, targets, rank_cards)
            bots = ctx.bots(0.2, {seat: 0.0 if what == "declared_prial" else 1.0})
        else:
            bots = ctx.bots(rng.uniform(0.3, 0.7))
        return pack, dealer, bots, rank, seat

    @staticmethod
    def _check_arrangement(deal: Deal, what: str, rank: int, seat: int | None) -> bool:
        """The engine's deal holds the arranged cards where intended."""
        table = sets_of(deal.table_cards()).get(rank)
        if what == "table_mournival":
            return table is CardSet.MOURNIVAL
        if what == "table_prial":
            return table is CardSet.PRIAL
        if what in ("hand_prial", "hand_mournival", "declared_prial"):
            return seat is not None and sets_of(deal.hand(seat)).get(rank) is (
                CardSet.MOURNIVAL if what == "hand_mournival" else CardSet.PRIAL
            )
        return True

    def _play_collect(
        self,
        ctx: Ctx,
        what: str,
        want: Callable[[Deal, Action, list[Oversight]], _Hit | None],
        kinds: frozenset[str] = frozenset({"capture", "lie_down"}),
        later: Callable[[Deal, Action, list[Oversight], list[Oversight]], _Hit | None]
        | None = None,
        later_found: list[_Found[_Hit]] | None = None,
        blind: bool = False,
    ) -> list[_Found[_Hit]]:
        """Play a deal arranged for ``what`` and collect ``(deal, action, hit)`` for each action
        of ``kinds`` after which ``want(deal, action, open oversights)`` gives a hit, nothing
        having been open before it; with ``later``, each action of ``kinds`` after which
        ``later(deal, action, open before, open now)`` gives a hit goes to ``later_found``.
        ``blind``: no player claims the cards of the arranged rank (:class:`_Blind`)."""
        pack, dealer, bots, rank, seat = self._arranged(ctx, what)
        if blind:
            bots = [_Blind(b, rank) for b in bots]
        deal = Deal(ctx.rs, ctx.players, dealer, pack)
        if not self._check_arrangement(deal, what, rank, seat):
            return []
        found: list[_Found[_Hit]] = []
        state: dict[str, list[Oversight]] = {"open": []}

        def observer(d: Deal, a: Action) -> None:
            now = d.open_oversights()
            if a.kind in kinds and d.phase == "play":
                if not state["open"]:
                    hit = want(d, a, now)
                    if hit is not None:
                        found.append((d.clone(), a, hit))
                elif later is not None and later_found is not None:
                    hit = later(d, a, state["open"], now)
                    if hit is not None:
                        later_found.append((d.clone(), a, hit))
            state["open"] = now

        play_out(deal, bots, ctx.rng, observer)
        return found

    # -- building -------------------------------------------------------------------------

    def build(self, ctx: Ctx) -> Candidate | None:
        variant = ctx.plan["variant"]
        own = variant == "decoy" and ctx.plan["theme"].startswith("own_")
        if own:
            variant = DECOY_LOOKS_LIKE[ctx.plan["theme"]]
        elif variant == "decoy":
            return self._build_decoy(ctx)
        arranged: dict[str, str] = {
            OversightKind.OVERLOOKED_TABLE_MOURNIVAL: "table_mournival",
            OversightKind.SPLIT_PRIAL: "table_prial",
            OversightKind.LAID_DOWN_PRIAL: "hand_prial",
            OversightKind.LAID_DOWN_MOURNIVAL: "hand_mournival",
        }
        what = arranged.get(variant, "natural")
        # some split prials shown after the next action: nobody claims them at once
        split_later = (
            variant == OversightKind.SPLIT_PRIAL
            and not own
            and ctx.rng.random() < LATER_SHARE["split"]
        )
        # half the others come from natural play, for variety
        if what == "table_prial" and not split_later and ctx.rng.random() < 0.5:
            what = "natural"

        def want(d: Deal, a: Action, open_: list[Oversight]) -> Oversight | None:
            if len(open_) == 1 and open_[0].kind == variant:
                return open_[0]
            return None

        def later(
            d: Deal, a: Action, before: list[Oversight], open_: list[Oversight]
        ) -> Oversight | None:
            # the dead pair laid down at most two actions ago, still open after a capture; the
            # split prial, after the next capture or lie-down
            if (
                (a.kind == "capture" or split_later)
                and len(before) == len(open_) == 1
                and before[0].index == open_[0].index >= len(d.history) - 3
                and open_[0].kind == variant
            ):
                return open_[0]
            return None

        later_found: list[_Found[Oversight]] | None = (
            []
            if (variant == OversightKind.LAID_DOWN_DEAD_PAIR and not own) or split_later
            else None
        )
        found = self._play_collect(
            ctx, what, want, later=later, later_found=later_found, blind=split_later
        )
        if split_later:
            found = later_found or []
        elif later_found and (not found or ctx.rng.random() < LATER_SHARE["claim"]):
            found = later_found
        if not found:
            return None
        deal, action, ov = ctx.rng.choice(found)
        if own:
            return self._own_decoy(ctx, deal, action, ov)
        # after a later capture, as a decoy's: the learner neither laid the pair down nor took
        seats = [
            q for q in deal.claimants(ov) if ov.index == len(deal.history) - 1 or q != action.player
        ]
        if not seats:
            return None
        seat = ctx.rng.choice(seats)
        groups = claim_groups(deal, seat)
        if len(groups) != 1:
            return None
        return self._candidate(ctx, deal, seat, variant, action, ov, groups[0])

    def _candidate(
        self,
        ctx: Ctx,
        deal: Deal,
        seat: int,
        variant: str,
        action: Action,
        ov: Oversight,
        group: list[Action],
    ) -> Candidate:
        n = ctx.players
        cards = group[0].cards
        rank = rank_of(cards[0])  # a claim's rank (Action.rank): of the cards it takes
        on_table = [c for c in deal.table_cards() if rank_of(c) == rank]
        accepted: list[str] = []
        for a in group:
            accepted.append("claim " + " ".join(codes(a.cards)))
        accepted.append(" ".join(c.lower() for c in reversed(codes(group[0].cards))))
        accepted.append(f"claim {RANK_PLURALS[rank]}")
        facts = self._facts(ctx, deal, seat, action)
        facts.update(
            {
                "cards": pretty_cards(cards),
                "rank": RANK_NAMES[rank],
                "ranks": RANK_PLURALS[rank],
                "on_table": pretty_cards(on_table),
                "offender": player_name(ov.offender, seat),
                "take": len(cards),
                "choices": len(group),
            }
        )
        tags: set[str] = set()
        features = {variant: 1.0, "table_cards": len(deal.table_cards())}
        if variant == OversightKind.SPLIT_PRIAL:
            split = deal.history[ov.index]  # the capture that split it: the last, or before
            facts["taken"] = pretty_cards(split.table)
            facts["played"] = pretty_cards(split.cards)
            facts["before"] = pretty_cards(sorted(on_table + list(split.table)))
        elif variant == OversightKind.OVERLOOKED_TABLE_MOURNIVAL:
            facts["dealer"] = player_name(deal.dealer, seat)
        elif variant == OversightKind.LAID_DOWN_DEAD_PAIR:
            holders = [q for q in range(n) if deal.won_count(rank, q)]
            facts["twin_holders"] = join([player_name(q, seat) for q in holders])
            twins = [c for q in holders for c in deal.won_cards(q) if rank_of(c) == rank]
            facts["twins"] = pretty_cards(twins)
            if deal.won_count(rank, ov.offender):  # the offender won the twin
                tags.add("own_twin")
                features["own_twin"] = 1.0
        elif variant in (OversightKind.LAID_DOWN_PRIAL, OversightKind.LAID_DOWN_MOURNIVAL):
            facts["held"] = pretty_cards(on_table)
        themes = ["oversight", variant.replace("_", "-")]
        if ov.index != len(deal.history) - 1:  # laid down before the last action
            facts["actor"] = player_name(ov.offender, seat)
            tags.add("later")
        cand = Candidate(
            deal=deal,
            seat=seat,
            variant=variant,
            answer=self.solve(deal, seat, {}, ctx.rs, n),
            accepted=accepted,
            facts=facts,
            features=features,
            themes=themes,
            theme=variant.replace("_", "-"),
            tags=tags,
        )
        self._tell_story(cand, skip={rank})
        if "later" in tags:  # the lie-down the claim rests on is shown with the position
            cand.data["history"] = sorted({*cand.data["history"], ov.index})
        return cand

    def _own_decoy(self, ctx: Ctx, deal: Deal, action: Action, ov: Oversight) -> Candidate | None:
        """A decoy with the very look of oversight ``ov``: the learner is the seat that made the
        mistake, which the engine leaves out of those who may claim it
        (:meth:`~tutor.engine.deal.Deal.claimants`), and nothing else is open to them."""
        seat = ov.offender
        if seat in deal.claimants(ov) or claim_groups(deal, seat):
            return None
        theme = OWN[ov.kind]
        facts = self._facts(ctx, deal, seat, action)
        mine = action.player == seat
        if action.kind == "lie_down":
            facts["mine"] = f"You lay down {pretty_cards(action.cards)}"
        elif action.kind == "capture":
            facts["mine"] = (
                f"You took {pretty_cards(action.table)} with {pretty_cards(action.cards)}"
            )
        else:
            mine = False
        if ov.kind == OversightKind.OVERLOOKED_TABLE_MOURNIVAL:
            facts["mistake"] = (
                f"You dealt, and play began with the mournival of "
                f"{RANK_PLURALS[ov.rank]} on the table, which you did not take"
            )
        elif mine:
            facts["mistake"] = facts["mine"]
        else:
            return None
        facts.update(
            {
                "rank": RANK_NAMES[ov.rank],
                "ranks": RANK_PLURALS[ov.rank],
                "cards": pretty_cards([c for c in ov.cards if c in set(deal.table_cards())]),
                "oversight": _OVERSIGHT_NAMES.get(ov.kind, "a mistake"),
                "claim_rule": deal.game.claim_rule,
            }
        )
        features = {
            "decoy": 1.0,
            "decoy_own": 1.0,
            ov.kind: 1.0,
            "table_cards": len(deal.table_cards()),
        }
        cand = Candidate(
            deal=deal,
            seat=seat,
            variant="decoy",
            answer=self.solve(deal, seat, {}, ctx.rs, ctx.players),
            accepted=["nothing", "none", "no"],
            facts=facts,
            features=features,
            themes=["oversight", "decoy", theme.replace("_", "-")],
            theme="decoy",
            data={"theme": theme},
            explain_key="decoy_own",
            question_key="own" if mine else None,
            # the words of the puzzle's own ruleset on the mistake made (issue 42: under a
            # ruleset Willughby's "overseen" does not cover, an own decoy quoted nothing)
            quote_key=ov.kind,
        )
        self._tell_story(cand, skip={ov.rank})
        return cand

    def _facts(self, ctx: Ctx, deal: Deal, seat: int, action: Action) -> dict[str, Any]:
        rs = ctx.rs
        lib = library()
        names = ctx.defn.word_map("oversight_names")
        game = rs.game()
        claimable = [names.get(k, k) for k in OVERSIGHT_KINDS if game.claimable(k)]
        not_claimable = [names.get(k, k) for k in OVERSIGHT_KINDS if not game.claimable(k)]
        # an example claim that reads and is graded but is never the answer, and tells nothing
        # of it: the rank of no card on the table
        order = (8, 6, 10, 3, 11, 1, 4, 12, 0, 2, 5, 7, 9)
        claimed = {g[0].rank for g in claim_groups(deal, seat)}
        spare = next((r for r in order if not deal.table_count(r)), None)
        if spare is None:  # every rank on the table (before play): one never the answer
            spare = next(r for r in order if r not in claimed)
        return {
            "example": f"claim {RANK_PLURALS[spare]}",
            "actor": player_name(action.player, seat),
            "action": describe(action, seat, ctx.players),
            "ruleset": lib.rulesets[rs.id].title_in_text,
            "claimable": join(claimable),
            "not_claimable": join(not_claimable, "or") or "nothing else",
        }

    def _tell_story(self, cand: Candidate, skip: set[int]) -> None:
        """Add the table's other tempting groups to the explanation (``facts["also"]``) and the
        actions they rest on to ``data["history"]``; and what decides the position
        (``data["decided_by"]``: ``counting``, ``ruleset`` or ``""``, asked of the engine by
        :func:`~tutor.puzzles.kinds.spot_story.decided_by` against every ruleset with
        oversights), with its theme (:data:`JUDGED`)."""
        deal = cand.deal
        record = to_record(deal, with_result=False)
        readings = [r for r in library().rulesets.values() if r.game().lists_oversights]
        decider = decided_by(deal, cand.seat, record, readings)
        cand.data["decided_by"] = decider
        if decider:
            cand.themes.append(JUDGED[decider])
        lines = []
        history: list[int] = []
        for e in table_story(deal, cand.seat, record):
            if e["rank"] in skip:
                continue
            lines.append(
                f"The {RANK_PLURALS[e['rank']]} on the table "
                f"({pretty_cards(e['cards'])}): {e['why']}."
            )
            history += e["history"]
        cand.facts["also"] = ("\n\n" + " ".join(lines)) if lines else ""
        cand.data["history"] = sorted(set(history))
        if lines:
            cand.features["story"] = float(len(lines))

    def _build_decoy(self, ctx: Ctx) -> Candidate | None:
        theme = ctx.plan["theme"]
        if theme in _BY_OTHERS_THEMES:
            return self._build_by_others(ctx, theme)
        what = {
            "lay_down_prial": "hand_prial",
            "lay_down_mournival": "hand_mournival",
            "mournival_taken": "table_mournival",
            "prial_declared": "declared_prial",
        }.get(theme, "natural")
        rs = ctx.rs

        def tag_of(d: Deal, a: Action) -> list[str]:
            tags: list[str] = []
            first = (
                len(d.history)
                and all(x.kind not in ("capture", "lie_down") for x in d.history[:-1])
                and any(x.kind == "take_table_mournival" for x in d.history)
            )
            if a.kind == "capture":
                if _recent_pair(d) is not None:
                    tags.append("lay_down_pair")
                if a.form is CaptureForm.ONE_FOR_THREE:
                    tags.append("took_three")
                if (
                    len(a.table) == 1
                    and len(a.cards) == 1
                    and a.rank is not None
                    and d.table_count(a.rank) == 1
                ):
                    tags.append("capture_from_pair")
                if first:
                    tags.append("mournival_taken")
            elif a.kind == "declare_prial":
                tags.append("prial_declared")
            elif a.kind == "declare_dead_pair":
                tags.append("dead_pair_declared")
            elif a.kind == "lie_down":
                held = set(sets_of(a.cards).values())
                for kind in CardSet:
                    if kind in held:
                        tags.append(f"lay_down_{kind}")
                if first:
                    tags.append("mournival_taken")
            return tags or ["plain"]

        def want(d: Deal, a: Action, open_: list[Oversight]) -> list[str] | None:
            return None if open_ else tag_of(d, a)

        found = self._play_collect(ctx, what, want, _DECOY_ACTIONS)
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
        if theme == "lay_down_pair":  # the pair laid down just now, or before a capture
            now = [f for f in pick if f[1].kind != "capture"]
            after = [f for f in pick if f[1].kind == "capture"]
            if now and after:
                pick = after if ctx.rng.random() < LATER_SHARE["decoy"] else now
        deal, action, tags = ctx.rng.choice(pick)
        earlier = (
            _recent_pair(deal) if theme == "lay_down_pair" and action.kind == "capture" else None
        )
        laid = deal.history[earlier[0]] if earlier else action
        seats = [q for q in range(ctx.players) if q not in (action.player, laid.player)]
        seat = ctx.rng.choice(seats or [q for q in range(ctx.players) if q != action.player])
        if claim_groups(deal, seat) or deal.open_oversights():
            return None
        facts = self._facts(ctx, deal, seat, action)
        rank = rank_of(action.cards[0])  # a capture's rank (Action.rank) is its hand card's
        history: list[int] = []
        if earlier:  # a pair laid down before the last action, still on the table
            rank = earlier[1]
            then = deal.replayed(earlier[0] + 1)
            facts["whereabouts"] = self._pair_whereabouts(then, seat, rank, laid.cards)
            facts["actor"] = player_name(laid.player, seat)
            history = [earlier[0]]
        elif theme.startswith("lay_down"):
            rank = min(
                r for r, kind in sets_of(action.cards).items() if f"lay_down_{kind}" == theme
            )
            facts["whereabouts"] = self._pair_whereabouts(deal, seat, rank, action.cards)
        if theme == "mournival_taken":
            took = next(x for x in deal.history if x.kind == "take_table_mournival")
            rank = rank_of(took.cards[0])  # the mournival taken (Action.rank)
            facts["mournival"] = pretty_cards(took.cards)
            facts["dealer"] = player_name(deal.dealer, seat)
        if theme in ("prial_declared", "dead_pair_declared"):
            facts["declared"] = pretty_cards(action.cards)
        facts.update({"rank": RANK_NAMES[rank], "ranks": RANK_PLURALS[rank]})
        features = {"decoy": 1.0, f"decoy_{theme}": 1.0, "table_cards": len(deal.table_cards())}

        cand = Candidate(
            deal=deal,
            seat=seat,
            variant="decoy",
            answer=self.solve(deal, seat, {}, rs, ctx.players),
            accepted=["nothing", "none", "no"],
            facts=facts,
            features=features,
            themes=["oversight", "decoy", theme.replace("_", "-")],
            theme="decoy",
            data={"theme": theme},
            explain_key=f"decoy_{theme}",
        )
        self._tell_story(cand, skip={rank} if theme.startswith("lay_down") else set())
        if history:  # the lie-down the verdict rests on is shown with the position
            cand.data["history"] = sorted({*cand.data["history"], *history})
        return cand

    def _build_by_others(self, ctx: Ctx, theme: str) -> Candidate | None:
        """A decoy of :data:`BY_OTHERS`: the look of a split prial or a table mournival made by
        another player, where nothing is open (play has not begun, or has just ended).  The
        pack is arranged (a table mournival, with a prial in another hand to declare before
        play; or a table prial, the fourth card with a player who holds it back to their last
        card and then takes one of the three) and the deal played by computer players; the
        position is the one right after the declaration before play, or after the action that
        ended play, and the seat is neither the one who acted nor the dealer."""
        rng, n = ctx.rng, ctx.players
        if theme == "split_at_play_end":
            pack, dealer, bots, rank, holder = self._arranged(ctx, "table_prial")
            assert holder is not None  # the table_prial arrangement gives the fourth card's seat
            bots[holder] = _HoldsBack(make_bot(rng.choice(("willughby", "counter")), 0.2), rank)
        else:
            pack, dealer, bots, rank, _ = self._arranged(ctx, "table_mournival")
            if theme == "mournival_before_play":  # a prial in another hand, declared at once
                order = deal_order(n, dealer, ctx.pc.hand)
                declarer = rng.choice([q for q in range(n) if q != dealer])
                other = rng.choice([r for r in range(13) if r != rank])
                held = [make_card(other, s) for s in range(4)]
                rng.shuffle(held)
                _place(pack, rng.sample(_positions(order, declarer), 3), held[:3])
                bots[declarer] = make_bot(rng.choice(("willughby", "counter")))
            else:  # nobody sees the mournival all deal
                bots = [_Blind(b, rank) for b in bots]
        deal = Deal(ctx.rs, n, dealer, pack)
        arranged = "table_prial" if theme == "split_at_play_end" else "table_mournival"
        if not self._check_arrangement(deal, arranged, rank, None):
            return None
        found: list[tuple[Deal, Action]] = []
        state = {"phase": deal.phase}

        def observer(d: Deal, a: Action) -> None:
            ended = state["phase"] == "play" and d.phase == "play_on"
            state["phase"] = d.phase
            if theme == "mournival_before_play":
                hit = (
                    not d.started
                    and a.kind.startswith("declare")
                    and sets_of(d.table_cards()).get(rank) is CardSet.MOURNIVAL
                )
            elif theme == "split_at_play_end":
                hit = (
                    ended
                    and a.kind == "capture"
                    and len(a.cards) == len(a.table) == 1
                    and rank_of(a.cards[0]) == rank
                    and sets_of(d.table_cards()).get(rank) is CardSet.PAIR
                )
            else:
                hit = ended and sets_of(d.table_cards()).get(rank) is CardSet.MOURNIVAL
            if hit:
                found.append((d.clone(), a))

        play_out(deal, bots, rng, observer)
        if not found:
            return None
        deal, action = found[0]
        seats = [q for q in range(n) if q not in (action.player, deal.dealer)]
        seat = rng.choice(seats)
        if claim_groups(deal, seat) or deal.open_oversights():
            return None
        facts = self._facts(ctx, deal, seat, action)
        on_table = [c for c in deal.table_cards() if rank_of(c) == rank]
        facts.update(
            {
                "rank": RANK_NAMES[rank],
                "ranks": RANK_PLURALS[rank],
                "cards": pretty_cards(on_table),
                "dealer": player_name(deal.dealer, seat),
            }
        )
        if deal.phase == "play_on":
            assert deal.to_move is not None  # the last player in plays on
            facts["last"] = player_name(deal.to_move, seat)
        if theme == "split_at_play_end":
            facts["taken"] = pretty_cards(action.table)
            facts["played"] = pretty_cards(action.cards)
            facts["before"] = pretty_cards(sorted(on_table + list(action.table)))
        if theme == "mournival_before_play":
            facts["declared"] = pretty_cards(action.cards)
        features = {"decoy": 1.0, f"decoy_{theme}": 1.0, "table_cards": len(deal.table_cards())}
        cand = Candidate(
            deal=deal,
            seat=seat,
            variant="decoy",
            answer=self.solve(deal, seat, {}, ctx.rs, n),
            accepted=["nothing", "none", "no"],
            facts=facts,
            features=features,
            themes=["oversight", "decoy", theme.replace("_", "-")],
            theme="decoy",
            data={"theme": theme},
            explain_key=f"decoy_{theme}",
        )
        self._tell_story(cand, skip={rank})
        return cand

    @staticmethod
    def _pair_whereabouts(deal: Deal, seat: int, rank: int, laid: Iterable[int]) -> str:
        """Where the other cards of ``rank`` are, as the learner can see (or not)."""
        laid_r = [c for c in laid if rank_of(c) == rank]
        won = [c for q in range(deal.players) for c in deal.won_cards(q) if rank_of(c) == rank]
        table_other = [c for c in deal.table_cards() if rank_of(c) == rank and c not in laid_r]
        parts: list[str] = []
        if won:
            parts.append(f"{pretty_cards(won)} won")
        if table_other:
            parts.append(f"{pretty_cards(table_other)} already on the table")
        unseen = deal.unseen(seat, rank)
        if unseen:
            parts.append(f"{unseen} unseen")
        mine = [c for c in deal.hand(seat) if rank_of(c) == rank]
        if mine:
            parts.append(f"{pretty_cards(mine)} in your hand")
        return join(parts) or "none elsewhere"

    # -- answers ----------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        """Grade a claim (read by the engine: :func:`~tutor.engine.deal.read_claim_words`, by
        cards, by rank for every rank, in the words the lessons use) or ``nothing``; a claim of
        cards that are not open to a claim is a false claim, graded wrong; a word that is not
        read is refused, never graded."""
        words = tokens(text)
        rest = [w for w in words if w.lower() not in _WORDS]
        # a dash is "nothing" only where no card or rank is named beside it: between the cards
        # of a claim (claim 9s - 9h) it is passed over, as the claim reader passes over it
        says_nothing = any(w.lower() in _WORDS and w != "-" for w in words) or (
            "-" in words and all(w.lower() in CLAIM_FILLER for w in rest)
        )
        if says_nothing:
            if any(w.lower() not in CLAIM_FILLER for w in rest):
                try:  # a word beside "nothing" that is not read is reported as such
                    read_claim_words(" ".join(rest))
                except InvalidAction as exc:
                    raise AnswerError(f"{exc.reason}; or answer `nothing`") from None
                except IllegalAction:
                    pass
                raise AnswerError("name the cards you claim, or answer `nothing`, not both")
            heard("claim", "nothing")
            return self._nothing(p)
        try:
            named = read_claim_words(" ".join(rest))
        except InvalidAction as exc:
            raise AnswerError(f"{exc.reason}; or answer `nothing`") from None
        except IllegalAction as exc:
            raise AnswerError(exc.reason) from None
        if not named.names_something:
            raise AnswerError(
                "name the cards you claim (for example `claim 9S 9H`), or answer `nothing`"
            )
        heard("claim", (named.cards, named.rank, tuple(sorted(named.kinds))))
        return self._claimed(p, named, " ".join(rest))

    def _nothing(self, p: Puzzle) -> Verdict:
        groups = claim_groups(p.position, p.seat)
        if not groups:
            return Verdict(True, "Right: there is nothing to claim.")
        return Verdict(
            False, f"There was something to claim: {_join_claims(groups)}.", retry=self._nudge(p)
        )

    @staticmethod
    def _nudge(p: Puzzle) -> str:
        """The nudge after a first ``nothing`` where something is open to the learner: it points
        at the moment the engine says the open mistake arose (:attr:`~tutor.engine.deal.Oversight.
        index`, its :attr:`~tutor.engine.deal.Oversight.kind`; the latest of those the learner
        may claim, :meth:`~tutor.engine.deal.Deal.claimants`): the deal for a table mournival,
        the capture that split a prial, the lie-down that left a pair, prial or mournival (an
        earlier lie-down by its player's name alone: its cards would name the answer); never
        at the cards (issue 45)."""
        deal = p.position
        mine = [o for o in deal.open_oversights() if p.seat in deal.claimants(o)]
        ov = max(mine, key=lambda o: o.index)
        hist = deal.history
        if ov.index == len(hist) - 1:
            moment = _LAST_ACTION
        elif ov.index >= 0 and hist[ov.index].kind == "lie_down":  # its cards hold the answer
            moment = _EARLIER_LIE_DOWN.format(who=player_name(ov.offender, p.seat))
        elif ov.index >= 0:
            moment = f"the action \u201c{describe(hist[ov.index], p.seat, deal.n)}\u201d"
        else:
            moment = "the deal"
        return _NUDGES[ov.kind].format(moment=moment, who=player_name(ov.offender, p.seat))

    def _claimed(self, p: Puzzle, named: ClaimWords, typed: str) -> Verdict:
        deal = p.position
        groups = claim_groups(deal, p.seat)
        if named.cards and len(named.cards) not in claim_sizes(deal.ruleset, named.kinds):
            raise AnswerError(_NAME_ALL)  # whatever is open, as a live table says it
        table = set(deal.table_cards())
        off = [c for c in named.cards if c not in table]
        if off:
            return Verdict(
                False,
                f"A false claim: {pretty_cards(off)} "
                f"{'is' if len(off) == 1 else 'are'} not on the table, and a "
                "claim takes cards from the table."
                + (
                    f" What can be claimed is {_join_claims(groups)}."
                    if groups
                    else " There is nothing to claim."
                ),
                retry="Not yet: a claim takes cards from the table.",
            )
        rank = named.rank if named.rank is not None else rank_of(named.cards[0])
        try:  # the engine reads the claim on the position, blind (RULES.md 4, issue 30)
            act = deal.parse_claim(typed, p.seat, blind=True)
        except IncompleteAction as exc:
            raise AnswerError(exc.reason.words(p.seat)) from None
        except (InvalidAction, AmbiguousAction) as exc:
            raise AnswerError(exc.reason) from None
        except IllegalAction as exc:
            return self._false_claim(
                p,
                deal,
                groups,
                rank,
                len(named.cards),
                exc.reason.words(p.seat, seat_names(deal.n)),
            )
        shown = named.cards or act.cards
        return Verdict(
            True,
            f"Right: you claim {pretty_cards(shown)}, "
            f"{_OVERSIGHT_NAMES.get(act.oversight or '', 'a mistake')}.",
        )

    def _false_claim(
        self, p: Puzzle, deal: Deal, groups: list[list[Action]], rank: int, count: int, reason: str
    ) -> Verdict:
        """A claim that takes nothing.  The nudge (said before a second try) is the same
        whatever is open, so that a probe learns nothing from it (issue 30); the verdict, said
        once the puzzle is over, names what could be claimed."""
        retry = (
            "Not yet: no claim takes that. Is any mistake really open, is it "
            "someone else's, and which cards does its claim take?"
        )
        mine = [g for g in groups if g[0].rank == rank]
        if mine:
            need = len(mine[0][0].cards)
            held = pretty_cards(set().union(*(a.cards for a in mine[0])))
            return Verdict(
                False,
                f"{'Too many' if count > need else 'Too few'} cards: the "
                f"claim takes {need} of {held}.",
                retry=retry,
            )
        if not groups:
            story = [e for e in table_story(deal, p.seat, p.record) if e["rank"] == rank]
            why = story[0]["why"] if story else reason
            return Verdict(False, f"There is nothing to claim here ({why}).", retry=retry)
        return Verdict(
            False,
            f"Those cards are not open to a claim ({reason}); what can be "
            f"claimed is {_join_claims(groups)}.",
            retry=retry,
        )

    def answer_words(self, p: Puzzle) -> list[str]:
        return ["hint", "quit", "claim", "nothing"] + codes(p.position.table_cards())

    def wrong_answer(self, p: Puzzle) -> str | None:
        if p.answer["claims"]:
            return "nothing"
        table = p.position.table_cards()
        return f"claim {RANK_PLURALS[rank_of(table[0])]}" if table else None


#: The decoy themes of :data:`BY_OTHERS`, built by :meth:`SpotOversight._build_by_others`.
_BY_OTHERS_THEMES = frozenset(t for ts in BY_OTHERS.values() for t in ts)


class _HoldsBack(Wrapped):
    """A computer player (``inner``) who holds back the card of ``rank`` that would take a
    table prial: they capture other ranks while they can, and when that card is the only one
    that captures, take one of the three with it (a split prial) rather than all three.  Legal
    play, and a poor one (Willughby's advice is to take all three); it lets a deal reach a
    split prial made with a player's last card (:data:`BY_OTHERS`)."""

    def __init__(self, inner: Bot, rank: int):
        super().__init__(inner)
        self.rank = rank

    def choose(self, deal: Deal, legal: list[Action], rng: RandomSource) -> Action:
        others = [a for a in legal if not (a.kind == "capture" and a.rank == self.rank)]
        if others:
            return self.inner.choose(deal, others, rng)
        ones = [a for a in legal if a.form == CaptureForm.ONE_FOR_ONE]
        return ones[0] if ones else self.inner.choose(deal, legal, rng)


class _Blind(Wrapped):
    """A computer player (``inner``) who never sees the cards of ``rank`` as anything to take
    or claim: no claim of them, and (as dealer) no taking of a table mournival of them.  Every
    player of a deal so (:data:`BY_OTHERS`) leaves a table mournival on the table to the end."""

    def __init__(self, inner: Bot, rank: int):
        super().__init__(inner)
        self.rank = rank

    def free_action(self, deal: Deal, seat: int, rng: RandomSource) -> Action | None:
        a = self.inner.free_action(deal, seat, rng)
        if (
            a is not None
            and a.kind in ("claim", "take_table_mournival")
            and rank_of(a.cards[0]) == self.rank
        ):
            return None
        return a


def _recent_pair(deal: Deal) -> tuple[int, int] | None:
    """(index, rank) of a pair laid down by one of the two actions before ``deal``'s last one
    whose cards still lie on the table, as a claim on them would need (the engine's
    :meth:`~tutor.engine.deal.Deal.laid_down_still_open`), the latest first; None if none."""
    hist = deal.history
    for i in range(len(hist) - 2, max(-1, len(hist) - 4), -1):
        a = hist[i]
        if a.kind != "lie_down":
            continue
        for r in sorted(r for r, kind in sets_of(a.cards).items() if kind is CardSet.PAIR):
            if deal.laid_down_still_open(i, r):
                return i, r
    return None


def _join_claims(groups: list[list[Action]]) -> str:
    return " and ".join(
        f"{pretty_cards(g[0].cards)}, {_OVERSIGHT_NAMES.get(g[0].oversight or '', 'a mistake')}"
        for g in groups
    )


#: What each oversight is called where a verdict names it (``words.oversight_names``).
_OVERSIGHT_NAMES = dict(definition("spot-oversight").word_map("oversight_names"))
#: The nudge for each open oversight kind (``words.nudges``) and the words of the last action.
_NUDGES = dict(definition("spot-oversight").word_map("nudges"))
_LAST_ACTION = str(definition("spot-oversight").words.get("last_action", "the last action"))
_EARLIER_LIE_DOWN = str(
    definition("spot-oversight").words.get("earlier_lie_down", "the lie-down of {who}")
)
