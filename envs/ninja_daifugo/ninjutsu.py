"""The four ninjutsu (rules file §2.1): which activations are legal, and their effects.

Activation is a decision of its own on the player's turn, before the play or pass: the mask offers
the jutsu actions 2328–2335 next to the plays. 手裏剣 then asks for the thrown card (phase
``shuriken``, PICK_CARD actions); 変化 sets a boost for this turn's play; 雷遁 clears the field and
the activator leads; 足止め gives the target a pending skip.
"""
from __future__ import annotations

from typing import Iterator

import numpy as np

from . import actions as A
from . import points as P
from . import tables as T
from .cards import BIT, JOKER, popcount, unpack_bits
from .config import (ASHIDOME, BASE_COST, D_COSTLY_JUTSU, HENGE, MAX_POINTS, RAITON, SCHOOL_BOGAI, SHURIKEN,
                     DaifugoConfig)
from .field import clear_field
from .held import BLOCKS, field_block, held_block, held_plays
from .seats import SEAT_WEIGHTS
from .state import NUM_SEATS, PHASE_PLAY, PHASE_SHURIKEN, DaifugoState

_BASE_COST = np.array(BASE_COST, dtype=np.int64)
_JOKER_BIT = BIT[JOKER]
NUM_JUTSU_ACTIONS = A.PICK0 - A.ASHIDOME0  # 8
# On a lead (empty field, no lock) every non-joker single stays legal under a 変化 boost, in every
# variant and direction: 変化 can be used on a lead exactly when the hand holds a non-joker card.
_LEAD_ROWS = T.beats_row(np.repeat(np.arange(T.NUM_VARIANTS), 2), np.full(2 * T.NUM_VARIANTS, T.FC_EMPTY),
                         np.tile([0, 1], T.NUM_VARIANTS))
assert T.BEATS_BOOSTED.reshape(2, -1, A.NUM_PLAY_ACTIONS)[:, _LEAD_ROWS, A.SINGLE0:A.SINGLE0 + JOKER].all()
assert T.LOCK_OK[0, A.SINGLE0:A.SINGLE0 + JOKER].all()
# BEATS_BOOSTED by (shift - 1, beats_row): each row allows plays of the block answering its field class
# only (a lead: any block), never PASS, so the boosted plays need no split by block.
_BOOSTED_ROWS = T.BEATS_BOOSTED.reshape(2, -1, A.NUM_PLAY_ACTIONS)
_OUTSIDE_BLOCK = np.ones((T.NUM_FIELD_CLASSES, A.NUM_PLAY_ACTIONS), dtype=bool)
for _fc in range(T.NUM_FIELD_CLASSES):
    _lo, _hi = BLOCKS[int(field_block(np.array(_fc)))]
    _OUTSIDE_BLOCK[_fc, _lo:_hi] = False
_BLOCK_CONFINED = not (T.BEATS_BOOSTED & _OUTSIDE_BLOCK[None, None, :, None, :]).any()
assert _BLOCK_CONFINED and not T.BEATS_BOOSTED[..., A.PASS].any()


def effective_cost(levels: np.ndarray, declaration: np.ndarray) -> np.ndarray:
    """Cost of each jutsu at ``levels`` [..., 4]: base − 1 at Lv5 (min 1), +1 under D7, max 6."""
    cost = np.maximum(_BASE_COST - (levels == 5), 1)
    d7 = (np.asarray(declaration) == D_COSTLY_JUTSU).astype(np.int64)
    return np.minimum(cost + d7.reshape(d7.shape + (1,) * (cost.ndim - d7.ndim)), MAX_POINTS)


def _target_ok() -> np.ndarray:
    """[aim_any, player * 16 + active-seat pattern] -> bool[3]: may the opponent at +1, +2, +3 be targeted?

    He must be active, and (Lv1-2, aim_any False) the next active seat after the player."""
    t = np.zeros((2, NUM_SEATS * 16, NUM_SEATS - 1), dtype=bool)
    for player in range(NUM_SEATS):
        for pattern in range(16):
            active = [bool((pattern >> seat) & 1) for seat in range(NUM_SEATS)]
            after = [(player + d) % NUM_SEATS for d in range(1, NUM_SEATS)]
            first = next((seat for seat in after if active[seat]), -1)
            for d, seat in enumerate(after):
                t[0, player * 16 + pattern, d] = active[seat] and seat == first
                t[1, player * 16 + pattern, d] = active[seat]
    return t


