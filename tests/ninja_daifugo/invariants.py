"""Invariants every ninja_daifugo state must satisfy (used by property and fuzz tests)."""
from __future__ import annotations

import numpy as np

from yuugi.envs.ninja_daifugo.cards import ALL_CARDS, popcount
from yuugi.envs.ninja_daifugo.state import DaifugoState


def check_invariants(st: DaifugoState, mask: np.ndarray) -> None:
    live = ~(st.terminated | st.truncated)
    places = np.concatenate([st.hands, st.field_cards[:, None], st.discard[:, None], st.removed[:, None]], axis=1)
    # 53 cards, each in exactly one place.
    assert (popcount(places).sum(axis=1) == 53).all(), "cards not conserved"
    union = np.bitwise_or.reduce(places, axis=1)
    assert (union == np.uint64(ALL_CARDS)).all(), "a card vanished"
    # A live game always offers its player something to do.
    assert mask[live].any(axis=1).all(), "empty mask in a live game"
    assert not mask[~live].any(), "actions offered in a finished game"
    # The player to act is still in the game.
    rows = np.flatnonzero(live)
    assert st.active[rows, st.to_play[rows]].all(), "an inactive seat is to play"
    # Finishing positions are distinct and the finished hold nothing (but the last of a finished game).
    for i in rows:
        pos = st.finish_pos[i][st.finish_pos[i] > 0]
        assert len(set(pos.tolist())) == len(pos)
    assert ((st.finish_pos > 0) == ~st.active)[live].all()
    assert (st.hands[live][~st.active[live]] == 0).all(), "a finished seat holds cards"
    # Lock only on a non-empty field; the field owner exists when the field is not empty.
    assert ((st.lock == 0) | (st.field_action >= 0)).all()
    assert ((st.field_action < 0) == (st.field_owner < 0)).all()
    assert (st.responses >= 0).all() and (st.skip_pending >= 0).all()
