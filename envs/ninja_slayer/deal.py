"""A new game, compiled: the table cleared, the decks built and shuffled from the game's stream, the
first player drawn, four cards each, and the game run to its first decision.

The draws come in this order: seat 0's deck (a random constructed pick, a sealed deck), seat 1's,
then seat 0's shuffle (50 numbers), seat 1's, then the first player.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.jit import rules
from yuugi.envs.core.streams import below, draw, draw_below, permutation, splitmix64, stable_order, unit

from .engine import advance
from .sizes import DECK_MAX
from .state import OP_BEGIN_STEP, PHASE_UNTAP
from .tables import SPEC_ANY, SPEC_CONSTRUCTED, SPEC_LIST, SPEC_SEALED

OPENING_HAND = 4
CONSTRUCTED_SIZE = 50
SEALED_SIZE = 40
_SEED_MIX = np.uint64(0x5EED5EED5EED5EED)
_NO_KEY = np.uint64(0xFFFFFFFFFFFFFFFF)


@rules
def key_from_seed(seed):
    """The stream key of a seed (as ``rng.keys_from_seeds``)."""
    return splitmix64(splitmix64(np.uint64(seed)) ^ _SEED_MIX)


@rules
def clear_game(st, i):
    """Game ``i`` as :func:`.state.empty_state` leaves it: empty zones, empty stack, no attack."""
    st.to_play[i] = 0
    st.terminated[i] = False
    st.truncated[i] = False
    st.rewards[i, :] = 0.0
    st.rng_key[i] = 0
    st.rng_counter[i] = 0
    st.deck[i, :, :] = -1
    st.deck_size[i, :] = 0
    st.deck_ptr[i, :] = 0
    st.deck_count[i, :, :] = 0
    st.hand[i, :, :] = -1
    st.hand_known[i, :, :] = False
    st.fld_card[i, :, :] = -1
    st.fld_obj[i, :, :] = -1
    st.fld_tap[i, :, :] = False
    st.fld_entered[i, :, :] = False
    st.fld_redir[i, :, :] = False
    st.fld_kz[i, :, :] = False
    st.fld_dmg[i, :, :] = 0
    st.fld_kmod[i, :, :] = 0
    st.fld_wmod[i, :, :] = 0
    st.etel_count[i, :, :] = 0
    st.etel_total[i, :] = 0
    st.etel_untapped[i, :] = 0
    st.dmg_up[i, :] = 0
    st.dmg_down[i, :] = 0
    st.dmg_seen[i, :, :] = 0
    st.grave[i, :, :] = 0
    st.grave_anon[i, :] = 0
    for arr in (st.stk_kind, st.stk_card, st.stk_ctrl, st.stk_src_slot, st.stk_op, st.stk_arg, st.stk_tk,
                st.stk_tgt_player, st.stk_tgt_slot, st.stk_ref,
                st.pend_kind, st.pend_card, st.pend_ctrl, st.pend_src_slot, st.pend_op, st.pend_arg, st.pend_tk,
                st.pend_tgt_player, st.pend_tgt_slot):
        arr[i, :] = -1
    st.stk_src_obj[i, :] = -1
    st.stk_tgt_obj[i, :] = -1
    st.pend_src_obj[i, :] = -1
    st.pend_tgt_obj[i, :] = -1
    st.pend_key[i, :] = -1
    st.pend_used[i, :] = False
    st.stk_len[i] = 0
    st.pend_len[i] = 0
    st.pend_ask[i] = -1
    st.ukemi_seq[i] = 0
    st.turn[i] = 0
    st.tp[i] = 0
    st.first[i] = 0
    st.phase[i] = 0
    st.decision[i] = 0
    st.prio[i] = 0
    st.passes[i] = 0
    st.op[i] = 0
    st.att_slot[i] = -1
    st.att_obj[i] = -1
    st.tgt_slot[i] = -1
    st.tgt_obj[i] = -1
    st.interrupt_asked[i] = False
    st.kill_obj[i] = -1
    st.kill_src_slot[i] = -1
    st.kill_src_obj[i] = -1
    st.dmg_left[i] = 0
    st.dmg_player[i] = 0
    st.dmg_src_player[i] = 0
    st.dmg_src_slot[i] = -1
    st.dmg_src_obj[i] = -1
    st.next_obj[i] = 0
    st.loser[i, :] = False
    st.end_reason[i] = 0
    st.winner[i] = -1
    st.n_decisions[i] = 0
    st.last_resolved[i] = -1
    st.hist_action[i, :] = -1
    st.hist_player[i, :] = -1
    st.hist_card[i, :] = -1


@rules(allocates=True)
def sealed_deck(st, i, pools, pool_len, sr_rate, out):
    """A blitz sealed deck into ``out[:40]``: 5 packs of 5 different commons, 2 different uncommons and
    a rare slot (an SR with probability ``sr_rate``, else a rare). ``pools[k, :pool_len[k]]``: the card
    ids of rarity k (common, uncommon, rare, SR)."""
    k = 0
    for _ in range(5):
        perm = np.empty(pool_len[0], np.int64)
        permutation(st.rng_key, st.rng_counter, i, perm)
        for j in range(5):
            out[k] = pools[0, perm[j]]
            k += 1
        perm = np.empty(pool_len[1], np.int64)
        permutation(st.rng_key, st.rng_counter, i, perm)
        for j in range(2):
            out[k] = pools[1, perm[j]]
            k += 1
        kind = draw(st.rng_key, st.rng_counter, i)
        sr = pools[3, below(draw(st.rng_key, st.rng_counter, i), pool_len[3])]
        rare = pools[2, below(draw(st.rng_key, st.rng_counter, i), pool_len[2])]
        out[k] = sr if unit(kind) < sr_rate else rare
        k += 1


@rules(allocates=True)
def build_deck(st, i, seat, kind, listed, constructed, pools, pool_len, sr_rate):
    """Seat ``seat``'s unshuffled deck from its spec code (``tables.SPEC_*``)."""
    if kind == SPEC_LIST:
        st.deck[i, seat, :] = listed[seat]
        st.deck_size[i, seat] = CONSTRUCTED_SIZE
    elif kind < SPEC_CONSTRUCTED:
        st.deck[i, seat, :] = constructed[kind]
        st.deck_size[i, seat] = CONSTRUCTED_SIZE
    elif kind == SPEC_SEALED:
        sealed_deck(st, i, pools, pool_len, sr_rate, st.deck[i, seat])
        st.deck_size[i, seat] = SEALED_SIZE
    else:  # one of D1..D4 at random ("constructed"), or of the five ("any": the sealed deck is dealt anyway)
        pick = draw_below(st.rng_key, st.rng_counter, i, 4 if kind == SPEC_CONSTRUCTED else 5)
        sealed = np.full(DECK_MAX, -1, np.int64)
        if kind == SPEC_ANY:
            sealed_deck(st, i, pools, pool_len, sr_rate, sealed)
        if pick == 4:
            st.deck[i, seat, :] = sealed
            st.deck_size[i, seat] = SEALED_SIZE
        else:
            st.deck[i, seat, :] = constructed[pick]
            st.deck_size[i, seat] = CONSTRUCTED_SIZE


