"""The rules engine: one deal of Laugh and Lie Down under any ruleset (RULES.md 3-4, 7-8).

:class:`Deal` is the state.  Like an OpenSpiel state it offers :meth:`Deal.legal_actions`
(``legal_actions()``: the turn actions of the player to move; ``legal_actions(seat)``: everything
that seat may do now, its turn actions when it is to move plus its declarations and claims),
:meth:`Deal.apply` (which refuses an illegal action with the reason), :meth:`Deal.is_terminal`,
:meth:`Deal.returns`, :meth:`Deal.clone`, :meth:`Deal.push`/:meth:`Deal.pop` (apply and take
back), :meth:`Deal.parse_action` (the learner's notation read on the position, with precise
errors) and counting (:meth:`Deal.capture_options`, :meth:`Deal.rank_count`; what a seat sees
as a whole is its :func:`~tutor.engine.observe.observe`).  Its rules are its
:class:`~tutor.engine.game.Game` (``deal.game``).  :meth:`Deal.claim_target` says which
open oversight a claim takes, or why none; :meth:`Deal.lie_down_oversights` what lying down would
make.  :meth:`Deal.from_position` builds a hand-made position; a finished deal's
:class:`DealResult` carries the whole settlement, seat by seat (:class:`SeatSettlement`), and
the declarations held to the end (:class:`HeldDeclaration`).

Cards are ints (see :mod:`tutor.engine.cards`).  Inside, each hand, the table and each won pile is
a 52-bit mask; four bits per rank ("nibble"), so rank counts are cheap bit arithmetic.

The engine branches only on ruleset parameters (:class:`tutor.engine.rulesets.Ruleset`, described
in :mod:`tutor.engine.parameters`), never on a source's name.

This package is one public module; import from ``tutor.engine.deal``.  The Deal is one class in
one private module beside this file (``_deal``: its state declared once, then its parts, and the
values it returns); the two helpers it uses and that use nothing of it are modules of their own:
the bit arithmetic on card masks (``_bits``) and actions with their notation (``_notation``).
"""

from __future__ import annotations

from tutor.engine.deal._bits import (  # noqa: F401
    _NIB_CARDS,
    FULL_MASK,
    NIB,
    RANK_MASK,
    _counts,
    _dead_bits,
    _presence,
    _rank_count,
    _ranks,
)
from tutor.engine.deal._deal import (
    CLAIM_TAKES,
    LAID_DOWN_KIND,
    CaptureOption,
    Deal,
    DealResult,
    HeldDeclaration,
    LaidDown,
    Oversight,
    RankCount,
    SeatSettlement,
    claim_sizes,
    deal_order,
    new_deal,
    reachable_oversights,
)
from tutor.engine.deal._notation import (
    ACTION_KINDS,
    CAPTURE_FORM,
    CAPTURE_KINDS,
    CLAIM_FILLER,
    DECLARATION_ACTION,
    DECLARATION_ORDER,
    DECLARATIONS,
    OVER,
    PLAY,
    PLAY_ON,
    TURN_KINDS,
    Action,
    ClaimWords,
    one_declaration_per_rank,
    preferred_declarations,
    read_claim_words,
)

__all__ = [
    "ACTION_KINDS",
    "CAPTURE_FORM",
    "CAPTURE_KINDS",
    "DECLARATION_ACTION",
    "OVER",
    "PLAY",
    "PLAY_ON",
    "CLAIM_FILLER",
    "CLAIM_TAKES",
    "DECLARATIONS",
    "DECLARATION_ORDER",
    "LAID_DOWN_KIND",
    "TURN_KINDS",
    "Action",
    "CaptureOption",
    "ClaimWords",
    "Deal",
    "DealResult",
    "HeldDeclaration",
    "LaidDown",
    "Oversight",
    "RankCount",
    "SeatSettlement",
    "deal_order",
    "claim_sizes",
    "new_deal",
    "one_declaration_per_rank",
    "preferred_declarations",
    "reachable_oversights",
    "read_claim_words",
]
