"""The batched state of 鬼ヶ島 (every array has leading axis B; P = num_players seats).

Player cards are indexed 0..9 (``cards.CARD_NAMES``), oni 0..11 (``cards`` module docstring).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from yuugi.envs.core.game import State, arrays_type

from .cards import NUM_CARDS, NUM_ONI, NUM_RETAINERS
from .config import MomotaroConfig

# Phases: who decides what (rules file §6).
(PHASE_BID, PHASE_ADD, PHASE_TAKE, PHASE_HEAL, PHASE_ONI, PHASE_COMBO, PHASE_ASSIGN, PHASE_YELLOW,
 PHASE_OVER) = range(9)
PHASE_NAMES = ("bid", "additional_bid", "take_or_decline", "heal", "choose_oni", "choose_cards",
               "assign_damage", "yellow_reward", "over")
NUM_PHASES = len(PHASE_NAMES)

# Where an oni is.
AT_DECK, AT_FIELD, AT_TREASURE, AT_POTION = 0, 1, 2, 3
ONI_PLACES = ("deck", "field", "treasure", "potion")

# Outcome of the last battle.
OUT_NONE, OUT_WIN, OUT_DRAW, OUT_LOSS = -1, 0, 1, 2
OUTCOME_NAMES = {OUT_NONE: None, OUT_WIN: "win", OUT_DRAW: "draw", OUT_LOSS: "loss"}


@dataclasses.dataclass
class MomotaroState(State):
    phase: np.ndarray  # int8[B]: PHASE_*
    round: np.ndarray  # int8[B]: 0 = hiring, 1..3 = battle rounds
    # Players.
    kibi: np.ndarray  # int16[B, P]: kibidango left
    potions: np.ndarray  # int8[B, P]
    treasure: np.ndarray  # int16[B, P]: treasure points
    alive: np.ndarray  # bool[B, P]: warrior not knocked out
    hand: np.ndarray  # bool[B, P, 10]: cards in play (owned, not knocked out; frozen once eliminated)
    ko: np.ndarray  # bool[B, P, 10]: cards knocked out
    card_dmg: np.ndarray  # int8[B, P, 10]: damage on each card (= printed power once knocked out)
    fresh: np.ndarray  # bool[B, P, 10]: damaged in the owner's latest battle, not yet past a heal step
    # Hiring (§4).
    hire_deck: np.ndarray  # int8[B, 9]: retainer order (retainer r = card r + 1)
    hire_pos: np.ndarray  # int8[B]: index in hire_deck of the card on auction; 9 = hiring over
    declined: np.ndarray  # bool[B, 9]: retainers declined after janken (out of the game)
    bids: np.ndarray  # int8[B, P]: first bids of this auction, -1 = not yet
    adds: np.ndarray  # int8[B, P]: additional bids, -1 = not yet / not tied
    bidders: np.ndarray  # bool[B, P]: seats bidding in the current (first or additional) stage
    last_bids: np.ndarray  # int8[B, P]: the previous auction's revealed bids, -1 = none
    last_adds: np.ndarray  # int8[B, P]
    # Oni (§5).
    oni_deck: np.ndarray  # int8[B, 12]: deal order; round r deals 4(r-1)..4r-1
    oni_at: np.ndarray  # int8[B, 12]: AT_*
    oni_owner: np.ndarray  # int8[B, 12]: seat that defeated it, -1
    oni_dmg: np.ndarray  # int8[B, 12]
    # Battle turn.
    start_player: np.ndarray  # int8[B]: the round's start player (魁)
    slot: np.ndarray  # int16[B]: turn slots used this round; seat = (start + slot) % P
    target: np.ndarray  # int8[B]: oni attacked this turn, -1
    combo: np.ndarray  # int8[B]: card set sent this turn, -1
    pending: np.ndarray  # int8[B]: damage waiting to be put on one of the cards that fought
    dice: np.ndarray  # int8[B, 2]: last red and white dice, 0 = none
    outcome: np.ndarray  # int8[B]: OUT_* of the last battle
    turns: np.ndarray  # int16[B]: battle turns played (truncation guard)


def empty_state(batch: int, cfg: MomotaroConfig) -> MomotaroState:
    """``batch`` games with every array allocated at its neutral value (nothing dealt).

    ``cfg`` gives the player count.
    """
    b = batch
    p = cfg.num_players
    z = lambda shape, dt: np.zeros((b, *shape), dtype=dt)  # noqa: E731
    m1 = lambda shape: np.full((b, *shape), -1, dtype=np.int8)  # noqa: E731
    return MomotaroState(
        to_play=z((), np.int8), terminated=z((), bool), truncated=z((), bool), rewards=z((p,), np.float32),
        rng_key=z((), np.uint64), rng_counter=z((), np.uint64),
        phase=z((), np.int8), round=z((), np.int8),
        kibi=z((p,), np.int16), potions=z((p,), np.int8), treasure=z((p,), np.int16), alive=np.ones((b, p), bool),
        hand=z((p, NUM_CARDS), bool), ko=z((p, NUM_CARDS), bool), card_dmg=z((p, NUM_CARDS), np.int8),
        fresh=z((p, NUM_CARDS), bool),
        hire_deck=z((NUM_RETAINERS,), np.int8), hire_pos=z((), np.int8), declined=z((NUM_RETAINERS,), bool),
        bids=m1((p,)), adds=m1((p,)), bidders=np.ones((b, p), bool), last_bids=m1((p,)), last_adds=m1((p,)),
        oni_deck=z((NUM_ONI,), np.int8), oni_at=z((NUM_ONI,), np.int8), oni_owner=m1((NUM_ONI,)),
        oni_dmg=z((NUM_ONI,), np.int8),
        start_player=z((), np.int8), slot=z((), np.int16), target=m1(()), combo=m1(()), pending=z((), np.int8),
        dice=z((2,), np.int8), outcome=m1(()), turns=z((), np.int16),
    )



# The namedtuple of the arrays that the compiled rules receive (``MomotaroState.view()``).
MomotaroArrays = arrays_type(MomotaroState)
