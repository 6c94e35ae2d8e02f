"""Invariants of every ninja_slayer state, checked at every step of the fuzz."""
from __future__ import annotations

import numpy as np

from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.state import (DECISION_INTERRUPT, DECISION_TARGET, ITEM_ENTRY, ITEM_KOTODAMA, OP_WAIT,
                                     NinjaSlayerState)


def card_totals(st: NinjaSlayerState) -> np.ndarray:
    """int[B, 2, 48]: every card a seat owns, counted over all its zones (incl. healed damage cards)."""
    b = st.batch_size
    tot = st.deck_count.astype(np.int64) + st.grave + st.etel_count + st.dmg_seen
    for arr in (st.hand, st.fld_card):
        for p in range(2):
            cards = arr[:, p].astype(np.int64)
            rows = np.broadcast_to(np.arange(b)[:, None], cards.shape)
            ok = cards >= 0
            np.add.at(tot, (rows[ok], p, cards[ok]), 1)
    on = (np.arange(st.stk_kind.shape[1])[None] < st.stk_len[:, None]) & (
        (st.stk_kind == ITEM_ENTRY) | (st.stk_kind == ITEM_KOTODAMA))
    r, j = np.nonzero(on)
    np.add.at(tot, (r, st.stk_ctrl[r, j].astype(np.int64), st.stk_card[r, j].astype(np.int64)), 1)
    return tot


def initial_decks(st: NinjaSlayerState) -> np.ndarray:
    out = np.zeros((st.batch_size, 2, C.NUM_CARDS), np.int64)
    for p in range(2):
        d = st.deck[:, p].astype(np.int64)
        rows = np.broadcast_to(np.arange(st.batch_size)[:, None], d.shape)
        ok = d >= 0
        np.add.at(out, (rows[ok], p, d[ok]), 1)
    return out


def check_invariants(game, st: NinjaSlayerState, mask: np.ndarray) -> None:
    live = ~st.done
    # Masks: non-empty exactly while the game is live.
    assert (mask.any(axis=1) == live).all(), "a live game without legal actions (or a finished one with some)"
    # Card conservation per seat and card id.
    assert (card_totals(st) == initial_decks(st)).all(), "cards were created or lost"
    # Counters in range.
    assert (st.deck_ptr >= 0).all() and (st.deck_ptr <= st.deck_size).all()
    assert ((st.etel_untapped >= 0) & (st.etel_untapped <= st.etel_total)).all()
    assert (st.etel_total == st.etel_count.sum(axis=2)).all()
    assert (st.dmg_up >= 0).all() and (st.dmg_down >= 0).all() and (st.grave_anon >= 0).all()
    assert (st.dmg_seen.sum(axis=2) == st.dmg_up + st.dmg_down + st.grave_anon).all()
    assert (st.grave >= 0).all() and (st.deck_count >= 0).all()
    assert ((st.stk_len >= 0) & (st.stk_len <= 16)).all()
    assert (st.fld_dmg >= 0).all()
    assert ((st.fld_card >= 0) == (st.fld_obj >= 0)).all()
    assert (~C.IS_CHAR[np.maximum(st.fld_card, 0)] & (st.fld_card >= 0)).sum() == 0, "a kotodama on the field"
    # Live games wait at a decision with a consistent actor; live dmg 0..9.
    assert (st.op[live] == OP_WAIT).all()
    assert ((st.dmg_up + st.dmg_down)[live] < 10).all()
    asked = live & (st.decision == DECISION_TARGET)
    assert (st.pend_ask[asked] >= 0).all()
    intr = live & (st.decision == DECISION_INTERRUPT)
    assert (st.to_play[intr] == 1 - st.tp[intr]).all()
    assert (st.turn[live] <= game.config.max_turns).all()
    # Object ids are unique on each table.
    objs = np.where(st.fld_obj >= 0, st.fld_obj, -np.arange(12).reshape(1, 2, 6) - 10).reshape(st.batch_size, -1)
    s = np.sort(objs, axis=1)
    assert (s[:, 1:] != s[:, :-1]).all(), "two characters share an object id"
    # Finished games have consistent results.
    term = st.terminated
    assert (np.abs(st.rewards[term].sum(axis=1)) < 1e-6).all()
