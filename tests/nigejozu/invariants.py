"""Invariants every nigejozu state must satisfy (used by the property and fuzz tests).

Each follows from the rules file: §4.4's invariants (hands only shrink on the owner's turn, the
escape chip is set once a hand is empty, a side with an empty hand never moves), conservation of
troop pieces, the masks of §4.7, and the battle of §4.5 (every chip of an occupied province is
taken by someone).
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.nigejozu.state import PHASE_CARD, PHASE_DICE, PHASE_OVER, PHASE_REROLLED, PHASE_TURN_START, NigejozuState

ROLL, CARDS, REROLL, COUNTS, PROVINCES, DONE = 0, slice(1, 13), 13, slice(14, 17), slice(17, 28), 28


def check_invariants(g, st: NigejozuState, mask: np.ndarray) -> None:
    total = g.config.troops_per_player
    live = ~st.done
    rows = np.arange(st.batch_size)
    # Troop pieces: never negative, each side's board + hand + removed is constant.
    assert (st.troops >= 0).all() and (st.hand >= 0).all() and (st.removed >= 0).all()
    assert (st.troops.sum(axis=1) + st.hand + st.removed == total).all(), "troops not conserved"
    # A live game always offers its player something; a finished one nothing.
    assert mask[live].any(axis=1).all(), "empty mask in a live game"
    assert not mask[~live].any(), "actions offered in a finished game"
    # Escape chip: held exactly when some hand is empty, by a side whose hand is empty.
    some_empty = (st.hand == 0).any(axis=1)
    assert ((st.escape >= 0) == some_empty).all(), "escape chip out of step with the hands"
    held = st.escape >= 0
    assert (st.hand[rows[held], st.escape[held]] == 0).all()
    assert (st.hand[rows[live], st.to_play[live]] > 0).all(), "a side with an empty hand is to play"
    # Phases and their masks.
    phase = st.phase
    assert ((phase == PHASE_OVER) == st.terminated).all() and not st.truncated.any()
    assert not mask[phase != PHASE_TURN_START][:, [ROLL]].any() and not mask[phase != PHASE_TURN_START][:, CARDS].any()
    assert mask[live & (phase == PHASE_TURN_START), ROLL].all()
    assert not mask[some_empty][:, CARDS].any(), "a card offered after a hand emptied"
    rolled = (phase == PHASE_DICE) | (phase == PHASE_REROLLED)
    assert (st.dice[rolled] >= 1).all() and (np.diff(st.dice[rolled], axis=1) >= 0).all()
    assert (st.dice[~rolled] == 0).all()
    assert (mask[:, REROLL] == (phase == PHASE_DICE)).all()
    assert (mask[:, COUNTS].any(axis=1) == rolled).all()
    carding = phase == PHASE_CARD
    assert (mask[:, PROVINCES].any(axis=1) == carding).all()
    assert (st.used[rows[carding], st.to_play[carding]] == st.effect[carding]).all()
    assert (st.effect[~carding] == -1).all()
    # Battle: chips of occupied provinces are all taken; rewards are zero-sum.
    over = np.flatnonzero(phase == PHASE_OVER)
    if len(over):
        occupied = st.troops[over].sum(axis=2) > 0
        assert ((st.winner_of[over] >= 0) == occupied).all()
        assert (st.score[over].sum(axis=1) == (st.chip[over] * occupied).sum(axis=1)).all()
    np.testing.assert_allclose(st.rewards.sum(axis=1), 0.0, atol=1e-6)
    for seat in (0, 1):
        obs = g.observe(st, seat)
        assert obs.dtype == np.float32 and obs.min() >= 0.0 and obs.max() <= 1.0
