"""``spot-oversight``: someone has just played; is there anything for you to claim, and what?

One variant per oversight kind of RULES.md 4 that the ruleset lists, plus decoys (an action that
looks like a mistake and is not).  By design the seeds of a ruleset cycle through every
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

from collections import Counter
from typing import Any

from tutor.engine.bots import make_bot, play_out
from tutor.engine.cards import (RANK_NAMES, RANK_PLURALS, codes, make_card, pretty_cards,
                                rank_code, rank_of)
from tutor.engine.deal import Action, Deal, LaidDown, deal_order, reachable_oversights
from tutor.engine.errors import AmbiguousAction, IllegalAction, IncompleteAction, InvalidAction
from tutor.engine.parameters import OVERSIGHT_KINDS, spec
from tutor.engine.records import replay, to_record
from tutor.puzzles.base import (Candidate, PuzzleKind, Verdict, describe, join, library,
                                player_name, set_index)
from tutor.puzzles.model import AnswerError, definition
from tutor.puzzles.reader import NOTHING_WORDS, read

_DECOY_THEMES = ("took_three", "lay_down_pair", "lay_down_prial", "lay_down_mournival",
                 "mournival_taken", "capture_from_pair", "plain")
_WORDS = {**{w: "nothing" for w in NOTHING_WORDS}, "pass": "nothing"}


def claim_groups(deal: Deal, seat: int) -> list[list[Action]]:
    """The seat's claims now (engine), grouped by oversight and rank: each group is one thing to
    claim, its actions the card choices that claim it."""
    groups: dict[tuple, list[Action]] = {}
    for a in deal.legal_actions(seat):
        if a.kind == "claim":
            groups.setdefault((a.oversight, a.rank), []).append(a)
    return list(groups.values())


def _place(pack: list[int], targets: list[int], cards: list[int]) -> None:
    """Swap ``cards`` into pack positions ``targets`` (distinct positions, distinct cards)."""
    for i, c in zip(targets, cards):
        j = pack.index(c)
        pack[i], pack[j] = pack[j], pack[i]


def _positions(order, seat: int | None) -> list[int]:
    """Pack positions dealt to ``seat`` (None: the table), from :func:`deal_order`."""
    return [i for i, q in enumerate(order) if q == seat]


def table_story(deal: Deal, seat: int, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The tempting groups on the table and why each is or is not open to ``seat``'s claim.

    A group is the cards of one rank on the table when at least two of them came from one hand
    laid down, or all four lie there.  Each entry: ``rank``, ``cards``, ``claim`` (the seat's
    claim actions on them now, engine), ``why`` (the reason in words, from the engine's record of
    the deal: the oversight the lie-down made or not, whose mistake it is) and ``history`` (the
    indices of the actions it rests on).
    """
    rs = deal.ruleset
    out = []
    hist = deal.history
    laid_facts = _lie_down_facts(deal, record)
    names = {q: player_name(q, seat) for q in range(deal.players)}
    claims = {g[0].rank: g for g in claim_groups(deal, seat)}
    open_by_rank: dict[int, list] = {}
    for o in deal.open_oversights():
        open_by_rank.setdefault(o.rank, []).append(o)
    for r in range(13):
        on = [c for c in deal.table_cards() if rank_of(c) == r]
        if len(on) < 2:
            continue
        laid = [(i, a) for i, a in enumerate(hist) if a.kind == "lie_down"
                and sum(1 for c in a.cards if c in on) >= 2]
        if not laid and len(on) < 4:
            continue
        entry: dict[str, Any] = {"rank": r, "cards": on, "claim": claims.get(r, []),
                                 "history": [i for i, _ in laid]}
        mine = [o for o in open_by_rank.get(r, []) if o.offender == seat]
        if r in claims:
            entry["why"] = "open to your claim"
        elif mine:
            entry["why"] = (f"that is your own mistake ({mine[0].kind.replace('_', ' ')}), and "
                            "you may not claim it; the others may")
        elif laid:
            i, a = laid[-1]
            who = "you" if a.player == seat else names[a.player]
            entry["why"] = _laid_down_why(laid_facts[i], r, who)
        else:
            took = [i for i, a in enumerate(hist) if a.kind == "take_table_mournival"]
            if "overlooked_table_mournival" not in rs.oversights:
                entry["why"] = ("dealt to the table; under this ruleset a table mournival the "
                                "dealer leaves is not a mistake anyone may claim")
            else:
                entry["why"] = ("dealt to the table, but no claim is open on them now")
            entry["history"] += took
        out.append(entry)
    return out


