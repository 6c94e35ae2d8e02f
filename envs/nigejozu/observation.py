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

:func:`write_observation` writes one game's row, compiled (:mod:`.batch` loops it over the batch).
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.jit import rules
from yuugi.envs.core.layout import block_offsets

from .board import NUM_PROVINCES
from .cards import NUM_EFFECTS
from .config import MAX_SCORE
from .state import NUM_PHASES, PHASE_CARD, PHASE_DICE, PHASE_OVER, PHASE_REROLLED

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

# Where each block starts (compiled in as constants).
_CHIP, _CHIP_VALUE, _TROOPS_SELF, _TROOPS_OPP = (OFFSETS[k].start for k in ("chip", "chip_value", "troops_self",
                                                                          "troops_opp"))
_HAND, _REMOVED, _ESCAPE, _CARDS_SELF, _CARDS_OPP = (OFFSETS[k].start for k in ("hand", "removed", "escape",
                                                                               "cards_self", "cards_opp"))
_CARD_USED, _CARDS_LOCKED, _TO_MOVE, _PHASE, _DICE = (OFFSETS[k].start for k in ("card_used", "cards_locked",
                                                                                "to_move", "phase", "dice"))
_REROLL_AVAILABLE, _CARD_EFFECT, _CARD_STEP, _CARD_SELECTED, _CARD_PICKS, _SCORE = (
    OFFSETS[k].start for k in ("reroll_available", "card_effect", "card_step", "card_selected", "card_picks", "score"))
_PER_TROOP = np.float32(1.0 / TROOP_SCALE)
_TENTH = np.float32(0.1)


@rules
def write_observation(st, i: int, seat: int, out: np.ndarray) -> None:
    """``out`` (float32[241], one row of the batch's observations): game ``i`` as ``seat`` sees it."""
    # Everything read from st first (see the note in .rules on numba's reference counts).
    chips, troops, hand, removed, held, used, dice, score = (st.chip, st.troops, st.hand, st.removed, st.held,
                                                             st.used, st.dice, st.score)
    to_move = st.to_play[i] == seat and not (st.terminated[i] or st.truncated[i])
    holder, phase, effect, step = int(st.escape[i]), int(st.phase[i]), int(st.effect[i]), int(st.card_step[i])
    selected, picks = int(st.selected[i]), st.picks[i]
    out[:] = 0.0
    opp = 1 - seat
    for p in range(NUM_PROVINCES):
        chip = int(chips[i, p])
        out[_CHIP + 11 * p + chip - 2] = 1.0
        out[_CHIP_VALUE + p] = np.float32(chip - 2) * _TENTH
        out[_TROOPS_SELF + p] = np.float32(troops[i, p, seat]) * _PER_TROOP
        out[_TROOPS_OPP + p] = np.float32(troops[i, p, opp]) * _PER_TROOP
    out[_HAND] = np.float32(hand[i, seat]) * _PER_TROOP
    out[_HAND + 1] = np.float32(hand[i, opp]) * _PER_TROOP
    out[_REMOVED] = np.float32(removed[i, seat]) * _PER_TROOP
    out[_REMOVED + 1] = np.float32(removed[i, opp]) * _PER_TROOP
    out[_ESCAPE + (0 if holder < 0 else (1 if holder == seat else 2))] = 1.0  # nobody / self / opponent
    for e in range(NUM_EFFECTS):
        if held[i, seat, e]:
            out[_CARDS_SELF + e] = 1.0
        if held[i, opp, e]:
            out[_CARDS_OPP + e] = 1.0
    if used[i, seat] >= 0:
        out[_CARD_USED] = 1.0
    if used[i, opp] >= 0:
        out[_CARD_USED + 1] = 1.0
    if hand[i, 0] == 0 or hand[i, 1] == 0:
        out[_CARDS_LOCKED] = 1.0
    if to_move:
        out[_TO_MOVE] = 1.0
    out[_PHASE + phase] = 1.0
    if phase == PHASE_DICE or phase == PHASE_REROLLED:
        for j in range(3):
            out[_DICE + 6 * j + int(dice[i, j]) - 1] = 1.0
        if phase == PHASE_DICE:
            out[_REROLL_AVAILABLE] = 1.0
    elif phase == PHASE_CARD:
        out[_CARD_EFFECT + effect] = 1.0
        out[_CARD_STEP + step] = 1.0
        if selected >= 0:
            out[_CARD_SELECTED + selected] = 1.0
        out[_CARD_PICKS] = np.float32(picks) * _PER_TROOP
    elif phase == PHASE_OVER:
        out[_SCORE] = np.float32(score[i, seat]) / np.float32(MAX_SCORE)
        out[_SCORE + 1] = np.float32(score[i, opp]) / np.float32(MAX_SCORE)