@rules(allocates=True)
def shuffle_deck(st, i, seat):
    """Shuffle the deck's cards (the padding stays at the end): a stable sort by 50 draws."""
    size = int(st.deck_size[i, seat])
    raws = np.empty(DECK_MAX, np.uint64)
    for j in range(DECK_MAX):
        raws[j] = draw(st.rng_key, st.rng_counter, i)
        if j >= size:
            raws[j] = _NO_KEY
    order = np.empty(DECK_MAX, np.int64)
    stable_order(raws, order)
    cards = st.deck[i, seat].copy()
    for j in range(DECK_MAX):
        st.deck[i, seat, j] = cards[order[j]]


@rules
def new_game(st, ct, cf, i, seed, kinds, listed, constructed, pools, pool_len, sr_rate):
    """Game ``i`` started from ``seed``: decks, shuffles, the first player, the opening hands; then it runs
    to its first decision."""
    clear_game(st, i)
    st.rng_key[i] = key_from_seed(seed)
    for seat in range(2):
        build_deck(st, i, seat, kinds[seat], listed, constructed, pools, pool_len, sr_rate)
    for seat in range(2):
        shuffle_deck(st, i, seat)
    for seat in range(2):  # the opening hands: the top 4 cards; the rest counted per card id
        for h in range(OPENING_HAND):
            st.hand[i, seat, h] = st.deck[i, seat, h]
        st.deck_ptr[i, seat] = OPENING_HAND
        for j in range(OPENING_HAND, DECK_MAX):
            card = st.deck[i, seat, j]
            if card >= 0:
                st.deck_count[i, seat, card] += 1
    first = draw_below(st.rng_key, st.rng_counter, i, 2)
    st.first[i] = first
    st.tp[i] = first
    st.turn[i] = 1
    st.phase[i] = PHASE_UNTAP
    st.op[i] = OP_BEGIN_STEP
    return advance(st, ct, cf, i)
