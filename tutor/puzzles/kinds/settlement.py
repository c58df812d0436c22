"""``settlement``: a finished deal; what does each player (or you) win or pay, or score?

The position is a whole deal played by computer players; the answer is the engine's settlement
(:attr:`tutor.engine.deal.DealResult.settlement`), and the explanation takes it apart seat by
seat from the engine's breakdown (won cards, leftovers, set-aside mournival, ante, bonus,
stakes for cards, lie-down payments, share of the pot).  Works under every scoring of RULES.md
3.5 and 3.6 (stakes, pairs, pot; lying down that pays).
"""

from __future__ import annotations

import re

from tutor.engine.cards import pretty_cards
from tutor.engine.errors import LaughError
from tutor.engine.parameters import seat_working, value_words
from tutor.puzzles.base import (Candidate, PuzzleKind, Verdict, join, library, player_name,
                                signed)
from tutor.puzzles.model import AnswerError
from tutor.puzzles.reader import clean, read

_PAIR = re.compile(r"\b(?:player|p|seat)?\s*(\d+)\s*[:=]\s*([+-]?\d+)", re.IGNORECASE)
#: Words a settlement answer may hold besides numbers: units, and words for nothing.
_UNITS = {"stakes": "", "stake": "", "points": "", "point": "", "player": "", "players": "",
          "p": "", "seat": "", "net": "", "even": "zero", "quits": "zero", "square": "zero",
          "pays": "minus", "pay": "minus", "loses": "minus", "lose": "minus", "wins": "",
          "win": "", "takes": "", "gets": ""}


class Settlement(PuzzleKind):
    name = "settlement"

    def plan(self, base, rs, players, seed, defn):
        share = float(defn.options.get("all_share", 0.5))
        return {"variant": "all" if base.random() < share else "you"}

    def solve(self, deal, seat, data, rs, players):
        r = deal.result
        if r is None:
            raise LaughError("settlement puzzle position is not a finished deal")
        key = "net" if rs.has_stakes else "points"
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
        scoring = ctx.rs.scoring
        stakes = ctx.rs.has_stakes
        values = r.returns()
        lines = [_breakdown_line(s, deal, seat, values[s.seat]) for s in r.settlement]
        fmt = (lambda v: f"{v:+d}" if v else "0") if stakes else str
        canonical = " ".join(fmt(values[q]) for q in asked)
        accepted = [canonical, " ".join(str(values[q]) for q in asked)]
        if len(asked) > 1:
            accepted.append(", ".join(f"{q}: {fmt(values[q])}" for q in asked))
        lib = library()
        last_cap = r.last_capturer
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
            "pot_to": join([player_name(q, seat) for q in r.pot_to]) or "nobody",
            "pot_rule": value_words("pot_to", ctx.rs.pot_to) if ctx.rs.pot_to else "",
            "lie_down_pays": _pays_words(ctx.rs.lie_down_pays),
            # empty unless lying down pays (RULES.md 3.6), so the shipped rulesets' hints stay
            "pays_sentence": ("" if ctx.rs.lie_down_pays is None else
                              " " + _pays_words(ctx.rs.lie_down_pays).capitalize()
                              + ", and those payments are in the results too."),
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
        features = {"all": float(variant == "all"), "leftovers": float(bool(r.leftovers)),
                    "players": float(n),
                    "set_aside": float(bool(r.set_aside)),
                    "bonus_differs": float(r.bonus_to is not None and r.bonus_to != r.last_in),
                    "pairs": float(not stakes), "payments": float(bool(r.payments))}
        data = {"asked": asked}
        themes = ["settlement", {"stakes": "stakes", "pairs": "pairs-scoring",
                                 "pot": "pot-scoring"}[scoring]]
        if r.leftovers:
            themes.append("leftovers")
        if r.bonus_to is not None:
            themes.append("bonus")
        if r.payments:
            themes.append("lie-down-pays")
        quotes = []
        for name in ("scoring", "leftovers_to", "bonus_to"):
            qs = lib.parameter(ctx.rs.id, name).quotes
            if qs:
                quotes.append(qs[0])
        return Candidate(deal=deal, seat=seat, variant=variant,
                         answer=self.solve(deal, seat, data, ctx.rs, n), accepted=accepted,
                         facts=facts, features=features, themes=themes, data=data, tags=tags,
                         quotes=quotes, theme=themes[1],
                         question_key=f"{variant}_{scoring}",
                         explain_key="pot" if scoring == "pot" else None)

    # -- answers ----------------------------------------------------------------------------

    def check(self, p, text):
        key = "net" if "net" in p.answer else "points"
        values = p.answer[key]
        asked = p.answer["asked"]
        t = clean(text)
        pairs = _PAIR.findall(t) if len(asked) > 1 else []
        rest = _PAIR.sub(" ", t) if pairs else t
        expected = ("give one signed number per player, for example `+1 -2 0`"
                    if len(asked) > 1 else "give one number")
        got = read(rest, words=_UNITS, cards=False, ranks=False, numbers=not pairs,
                   expected=expected)
        said: dict[int, int] = {}
        if pairs:
            for s, v in pairs:
                if int(s) in said:
                    raise AnswerError(f"player {s} is given twice")
                said[int(s)] = int(v)
            bad = [s for s in said if s not in asked]
            if bad:
                raise AnswerError(f"there is no player {bad[0]} here: players are 0 to "
                                  f"{p.players - 1}")
            if set(said) != set(asked):
                missing = [s for s in asked if s not in said]
                raise AnswerError(f"give a result for every player: missing player "
                                  f"{', '.join(map(str, missing))}")
        else:
            nums: list[int] = []
            sign = 1
            for what, v in got.items:
                if v == "minus":          # "pays 2": minus two
                    sign = -1
                elif v == "zero":
                    nums.append(0)
                elif what == "number":
                    nums.append(-v if sign < 0 and v > 0 else v)
                    sign = 1
            if len(nums) != len(asked):
                if len(asked) == 1:
                    raise AnswerError("give one number: what you win (+2) or pay (-1)"
                                      if key == "net" else "give one number: your points")
                raise AnswerError(f"give {len(asked)} numbers, one per player in seat order "
                                  f"(Player 0 first), for example "
                                  f"`{' '.join(_example(len(asked), [values[s] for s in asked]))}`")
            said = dict(zip(asked, nums))
        wrong = [(s, said[s], values[s]) for s in asked if said[s] != values[s]]
        unit = "stakes" if key == "net" else "points"
        if not wrong:
            if len(asked) == 1:
                return Verdict(True, f"Right: {_signed(values[asked[0]], key)} {unit}.")
            return Verdict(True, "Right: " + ", ".join(f"Player {s} {_signed(values[s], key)}"
                                                       for s in asked) + ".")
        parts = [f"Player {s}: you said {_signed(v, key)}, it is {_signed(w, key)}"
                 for s, v, w in wrong]
        retry = ("Not yet: " + (f"{len(wrong)} of the {len(asked)} results are wrong"
                                if len(asked) > 1 else "that is not it")
                 + f". Settle {_first_settled(p)} first, then count again.")
        return Verdict(False, "Not quite. " + "; ".join(parts) + ".",
                       credit=1 - len(wrong) / len(asked), retry=retry)

    def answer_words(self, p):
        return ["hint", "quit"]

    def wrong_answer(self, p):
        a = p.answer
        key = "net" if "net" in a else "points"
        vals = [a[key][s] for s in a["asked"]]
        vals[0] += 2
        return " ".join(str(v) for v in vals)


