"""Random-play fuzz: complete games checking card conservation, counters, masks and endings at every step."""
from __future__ import annotations

import os

import numpy as np
import pytest

from yuugi.envs.ninja_slayer.state import END_TRUNCATED
from tests.ninja_slayer.helpers import game, play_random

FAMILIES = {
    "constructed": {"decks": ("constructed", "constructed")},
    "sealed": {"decks": ("sealed", "sealed")},
    "mixed": {"decks": ("constructed", "sealed")},
}
VARIANTS = [
    {"priority_windows": "compact", "decks": "any"},
    {"auto_pass_forced": False, "decks": "any"},
    {"deckout_rule": "draw_from_empty", "ukemi_nullifies": "event", "interrupt_taps": False,
     "summoning_sickness": False, "mask_useless": True, "decks": "any"},
]


def _check_endings(st):
    assert st.done.all()
    assert (st.terminated ^ st.truncated).all()
    won = st.terminated & (st.winner >= 0)
    assert (st.rewards[won, st.winner[won]] == 1).all()


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_fuzz_families(family):
    st = play_random(game(**FAMILIES[family]), 200, seed=len(family))
    _check_endings(st)
    assert (st.end_reason != END_TRUNCATED).all()


@pytest.mark.parametrize("options", VARIANTS)
def test_fuzz_rule_variants(options):
    st = play_random(game(**options), 60, seed=7)
    _check_endings(st)


@pytest.mark.fuzz
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_fuzz_families_long(family):
    """5,000 games per family in the suite; YUUGI_FUZZ_CHUNKS=20 plays the 20,000 of the issue's check."""
    for chunk in range(int(os.environ.get("YUUGI_FUZZ_CHUNKS", "5"))):
        st = play_random(game(**FAMILIES[family]), 1000, seed=100 + chunk)
        _check_endings(st)
        assert (st.end_reason != END_TRUNCATED).all()


def test_random_play_lengths_are_in_the_expected_range():
    st = play_random(game(), 200, seed=11, check=False)
    # A 50-card deck ends the game within about 47 turns; random games end earlier by damage or deck-out.
    assert 10 < st.turn.mean() < 47 and st.turn.max() <= 48
    assert 0.3 < (st.winner == 0).mean() < 0.7
    assert np.isin(st.end_reason, [1, 2]).all()
