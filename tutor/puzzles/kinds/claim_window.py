"""``claim-window``: something was left on the table a few actions ago; may you claim it now?

The position is a real deal played by careless computer players, cut one to three actions
after an action that opened an oversight (RULES.md 4) or that looks like one and is not (a
lie-down of two or more of a rank, a capture of one table card that leaves others of its rank):
the question names that action by what it did to a rank (a lie-down holding it, a capture of
one of it) and how long ago, and asks whether the learner may claim cards of that rank now, and
why.  Who made the action, what it laid down or took and every action since are the board's
(its last actions, and the table now): the position answers, not the question's words (issue
42: "you capture ..." was always answered "your own", "... claims ..." mostly "too few left").
The four answers are the same in every puzzle, worded alike (the kind's data,
``puzzles/claim-window.yaml``), one for each case the plan draws in turn (:data:`CASES`), so no
answer is found by its words or by how often it is right; and what the question does show is
drawn whatever the case: the action's form in turn (:data:`FORMS`), how long ago evenly (1 to
:data:`SINCE`), and for a window closed or no mistake at all, in turn the learner's own action
and another's (an open mistake is always another's, the learner's own always theirs):

- ``open``: another player made the mistake and what a claim takes is still on the table;
- ``own``: the learner made it (the engine's :meth:`Deal.claimants` leaves them out);
- ``closed``: it was a mistake, but too few of its cards are left (the window, RULES.md 4,
  "stays claimable while", has closed: :meth:`Deal.open_oversights` no longer holds it); a
  laid-down prial with one card taken since is still open (two are left), so counting decides;
- ``none``: it made no oversight the ruleset lets be claimed (a pair laid down that was not
  dead, a prial or mournival laid down where the ruleset lists no such oversight, a capture
  that split nothing), by :meth:`Deal.lie_down_oversights` and the open oversights.

The answer is the engine's, from the position: the oversights open now, who may claim them, and
the oversights open just after the action (the record replayed that far).  The explanation
quotes the ruleset's words on that oversight's kind.
Works under every ruleset that lets an oversight be claimed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tutor.engine.cards import RANK_PLURALS, rank_of
from tutor.engine.deal import LAID_DOWN_KIND, Action, Deal, Oversight
from tutor.engine.parameters import claim_window, rule_words
from tutor.engine.rulesets import Ruleset
from tutor.engine.values import Declaration, OversightKind
from tutor.puzzles.base import (
    LETTERS,
    Candidate,
    Ctx,
    OneLetterKind,
    Plan,
    Verdict,
    join,
    player_name,
    set_place,
)
from tutor.puzzles.model import Definition, Puzzle

#: The cases, in the order of the answers (A to D) and of the plan's turn.
CASES = ("open", "own", "closed", "none")
#: The action asked about, drawn in turn whatever the case: a capture (a split prial, or one
#: card taken from a pair) or a lie-down (a dead pair or more, or a pair that was not dead).
FORMS = ("capture", "lie_down")
#: How many actions after the one asked about a position is cut (1 to this: never at once,
#: where no window could have closed yet), drawn evenly whatever the case.
SINCE = 3
#: How long ago the action asked about was, in words.
AGO = {1: "One action ago", 2: "Two actions ago", 3: "Three actions ago"}


def _then(deal: Deal, index: int, rank: int) -> Oversight | None:
    """The oversight of ``rank`` the action at history ``index`` opened, found on the deal
    replayed just after it (None when it opened none)."""
    then = deal.replayed(index + 1)
    return next((o for o in then.open_oversights() if o.index == index and o.rank == rank), None)


def _case(deal: Deal, seat: int, index: int, rank: int) -> tuple[str, Oversight | None]:
    """``(case, oversight)``: which of :data:`CASES` the position is for ``seat``, about the
    cards of ``rank`` the action at ``index`` concerned; the oversight that action opened (None
    for ``none``)."""
    now = next((o for o in deal.open_oversights() if o.index == index and o.rank == rank), None)
    if now is not None:
        return ("open" if seat in deal.claimants(now) else "own"), now
    made = _then(deal, index, rank)
    return ("closed" if made is not None else "none"), made


class ClaimWindow(OneLetterKind):
    name = "claim-window"

    def why_not(self, rs: Ruleset) -> str | None:
        game = rs.game()
        if not any(game.claimable(k) for k in OversightKind):
            return "it lets no oversight be claimed"
        return None

    def plan(
        self, base: random.Random, rs: Ruleset, players: int, seed: int, defn: Definition
    ) -> Plan:
        turn = set_place(seed, len(CASES) * len(FORMS) * 2)
        case = CASES[turn % len(CASES)]
        # the action asked about, in turn a capture and a lie-down whatever the case, and in
        # turn the learner's own and another's (always their own for ``own``, never for
        # ``open``): what the question says and who the board shows acting tell no answer
        # (where any pair may be declared, a lie-down hardly ever still holds two of a rank: its
        # pairs were declared, RULES.md 3.6, so every puzzle asks about a capture there)
        forms = ("capture",) if rs.game().declares(Declaration.PAIR) else FORMS
        form = forms[(turn // len(CASES)) % len(FORMS) % len(forms)]
        mine = case == "own" or (case != "open" and (turn // (len(CASES) * len(FORMS))) % 2 == 1)
        return {"variant": "default", "case": case, "form": form, "mine": mine}

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        choices = [dict(c) for c in data["choices"]]
        case, o = _case(deal, seat, data["index"], data["rank"])
        return {
            "choices": choices,
            "right": [c["letter"] for c in choices if c["case"] == case],
            "case": case,
            "index": data["index"],
            "rank": data["rank"],
            "claimants": sorted(deal.claimants(o)) if o else [],
            "until": claim_window(o.kind) if o else None,
            "kind": OversightKind(o.kind).value if o else None,
        }

    def _events(self, snaps: dict[int, Deal]) -> list[tuple[int, int, bool]]:
        """``(index, rank, mistake)`` for each action that opened an oversight of its own (a
        split prial, a laid-down dead pair, prial or mournival: not the dealer's table
        mournival, which the first action of play only brings about) or looks like one and is
        not: a lie-down of two or more of a rank, or a capture of one table card leaving others
        of its rank on the table."""
        out = []
        for length, d in snaps.items():
            i = length - 1
            a = d.history[i]
            opened = {
                o.rank
                for o in d.open_oversights()
                if o.index == i and o.kind != OversightKind.OVERLOOKED_TABLE_MOURNIVAL
            }
            out += [(i, r, True) for r in sorted(opened)]
            if a.kind == "lie_down":
                ranks = [rank_of(c) for c in a.cards]
                out += [
                    (i, r, False)
                    for r in sorted(set(ranks))
                    if ranks.count(r) >= 2 and r not in opened
                ]
            elif a.kind == "capture" and len(a.cards) == 1 and len(a.table) == 1:
                r = rank_of(a.cards[0])
                if r not in opened and any(rank_of(c) == r for c in d.table_cards()):
                    out.append((i, r, False))
        return out

    def build(self, ctx: Ctx) -> Candidate | None:
        rng, n, case = ctx.rng, ctx.players, ctx.plan["case"]
        form, mine = ctx.plan["form"], ctx.plan["mine"]
        snaps: dict[int, Deal] = {}

        def observer(d: Deal, a: Action) -> None:
            if d.phase == "play" and d.to_move is not None:
                snaps[len(d.history)] = d.clone()

        # careless enough that a split prial is often left open a while (among six players,
        # five must overlook it), whatever the case
        ctx.play(ctx.new_pack(), rng.randrange(n), ctx.bots(rng.uniform(0.5, 0.95)), observer)
        found = []
        for index, rank, mistake in self._events(snaps):
            made = snaps[index + 1]
            actor = made.history[index].player
            if mistake != (case != "none") or made.history[index].kind != form:
                continue
            # the learner's seat: the one who made the action, or another (the plan's)
            asked = [actor] if mine else [q for q in range(n) if q != actor]
            for since in range(1, SINCE + 1):
                cut = snaps.get(index + 1 + since)
                if cut is None or len(cut.history) != index + 1 + since:
                    break
                if case == "none" and any(o.rank == rank for o in cut.open_oversights()):
                    continue
                for seat in asked:
                    if _case(cut, seat, index, rank)[0] == case:  # solve checks it again below
                        found.append((since, cut, seat, index, rank))
        # how long ago, drawn whatever was found (a window is more often closed the longer
        # ago, so a length drawn among those found would tell the case)
        since = rng.randint(1, SINCE)
        found = [f for f in found if f[0] == since]
        if not found:
            return None
        _, deal, seat, index, rank = rng.choice(found)
        words = ctx.defn.word_map("answers")
        choices = [{"letter": LETTERS[k], "case": c, "text": words[c]} for k, c in enumerate(CASES)]
        data = {"index": index, "rank": rank, "choices": choices}
        answer = self.solve(deal, seat, data, ctx.rs, n)
        if answer["case"] != case or len(answer["right"]) != 1:
            return None
        names = [player_name(q, seat) for q in range(n)]
        told = [deal.history[j].describe(True, names) for j in range(index, len(deal.history))]
        doer = deal.history[index].player
        facts = {
            "action": told[0],
            "event": ctx.defn.word_map("event")[form].format(rank=RANK_PLURALS[rank]),
            "ago": AGO[since],
            "rank": RANK_PLURALS[rank],
            "options": "\n".join(f"{c['letter']}) {c['text']}" for c in choices),
            "right": answer["right"][0],
            "doer": player_name(doer, seat),
        }
        o = _then(deal, index, rank)
        themes = ["oversight", "claim-window"]
        if o is not None:
            facts.update(
                rule=rule_words("oversights", o.kind, who=player_name(doer, seat), capital=True),
                claimants=join([player_name(q, seat) for q in deal.claimants(o)]),
                window=claim_window(o.kind),
            )
            variant = OversightKind(o.kind).value
            themes.append(variant.replace("_", "-"))
        else:
            before = deal.replayed(index)
            a = deal.history[index]
            if a.kind == "lie_down":
                findings = before.lie_down_oversights(a.player)
                finding = next(f for f in findings if f.rank == rank)
                # the engine's finding, the doer named as the question names them
                facts["why"] = finding.why_closed(doer).words(None, names)
                variant = str(LAID_DOWN_KIND[finding.held].value)
            else:
                facts["why"] = ctx.defn.word("capture_no_mistake").format(
                    doer=player_name(doer, seat), rank=RANK_PLURALS[rank]
                )
                variant = "split_prial"
        return Candidate(
            deal=deal,
            seat=seat,
            variant=variant,
            answer=answer,
            accepted=[answer["right"][0]],
            facts=facts,
            features={
                "players": float(n),
                "since": float(len(told) - 1),
                "counting": float(case in ("closed", "none")),
            },
            themes=themes,
            theme="claim-window",
            data=data,
            explain_key=case,
            question_key="default",
        )

    # -- answers -----------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        got, right, chosen = self.read_letter(p, text)
        if got == right:
            return Verdict(True, f"Right: {right}.")
        return Verdict(
            False, f"Not quite: it is {right}, not {got}.", retry=self._nudge(p, chosen["case"])
        )

    @staticmethod
    def _nudge(p: Puzzle, chosen: str) -> str:
        """A nudge that points at what the chosen answer claimed, to be checked again: worked
        out from the chosen answer alone, so that it tells nothing of the right one (a wrong
        first answer is no probe)."""
        return {
            "open": "Not yet. That answer says three things: it was a mistake under this "
            "ruleset, another player made it, and enough of its cards are left. Check each.",
            "own": "Not yet. Look again at who made that move, and whether it was a mistake "
            "under this ruleset at all.",
            "closed": "Not yet. Count the cards of that rank still on the table against what a "
            "claim takes, and check it was a mistake at all.",
            "none": "Not yet. Look again at what was done: under this ruleset, is that move one "
            "of the mistakes a player may claim?",
        }[chosen]
