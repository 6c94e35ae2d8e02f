"""Fuzz: thousands of complete games per player count under random legal play, every invariant
checked after every step (vectorised over the batch)."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.momotaro.tables import COMBO_CARDS

from .helpers import game
from .invariants import check_state, check_step, random_legal

GAMES = 2000


def greedy(g, st, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A simple heuristic (in the spirit of rules §14's): attack the weakest oni with the strongest set,
    keep the warrior back when a retainer set is legal, heal whenever possible, and put damage where
    it knocks out the least. Bids and the yellow choice stay random."""
    lay, t = g.layout, g.config.tables
    out = random_legal(mask, rng)
    rows = np.arange(st.batch_size)
    p = st.to_play.astype(np.intp)
    noise = rng.random((st.batch_size, 58)) * 0.5
    oni_score = np.where(mask[:, lay.oni0:lay.oni0 + 12], -(t.oni_power - st.oni_dmg) + noise[:, :12], -1e9)
    eff = (t.card_power - st.card_dmg[rows, p]).astype(np.float64)
    war = eff @ COMBO_CARDS.T.astype(np.float64) + t.combo_oni_mod[:, np.maximum(st.target, 0)].T
    war -= 4.0 * COMBO_CARDS[:, 0]  # keep the warrior back
    combo_score = np.where(mask[:, lay.combo0:lay.combo0 + 58], war + noise, -1e9)
    left = eff - st.pending[:, None]  # what each card keeps after taking the damage
    assign_score = np.where(mask[:, lay.assign0:lay.assign0 + 10], left - 50.0 * (left <= 0)
                            - 100.0 * (np.arange(10) == 0), -1e9)
    heal_any = mask[:, lay.heal0:lay.heal0 + 10].any(axis=1)
    phase = st.phase
    out = np.where(phase == 4, lay.oni0 + oni_score.argmax(axis=1), out)
    out = np.where(phase == 5, lay.combo0 + combo_score.argmax(axis=1), out)
    out = np.where(phase == 6, lay.assign0 + assign_score.argmax(axis=1), out)
    out = np.where((phase == 3) & heal_any, lay.heal0 + mask[:, lay.heal0:lay.heal0 + 10].argmax(axis=1), out)
    return out


def mixed(g, st, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Half of the games play greedily (long games that clear the field), half uniformly at random."""
    return np.where(np.arange(st.batch_size) % 2 == 0, greedy(g, st, mask, rng), random_legal(mask, rng))


@pytest.mark.fuzz
@pytest.mark.parametrize("n", [2, 3, 4])
def test_fuzz_random_games(n: int) -> None:
    g = game(n)
    rng = np.random.default_rng(1000 + n)
    st = g.init(np.arange(GAMES) + 10_000 * n)
    steps = 0
    while not st.done.all():
        before = st.copy() if steps % 3 == 0 else None
        g.step(st, mixed(g, st, g.legal_mask(st), rng), check=steps % 7 == 0)
        obs = g.observe(st, st.to_play)
        assert obs.dtype == np.float32 and (obs >= 0).all() and (obs <= 1).all()
        if before is not None:
            check_step(before, st)
            check_state(g, st)
        steps += 1
        assert steps < 5000
    check_state(g, st)
    assert st.terminated.all() and not st.truncated.any()
    # Both endings of §5.7 happen: the field cleared in round 3, and every warrior knocked out.
    cleared = (st.round == 3) & ~(st.oni_at == 1).any(axis=1)
    wiped = ~st.alive.any(axis=1)
    assert (cleared | wiped).all()
    assert cleared.any() and wiped.any()
    # Rewards (scheme "winner"): zero-sum; the first place gets the most, all-zero only on a full tie.
    r = st.rewards
    assert np.allclose(r.sum(axis=1), 0.0, atol=1e-5)
    others = np.isclose(r, -1.0 / (n - 1))
    assert ((r.max(axis=1) > 0) & (others | (r > 0)).all(axis=1) | (r == 0).all(axis=1)).all()
    assert (r.max(axis=1) > 0).mean() > 0.9
