"""Batch size 1 (the AEC face) against the same games in a batch.

The engine takes shortcuts where every row of a call agrees, which is always so with one row: one
decision's part of the mask, one action's family, the whole history shifted, empty blocks of the
observation skipped. A game alone must still see exactly what its row of a batch sees.
"""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.core.sampling import random_legal
from tests.ninja_slayer.helpers import game

RULE_SETS = [
    {},
    {"mask_useless": True, "decks": ("sealed", "sealed")},
    {"auto_pass_forced": False},
    {"priority_windows": "compact", "deckout_rule": "draw_from_empty", "ukemi_nullifies": "event",
     "interrupt_taps": False, "summoning_sickness": False, "decks": ("D1", "D4")},
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(sorted(r)) or "default")
def test_a_game_alone_sees_and_plays_as_its_row_of_a_batch(rules):
    g = game(**rules)
    seeds = np.arange(12, dtype=np.uint64) * np.uint64(104729) + np.uint64(3)
    batch = g.init(seeds)
    alone = [g.init(seeds[i:i + 1]) for i in range(len(seeds))]
    rng = np.random.default_rng(11)
    for _ in range(250):
        mask = g.legal_mask(batch)
        for i, st in enumerate(alone):
            assert np.array_equal(g.legal_mask(st)[0], mask[i])
            for seat in (0, 1):  # the seat to play and the other one (an int seat, as the AEC face asks)
                assert np.array_equal(g.observe(st, seat)[0], g.observe(batch, seat)[i])
        actions = random_legal(mask, rng)
        for i, st in enumerate(alone):
            if not st.done[0]:
                g.step(st, actions[i:i + 1], check=False)
        g.step(batch, actions, mask=mask)
        for i, st in enumerate(alone):
            assert batch.take(i).equals(st)
        if batch.done.all():
            break