def _laid_down_why(findings: tuple[LaidDown, ...], rank: int, who: str) -> str:
    """Why the cards of ``rank`` that ``who`` laid down are not open to a claim now, from the
    engine's findings when they were laid down (:meth:`~tutor.engine.deal.Deal.
    lie_down_oversights`: the oversight they made, or why none)."""
    found = next(f for f in findings if f.rank == rank)
    what = {2: "a pair", 3: "a prial", 4: "a mournival"}[found.held]
    if found.claimable:
        return (f"{who} laid them down as {what} by mistake ({found.kind.replace('_', ' ')}), "
                "but the claim has lapsed: fewer of them are left on the table than it takes")
    if found.why == "no_declaration":
        return (f"{who} laid down {'a dead pair' if found.held == 2 else what}, but no "
                "declaration under this ruleset could have taken it, so it is no mistake")
    if found.why == "live_pair":
        return (f"{who} laid them down as {what}, but it was not a dead pair then (the other two "
                f"{RANK_PLURALS[rank]} were not both among the won cards), so it is no mistake: "
                "they are ordinary table cards now")
    return (f"{who} laid them down as {what}; under this ruleset "
            f"{spec('oversights').words[found.kind]} is not a mistake anyone may claim, so they "
            "are ordinary table cards now")


def _lie_down_facts(deal: Deal, record: dict[str, Any]) -> dict[int, tuple[LaidDown, ...]]:
    """For each lie-down in ``deal``'s history (by index): what the engine found it would make
    of each rank its player held two or more of, just before (:meth:`~tutor.engine.deal.Deal.
    lie_down_oversights`).  One pass over the deal's actions from its record's first position."""
    facts: dict[int, tuple[LaidDown, ...]] = {}
    if not any(a.kind == "lie_down" for a in deal.history):
        return facts
    d = replay(record, upto=0)
    for i, a in enumerate(deal.history):
        if a.kind == "lie_down":
            facts[i] = d.lie_down_oversights(a.player)
        d.apply(a)
    return facts


