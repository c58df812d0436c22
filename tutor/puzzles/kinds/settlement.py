"""``settlement``: a finished deal; what does each player (or you) win or pay, or score?

The position is a whole deal played by computer players; the answer is the engine's settlement
(:attr:`tutor.engine.deal.DealResult.settlement`), and the explanation takes it apart seat by
seat from the engine's breakdown (won cards, leftovers, set-aside mournival, ante, bonus,
stakes for cards, lie-down payments, share of the pot).  Works under every scoring of RULES.md
3.5 and 3.6 (stakes, pairs, pot; lying down that pays).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from tutor.engine.cards import make_card, pretty_cards
from tutor.engine.deal import Deal, SeatSettlement, deal_order
from tutor.engine.errors import LaughError
from tutor.engine.game import Game
from tutor.engine.parameters import seat_working, status_mark, value_words
from tutor.engine.rulesets import LieDownPayment, Ruleset
from tutor.engine.values import Scoring
from tutor.puzzles.base import (
    Candidate,
    Ctx,
    Plan,
    PuzzleKind,
    Verdict,
    join,
    library,
    player_name,
    signed,
)
from tutor.puzzles.model import AnswerError, Definition, Puzzle
from tutor.puzzles.reader import clean, read

_PAIR = re.compile(r"\b(?:player|p|seat)?\s*(\d+)\s*[:=]\s*([+-]?\d+)", re.IGNORECASE)
#: Words a settlement answer may hold besides numbers: units, and words for nothing.
_UNITS = {
    "stakes": "",
    "stake": "",
    "points": "",
    "point": "",
    "player": "",
    "players": "",
    "p": "",
    "seat": "",
    "net": "",
    "even": "zero",
    "quits": "zero",
    "square": "zero",
    "pays": "minus",
    "pay": "minus",
    "loses": "minus",
    "lose": "minus",
    "wins": "",
    "win": "",
    "takes": "",
    "gets": "",
}


class Settlement(PuzzleKind):
    name = "settlement"

    def plan(
        self, base: random.Random, rs: Ruleset, players: int, seed: int, defn: Definition
    ) -> Plan:
        share = float(defn.options.get("all_share", 0.5))
        mournival = float(defn.options.get("mournival_share", 0.25))
        return {
            "variant": "all" if base.random() < share else "you",
            "mournival": base.random() < mournival,
        }

    def plan_may_fit(self, plan: Plan, theme: str) -> bool:
        if theme in ("set-aside", "table-mournival"):
            return plan["mournival"]
        return True

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        r = deal.result
        if r is None:
            raise LaughError("settlement puzzle position is not a finished deal")
        key = "net" if rs.has_stakes else "points"
        return {key: list(r.returns()), "asked": list(data["asked"])}

    def build(self, ctx: Ctx) -> Candidate | None:
        rng = ctx.rng
        n = ctx.players
        pack, dealer = ctx.new_pack(), rng.randrange(n)
        if ctx.plan["mournival"]:
            _table_mournival(pack, n, dealer, ctx.pc.hand, rng)
        deal = ctx.play(pack, dealer, ctx.bots(rng.uniform(0.0, 0.4)))
        seat = rng.randrange(n)
        variant = ctx.plan["variant"]
        r = deal.final_result()
        lib = library()
        if (
            variant == "you"
            and r.last_in is not None
            and any(a.kind == "play_on_capture" for a in deal.history)
        ):
            # the last player in captured alone: the puzzle asks that player, who must count
            # those captures (the board shows them apart from the cards won before)
            seat = r.last_in
        asked = list(range(n)) if variant == "all" else [seat]
        pc = ctx.pc
        scoring = ctx.rs.scoring
        stakes = ctx.rs.has_stakes
        values = r.returns()
        lines = [_breakdown_line(s, deal, seat, values[s.seat]) for s in r.settlement]
        fmt = (lambda v: f"{v:+d}" if v else "0") if stakes else str
        canonical = " ".join(fmt(values[q]) for q in asked)
        accepted = [canonical, " ".join(str(values[q]) for q in asked)]
        if len(asked) > 1:
            accepted.append(", ".join(f"{q}: {fmt(values[q])}" for q in asked))
        last_cap = r.last_capturer
        facts = {
            "you": player_name(seat),
            "breakdown": "\n".join(lines),
            "last_in": player_name(r.last_in, seat) if r.last_in is not None else "nobody",
            "bonus_to": (
                player_name(r.bonus_to, seat)
                + status_mark(lib.parameter(ctx.rs.id, "bonus_to").status)
                if r.bonus_to is not None
                else "nobody"
            ),
            "bonus": pc.last_in_bonus if pc.last_in_bonus is not None else 0,
            "leftovers": pretty_cards(r.leftovers) or "none",
            # a rule the answer rests on, said with its status as the lessons mark it
            "leftovers_to": (
                player_name(r.leftovers_to, seat)
                if r.leftovers_to is not None
                else "nobody, discarded"
            )
            + status_mark(lib.parameter(ctx.rs.id, "leftovers_to").status),
            "last_capture": player_name(last_cap, seat) if last_cap is not None else "nobody",
            "ruleset": lib.rulesets[ctx.rs.id].title,
            "breakeven": pc.breakeven if pc.breakeven is not None else 0,
            "pot": pc.pot if pc.pot is not None else 0,
            "units": "stakes" if stakes else "points",
            "seat_order": ", ".join(player_name(q) for q in asked),
            "pot_to": join([player_name(q, seat) for q in r.pot_to]) or "nobody",
            "pot_rule": value_words("pot_to", ctx.rs.pot_to) if ctx.rs.pot_to else "",
            "lie_down_pays": _pays_words(ctx.rs.lie_down_pays),
            # empty unless lying down pays (RULES.md 3.6), so the shipped rulesets' hints stay
            "pays_sentence": (
                ""
                if not ctx.rs.game().lying_down_pays
                else " "
                + _pays_words(ctx.rs.lie_down_pays).capitalize()
                + ", and those payments are in the results too."
            ),
            "example": " ".join(_example(len(asked), [values[q] for q in asked])),
        }
        tags = {scoring}
        if r.bonus_to is not None:
            tags.add("bonus")
        if r.leftovers:
            tags.add("leftovers")
        if r.set_aside:
            tags.add("set_aside")
        if n == 4:
            tags.add("four_players")
        if r.payments:
            tags.add("payments")
        features = {
            "all": float(variant == "all"),
            "leftovers": float(bool(r.leftovers)),
            "players": float(n),
            "set_aside": float(bool(r.set_aside)),
            "bonus_differs": float(r.bonus_to is not None and r.bonus_to != r.last_in),
            "pairs": float(not stakes),
            "payments": float(bool(r.payments)),
        }
        data = {"asked": asked}
        themes = [
            "settlement",
            {Scoring.STAKES: "stakes", Scoring.PAIRS: "pairs-scoring", Scoring.POT: "pot-scoring"}[
                Scoring(scoring)
            ],
        ]
        if r.leftovers:
            themes.append("leftovers")
        if r.bonus_to is not None:
            themes.append("bonus")
        if r.payments:
            themes.append("lie-down-pays")
        if any(a.kind == "play_on_capture" for a in deal.history):
            themes.append("play-on")
        if r.set_aside:
            themes.append("set-aside")
        # the rules the answer rests on, in the ruleset's own words for this player count (the
        # puzzle keeps only those: tutor.puzzles.generators.own_quotes)
        quotes = []
        names: list[tuple[str, int | None]] = (
            [("ante_dealer", n), ("last_in_bonus", n), ("breakeven", n)]
            if stakes
            else [("scoring", None)]
        )
        names += [
            ("leftovers_to", None),
            ("bonus_to", None),
            ("table_mournival", None),
            ("last_in_plays_on", None),
        ]
        wanted = {
            "last_in_bonus": r.bonus_to is not None,
            "bonus_to": r.bonus_to is not None,
            "table_mournival": bool(r.set_aside),
            "leftovers_to": bool(r.leftovers),
            "last_in_plays_on": "play-on" in themes,
        }
        for name, pl in names:
            if not wanted.get(name, True):
                continue
            p = lib.parameter(ctx.rs.id, name, pl)
            if p.value is None:
                continue
            qs = [q for q in p.quotes if q not in quotes]
            if qs:
                quotes.append(qs[0])
        return Candidate(
            deal=deal,
            seat=seat,
            variant=variant,
            answer=self.solve(deal, seat, data, ctx.rs, n),
            accepted=accepted,
            facts=facts,
            features=features,
            themes=themes,
            data=data,
            tags=tags,
            quotes=quotes,
            theme=themes[1],
            question_key=f"{variant}_{scoring}",
            explain_key="pot" if ctx.rs.game().pot_to_one_winner else None,
        )

    # -- answers ----------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        key = "net" if "net" in p.answer else "points"
        values = p.answer[key]
        asked = p.answer["asked"]
        t = clean(text)
        pairs = _PAIR.findall(t) if len(asked) > 1 else []
        rest = _PAIR.sub(" ", t) if pairs else t
        expected = (
            "give one number per player, for example "
            + ("`+1 -2 0`" if key == "net" else "`2 0 1`")  # points are never negative
            if len(asked) > 1
            else "give one number"
        )
        got = read(
            rest, words=_UNITS, cards=False, ranks=False, numbers=not pairs, expected=expected
        )
        said: dict[int, int] = {}
        if pairs:
            for s, v in pairs:
                if int(s) in said:
                    raise AnswerError(f"player {s} is given twice")
                said[int(s)] = int(v)
            bad = [s for s in said if s not in asked]
            if bad:
                raise AnswerError(
                    f"there is no player {bad[0]} here: players are 0 to {p.players - 1}"
                )
            if set(said) != set(asked):
                missing = [s for s in asked if s not in said]
                raise AnswerError(
                    f"give a result for every player: missing player {', '.join(map(str, missing))}"
                )
        else:
            nums: list[int] = []
            sign = 1
            for what, v in got.items:
                if v == "minus":  # "pays 2": minus two
                    sign = -1
                elif v == "zero":
                    nums.append(0)
                elif what == "number":
                    nums.append(-v if sign < 0 and v > 0 else v)
                    sign = 1
            if len(nums) != len(asked):
                if len(asked) == 1:
                    raise AnswerError(
                        "give one number: what you win (+2) or pay (-1)"
                        if key == "net"
                        else "give one number: your points"
                    )
                raise AnswerError(
                    f"give {len(asked)} numbers, one per player in seat order "
                    f"(Player 0 first), for example "
                    f"`{' '.join(_example(len(asked), [values[s] for s in asked], key == 'net'))}`"
                )
            said = dict(zip(asked, nums))
        wrong = [(s, said[s], values[s]) for s in asked if said[s] != values[s]]
        if not wrong:
            if len(asked) == 1:
                v = values[asked[0]]
                unit = ("stake" if key == "net" else "point") + ("" if abs(v) == 1 else "s")
                return Verdict(True, f"Right: {_signed(v, key)} {unit}.")
            return Verdict(
                True,
                "Right: " + ", ".join(f"Player {s} {_signed(values[s], key)}" for s in asked) + ".",
            )
        parts = [
            f"Player {s}: you said {_signed(v, key)}, it is {_signed(w, key)}" for s, v, w in wrong
        ]
        retry = _nudge(p, wrong, len(asked))
        return Verdict(
            False,
            "Not quite. " + "; ".join(parts) + ".",
            credit=1 - len(wrong) / len(asked),
            retry=retry,
        )

    def answer_words(self, p: Puzzle) -> list[str]:
        return ["hint", "quit"]

    def wrong_answer(self, p: Puzzle) -> str | None:
        a = p.answer
        key = "net" if "net" in a else "points"
        vals = [a[key][s] for s in a["asked"]]
        vals[0] += 2
        return " ".join(str(v) for v in vals)


def _breakdown_line(s: SeatSettlement, deal: Deal, seat: int, value: int) -> str:
    """One seat's line of the explanation: its won cards, then its settlement worked out
    (:func:`_working`), then its result."""
    extra = []
    alone = sum(
        len(a.cards) + len(a.table)
        for a in deal.history
        if a.kind == "play_on_capture" and a.player == s.seat
    )
    if alone:
        extra.append(f"{alone} captured alone after the others lay down")
    if s.leftovers:
        extra.append(f"{s.leftovers} leftovers")
    if s.set_aside:
        extra.append("the set-aside mournival")
    got = f"{s.won} cards" + (f" (with {join(extra)})" if extra else "")
    who = player_name(s.seat, seat) + (" (dealer)" if s.seat == deal.dealer else "")
    pays = ""
    if s.paid:
        pays += f"; paid −{s.paid} for lying down"
    if s.received:
        pays += f"; received +{s.received}"
    stakes = deal.ruleset.has_stakes
    result = f": {signed(value)}" if stakes else f": {value} point{'s' if value != 1 else ''}"
    if not stakes and pays and s.net is not None:
        result += f" (stakes{pays[1:]}: {signed(s.net)})"
    return f"- {who}: {got}" + _working(deal.game, s, pays) + result


def _working(game: Game, s: SeatSettlement, pays: str) -> str:
    """One seat's settlement worked out (the parameter table's working of the ``game``'s
    scoring, RULES.md 3.5, 3.6), with its ante, bonus and lie-down payments ``pays``: what
    follows its won cards in the breakdown."""
    scoring, breakeven = game.ruleset.scoring, game.count.breakeven
    if game.settles_by_breakeven:
        working = seat_working(scoring, breakeven=breakeven, for_cards=signed(s.for_cards))
        return f" {working}; ante −{s.ante}" + (f"; bonus +{s.bonus}" if s.bonus else "") + pays
    if game.pot_to_one_winner:
        share = "; " + seat_working(scoring, pot_share=s.pot_share) if s.pot_share else ""
        return f"; ante −{s.ante}{pays}{share}"
    working = seat_working(scoring, won=s.won, points=s.points_for_won)
    return f": {working}" + (f", bonus +{s.bonus}" if s.bonus else "")


def _table_mournival(pack: list[int], n: int, dealer: int, hand: int, rng: random.Random) -> None:
    """Arrange ``pack`` so that a mournival is dealt to the table (the dealing order of
    :func:`tutor.engine.deal.deal_order`): rare in play, so the puzzles that need it place it."""
    order = deal_order(n, dealer, hand)
    table = [i for i, q in enumerate(order) if q is None]
    rank = rng.randrange(13)
    for i, c in zip(rng.sample(table, 4), [make_card(rank, s) for s in range(4)]):
        j = pack.index(c)
        pack[i], pack[j] = pack[j], pack[i]


#: The parts of a result (:meth:`~tutor.engine.game.Game.result_parts`), as a nudge names them.
_PART_WORDS = {
    "ante": "the ante",
    "pot_share": "the pot",
    "bonus": "the bonus",
    "leftovers": "the leftovers",
    "set_aside": "the set-aside mournival",
}


def _parts(p: Puzzle, seat: int) -> dict[str, int]:
    """The parts of ``seat``'s result that a learner may leave out, each as the change it makes
    to the result (the engine's settlement breakdown: :meth:`Game.result_parts`)."""
    deal = p.position
    s = next(x for x in deal.final_result().settlement if x.seat == seat)
    return {_PART_WORDS[k]: v for k, v in deal.game.result_parts(s).items()}


def _nudge(p: Puzzle, wrong: list[tuple[int, int, int]], asked: int) -> str:
    """A nudge that names what a wrong result left out or counted wrongly (the ante, the bonus,
    the leftovers, a set-aside mournival, won cards not halved, the sign), never the answer."""
    stakes = "net" in p.answer
    seat, said, right = wrong[0]
    why = ""
    for name, delta in _parts(p, seat).items():
        if said == right - delta:
            why = f"{name} is left out"
            break
        if name == "the bonus" and said == right + delta:
            why = "the bonus is counted twice"
            break
    if not why and not stakes:
        s = next(x for x in p.position.final_result().settlement if x.seat == seat)
        if said == s.won:
            why = "won cards are counted, not pairs (a point is a pair)"
    if not why and stakes and said == -right:
        why = "the sign is turned round (what a player pays is minus, what they take plus)"
    if not why:
        scoring = Scoring(p.position.ruleset.scoring)
        why = {
            Scoring.POT: "settle the leftovers and who takes the pot first, then count again",
            Scoring.STAKES: "settle the leftovers and the bonus first, then count the won "
            "cards against the breakeven, and the ante",
        }.get(scoring, "settle the leftovers first, then count the pairs again")
    if asked == 1:
        return f"Not yet: {why}."
    return f"Not yet: {len(wrong)} of the {asked} results are wrong; in Player {seat}'s, {why}."


def _pays_words(pays: LieDownPayment | None) -> str:
    """What lying down costs, in words (the parameter table's wording)."""
    if pays is None:
        return value_words("lie_down_pays", None)
    return value_words("lie_down_pays", {"stakes": pays.stakes, "to": pays.to})


def _signed(v: int, key: str) -> str:
    return (f"{v:+d}" if v else "0") if key == "net" else str(v)


def _example(k: int, avoid: list[int], signed: bool = True) -> list[str]:
    """An example answer of ``k`` numbers that is not the answer ``avoid``: net stakes signed
    (``+2 -1 0``), points (never negative) plain (``2 1 0``)."""
    if signed:
        ex = [2, -1, 0, -3, 2, 1, -1][:k] if k > 1 else [2]
        if ex == list(avoid):
            ex = [v - 1 for v in ex]
        return [f"{v:+d}" if v else "0" for v in ex]
    ex = [2, 1, 0, 3, 2, 1, 4][:k] if k > 1 else [2]
    if ex == list(avoid):
        ex = [v + 1 for v in ex]
    return [str(v) for v in ex]
