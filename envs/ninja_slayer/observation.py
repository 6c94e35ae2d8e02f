"""The observation: what one seat sees at the table, as float32 in [0, 1] (self first, then the opponent).
This module holds its layout; :func:`.seen.observe_into` (compiled) writes it.

Each card appears as its static features (``cards.CARD_FEATURES``: present, (id + 1)/48, type, cost,
カラテ, 工作力, 4 keyword bits, trigger, opcode, arg, target kind, ウケミ op and arg, activation cost;
an empty slot is all zeros), so a policy can read any pool. Never in it: the opponent's hand (apart
from cards it knows, because they were bounced there) and either deck's order.

With the rule option ``observation="card_ids"`` each card is its id alone, ``(id + 1) / 48`` (0 for an
empty slot; the features' second column): every block below with F = 1. Nothing else changes.

| block | size | meaning |
|---|---|---|
| scalars | 10 | turn/60, my turn, I went first, I am to act, stack size/16, passes/2, interrupt asked, I hold priority, the top stack item is mine, game over |
| phase | 13 | step one-hot (untap, draw, etel, character, ikusa_start, declare, interrupt, damage, ikusa_end, end, 3 spare) |
| decision | 5 | etel, priority, declare, interrupt, target |
| counts | 2 × 8 | per seat: deck/50, hand/10, エテル total/20, untapped エテル/20, face-up damage/10, face-down damage/10, healed cards/10, known hand cards/10 |
| attack | 21 | attack on, attacker is mine, attacker slot (6), target is the player, target character (ego index 0..11) |
| hand | 10 × (F+1) | my hand slots: card features, known to the opponent |
| opp_known_hand | 10 × F | opponent hand slots that I know (zeros otherwise) |
| field | 2 × 6 × (F+9) | card features, tapped, damage/10, カラテ/12, 工作力/8, entered this turn, redirected, カイゼン granted, attacker, target |
| stack | 16 × (F+47) | bottom first: card features, item kind (5), controller is me, opcode (16), arg/9, target kind (10), target (ego index one-hot, 13), is the item a COUNTER on the stack targets |
| pending | F+31 | the trigger whose target is being asked: card, opcode (16), target kind (10), item kind (5) |
| deck_unseen | 48 | per card id, my cards still in my deck / 5 |
| grave | 2 × 48 | オヒガン per card id / 5 |
| etel | 2 × 48 | エテル zone per card id / 5 |
| damage | 2 × 48 | cards ever put into the damage zone per card id / 5 (healed ones included) |
| last_resolved | F | the card of the last item that resolved |
| history | K × (2+11+F) | the last K public actions, newest first: by me / by the opponent, action family (11), card shown |
"""
from __future__ import annotations

from yuugi.envs.core.layout import block_offsets

from . import actions as A
from . import cards as C
from .config import FIELD_SLOTS, HAND_SLOTS, STACK_MAX
from .state import NUM_DECISIONS, NUM_PHASE_CODES

F = C.NUM_CARD_FEATURES
FIELD_DYN = 9
STACK_DYN = 5 + 1 + C.NUM_OPCODES + 1 + C.NUM_TARGET_KINDS + 13 + 1
COUNT_SCALE = 5


CARD_WIDTHS = {"full": F, "card_ids": 1}  # floats per card, by the rule option ``observation``


def layout(history: int, card: int = F) -> tuple[tuple[str, int], ...]:
    """The blocks, in order, with ``history`` recent actions and ``card`` floats per card."""
    F = card  # noqa: N806 - the table above names the per-card width F
    return (
        ("scalars", 10), ("phase", NUM_PHASE_CODES), ("decision", NUM_DECISIONS), ("counts", 16), ("attack", 21),
        ("hand", HAND_SLOTS * (F + 1)), ("opp_known_hand", HAND_SLOTS * F),
        ("field", 2 * FIELD_SLOTS * (F + FIELD_DYN)),
        ("stack", STACK_MAX * (F + STACK_DYN)), ("pending", F + C.NUM_OPCODES + C.NUM_TARGET_KINDS + 5),
        ("deck_unseen", C.NUM_CARDS), ("grave", 2 * C.NUM_CARDS), ("etel", 2 * C.NUM_CARDS),
        ("damage", 2 * C.NUM_CARDS), ("last_resolved", F), ("history", history * (2 + A.NUM_FAMILIES + F)),
    )


def offsets(history: int, card: int = F) -> tuple[dict[str, slice], int]:
    """Each block's slice and the total width (see :func:`layout`)."""
    return block_offsets(layout(history, card))