_TARGET_OK = _target_ok()
# _RAITON_OK[aim_any, field action + 1]: 雷遁 needs a field play, of 1-2 cards below Lv3.
_RAITON_OK = np.stack([(T.FIELD_SIZE > 0) & (T.FIELD_SIZE <= 2), T.FIELD_SIZE > 0])

# _COST_BY_KEY[(declaration * 6 + level) * 4 + jutsu]: effective_cost as one table lookup.
_COST_BY_KEY = np.stack([[effective_cost(np.full(4, lv), np.array(d)) for lv in range(6)]
                         for d in range(10)]).reshape(-1)
_JUTSU_INDEX = np.arange(4)
# _AFFORDABLE[declaration, points, jutsu, level]: the jutsu is equipped and the points pay its cost.
_AFFORDABLE = np.zeros((10, MAX_POINTS + 1, 4, 6), dtype=bool)
for _d in range(10):
    for _lv in range(1, 6):
        _AFFORDABLE[_d, :, :, _lv] = np.arange(MAX_POINTS + 1)[:, None] >= effective_cost(np.full(4, _lv), np.array(_d))


def _boosted_blocks(st: DaifugoState, g: np.ndarray, hand: np.ndarray, shift: np.ndarray, ignore_lock: np.ndarray,
                    variant: np.ndarray, direction: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Per column block answering the field: (rows k of ``g``, bool[len(k), block width] legal plays).

    For the 変化 activation check of many rows, where computing only each row's block pays."""
    row = T.beats_row(variant, st.field_class[g], direction)
    boost = shift.astype(np.int64) - 1
    lock = np.where(ignore_lock, 0, st.lock[g]).astype(np.int64)
    block = field_block(st.field_class[g])
    for blk, (lo, hi) in enumerate(BLOCKS):
        k = (block == blk).nonzero()[0]
        if k.size:
            yield k, held_block(hand[k], blk) & _BOOSTED_ROWS[boost[k], row[k], lo:hi] & T.LOCK_OK[lock[k], lo:hi]


def boosted_plays(st: DaifugoState, g: np.ndarray, hand: np.ndarray, shift: np.ndarray,
                  ignore_lock: np.ndarray, variant: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """bool[n, 2328]: plays legal with a 変化 boost of ``shift`` (1 or 2) for games ``g``.

    A boosted rule row allows only the block of columns that answers its field (see
    :data:`_BLOCK_CONFINED`), so the held plays of the whole width are ANDed with it: the few boosted
    rows of a batch cost a handful of numpy calls rather than a split by block.
    """
    row = T.beats_row(variant, st.field_class[g], direction)
    lock = np.where(ignore_lock, 0, st.lock[g])
    return held_plays(hand) & _BOOSTED_ROWS[shift - 1, row] & T.LOCK_OK[lock]


def jutsu_mask(st: DaifugoState, g: np.ndarray, hand: np.ndarray, variant: np.ndarray,
               direction: np.ndarray) -> np.ndarray:
    """bool[n, 8]: legal activations (actions 2328..2335) for the players to act in games ``g``, which are
    in play and have not used a jutsu this turn (the legal mask passes only those)."""
    n = len(g)
    out = np.zeros((n, NUM_JUTSU_ACTIONS), dtype=bool)
    p = st.to_play[g].astype(np.int64)
    own = g * NUM_SEATS + p  # flat index of [game, player to act] (np.take: cheaper than [g, p])
    lv = np.take(st.levels.reshape(-1, 4), own, axis=0)  # [n, 4]
    points = np.take(st.points.reshape(-1), own)
    avail = _AFFORDABLE[st.declaration[g][:, None], points[:, None], _JUTSU_INDEX, lv]
    avail &= np.take(st.uses_left.reshape(-1, 4), own, axis=0) > 0
    # Most players to act cannot pay for any jutsu: only the others are looked at further. (A row's 4
    # flags read as one 32-bit word are nonzero when any is set: several times cheaper than any(axis=1).)
    k = avail.view(np.uint32)[:, 0].nonzero()[0]
    if not k.size:
        return out
    g, p, lv, avail, hand, variant, direction = g[k], p[k], lv[k], avail[k], hand[k], variant[k], direction[k]
    legal = np.zeros((len(k), NUM_JUTSU_ACTIONS), dtype=bool)
    # Lv3+: any active opponent, a field of any size; Lv1-2: the next one, 1-2 cards (0/1: a table index).
    aim_any = (lv >= 3).astype(np.intp)
    seats = p * 16 + st.active[g] @ SEAT_WEIGHTS  # the player and who is active: the key of _TARGET_OK
    legal[:, 0:3] = avail[:, [ASHIDOME]] & _TARGET_OK[aim_any[:, ASHIDOME], seats]
    throwable = (popcount(hand) >= 2) & ((hand & ~_JOKER_BIT) != 0)
    legal[:, 3:6] = (avail[:, SHURIKEN] & throwable)[:, None] & _TARGET_OK[aim_any[:, SHURIKEN], seats]
    legal[:, 6] = avail[:, RAITON] & _RAITON_OK[aim_any[:, RAITON], st.field_action[g] + 1]
    henge = avail[:, HENGE].nonzero()[0]
    if henge.size:
        lead = st.field_class[g[henge]] == T.FC_EMPTY
        legal[henge[lead], 7] = (hand[henge[lead]] & ~_JOKER_BIT) != 0  # see _LEAD_ROWS
        h = henge[~lead]
        if h.size:
            shift = np.where(lv[h, HENGE] >= 3, 2, 1)
            for m, plays in _boosted_blocks(st, g[h], hand[h], shift, lv[h, HENGE] == 5, variant[h], direction[h]):
                legal[h[m], 7] = plays.any(axis=1)
    out[k] = legal
    return out


def activate(st: DaifugoState, g: np.ndarray, a: np.ndarray, cfg: DaifugoConfig) -> None:
    """Pay, use up, and apply the jutsu ``a`` (2328..2335) for the players to act in ``g``."""
    if not len(g):
        return
    p = st.to_play[g].astype(np.int64)
    j = A.JUTSU[a].astype(np.int64)
    lv = st.levels[g, p, j].astype(np.int64)
    cost = _COST_BY_KEY[(st.declaration[g].astype(np.int64) * 6 + lv) * 4 + j]
    st.points[g, p] -= cost.astype(np.int8)
    st.uses_left[g, p, j] -= 1
    st.jutsu_used[g] = True
    target = (p + A.TARGET[a]) % NUM_SEATS
    lv5 = lv == 5

    # Each effect below runs only when some game has it (a batch holds few activations per step).
    k = j == ASHIDOME
    st.skip_pending[g[k], target[k]] += 1
    k = j == SHURIKEN
    st.shuriken_target[g[k]] = target[k]
    st.phase[g[k]] = PHASE_SHURIKEN
    attack = (j == ASHIDOME) | (j == SHURIKEN)
    k = attack & lv5
    if k.any():
        P.lose_one(st, g[k], target[k])
    k = attack & (st.school[g, p] == SCHOOL_BOGAI)
    if k.any():
        P.gain(st, g[k], p[k], 1)  # school 妨害: one point back
    k = j == RAITON
    if k.any():
        clear_field(st, g[k])  # the activator keeps the turn and leads; the revolution stays
        if (k & lv5).any():
            P.gain(st, g[k & lv5], p[k & lv5], 1)
    k = j == HENGE
    st.henge_shift[g[k]] = np.where(lv[k] >= 3, 2, 1)
    st.lock_ignored[g[k]] = lv5[k]


def throw(st: DaifugoState, g: np.ndarray, a: np.ndarray) -> None:
    """手裏剣's second step: the picked card goes to the target's hand, in view of everyone."""
    if not len(g):
        return
    p = st.to_play[g].astype(np.int64)
    target = st.shuriken_target[g].astype(np.int64)
    card = A.CARDS[a]
    st.known[g, :, p] &= ~card[:, None]
    st.hands[g, p] &= ~card
    st.hands[g, target] |= card
    st.known[g, :, target] |= card[:, None]
    st.shuriken_target[g] = -1
    st.phase[g] = PHASE_PLAY


def shuriken_picks(hand: np.ndarray) -> np.ndarray:
    """bool[n, 53]: cards that may be thrown (any but the joker)."""
    return unpack_bits(hand & ~_JOKER_BIT)
