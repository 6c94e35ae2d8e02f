"""The ``observation="card_ids"`` option: the full observation with every card shown as its id alone.

The expected card-ids observation is rebuilt here from the full one by the layout's table (each block's
card slots and what follows them), taking the id column of each card's features; the rest is copied.
"""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.heuristics.ninja_slayer import NinjaSlayerHeuristic
from yuugi.envs import make_game
from yuugi.envs.core.errors import OptionError
from yuugi.envs.core.sampling import random_legal
from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.observation import FIELD_DYN, STACK_DYN, offsets

F = C.NUM_CARD_FEATURES
FAMILIES_AND_WHO = 2 + 11  # a history entry: by me / by the opponent, the action's family, then the card

# Each block's repeating unit: (slots, floats before the card, floats after the card).
UNITS = {"hand": (10, 0, 1), "opp_known_hand": (10, 0, 0), "field": (12, 0, FIELD_DYN),
         "stack": (16, 0, STACK_DYN), "pending": (1, 0, 16 + 10 + 5), "last_resolved": (1, 0, 0)}


def card_ids_from_full(full: np.ndarray, history: int) -> np.ndarray:
    """The full observations [B, W] with every card's 68 features cut to the id column."""
    off, _ = offsets(history)
    parts = []
    for name, cols in off.items():
        block = full[:, cols]
        slots, before, after = UNITS.get(name, (0, 0, 0))
        if name == "history":
            slots, before, after = history, FAMILIES_AND_WHO, 0
        if not slots:
            parts.append(block)
            continue
        unit = block.reshape(len(full), slots, before + F + after)
        card = unit[:, :, before + C.CARD_ID_COLUMN:before + C.CARD_ID_COLUMN + 1]
        parts.append(np.concatenate([unit[:, :, :before], card, unit[:, :, before + F:]], axis=2)
                     .reshape(len(full), -1))
    return np.concatenate(parts, axis=1)


@pytest.mark.parametrize("rules", [{}, {"decks": "sealed", "history": 3}])
def test_card_ids_is_the_full_observation_with_each_card_as_its_id(rules):
    full, ids = make_game("ninja_slayer", **rules), make_game("ninja_slayer", observation="card_ids", **rules)
    history = full.config.history
    assert ids.observation_shape == (offsets(history, 1)[1],)
    b = 48
    sf, si = full.init(np.arange(b)), ids.init(np.arange(b))
    rng = np.random.default_rng(5)
    cards_seen = set()
    for _ in range(150):
        seats = rng.integers(0, 2, b)  # either seat's view, not only the one to play
        expected = card_ids_from_full(full.observe(sf, seats), history)
        got = ids.observe(si, seats)
        np.testing.assert_array_equal(got, expected)
        cards_seen.update(np.unique(got[:, offsets(history, 1)[0]["field"]]).tolist())
        mask = full.legal_mask(sf)
        np.testing.assert_array_equal(ids.legal_mask(si), mask)
        actions = random_legal(mask, rng)
        full.step(sf, actions)
        ids.step(si, actions)
    assert len(cards_seen) > 10  # the field held many different cards: the ids are not all one value


def test_step_fused_writes_the_card_ids_observation_too():
    ids = make_game("ninja_slayer", observation="card_ids")
    st = ids.init(np.arange(8))
    mask = ids.legal_mask(st)
    obs = np.empty((8, ids.observation_shape[0]), np.float32)
    ids.step_fused(st, random_legal(mask, np.random.default_rng(0)), mask, obs)
    np.testing.assert_array_equal(obs, ids.observe(st, st.to_play))


def test_the_heuristic_reads_either_observation_alike():
    """The normal level decodes both layouts (found from the width) into the same choices."""
    full, ids = make_game("ninja_slayer"), make_game("ninja_slayer", observation="card_ids")
    b = 32
    sf, si = full.init(np.arange(b)), ids.init(np.arange(b))
    heuristic = NinjaSlayerHeuristic()
    for step in range(120):
        mask = full.legal_mask(sf)
        a_full = heuristic.act(full.observe(sf, sf.to_play), mask, np.random.default_rng(step))
        a_ids = heuristic.act(ids.observe(si, si.to_play), mask, np.random.default_rng(step))
        np.testing.assert_array_equal(a_ids, a_full)
        full.step(sf, a_full)
        ids.step(si, a_ids)


def test_an_unknown_observation_choice_is_refused_naming_the_choices():
    with pytest.raises(OptionError, match="card_ids"):
        make_game("ninja_slayer", observation="ids")


def test_each_card_table_is_as_wide_as_its_layout_says():
    from yuugi.envs.ninja_slayer.observation import CARD_WIDTHS
    from yuugi.envs.ninja_slayer.seen import CARD_TABLES

    assert set(CARD_TABLES) == set(CARD_WIDTHS)
    for name, table in CARD_TABLES.items():
        assert table.shape == (C.NUM_CARDS + 1, CARD_WIDTHS[name]) and not table[C.NUM_CARDS].any()
