"""What the ninja_slayer heuristics read from a batch of observations, decoded into plain arrays.

Everything comes from the named blocks of :mod:`yuugi.envs.ninja_slayer.observation` (the layout is found
from the observation's width, since the history length is a rule option), and a card's printed values
come from its id through the static tables of :mod:`yuugi.envs.ninja_slayer.cards`. The 13 "ego targets"
of the action space are kept as one axis throughout: 0..5 my field slots, 6..11 the opponent's,
12 no character (the player, the stack).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer import observation as O
from yuugi.envs.ninja_slayer.actions import NUM_FAMILIES
from yuugi.envs.ninja_slayer.config import FIELD_SLOTS, HAND_SLOTS, STACK_MAX
from yuugi.envs.ninja_slayer.state import NUM_DECISIONS, NUM_PHASE_CODES

EGO = 2 * FIELD_SLOTS + 1  # 13 ego targets
NO_CHAR = 2 * FIELD_SLOTS  # ego target 12
# Field dynamics after the card features (observation.py's field block).
_TAP, _DMG, _KARATE, _KOUSAKU, _ENTERED, _REDIR, _KZ, _ATTACKER, _TARGET = range(9)
# Stack item dynamics after the card features.
_ITEM_KIND, _ITEM_MINE = 0, 5
_ITEM_OP = 6
_ITEM_ARG = _ITEM_OP + C.NUM_OPCODES
_ITEM_TK = _ITEM_ARG + 1
_ITEM_TARGET = _ITEM_TK + C.NUM_TARGET_KINDS
# The count block, per seat.
_DECK, _HAND, _ETEL_TOTAL, _ETEL_UNTAPPED, _DMG_UP, _DMG_DOWN = range(6)
# The scalar block.
_MY_TURN, _STACK_LEN = 1, 4


@lru_cache(maxsize=8)
def layout_for_width(width: int) -> tuple[dict[str, slice], int]:
    """The block offsets of an observation ``width`` floats wide and its floats per card: the history
    length and the ``observation`` option are found from the width (the two layouts' widths never meet:
    4,783 floats and more in full, 1,800 at most with card ids)."""
    for card in O.CARD_WIDTHS.values():
        per_action = 2 + NUM_FAMILIES + card
        _, without_history = O.offsets(0, card)
        history, rest = divmod(width - without_history, per_action)
        if not rest and 1 <= history <= 32:
            return O.offsets(history, card)[0], card
    forms = " or ".join(f"{O.offsets(0, c)[1]} + k × {2 + NUM_FAMILIES + c}" for c in O.CARD_WIDTHS.values())
    raise ValueError(f"an observation of width {width} is not a ninja_slayer observation ({forms} floats, k = 1..32)")


def offsets_for_width(width: int) -> dict[str, slice]:
    """The block offsets of an observation ``width`` floats wide (see :func:`layout_for_width`)."""
    return layout_for_width(width)[0]


def card_ids(cards: np.ndarray) -> np.ndarray:
    """int64[...]: card ids of the card slots ``[..., card width]`` (-1 for an empty slot): the id column
    of the full features, or the one float of a card-ids observation."""
    column = C.CARD_ID_COLUMN if cards.shape[-1] == C.NUM_CARD_FEATURES else 0
    return np.rint(cards[..., column] * C.NUM_CARDS).astype(np.int64) - 1


def _lookup(table: np.ndarray, ids: np.ndarray, empty: float = 0) -> np.ndarray:
    """``table[ids]`` with ``empty`` where the id is -1."""
    return np.where(ids >= 0, table[np.maximum(ids, 0)], empty)


class View:
    """The decoded batch: scalars [B], hand [B, 10], characters on the 13 ego targets [B, 13]."""

    def __init__(self, obs: np.ndarray) -> None:
        obs = np.asarray(obs, dtype=np.float32)
        off, F = layout_for_width(obs.shape[1])  # noqa: N806 - floats per card, as in the layout's table
        b = len(obs)
        self.rows = np.arange(b)
        sc = obs[:, off["scalars"]]
        self.my_turn = sc[:, _MY_TURN] > 0.5
        self.stack_len = np.rint(sc[:, _STACK_LEN] * STACK_MAX).astype(np.int64)
        self.phase = obs[:, off["phase"]].reshape(b, NUM_PHASE_CODES).argmax(axis=1)
        self.decision = obs[:, off["decision"]].reshape(b, NUM_DECISIONS).argmax(axis=1)

        cnt = obs[:, off["counts"]].reshape(b, 2, 8)
        self.deck = np.rint(cnt[:, :, _DECK] * 50)
        self.hand_count = np.rint(cnt[:, :, _HAND] * HAND_SLOTS)
        self.etel_total = np.rint(cnt[:, :, _ETEL_TOTAL] * 20)
        self.etel_untapped = np.rint(cnt[:, :, _ETEL_UNTAPPED] * 20)
        self.damage = np.rint((cnt[:, :, _DMG_UP] + cnt[:, :, _DMG_DOWN]) * 10)  # [B, 2]: both count to 10
        self.jitsu = np.rint(cnt[:, :, _DMG_UP] * 10)  # face-up damage cards, the fuel of ジツ

        att = obs[:, off["attack"]]
        self.attack_on = att[:, 0] > 0.5
        self.attack_mine = att[:, 1] > 0.5
        self.attack_at_player = self.attack_on & (att[:, 8] > 0.5)
        # The attacker and the target as ego targets (12 when there is none).
        slot = att[:, 2:8].argmax(axis=1)
        self.attacker = np.where(self.attack_on, np.where(self.attack_mine, slot, slot + FIELD_SLOTS), NO_CHAR)
        tgt = att[:, 9:21]
        self.target = np.where(self.attack_on & (tgt.max(axis=1) > 0.5), tgt.argmax(axis=1), NO_CHAR)

        hand = obs[:, off["hand"]].reshape(b, HAND_SLOTS, F + 1)
        self.hand = card_ids(hand[:, :, :F])  # [B, 10]

        fld = obs[:, off["field"]].reshape(b, 2 * FIELD_SLOTS, F + O.FIELD_DYN)
        dyn = fld[:, :, F:]
        pad = np.zeros((b, 1))
        self.card = np.concatenate([card_ids(fld[:, :, :F]), pad - 1], axis=1).astype(np.int64)  # [B, 13]
        self.present = self.card >= 0
        self.tapped = np.concatenate([dyn[:, :, _TAP] > 0.5, pad > 0], axis=1)
        self.dmg = np.concatenate([np.rint(dyn[:, :, _DMG] * 10), pad], axis=1)
        self.karate = np.concatenate([np.rint(dyn[:, :, _KARATE] * 12), pad], axis=1)
        self.kousaku = np.concatenate([np.rint(dyn[:, :, _KOUSAKU] * 8), pad], axis=1)
        self.entered = np.concatenate([dyn[:, :, _ENTERED] > 0.5, pad > 0], axis=1)
        redirected = np.concatenate([dyn[:, :, _REDIR] > 0.5, pad > 0], axis=1)
        kaizen = np.concatenate([dyn[:, :, _KZ] > 0.5, pad > 0], axis=1) | _lookup(C.HAS_KAIZEN, self.card, False)
        plain = _lookup(C.HAS_INTERRUPT, self.card, False) & ~self.tapped
        self.can_interrupt = self.present & ~redirected & (kaizen | plain)
        self.hayate = _lookup(C.HAS_HAYATE, self.card, False)
        self.guard_taps = _lookup(C.HAS_INTERRUPT, self.card, False) & ~kaizen  # a guard that attacking spends
        ego = np.arange(EGO)
        self.mine = np.broadcast_to(ego < FIELD_SLOTS, (b, EGO)) & self.present
        self.theirs = np.broadcast_to((ego >= FIELD_SLOTS) & (ego < NO_CHAR), (b, EGO)) & self.present
        cost = _lookup(C.COST, self.card)
        # What a character on the table is worth: what was paid for it, and what it hits for.
        self.worth = np.where(self.present, 1.0 + cost + 0.5 * self.kousaku + 0.25 * self.karate
                              + 0.5 * self.can_interrupt, 0.0)
        # The extra カラテ / 工作力 a character gets when it greets (its own ON_AISATSU trigger).
        on_aisatsu = _lookup(C.TRIGGER, self.card) == C.TR_ON_AISATSU
        op = _lookup(C.OPCODE, self.card)
        arg = _lookup(C.ARG, self.card)
        self.greet_karate = self.karate + np.where(on_aisatsu & (op == C.OP_BUFF_K), arg, 0)
        self.greet_kousaku = self.kousaku + np.where(on_aisatsu & (op == C.OP_BUFF_W), arg, 0)
        self.on_kill = np.where(_lookup(C.TRIGGER, self.card) == C.TR_ON_KILL, op, C.OP_NONE)
        self.on_kill_arg = arg

        stk = obs[:, off["stack"]].reshape(b, STACK_MAX, F + O.STACK_DYN)
        top = stk[self.rows, np.maximum(self.stack_len - 1, 0)]
        has_top = self.stack_len > 0
        sdyn = top[:, F:]
        self.top_card = np.where(has_top, card_ids(top[:, :F]), -1)
        self.top_mine = has_top & (sdyn[:, _ITEM_MINE] > 0.5)
        self.top_theirs = has_top & ~self.top_mine
        self.top_kind = sdyn[:, _ITEM_KIND:_ITEM_KIND + 5].argmax(axis=1)
        self.top_op = np.where(has_top, sdyn[:, _ITEM_OP:_ITEM_OP + C.NUM_OPCODES].argmax(axis=1), C.OP_NONE)
        self.top_arg = np.rint(sdyn[:, _ITEM_ARG] * C.MAX_ARG)
        self.top_target = np.where(has_top, sdyn[:, _ITEM_TARGET:_ITEM_TARGET + EGO].argmax(axis=1), NO_CHAR)

        pend = obs[:, off["pending"]]
        self.pending_card = card_ids(pend[:, :F])
        self.pending_op = np.where(self.pending_card >= 0, pend[:, F:F + C.NUM_OPCODES].argmax(axis=1), C.OP_NONE)
        k = F + C.NUM_OPCODES
        self.pending_tk = np.where(self.pending_card >= 0, pend[:, k:k + C.NUM_TARGET_KINDS].argmax(axis=1),
                                   C.TK_NONE)

    def take(self, rows: np.ndarray) -> "View":
        """The view of the games ``rows`` (repeats allowed): every decoded array indexed by them, without
        decoding the observations again."""
        taken = object.__new__(View)
        for name, value in vars(self).items():
            setattr(taken, name, value[rows])
        taken.rows = np.arange(len(rows))
        return taken
