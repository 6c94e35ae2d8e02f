"""The 241-float observation of rules file §4.7, seen from one seat (self first, then the opponent).

Every value lies in [0, 1]. Provinces are always in map order P0..P10 (九州 .. 蝦夷, see
:mod:`.board`); the static adjacency is not repeated here. The game has no hidden information
apart from future dice, so both seats see the same facts, only ordered differently.

| block (offset) | size | meaning |
|---|---|---|
| chip (0) | 121 | per province, one-hot of its chip number 2..12 (11 × 11) |
| chip_value (121) | 11 | per province, (chip − 2) / 10 |
| troops_self (132) | 11 | own troops per province / 18 |
| troops_opp (143) | 11 | opponent troops per province / 18 |
| hand (154) | 2 | troops in hand (self, opp) / 18 |
| removed (156) | 2 | troops removed from the game by 謀反 (self, opp) / 18 |
| escape (158) | 3 | 逃げチップ: nobody / self / opp |
| cards_self (161) | 12 | effects on own-faction faces of own cards |
| cards_opp (173) | 12 | effects on the opponent's usable faces |
| card_used (185) | 2 | marker placed (self, opp) |
| cards_locked (187) | 1 | some hand is empty: no card may be used any more |
| to_move (188) | 1 | this seat is to act |
| phase (189) | 5 | turn_start / dice / rerolled / card / over |
| dice (194) | 18 | sorted dice, one-hot 1..6 each (zero when not rolled) |
| reroll_available (212) | 1 | first roll of the turn (REROLL legal) |
| card_effect (213) | 12 | card being resolved |
| card_step (225) | 2 | choosing X (source / target) / choosing Y (destination) |
| card_selected (227) | 11 | province X chosen in step 0 |
| card_picks (238) | 1 | picks made by 退却 / 上洛 / 18 |
| score (239) | 2 | chips taken in the battle (self, opp) / 77 (zero until the end) |
"""
from __future__ import annotations

import functools

import numpy as np

from yuugi.envs.core.layout import block_offsets

from .board import NUM_PROVINCES
from .cards import NUM_EFFECTS
from .config import MAX_SCORE
from .state import NUM_PHASES, PHASE_CARD, PHASE_DICE, PHASE_OVER, PHASE_REROLLED, NigejozuState

TROOP_SCALE = 18.0  # the largest troop count of any option: keeps every option's values in [0, 1]
LAYOUT: tuple[tuple[str, int], ...] = (
    ("chip", NUM_PROVINCES * 11),
    ("chip_value", NUM_PROVINCES),
    ("troops_self", NUM_PROVINCES),
    ("troops_opp", NUM_PROVINCES),
    ("hand", 2),
    ("removed", 2),
    ("escape", 3),
    ("cards_self", NUM_EFFECTS),
    ("cards_opp", NUM_EFFECTS),
    ("card_used", 2),
    ("cards_locked", 1),
    ("to_move", 1),
    ("phase", NUM_PHASES),
    ("dice", 18),
    ("reroll_available", 1),
    ("card_effect", NUM_EFFECTS),
    ("card_step", 2),
    ("card_selected", NUM_PROVINCES),
    ("card_picks", 1),
    ("score", 2),
)
OFFSETS, OBS_SIZE = block_offsets(LAYOUT)
assert OBS_SIZE == 241, OBS_SIZE

# Flat offsets within a row (row r's column c is element r * OBS_SIZE + c of the flattened output):
# one-hot blocks are written as one scatter of 1.0 per block at "column of the value 0" + value.
_CHIP_COLUMNS = OFFSETS["chip"].start + 11 * np.arange(NUM_PROVINCES) - 2  # province p's chip number 2..12
_DICE_COLS = OFFSETS["dice"].start + 6 * np.arange(3) - 1  # + die value 1..6
_O = {k: v.start for k, v in OFFSETS.items()}
_INV_TROOPS = np.float32(1.0 / TROOP_SCALE)
_CHIP_VALUE = np.arange(-2, 11).astype(np.float32) * np.float32(0.1)  # (n - 2) / 10 by chip number n
_SELF_OPP = np.array([0, 1])
# Column of the escape block by [holder + 1, seat]: nobody (holder -1) / self / opponent.
_ESCAPE_COLUMN = np.array([[0, 0], [1, 2], [2, 1]])


