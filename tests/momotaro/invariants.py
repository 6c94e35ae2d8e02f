"""Whole-batch invariants of a 鬼ヶ島 state (rules §3–§5), checked after every step by the property
and fuzz tests. Each check is vectorised over the batch."""
from __future__ import annotations

import numpy as np

from yuugi.envs.momotaro.state import AT_FIELD, AT_TREASURE, PHASE_YELLOW


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (0 where none), one flatnonzero over the mask."""
    b, a = mask.shape
    flat = np.flatnonzero(mask)
    counts = np.bincount(flat // a, minlength=b)
    starts = np.cumsum(counts) - counts
    k = (rng.random(b) * counts).astype(np.int64)
    out = np.zeros(b, dtype=np.int64)
    has = counts > 0
    out[has] = flat[(starts + k)[has]] % a
    return out


def check_state(g, st) -> None:
    t = g.config.tables
    power = t.card_power
    live = ~st.done
    mask = g.legal_mask(st)
    assert mask[live].any(axis=1).all(), "a live game without a legal action"
    assert not mask[~live].any(), "a finished game with legal actions"
    # Damage is never negative and never above printed power; knocked out = damage at power.
    assert (st.card_dmg >= 0).all() and (st.card_dmg <= power).all()
    assert (st.card_dmg[st.ko] == np.broadcast_to(power, st.ko.shape)[st.ko]).all()
    assert (st.card_dmg[st.hand] < np.broadcast_to(power, st.hand.shape)[st.hand]).all()
    assert not (st.hand & st.ko).any()
    assert (st.alive == st.hand[:, :, 0]).all()
    assert (st.oni_dmg >= 0).all() and (st.oni_dmg <= t.oni_power).all()
    at_power = (st.oni_at == AT_FIELD) & (st.oni_dmg >= t.oni_power)
    assert (at_power.sum(axis=1) <= (st.phase == PHASE_YELLOW)).all(), "a defeated oni left on the field"
    # Each retainer belongs to at most one player.
    assert ((st.hand | st.ko)[:, :, 1:].sum(axis=1) <= 1).all()
    # Treasure = the printed values of the oni each player took as treasure.
    won = (st.oni_at == AT_TREASURE)[:, None, :] & (st.oni_owner[:, None, :] == np.arange(g.num_players)[:, None])
    assert (st.treasure == (won * t.oni_power).sum(axis=2)).all()
    assert (st.kibi >= 0).all() and (st.kibi <= t.kibi).all()
    assert (st.potions >= 0).all() and (st.potions <= 3).all()
    term = st.terminated
    assert np.allclose(st.rewards[term].sum(axis=1), 0.0, atol=1e-5)


def check_step(before, after) -> None:
    """Kibidango are never created (only spent); treasure never shrinks."""
    assert (after.kibi <= before.kibi).all(), "kibidango created"
    assert (after.treasure >= before.treasure).all()
    assert (after.turns >= before.turns).all()