def _breakdown_line(s, deal, seat: int, value: int) -> str:
    """One seat's line of the explanation: its won cards, then its settlement worked out
    (:func:`_working`), then its result."""
    extra = []
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
    result = f": {signed(value)}" if stakes else f": {value} points"
    if not stakes and pays and s.net is not None:
        result += f" (stakes{pays[1:]}: {signed(s.net)})"
    return (f"- {who}: {got}" + _working(deal.ruleset.scoring, s, deal.rules.breakeven, pays)
            + result)


def _working(scoring: str, s, breakeven: int | None, pays: str) -> str:
    """One seat's settlement worked out (the parameter table's working of ``scoring``, RULES.md
    3.5, 3.6), with its ante, bonus and lie-down payments ``pays``: what follows its won cards
    in the breakdown."""
    if scoring == "stakes":
        working = seat_working(scoring, breakeven=breakeven, for_cards=signed(s.for_cards))
        return f" {working}; ante −{s.ante}" + (f"; bonus +{s.bonus}" if s.bonus else "") + pays
    if scoring == "pot":
        share = "; " + seat_working(scoring, pot_share=s.pot_share) if s.pot_share else ""
        return f"; ante −{s.ante}{pays}{share}"
    working = seat_working(scoring, won=s.won, points=s.points - s.bonus)
    return f": {working}" + (f", bonus +{s.bonus}" if s.bonus else "")


def _first_settled(p) -> str:
    """What to settle before counting, as this puzzle's scoring has it: the pot's winner under
    pot scoring, the bonus where there is one, else the leftovers alone."""
    if "pot-scoring" in p.themes:
        return "the leftovers and who takes the pot"
    if "bonus" in p.themes:
        return "the leftovers and the bonus"
    return "the leftovers"


def _pays_words(pays) -> str:
    """What lying down costs, in words (the parameter table's wording)."""
    if pays is None:
        return value_words("lie_down_pays", None)
    return value_words("lie_down_pays", {"stakes": pays.stakes, "to": pays.to})


def _signed(v: int, key: str) -> str:
    return (f"{v:+d}" if v else "0") if key == "net" else str(v)


def _example(k: int, avoid: list[int]) -> list[str]:
    """An example answer of ``k`` numbers that is not the answer ``avoid``."""
    ex = [2, -1, 0, -3, 2, 1, -1][:k] if k > 1 else [2]
    if ex == list(avoid):
        ex = [v - 1 for v in ex]
    return [f"{v:+d}" if v else "0" for v in ex]