class SpotOversight(PuzzleKind):
    name = "spot-oversight"

    def why_not(self, rs):
        if not rs.oversights:
            return "its players cannot claim oversights"
        if not self.reachable(rs):
            return "none of the oversights it lists can arise in its play"
        return None

    def decoy_themes(self, rs) -> list[str]:
        """The decoys that are tempting under ``rs`` (an action that looks like a claimable
        mistake there but is not)."""
        themes = ["lay_down_pair", "mournival_taken", "capture_from_pair"]
        if "one_for_three" in rs.captures:
            themes.append("took_three")
        if "laid_down_prial" not in rs.oversights:
            themes.append("lay_down_prial")
        if "laid_down_mournival" not in rs.oversights:
            themes.append("lay_down_mournival")
        return sorted(themes, key=_DECOY_THEMES.index)

    @staticmethod
    def reachable(rs) -> list[str]:
        """The oversight kinds ``rs`` lists that play can make (the engine's
        :func:`~tutor.engine.deal.reachable_oversights`)."""
        return list(reachable_oversights(rs))

    def cycle(self, rs, rate: float) -> list[str]:
        """The variants the seeds of ``rs`` cycle through: each oversight kind it lists that play
        can make (:meth:`reachable`) once, then ``decoy`` slots, about ``rate`` of the cycle."""
        kinds = self.reachable(rs)
        decoys = max(1, round(len(kinds) * rate / (1 - rate))) if rate < 1 else len(kinds)
        return kinds + ["decoy"] * decoys

    def plan(self, base, rs, players, seed, defn):
        slots = self.cycle(rs, defn.decoy_rate)
        place = set_index(seed)
        variant = slots[place % len(slots)]
        if variant == "decoy":
            decoys = self.decoy_themes(rs)
            return {"variant": "decoy", "theme": decoys[(place // len(slots)) % len(decoys)]}
        return {"variant": variant}

    def plan_may_fit(self, plan, theme):
        if theme == "decoy":
            return plan["variant"] == "decoy"
        if theme.replace("-", "_") in OVERSIGHT_KINDS:
            return plan["variant"] == theme.replace("-", "_")
        return True

    def solve(self, deal, seat, data, rs, players):
        return {"claims": [{"oversight": g[0].oversight, "cards": codes(g[0].cards)}
                           for g in claim_groups(deal, seat)]}

    # -- arranging the pack -------------------------------------------------------------

    def _arranged(self, ctx, what: str):
        """A pack, dealer and bots for ``what``: ``table_mournival``, ``table_prial``,
        ``hand_prial``, ``hand_mournival`` or ``natural``.  Returns (pack, dealer, bots, rank,
        seat) where rank/seat say what was arranged."""
        rng, n, pc = ctx.rng, ctx.players, ctx.pc
        pack = ctx.new_pack()
        dealer = rng.randrange(n)
        rank = rng.randrange(13)
        rank_cards = [make_card(rank, s) for s in range(4)]
        order = deal_order(n, dealer, pc.hand)
        table_pos = _positions(order, None)
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
            _place(pack, rng.sample(table_pos, 3) + [rng.choice(_positions(order, seat))],
                   rank_cards)
            bots = ctx.bots(0.2, {seat: rng.uniform(0.5, 1.0)})
        elif what in ("hand_prial", "hand_mournival"):
            seat = rng.randrange(n)
            k = 3 if what == "hand_prial" else 4
            rng.shuffle(rank_cards)
            targets = rng.sample(_positions(order, seat), k)
            if k == 3:   # the fourth card in another player's hand
                other = rng.choice([q for q in range(n) if q != seat])
                targets.append(rng.choice(_positions(order, other)))
            _place(pack, targets, rank_cards)
            bots = ctx.bots(0.2, {seat: 1.0})
        else:
            bots = ctx.bots(rng.uniform(0.3, 0.7))
        return pack, dealer, bots, rank, seat

    @staticmethod
    def _check_arrangement(deal: Deal, what: str, rank: int, seat: int | None) -> bool:
        """The engine's deal holds the arranged cards where intended."""
        if what == "table_mournival":
            return deal.table_count(rank) == 4
        if what == "table_prial":
            return deal.table_count(rank) == 3
        if what in ("hand_prial", "hand_mournival"):
            return deal.hand_count(seat, rank) == (3 if what == "hand_prial" else 4)
        return True

    def _play_collect(self, ctx, what: str, want):
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
        rank = group[0].rank
        on_table = [c for c in deal.table_cards() if rank_of(c) == rank]
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
            holders = [q for q in range(n) if deal.won_count(rank, q)]
            facts["twin_holders"] = join([player_name(q, seat) for q in holders])
            twins = [c for q in holders for c in deal.won_cards(q) if rank_of(c) == rank]
            facts["twins"] = pretty_cards(twins)
            if ov.offender in holders:
                tags.add("own_twin")
                features["own_twin"] = 1.0
        elif variant in ("laid_down_prial", "laid_down_mournival"):
            facts["held"] = pretty_cards(on_table)
        themes = ["oversight", variant.replace("_", "-")]
        cand = Candidate(deal=deal, seat=seat, variant=variant,
                         answer=self.solve(deal, seat, {}, ctx.rs, n), accepted=accepted,
                         facts=facts, features=features, themes=themes,
                         theme=variant.replace("_", "-"), tags=tags)
        self._tell_story(cand, skip={rank})
        return cand

    def _facts(self, ctx, deal, seat, action) -> dict[str, Any]:
        rs = ctx.rs
        lib = library()
        names = ctx.defn.word("oversight_names", {})
        claimable = [names.get(k, k) for k in OVERSIGHT_KINDS if k in rs.oversights]
        not_claimable = [names.get(k, k) for k in OVERSIGHT_KINDS if k not in rs.oversights]
        # an example claim that reads and is graded but is never the answer, and tells nothing
        # of it: the rank of no card on the table
        spare = next(r for r in (8, 6, 10, 3, 11, 1, 4, 12, 0, 2, 5, 7, 9)
                     if not deal.table_count(r))
        return {
            "example": f"claim {RANK_PLURALS[spare]}",
            "actor": player_name(action.player, seat), "action": describe(action, seat, ctx.players),
            "ruleset": lib.rulesets[rs.id].title, "claimable": join(claimable),
            "not_claimable": join(not_claimable, "or") or "nothing else",
        }

    def _tell_story(self, cand: Candidate, skip: set[int]) -> None:
        """Add the table's other tempting groups to the explanation (``facts["also"]``) and the
        actions they rest on to ``data["history"]``."""
        deal = cand.deal
        record = to_record(deal, with_result=False)
        lines = []
        history: list[int] = []
        for e in table_story(deal, cand.seat, record):
            if e["rank"] in skip:
                continue
            lines.append(f"The {RANK_PLURALS[e['rank']]} on the table "
                         f"({pretty_cards(e['cards'])}): {e['why']}.")
            history += e["history"]
        cand.facts["also"] = ("\n\n" + " ".join(lines)) if lines else ""
        cand.data["history"] = sorted(set(history))
        if lines:
            cand.features["story"] = float(len(lines))

    def _build_decoy(self, ctx):
        theme = ctx.plan["theme"]
        what = {"lay_down_prial": "hand_prial", "lay_down_mournival": "hand_mournival",
                "mournival_taken": "table_mournival"}.get(theme, "natural")
        rs = ctx.rs

        def tag_of(d: Deal, a: Action) -> list[str]:
            tags = []
            first = len(d.history) and all(x.kind not in ("capture", "lie_down")
                                           for x in d.history[:-1]) and \
                any(x.kind == "take_table_mournival" for x in d.history)
            if a.kind == "capture":
                if len(a.table) == 3:
                    tags.append("took_three")
                if len(a.table) == 1 and len(a.cards) == 1 and d.table_count(a.rank) == 1:
                    tags.append("capture_from_pair")
                if first:
                    tags.append("mournival_taken")
            elif a.kind == "lie_down":
                held = Counter(rank_of(c) for c in a.cards).values()
                if 2 in held:
                    tags.append("lay_down_pair")
                if 3 in held:
                    tags.append("lay_down_prial")
                if 4 in held:
                    tags.append("lay_down_mournival")
                if first:
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
        rank = action.rank if action.kind == "capture" else rank_of(action.cards[0])
        if theme.startswith("lay_down"):
            k = {"lay_down_pair": 2, "lay_down_prial": 3, "lay_down_mournival": 4}[theme]
            held = Counter(rank_of(c) for c in action.cards)
            rank = min(r for r, m in held.items() if m == k)
            facts["whereabouts"] = self._pair_whereabouts(deal, seat, rank, action.cards)
        if theme == "mournival_taken":
            took = next(x for x in deal.history if x.kind == "take_table_mournival")
            rank = took.rank
            facts["mournival"] = pretty_cards(took.cards)
            facts["dealer"] = player_name(deal.dealer, seat)
        facts.update({"rank": RANK_NAMES[rank], "ranks": RANK_PLURALS[rank]})
        features = {"decoy": 1.0, f"decoy_{theme}": 1.0, "table_cards": len(deal.table_cards())}
        cand = Candidate(deal=deal, seat=seat, variant="decoy",
                         answer=self.solve(deal, seat, {}, rs, ctx.players),
                         accepted=["nothing", "none", "no"], facts=facts, features=features,
                         themes=["oversight", "decoy", theme.replace("_", "-")], theme="decoy",
                         data={"theme": theme}, explain_key=f"decoy_{theme}")
        self._tell_story(cand, skip={rank} if theme.startswith("lay_down") else set())
        return cand

    @staticmethod
    def _pair_whereabouts(deal: Deal, seat: int, rank: int, laid) -> str:
        """Where the other cards of ``rank`` are, as the learner can see (or not)."""
        laid_r = [c for c in laid if rank_of(c) == rank]
        won = [c for q in range(deal.players) for c in deal.won_cards(q) if rank_of(c) == rank]
        table_other = [c for c in deal.table_cards() if rank_of(c) == rank and c not in laid_r]
        parts = []
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

    def check(self, p, text):
        r = read(text, words=_WORDS, expected="name the cards you claim (for example "
                                              "`claim 9S 9H`), or answer `nothing`")
        says_nothing = "nothing" in r.words
        if says_nothing and (r.cards or r.ranks):
            raise AnswerError("name the cards you claim, or answer `nothing`, not both")
        if not r.cards and not r.ranks and not says_nothing:
            raise AnswerError("name the cards you claim (for example `claim 9S 9H`), or "
                              "answer `nothing`")
        deal = p.deal()
        groups = claim_groups(deal, p.seat)
        if says_nothing:
            if not groups:
                return Verdict(True, "Right: there is nothing to claim.")
            return Verdict(False, f"There was something to claim: {_join_claims(groups)}.",
                           retry="Not yet: there is a mistake open to a claim. Look at the last "
                                 "action again, and at what lay on the table just before it.")
        table = set(deal.table_cards())
        off = [c for c in r.cards if c not in table]
        if off:
            raise AnswerError(f"{pretty_cards(off)} {'is' if len(off) == 1 else 'are'} not on "
                              "the table: a claim takes cards from the table. Name table cards, "
                              "or answer `nothing`.")
        ranks = {rank_of(c) for c in r.cards} | set(r.ranks)
        if len(ranks) > 1:
            raise AnswerError("a claim takes cards of one rank: name them (for example "
                              "`claim 9S 9H`)")
        rank = ranks.pop()
        if r.ranks and r.cards:
            raise AnswerError("name the cards, or the rank alone, not both")
        named = " ".join(codes(r.cards)) if r.cards else rank_code(rank)
        try:        # the engine reads the claim on the position (RULES.md 4)
            act = deal.parse_action(f"claim {named}", p.seat)
        except IncompleteAction as exc:
            raise AnswerError(f"which cards? {exc.reason.removeprefix('which cards? ')}") from None
        except (InvalidAction, AmbiguousAction) as exc:
            raise AnswerError(exc.reason) from None
        except IllegalAction as exc:
            mine = [g for g in groups if g[0].rank == rank]
            if mine:
                need = len(mine[0][0].cards)
                return Verdict(False, f"Too many cards: the claim takes {need} of "
                                      f"{pretty_cards(set().union(*(a.cards for a in mine[0])))}.",
                               retry=f"Not yet: the claim takes {need} cards.")
            if not groups:
                story = [e for e in table_story(deal, p.seat, p.record) if e["rank"] == rank]
                why = story[0]["why"] if story else exc.reason
                return Verdict(False, f"There is nothing to claim here ({why}).",
                               retry="Not yet. Is any mistake really open to a claim, and is it "
                                     "someone else's?")
            return Verdict(False, f"Those cards are not open to a claim ({exc.reason}); what can "
                                  f"be claimed is {_join_claims(groups)}.",
                           retry="Not yet: those cards are not open to a claim; another "
                                 "mistake is.")
        shown = r.cards or act.cards
        return Verdict(True, f"Right: you claim {pretty_cards(shown)}, "
                             f"{_OVERSIGHT_NAMES.get(act.oversight, 'a mistake')}.")

    def answer_words(self, p):
        deal = p.deal()
        return ["hint", "quit", "claim", "nothing"] + codes(deal.table_cards())

    def wrong_answer(self, p):
        if p.answer["claims"]:
            return "nothing"
        table = p.deal().table_cards()
        return f"claim {codes(table[:1])[0]}" if table else None


def _join_claims(groups) -> str:
    return " and ".join(f"{pretty_cards(g[0].cards)}, "
                        f"{_OVERSIGHT_NAMES.get(g[0].oversight, 'a mistake')}"
                        for g in groups)


#: What each oversight is called where a verdict names it (``words.oversight_names``).
_OVERSIGHT_NAMES = dict(definition("spot-oversight").word("oversight_names", {}))
