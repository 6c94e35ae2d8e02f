"""The batched state of nigejozu (every array has leading axis B; factions 0 = Hojo, 1 = Ashikaga).

``phase`` is the sub-state of rules file §4.2: PHASE_TURN_START (ROLL or a card), PHASE_DICE (first
roll: REROLL or a count die), PHASE_REROLLED (count die only), PHASE_CARD (a card's target steps)
and PHASE_OVER (the battle phase has been resolved; it has no decisions, so it runs inside the step
that ends placement).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from yuugi.envs.core.game import State, arrays_type

from .board import NUM_PROVINCES
from .cards import NUM_EFFECTS
from .config import NigejozuConfig

HOJO, ASHIKAGA = 0, 1
FACTION_NAMES = ("hojo", "ashikaga")
FACTION_JA = ("北条", "足利")
PHASE_TURN_START, PHASE_DICE, PHASE_REROLLED, PHASE_CARD, PHASE_OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("turn_start", "dice", "rerolled", "card", "over")
NUM_PHASES = 5


@dataclasses.dataclass
class NigejozuState(State):
    chip: np.ndarray  # int8[B, 11]: province chip number 2..12 of each province
    prov_of: np.ndarray  # int8[B, 13]: province bearing chip n (entries 0, 1 unused = -1)
    troops: np.ndarray  # int8[B, 11, 2]: troop pieces per province and faction
    hand: np.ndarray  # int8[B, 2]: troops in hand
    removed: np.ndarray  # int8[B, 2]: troops 謀反 removed from the game (muhon_returns_to_hand=False)
    escape: np.ndarray  # int8[B]: faction holding the 逃げチップ, -1 nobody yet
    held: np.ndarray  # bool[B, 2, 12]: effects on the own-faction faces of each side's cards
    used: np.ndarray  # int8[B, 2]: effect each side used (its marker), -1 none yet
    phase: np.ndarray  # int8[B]: PHASE_TURN_START .. PHASE_OVER
    dice: np.ndarray  # int8[B, 3]: sorted dice of this turn (0 when not rolled)
    effect: np.ndarray  # int8[B]: card being resolved, -1 none
    card_step: np.ndarray  # int8[B]: 0 = choosing X (source/target), 1 = choosing Y (destination)
    selected: np.ndarray  # int8[B]: province X chosen in step 0 of a two-step card, -1 none
    picks: np.ndarray  # int8[B]: picks made so far by 退却 / 上洛
    turn: np.ndarray  # int16[B]: completed turns (placements and cards) so far
    # Battle results (filled when the game ends).
    winner_of: np.ndarray  # int8[B, 11]: faction that took each province's chip, -1 none
    reinf: np.ndarray  # int8[B, 11, 2]: 援軍 each faction received in each province
    score: np.ndarray  # int16[B, 2]: sum of chips taken


def empty_state(batch: int, cfg: NigejozuConfig | None = None) -> NigejozuState:
    """``batch`` games with every array allocated and zeroed (no chips, no cards).

    No array's shape depends on the options, so ``cfg`` may be left out.
    """
    b = batch
    z = lambda shape, dt: np.zeros((b, *shape), dtype=dt)  # noqa: E731
    return NigejozuState(
        to_play=z((), np.int8), terminated=z((), bool), truncated=z((), bool), rewards=z((2,), np.float32),
        rng_key=z((), np.uint64), rng_counter=z((), np.uint64),
        chip=z((NUM_PROVINCES,), np.int8), prov_of=np.full((b, 13), -1, np.int8),
        troops=z((NUM_PROVINCES, 2), np.int8), hand=z((2,), np.int8), removed=z((2,), np.int8),
        escape=np.full(b, -1, np.int8), held=z((2, NUM_EFFECTS), bool),
        used=np.full((b, 2), -1, np.int8), phase=z((), np.int8), dice=z((3,), np.int8),
        effect=np.full(b, -1, np.int8), card_step=z((), np.int8), selected=np.full(b, -1, np.int8),
        picks=z((), np.int8), turn=z((), np.int16), winner_of=np.full((b, NUM_PROVINCES), -1, np.int8),
        reinf=z((NUM_PROVINCES, 2), np.int8), score=z((2,), np.int16),
    )


NigejozuArrays = arrays_type(NigejozuState)  # the namedtuple of the arrays compiled rules receive (state.view())
