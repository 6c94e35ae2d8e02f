"""Property tests (hypothesis): invariants under random play, sealed bids, batch invariance and
position round trips."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs

from yuugi.envs.momotaro.state import PHASE_ADD, PHASE_BID

from .helpers import game
from .invariants import check_state, check_step, random_legal
from .test_position import assert_same_state

SETTINGS = settings(max_examples=12, deadline=None)
players = hs.sampled_from([2, 3, 4])
seeds = hs.integers(0, 2**32 - 1)
OPTIONS = hs.sampled_from([{}, {"heal_any_turn": False}, {"kibi_per_player": 2}, {"reward_scheme": "linear"},
                           {"damage_reduces_power": False, "laps_per_round": 1}])


@SETTINGS
@given(n=players, seed=seeds, opts=OPTIONS)
def test_invariants_under_random_play(n: int, seed: int, opts: dict) -> None:
    """Kibidango only spent, damage never negative, masks never empty for the acting player, ..."""
    g = game(n, **opts)
    rng = np.random.default_rng(seed)
    st = g.init(rng.integers(0, 2**62, size=6))
    while not st.done.all():
        check_state(g, st)
        before = st.copy()
        g.step(st, random_legal(g.legal_mask(st), rng))
        check_step(before, st)
    check_state(g, st)


def _hidden_variants(g, st, rng):
    """Copies of st that differ only in what the rules hide: unrevealed bids and deck orders."""
    out = []
    i = 0
    p = int(st.to_play[i])
    if int(st.phase[i]) == PHASE_BID:
        for q in range(p):  # seats that have bid (in seat order) but are not revealed
            v = st.copy()
            v.bids[i, q] = rng.integers(0, int(st.kibi[i, q]) + 1)
            out.append((q, v))
    elif int(st.phase[i]) == PHASE_ADD:
        for q in np.flatnonzero(st.bidders[i] & (st.adds[i] >= 0)):
            v = st.copy()
            v.adds[i, q] = rng.integers(0, int(st.kibi[i, q] - st.bids[i, q]) + 1)
            out.append((int(q), v))
    v = st.copy()
    pos = int(st.hire_pos[i])
    if pos + 1 < 9:
        v.hire_deck[i, pos + 1:] = rng.permutation(v.hire_deck[i, pos + 1:])
    dealt = 4 * int(st.round[i])
    v.oni_deck[i, dealt:] = rng.permutation(v.oni_deck[i, dealt:])
    out.append((-1, v))
    return out


@SETTINGS
@given(n=players, seed=seeds)
def test_hidden_information_never_shows(n: int, seed: int) -> None:
    """Another seat's sealed bid and the deck orders do not change any observation until revealed."""
    g = game(n)
    rng = np.random.default_rng(seed)
    st = g.init([seed])
    while not st.done[0]:
        for owner, variant in _hidden_variants(g, st, rng):
            for seat in range(n):
                if seat != owner:
                    assert np.array_equal(g.observe(st, seat), g.observe(variant, seat))
        g.step(st, random_legal(g.legal_mask(st), rng))


@SETTINGS
@given(n=players, game_seeds=hs.lists(seeds, min_size=2, max_size=6), policy_seed=seeds)
def test_batch_invariance(n: int, game_seeds: list[int], policy_seed: int) -> None:
    """Game i of a batch equals the same seed played alone with the same actions."""
    g = game(n)
    rng = np.random.default_rng(policy_seed)
    batch = g.init(game_seeds)
    history = []
    while not batch.done.all():
        actions = random_legal(g.legal_mask(batch), rng)
        history.append((actions.copy(), ~batch.done))
        g.step(batch, actions)
    for i, s in enumerate(game_seeds):
        alone = g.init([s])
        for actions, live in history:
            if live[i]:
                g.step(alone, actions[i:i + 1])
        assert alone.equals(batch.take(i))


@SETTINGS
@given(n=players, seed=seeds, opts=OPTIONS)
def test_position_round_trip(n: int, seed: int, opts: dict) -> None:
    g = game(n, **opts)
    rng = np.random.default_rng(seed)
    st = g.init([seed])
    while not st.done[0]:
        if rng.random() < 0.3:
            pos = g.to_position(st)
            again = g.from_position(pos, seed=seed % 97)
            assert g.to_position(again) == pos
            assert_same_state(st, again)
        g.step(st, random_legal(g.legal_mask(st), rng))
    assert g.to_position(g.from_position(g.to_position(st))) == g.to_position(st)
