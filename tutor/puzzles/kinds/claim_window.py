"""``claim-window``: a mistake has just been left on the table; who may claim it, and until
when?

The position is a real deal played by careless computer players, cut just after the action that
opened an oversight (RULES.md 4).  The question names the mistake in the engine's phrase
(:func:`tutor.engine.parameters.value_phrase`) and lists four answers, each a *who* and an
*until when*: the right one is the engine's (:meth:`Deal.claimants`: every seat but the one that
made the mistake, in play or out; :func:`tutor.engine.parameters.claim_window`: "while both are
still on the table"); the others change the who (only the next to play, the offender too) or
the until when (the distractors' words are the kind's data, ``puzzles/claim-window.yaml``, in
the engine's form, "while ..."); each who and each until when is offered twice, so neither is
found by how often it comes.
Works under every ruleset that lets an oversight be claimed.
"""

from __future__ import annotations

from tutor.engine.deal import Deal
from tutor.engine.parameters import claim_window, rule_words, value_phrase
from tutor.engine.values import OversightKind
from tutor.puzzles.base import LETTERS, Candidate, OneLetterKind, Verdict, join, player_name


def _oversight(deal: Deal, index: int):
    """The open oversight made by the action at history ``index`` (None when there is none)."""
    return next((o for o in deal.open_oversights() if o.index == index), None)


class ClaimWindow(OneLetterKind):
    name = "claim-window"

    def why_not(self, rs):
        game = rs.game()
        if not any(game.claimable(k) for k in OversightKind):
            return "it lets no oversight be claimed"
        return None

    def solve(self, deal, seat, data, rs, players):
        o = _oversight(deal, data["index"])
        choices = [dict(c) for c in data["choices"]]
        if o is None:
            return {"choices": choices, "right": []}
        who = sorted(deal.claimants(o))
        until = claim_window(o.kind)
        return {"choices": choices,
                "right": [c["letter"] for c in choices
                          if sorted(c["who"]) == who and c["until"] == until],
                "claimants": who, "until": until, "kind": str(o.kind.value)}

    def build(self, ctx):
        rng, n = ctx.rng, ctx.players
        found: list[tuple[Deal, int]] = []

        def observer(d: Deal, a) -> None:
            if d.phase == "play" and _oversight(d, len(d.history) - 1) is not None \
                    and d.to_move is not None:
                found.append((d.clone(), len(d.history) - 1))

        ctx.play(ctx.new_pack(), rng.randrange(n), ctx.bots(rng.uniform(0.4, 0.8)), observer)
        if not found:
            return None
        deal, index = rng.choice(found)
        o = _oversight(deal, index)
        seat = rng.choice([q for q in range(n) if q != o.offender])
        off, nxt = o.offender, deal.to_move
        everyone = list(range(n))
        right_who = sorted(deal.claimants(o))
        until = claim_window(o.kind)
        wrong_until = ctx.defn.word_list("wrong_until")
        if not wrong_until:
            return None
        name = lambda q: player_name(q, seat)                               # noqa: E731
        other = rng.choice(wrong_until).format(offender=name(off))
        dealer = deal.dealer
        wrongs = [(everyone, f"every player, {name(off)} too")]
        if nxt != off:
            wrongs.append(([nxt], f"only {name(nxt)}, the next to play"))
        if dealer != off:               # "but" in a wrong answer too: not a word to go by
            wrongs += [([q for q in everyone if q != dealer],
                        f"every player but {name(dealer)}, the dealer")] * 2
        wrong_who, who_text = rng.choice(wrongs)
        right_text = f"every player but {name(off)}" + (", the dealer" if off == dealer else "")
        # each who and each until twice: neither is found by how often it is offered
        options = [(right_who, right_text, until), (right_who, right_text, other),
                   (wrong_who, who_text, until), (wrong_who, who_text, other)]
        rng.shuffle(options)
        choices = [{"letter": LETTERS[i], "who": list(who), "until": when,
                    "text": f"{text}, {when}"}
                   for i, (who, text, when) in enumerate(options)]
        data = {"index": index, "choices": choices}
        answer = self.solve(deal, seat, data, ctx.rs, n)
        if len(answer["right"]) != 1:
            return None
        names = [player_name(q, seat) for q in range(n)]
        action = deal.history[index].describe(True, names)
        facts = {"action": action,
                 "mistake": value_phrase("oversights", o.kind, who=name(off)),
                 "options": "\n".join(f"{c['letter']}) {c['text']}" for c in choices),
                 "rule": rule_words("oversights", o.kind, who=name(off), capital=True),
                 "claimants": join([name(q) for q in right_who]),
                 "offender": name(off), "right": answer["right"][0]}
        kind_theme = str(o.kind).replace("_", "-")
        return Candidate(deal=deal, seat=seat, variant="default", answer=answer,
                         accepted=[answer["right"][0]], facts=facts,
                         features={"players": float(n),
                                   "laid_down": float(str(o.kind).startswith("laid_down"))},
                         themes=["oversight", "claim-window", kind_theme],
                         theme="claim-window", data=data, explain_key="default")

    # -- answers -----------------------------------------------------------------------------

    def check(self, p, text):
        got, right, chosen = self.read_letter(p, text)
        if got == right:
            return Verdict(True, f"Right: {right}.")
        who_ok = sorted(chosen["who"]) == sorted(p.answer["claimants"])
        nudge = ("Not yet: until when is right, but not who. Who may not claim a mistake?"
                 if not who_ok and chosen["until"] == p.answer["until"] else
                 "Not yet: who is right, but not until when. What must still be on the table?"
                 if who_ok else "Not yet: neither who nor until when.")
        return Verdict(False, f"Not quite: it is {right}, not {got}.", retry=nudge)