def observe(st: NigejozuState, seat: int | np.ndarray) -> np.ndarray:
    """float32[B, 241] for ``seat`` (one seat for all games, or one per game).

    Each block is one numpy write over the batch (a scatter of ones for one-hot blocks, a scaled
    copy into the block's columns for counts); only the card and battle blocks touch just the
    games they concern.
    """
    b = st.batch_size
    out = np.zeros((b, OBS_SIZE), dtype=np.float32)
    flat = out.reshape(-1)
    row_start, chip_cells = _flat_rows(b)
    seat_arr = np.asarray(seat, dtype=np.int64)
    if seat_arr.ndim == 0:  # one seat for every game (the AEC face)
        seat_arr = np.full(b, seat_arr)
    # (self, opp) rows of the per-faction arrays viewed as [2B, ...]: 2i + seat and 2i + (1 - seat),
    # which is 2i + seat with its low bit flipped.
    pair = ((2 * np.arange(b) + seat_arr)[:, None] ^ _SELF_OPP).ravel()
    self_opp = functools.partial(_self_opp, pair=pair)
    flat[chip_cells + st.chip] = 1.0
    out[:, OFFSETS["chip_value"]] = _CHIP_VALUE.take(st.chip)
    # troops_self and troops_opp: the faction axis first ([B, 2, 11], a copy), then self / opp.
    troops = self_opp(st.troops.transpose(0, 2, 1))
    np.multiply(troops, _INV_TROOPS, out=out[:, OFFSETS["troops_self"].start:OFFSETS["troops_opp"].stop])
    np.multiply(self_opp(st.hand), _INV_TROOPS, out=out[:, OFFSETS["hand"]])
    np.multiply(self_opp(st.removed), _INV_TROOPS, out=out[:, OFFSETS["removed"]])
    flat[row_start + _O["escape"] + _ESCAPE_COLUMN[st.escape + 1, seat_arr]] = 1.0
    out[:, OFFSETS["cards_self"].start:OFFSETS["cards_opp"].stop] = self_opp(st.held)
    out[:, OFFSETS["card_used"]] = self_opp(st.used) >= 0
    out[:, _O["cards_locked"]] = (st.hand[:, 0] == 0) | (st.hand[:, 1] == 0)
    done = st.terminated | st.truncated
    out[:, _O["to_move"]] = (st.to_play == seat_arr) & ~done
    phase = st.phase
    flat[row_start + _O["phase"] + phase] = 1.0
    rolled = ((phase == PHASE_DICE) | (phase == PHASE_REROLLED)).nonzero()[0]
    if len(rolled):
        flat[row_start[rolled, None] + _DICE_COLS + st.dice[rolled]] = 1.0
    out[:, _O["reroll_available"]] = phase == PHASE_DICE
    carding = (phase == PHASE_CARD).nonzero()[0]
    if len(carding):
        cb = row_start[carding]
        flat[cb + _O["card_effect"] + st.effect[carding]] = 1.0
        flat[cb + _O["card_step"] + st.card_step[carding]] = 1.0
        sel = st.selected[carding]
        has = sel >= 0
        flat[cb[has] + _O["card_selected"] + sel[has]] = 1.0
        out[carding, _O["card_picks"]] = st.picks[carding] * _INV_TROOPS
    over = (phase == PHASE_OVER).nonzero()[0]
    if len(over):
        sc = st.score[over].astype(np.float32) / MAX_SCORE
        so = seat_arr[over]
        out[over, _O["score"]] = sc[np.arange(len(over)), so]
        out[over, _O["score"] + 1] = sc[np.arange(len(over)), 1 - so]
    return out


def _self_opp(x: np.ndarray, pair: np.ndarray) -> np.ndarray:
    """[B, 2, ...] per faction -> [B, 2 * ...]: the seat's entries, then the opponent's (``pair``: see observe)."""
    return x.reshape(len(pair), -1).take(pair, axis=0).reshape(len(x), -1)


@functools.lru_cache(maxsize=8)
def _flat_rows(b: int) -> tuple[np.ndarray, np.ndarray]:
    """For a batch of ``b``: the flat index of each row's column 0, and of each province's chip block
    (+ chip number gives its one-hot cell). Read-only, shared by every call with that batch size."""
    row_start = np.arange(0, b * OBS_SIZE, OBS_SIZE)
    chip_cells = row_start[:, None] + _CHIP_COLUMNS
    row_start.flags.writeable = chip_cells.flags.writeable = False
    return row_start, chip_cells
