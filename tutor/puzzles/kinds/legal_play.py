"""``legal-play``: it is your turn; which of these listed moves may you make?

The moves listed are the seat's distinct legal choices now (the engine's
:meth:`~tutor.engine.deal.Deal.legal_actions` for the seat: captures grouped by rank and form,
declarations, lying down, ending the turn; claims are the spot-oversight kind's business) and a
few plausible illegal ones (a form the ruleset refuses, one card taking two, a card taking
another rank, a card misread (one you do not hold, a table card not there), lying down while a
capture is possible, declaring a live pair, ...), each checked
illegal by the engine (:meth:`~tutor.engine.deal.Deal.why_illegal`); for rare forms the pack may
be arranged first (:meth:`LegalPlay._arranged`).  The learner answers with
letters; the grade gives partial credit and names what was missed and what was wrongly chosen.
A legal capture that splits a table prial is labelled as a claimable mistake
(:meth:`~tutor.engine.deal.Deal.would_split_prial`).

Works under every ruleset, the parameters of RULES.md 3.6 included (``end_turn`` after a
capture under ``captures_per_turn: any``, ``declare_pair``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tutor.engine.bots import Bot
from tutor.engine.cards import make_card, pretty_cards, rank_of
from tutor.engine.deal import CAPTURE_FORM, Action, Deal, deal_order
from tutor.engine.parameters import spec
from tutor.engine.reasons import Reason, as_reason
from tutor.engine.records import action_from_json, action_to_json
from tutor.engine.rulesets import Ruleset
from tutor.engine.values import CaptureForm, Declaration, OversightKind
from tutor.puzzles.base import LETTERS, Candidate, Ctx, Plan, PuzzleKind, Verdict, join
from tutor.puzzles.model import AnswerError, Definition, Puzzle
from tutor.puzzles.reader import letters_answer
from tutor.puzzles.surface import shape

#: Plan themes that keep to what lesson 2 teaches (match a card of the same rank, or lie down).
BASIC = (CaptureForm.ONE_FOR_ONE, "lie_down")
#: Tags a basic puzzle may carry (besides house rules', which no lesson teaches).
BASIC_TAGS = {"one-for-one", "lie-down", "mismatch", "misread"}
HOUSE_TAGS = {"end-turn", "declare-pair", "lie-down-pays"}
#: Themes of a move that is never allowed (the trap is the point): listed, such a move asks
#: about its theme; any other theme a refused move carries (a declaration that may not be
#: made, lying down while a capture is possible) is not asked by listing it
#: (:attr:`tutor.puzzles.Puzzle.asks`).
TRAPS = {
    "two-for-one",
    "mismatch",
    "misread",
    "no-one-for-three",
    "no-pair-for-pair",
    "no-prial-for-one",
}
_DECL_WORDS = {
    "declare_prial": "declare two of your prial",
    "declare_mournival": "declare your mournival",
    "declare_dead_pair": "declare your pair as dead",
    "declare_pair": "declare your pair",
}


#: The capture shapes (hand cards, table cards) a learner might try, with the tag each
#: teaches: one card taking two (no capture form), then the engine's forms but one for one
#: (:data:`~tutor.engine.deal.CAPTURE_FORM`), each a trap where the ruleset refuses it (the
#: engine judges every decoy: :func:`decoys`).
_TRIED_SHAPES = [((1, 2), "two-for-one")] + [
    (shape, "no-" + form.replace("_", "-"))
    for shape, form in CAPTURE_FORM.items()
    if form is not CaptureForm.ONE_FOR_ONE
]


def choices_of(deal: Deal, seat: int) -> list[Action]:
    """What ``seat`` may do now (engine), claims and the dealer's taking of a table mournival
    left out, each action once."""
    return list(
        dict.fromkeys(
            a for a in deal.legal_actions(seat) if a.kind not in ("claim", "take_table_mournival")
        )
    )


def group_key(a: Action) -> tuple[object, ...]:
    """The group of a choice: kind, rank and form (so any seven taking a lone seven is one
    choice)."""
    if a.kind in ("lie_down", "end_turn"):
        return (a.kind,)
    return (a.kind, a.rank, len(a.cards), len(a.table))


def choice_groups(deal: Deal, seat: int) -> list[list[Action]]:
    """:func:`choices_of` grouped by :func:`group_key`, in engine order."""
    groups: dict[tuple[object, ...], list[Action]] = {}
    for a in choices_of(deal, seat):
        groups.setdefault(group_key(a), []).append(a)
    return list(groups.values())


def _place(pack: list[int], targets: list[int], cards: list[int]) -> None:
    """Swap ``cards`` into pack positions ``targets``."""
    for i, c in zip(targets, cards):
        j = pack.index(c)
        pack[i], pack[j] = pack[j], pack[i]


def label(a: Action) -> str:
    """A listed move in words: ``7♥ takes 7♠``, ``declare 5♣ 5♦``, ``lie down`` (bare, as every
    option is: what a move does is said in the explanation, never beside the option)."""
    if a.kind in ("capture", "play_on_capture"):
        return f"{pretty_cards(a.cards)} takes {pretty_cards(a.table)}"
    if a.kind == "lie_down":
        return "lie down"
    if a.kind == "end_turn":
        return "end your turn"
    return f"declare {pretty_cards(a.cards)}"


def form_words(a: Action) -> str:
    """What kind of move ``a`` is, for the explanation."""
    if a.form:
        return spec("captures").words[a.form]
    if a.kind == "lie_down":
        return "nothing else is possible, so you must lie down"
    if a.kind == "end_turn":
        return "you have captured this turn, and may stop"
    return _DECL_WORDS.get(a.kind, a.kind.replace("_", " "))


def decoys(
    deal: Deal, seat: int, basic: bool, rng: random.Random | None = None, like: Action | None = None
) -> list[tuple[Action, str]]:
    """Plausible illegal moves for ``seat`` with the tag each teaches: every capture shape the
    learner might try with the ranks in hand and on the table (unless ``basic``), a card taking
    a table card of another rank, lying down, declaring a pair that is not dead, ending a turn
    with no capture yet, a card misread (its suit drawn with ``rng``, a ``random.Random``; the
    first suit without one), of a rank drawn with ``rng``; where ``like`` (the one allowed
    capture) is given, the misreads are that capture with one of its cards misread (the same
    rank, a suit the seat cannot see), so that they are worded as it is (issue 42).  Each is
    checked illegal by the engine."""
    hand, table = deal.hand(seat), deal.table_cards()
    by_hand: dict[int, list[int]] = {}
    for c in hand:
        by_hand.setdefault(rank_of(c), []).append(c)
    by_table: dict[int, list[int]] = {}
    for c in table:
        by_table.setdefault(rank_of(c), []).append(c)
    out: list[tuple[Action, str]] = []
    if not basic:
        for r in sorted(set(by_hand) & set(by_table)):
            h, t = by_hand[r], by_table[r]
            for (nh, nt), tag in _TRIED_SHAPES:
                if len(h) >= nh and len(t) >= nt:
                    out.append((Action.make(seat, "capture", h[:nh], t[:nt]), tag))
        for _r, cs in sorted(by_hand.items()):
            if len(cs) == 2:
                kind = "declare_dead_pair" if deal.game.declares(Declaration.DEAD_PAIR) else None
                if kind:
                    out.append((Action.make(seat, kind, cs), "declaration"))
        if deal.game.any_captures_per_turn:
            out.append((Action(seat, "end_turn"), "end-turn"))
    # a card taking another rank: one, or where lying down is the move, two (of other hand
    # and table ranks), so the move is not found as the one option unlike the others
    lying = deal.why_illegal(Action.make(seat, "lie_down", hand)) is None
    used: set[int] = set()
    for r, cs in sorted(by_hand.items()):
        others = [c for c in table if rank_of(c) != r and rank_of(c) not in used]
        if others:
            out.append((Action.make(seat, "capture", cs[:1], others[:1]), "mismatch"))
            used.add(rank_of(others[0]))
            if not lying or len(used) == 2:
                break
    out.append((Action.make(seat, "lie_down", hand), "lie-down"))
    # a card misread (issue 42): a capture of the right rank with a card of that rank you do
    # not hold, or of a table card that is not there, worded as an allowed capture is; the
    # cards are chosen from what the seat sees (neither in its hand nor on the table), never
    # from where they are
    seen = set(hand) | set(table)
    if like is not None and like.kind == "capture" and len(like.cards) == len(like.table) == 1:
        rank = rank_of(like.cards[0])
        unseen = [make_card(rank, s) for s in range(4) if make_card(rank, s) not in seen]
        if unseen:
            pick = rng.choice(unseen) if rng else unseen[0]
            out.append((Action.make(seat, "capture", [pick], list(like.table)), "misread"))
            pick = rng.choice(unseen) if rng else unseen[-1]
            out.append((Action.make(seat, "capture", list(like.cards), [pick]), "misread"))
            return [(a, tag) for a, tag in out if deal.why_illegal(a) is not None]

    def order(ranks: list[int]) -> list[int]:
        """``ranks`` in a drawn order (issue 42: a misread always of the lowest or highest
        rank would be told by its rank)."""
        ranks = sorted(ranks)
        if rng:
            rng.shuffle(ranks)
        return ranks

    for r in order(list(by_table)):
        cs = by_table[r]
        unseen = [make_card(r, s) for s in range(4) if make_card(r, s) not in seen]
        if unseen:
            pick = rng.choice(unseen) if rng else unseen[0]
            out.append((Action.make(seat, "capture", [pick], cs[:1]), "misread"))
            break
    for r in order(list(by_hand)):
        cs = by_hand[r]
        unseen = [make_card(r, s) for s in range(4) if make_card(r, s) not in seen]
        if unseen:
            pick = rng.choice(unseen) if rng else unseen[0]
            out.append((Action.make(seat, "capture", cs[:1], [pick]), "misread"))
            break
    return [(a, tag) for a, tag in out if deal.why_illegal(a) is not None]


def legal_tags(deal: Deal, seat: int, groups: list[list[Action]]) -> set[str]:
    """The themes the legal choices carry."""
    tags = set()
    for g in groups:
        a = g[0]
        if a.kind == "lie_down":
            tags.add("lie-down")
        elif a.kind == "end_turn":
            tags.add("end-turn")
        elif a.kind == "declare_pair":
            tags.add("declare-pair")
        elif a.kind.startswith("declare"):
            tags.add("declaration")
            if a.declared in (Declaration.PRIAL, Declaration.MOURNIVAL):
                tags.add(str(a.declared))  # prial, mournival
        elif a.form:
            tags.add(a.form.replace("_", "-"))
        if any(deal.would_split_prial(x) for x in g):
            tags.add("split-prial")
    if deal.game.lying_down_pays and "lie-down" in tags:
        tags.add("lie-down-pays")
    return tags


#: The engine's reasons a listed move is refused (:attr:`Reason.code` of
#: :meth:`~tutor.engine.deal.Deal.why_illegal`), in a few words that name the rule without the
#: answer (the retry's nudge); a reason not listed is said by the kind of move
#: (:data:`_SHORT_BY_KIND`).
_SHORT_WHY = {
    "other_rank": "takes a card of another rank",
    "one_takes_two": "has one card take two",
    "capture_not_allowed": "is a capture this ruleset does not allow",
    "must_capture": "lies down while another move is possible",
    "must_declare": "lies down while another move is possible",
    "captured_this_turn": "lies down while another move is possible",
    "no_capture_yet": "ends a turn that has not captured yet",
}
_SHORT_BY_KIND = {
    "capture": "is not a capture you may make now",
    "play_on_capture": "is not a capture you may make now",
    "lie_down": "lies down while another move is possible",
    "end_turn": "is not a move you may make now",
}


def _mover(deal: Deal) -> int:
    """The seat to move in ``deal`` (a position a puzzle is built at always has one)."""
    seat = deal.to_move
    assert seat is not None
    return seat


def _refusal(deal: Deal, a: Action) -> Reason:
    """Why ``a`` (a listed decoy, checked illegal when the puzzle was made) may not be made."""
    why = deal.why_illegal(a)
    assert why is not None
    return why


def _short_why(deal: Deal, a: Action) -> str:
    """Why a listed move may not be made, in a few words that name the rule without the
    answer: the engine's reason (:meth:`~tutor.engine.deal.Deal.why_illegal`) said by its code
    (:data:`_SHORT_WHY`): a capture form the ruleset does not allow, one card taking two,
    another rank, lying down while a move is possible, a declaration that is not allowed now
    (one out of turn under ``hand_plays: turn``: :attr:`~tutor.engine.game.Game.
    declaration_timing`)."""
    why = deal.why_illegal(a)
    code = why.code if why is not None else ""
    if code == "declaration_is_a_turn":  # the rule in the Game's words
        return f"is a declaration, and {deal.game.declaration_timing}"
    return _SHORT_WHY.get(code) or _SHORT_BY_KIND.get(
        a.kind, "is a declaration you may not make now"
    )


class LegalPlay(PuzzleKind):
    name = "legal-play"

    def plan_themes(self, rs: Ruleset) -> list[str]:
        """The themes a plan may aim at under ``rs``."""
        game = rs.game()
        out = [CaptureForm.ONE_FOR_ONE, "lie_down"]
        if any(
            game.declares(d)
            for d in (Declaration.PRIAL, Declaration.MOURNIVAL, Declaration.DEAD_PAIR)
        ):
            out.append("declaration")  # (a ruleset that declares any pair tags it so)
        for form in (
            CaptureForm.ONE_FOR_THREE,
            CaptureForm.PAIR_FOR_PAIR,
            CaptureForm.PRIAL_FOR_ONE,
        ):
            out.append(form if game.allows(form) else f"no_{form}")
        if game.allows(CaptureForm.ONE_FOR_THREE) and game.claimable(OversightKind.SPLIT_PRIAL):
            out.append(OversightKind.SPLIT_PRIAL)
        if game.any_captures_per_turn:
            out.append("end_turn")
        out.append("two_for_one")  # a decoy: one card taking two of a rank
        return out

    def plan(
        self, base: random.Random, rs: Ruleset, players: int, seed: int, defn: Definition
    ) -> Plan:
        return {"variant": "default", "theme": base.choice(self.plan_themes(rs))}

    def plan_may_fit(self, plan: Plan, theme: str) -> bool:
        if theme == "mismatch":  # a decoy any plan may list
            return True
        if theme in ("prial", "mournival"):  # a declaration of one, among the moves
            return plan["theme"] == "declaration"
        return plan["theme"].replace("_", "-") == theme

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, Any], rs: Ruleset, players: int
    ) -> dict[str, Any]:
        right = [
            c["letter"]
            for c in data["choices"]
            if deal.why_illegal(action_from_json(c["move"], 0)) is None
        ]
        return {
            "actions": [action_to_json(a) for a in choices_of(deal, seat)],
            "choices": [dict(c) for c in data["choices"]],
            "right": right,
        }

    def build(self, ctx: Ctx) -> Candidate | None:
        rng = ctx.rng
        max_groups = int(ctx.defn.options.get("max_choices", 5))
        theme = ctx.plan["theme"]
        basic = theme in BASIC
        found: list[tuple[Deal, list[list[Action]]]] = []

        def observer(d: Deal, a: Action) -> None:
            p = d.to_move
            if d.phase != "play" or p is None:
                return
            if p == d.dealer and not d.started and d.table_mournivals:
                return
            if any(x.kind == "claim" for x in d.free_actions(p)):
                return
            groups = choice_groups(d, p)
            if 1 <= len(groups) <= max_groups:
                found.append((d.clone(), groups))

        pack, dealer, bots = self._arranged(ctx, theme)
        ctx.play(pack, dealer, bots, observer)
        want = theme.replace("_", "-")
        pick: list[tuple[Deal, list[list[Action]], list[tuple[Action, str]]]] = []
        for d, g in found:
            tags = legal_tags(d, _mover(d), g)
            # the one allowed move shown as any of its group, not the engine's first (whose
            # cards would lean to one suit)
            one = rng.choice(g[0]) if len(g) == 1 else None
            if one is not None:
                g = [[one] + [a for a in g[0] if a != one]]
            probes = decoys(d, _mover(d), basic, rng, one)
            if basic:
                if not tags <= BASIC_TAGS | HOUSE_TAGS or want not in tags:
                    continue
                if theme == CaptureForm.ONE_FOR_ONE and "lie-down" in tags:
                    continue
            elif want not in tags | {t for _, t in probes}:
                continue
            if not probes:
                continue  # nothing to set beside the allowed moves
            pick.append((d, g, probes))
        if not pick:
            return None
        if theme == "declaration":  # a prial (or mournival) that may be declared first
            held = [
                x for x in pick if legal_tags(x[0], _mover(x[0]), x[1]) & {"prial", "mournival"}
            ]
            pick = held or pick
        # a position with one allowed move half the time where there is one, so that a puzzle
        # with one right letter is not mostly a lie-down (issue 42: "lie down" was then right)
        # (and that allowed move a capture, a lie-down being its theme's: with one right
        # letter a lie-down is the option unlike the others, so it is right no more often than
        # a capture beside it)
        if theme != "lie_down":
            pick = [x for x in pick if len(x[1]) > 1 or x[1][0][0].kind != "lie_down"] or pick
        single = [x for x in pick if len(x[1]) == 1]
        if theme != "lie_down" and single and rng.random() < 0.75:
            pick = single
        deal, groups, probes = rng.choice(pick)
        seat = _mover(deal)
        legal = [g[0] for g in groups]
        room = max(1, min(2, 6 - len(legal)))
        if len(legal) == 1:
            # one right letter (issue 42): every decoy worded as the allowed move is (the same
            # shape, cards aside: a misread card, a card of another rank), beside lying down
            # where it is not the move; a decoy of another shape (one card taking two) would be
            # told wrong by its wording alone
            form = shape(label(legal[0]))
            alike = [x for x in probes if shape(label(x[0])) == form or x[0].kind == "lie_down"]
            probes = alike or probes
        wanted = [x for x in probes if x[1] == want]
        others = [x for x in probes if x[1] != want]
        rng.shuffle(others)
        # decoys of what earlier lessons teach first, so a puzzle asks no more than it must
        lessons = ctx.defn.themes
        # and a misread card before a card of another rank (which the words alone refuse)
        others.sort(key=lambda x: (lessons.get(x[1]) or "99", x[1] == "mismatch"))
        if len(legal) == 1 and legal[0].kind != "lie_down":
            # lying down shown beside every single allowed capture (see above)
            others.sort(key=lambda x: x[0].kind != "lie_down")
        shown = (wanted[:1] + others)[:room]
        if len(legal) == 1 and len(shown) < 2:
            return None  # one allowed move beside one decoy: the odd one out is right
        entries = [(a, True, "") for a in legal] + [(a, False, tag) for a, tag in shown]
        rng.shuffle(entries)
        choices = []
        lines_ok, lines_no = [], []
        split = []
        for i, (a, ok, _) in enumerate(entries):
            letter = LETTERS[i]
            choices.append({"letter": letter, "move": action_to_json(a), "text": label(a)})
            if ok:
                group = next(x for x in groups if x[0] == a)
                more = f" (or any of the {len(group)} such moves)" if len(group) > 1 else ""
                note = ""
                if any(deal.would_split_prial(x) for x in group):
                    split_words = deal.split_prial_reason(rank_of(a.cards[0])).words(seat)
                    note = f": allowed, but {split_words}. Take all three with one card instead"
                    split.append(letter)
                lines_ok.append(f"- {letter}) {label(a)}: {form_words(a)}{more}{note}.")
            else:
                lines_no.append(f"- {letter}) {label(a)}: {_refusal(deal, a).words(seat)}.")
        allowed = legal_tags(deal, seat, groups)
        decoy_tags = sorted({tag for _, ok, tag in entries if not ok} - allowed - TRAPS)
        data = {"choices": choices, "theme": theme, "decoy_tags": decoy_tags}
        answer = self.solve(deal, seat, data, ctx.rs, ctx.players)
        right = answer["right"]
        tags = allowed | {tag for _, ok, tag in entries if not ok}
        example = next(
            " ".join(x)
            for x in (LETTERS[:2], LETTERS[1:3], LETTERS[:1], LETTERS[1:2], LETTERS[:3])
            if list(x) != right and len(x) <= len(entries)
        )
        accepted = [" ".join(right), ", ".join(right).lower()]
        if len(right) > 1:
            accepted.append(" and ".join(reversed(right)))
        facts = {
            "options": "\n".join(f"{c['letter']}) {c['text']}" for c in choices),
            "allowed": "\n".join(lines_ok),
            "refused": "\n".join(lines_no) or "- none listed.",
            "count": len(groups),
            "example": example,
            "hand_plays": as_reason(deal.game.declaration_timing).words(capital=True)
            + ".",  # the Game's words
            "captures": join(
                [spec("captures").words[f] for f in CaptureForm if ctx.rs.game().allows(f)]
            ),
        }
        features = {
            "choices": max(0, len(entries) - 3),
            "right": len(right) - 1,
            "forbidden": float(any(t.startswith("no-") for t in tags)),
            "declaration": float("declaration" in tags),
            "rare_form": float(bool(tags & {"pair-for-pair", "prial-for-one", "one-for-three"})),
            "split_prial": float(bool(split)),
        }
        return Candidate(
            deal=deal,
            seat=seat,
            variant="default",
            answer=answer,
            accepted=accepted,
            facts=facts,
            features=features,
            themes=["legal-play"] + sorted(tags),
            theme=want,
            tags=tags,
            data=data,
        )

    @staticmethod
    def _arranged(ctx: Ctx, theme: str) -> tuple[list[int], int, list[Bot]]:
        """A pack, dealer and computer players for ``theme``.  Moves that need three of a rank
        together are rare in play, so the shuffled pack may be arranged first (the dealing order
        from :func:`tutor.engine.deal.deal_order`): for a prial taking a single card, three of a
        rank to one player (who then forgets to declare them) and the fourth to the table; for a
        declaration, three of a rank to one player who forgets to declare them; for one card
        taking three, three of a rank to the table; for one card taking two (a decoy), two of a
        rank to the table."""
        rng, n = ctx.rng, ctx.players
        pack = ctx.new_pack()
        dealer = rng.randrange(n)
        order = deal_order(n, dealer, ctx.pc.hand)
        rate = rng.uniform(0.2, 0.6)
        rank = rng.randrange(13)
        cards = [make_card(rank, s) for s in rng.sample(range(4), 4)]
        table = [i for i, q in enumerate(order) if q is None]
        if theme in (CaptureForm.PRIAL_FOR_ONE, "no_prial_for_one"):
            seat = rng.randrange(n)
            hand = [i for i, q in enumerate(order) if q == seat]
            _place(pack, rng.sample(hand, 3) + rng.sample(table, 1), cards)
            return pack, dealer, ctx.bots(rate, {seat: 1.0})
        if theme == "declaration":  # a prial dealt to a player who does not declare it
            seat = rng.randrange(n)
            hand = [i for i, q in enumerate(order) if q == seat]
            _place(pack, rng.sample(hand, 3), cards[:3])
            return pack, dealer, ctx.bots(rate, {seat: 1.0})
        if theme in (CaptureForm.ONE_FOR_THREE, "no_one_for_three", OversightKind.SPLIT_PRIAL):
            _place(pack, rng.sample(table, 3), cards[:3])
        elif theme == "two_for_one":
            _place(pack, rng.sample(table, 2), cards[:2])
        return pack, dealer, ctx.bots(rate)

    # -- answers ----------------------------------------------------------------------------

    def check(self, p: Puzzle, text: str) -> Verdict:
        choices = p.answer["choices"]
        letters = "".join(c["letter"] for c in choices)
        picked = letters_answer(
            text, letters, expected=f"answer with letters from {letters[0]} to {letters[-1]}"
        )
        if not picked:
            raise AnswerError(
                f"answer with the letters of the moves you may make ({letters[0]} to {letters[-1]})"
            )
        right = set(p.answer["right"])
        deal = p.position
        missed = [c for c in choices if c["letter"] in right and c["letter"] not in picked]
        wrong = [c for c in choices if c["letter"] in picked and c["letter"] not in right]
        hits = len(right & set(picked))
        credit = hits / len(right | set(picked))
        if not missed and not wrong:
            return Verdict(True, "Right: " + ", ".join(sorted(right)) + ".")
        parts = []
        if missed:
            parts.append("you left out " + "; ".join(f"{c['letter']}) {c['text']}" for c in missed))
        if wrong:
            parts.append(
                "not allowed: "
                + "; ".join(
                    f"{c['letter']}) {c['text']}: "
                    f"{_refusal(deal, action_from_json(c['move'], 0)).words(p.seat)}"
                    for c in wrong
                )
            )
        bits = [f"{c['letter']} {_short_why(deal, action_from_json(c['move'], 0))}" for c in wrong]
        if missed:
            bits.append(
                f"you left out {len(missed)} move{'s' if len(missed) > 1 else ''} you may make"
            )
        lead = (
            f"Partly right: you chose {hits} of the {len(right)} moves you may make. "
            if hits
            else "Not right. "
        )
        return Verdict(
            False,
            lead + ". ".join(x[0].upper() + x[1:] for x in parts) + ".",
            credit=credit,
            retry="Not yet: " + "; ".join(bits) + ".",
        )

    def answer_words(self, p: Puzzle) -> list[str]:
        return ["hint", "quit"] + [c["letter"] for c in p.answer["choices"]]

    def wrong_answer(self, p: Puzzle) -> str | None:
        right = p.answer["right"]
        letters = [c["letter"] for c in p.answer["choices"]]
        wrong = [x for x in letters if x not in right]
        if wrong:
            return " ".join(right + wrong[:1])
        return " ".join(right[:-1]) if len(right) > 1 else None
