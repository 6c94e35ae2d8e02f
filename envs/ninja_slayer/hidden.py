"""What a ninja_slayer seat cannot know, drawn again consistently with everything it has seen.

Seen by seat s (the observation's docstring): every card in play on both sides (field, the stack,
the エテル zones, オヒガン, every card ever put into a damage zone, ``dmg_seen``), its own hand, the
opponent's hand cards it *knows* (``hand_known``: they were bounced there), the size of every hand
and deck, and the composition of its own deck (``deck_count[s]``: it knows its own list).

Hidden from s, and drawn again by :func:`resample_hidden`:

* the **order of its own deck** (the composition stays);
* the opponent's **unknown hand cards** and the **composition and order of the opponent's deck**:
  together the opponent's *unseen* cards, which are the opponent's deck list minus every card of
  that player s has seen;
* **future chance**: the game's random stream (``rng_key``/``rng_counter``) is re-keyed. The engine
  draws from it only while dealing (deck lists, shuffles, the first player), so play after the deal
  is decided by the deck orders alone; the old key would let the true deal be recomputed.

**The opponent's deck list is not public** (the observation never shows it), so it is modelled:

* its **size** is public (deck + hand + every seen card): 50 is a constructed deck, 40 a sealed one;
* **constructed** (50): the list is drawn uniformly among the lists the game could have dealt that
  seat that are *consistent* with the seen cards (each card id seen at most as often as the list
  holds it). The lists the game could have dealt are read from the game's options
  (``game.config.decks``): a named deck (``"D1"``..``"D4"``) or an explicit 50-card list for that
  seat is that list; ``"constructed"``, ``"any"`` (and ``"sealed"``, should a 50-card deck meet it)
  allow D1..D4. Per-episode decks given to ``init`` as a setup are not stored in the state, so the
  resampler assumes the configured ones; a list the setup gave instead is usually rejected by the
  consistency check (and then the fallback below plays) but may be mistaken for a consistent
  D1..D4 while few of its cards have been seen. The draw is uniform among the consistent lists,
  not weighted by how likely each makes the cards seen (the four decks share few cards, so a few
  seen cards usually leave one);
* **sealed** (40): a fresh pool is drawn from the game's own sealed generator
  (:func:`yuugi.envs.ninja_slayer.decks.sealed_decks`, with the game's ``sr_rate``); its cards not
  already accounted for by the seen cards (per card id, the pool's copies beyond the seen ones)
  are the candidates for the unseen cards, of which a uniform subset of the right size is kept;
  when the pool has too few, a second fresh pool fills up at random. An approximation: the true
  posterior would weight pools by how well they contain the seen cards;
* **fallback**: when no candidate list is consistent (an explicit list given per episode, a
  position with a deck of another size), the opponent's *true* unseen multiset is reshuffled
  (composition kept, order and the hand/deck split redrawn). This is the one case where the
  result depends on hidden information; it is never silent: every fallback row is counted in
  :data:`STATS` ``["fallback"]`` (with ``"constructed"`` and ``"sealed"`` counting the others).

The unseen cards so drawn are shuffled uniformly: the first go to the opponent's unknown hand
slots (which slots hold a card is public), the rest form its deck from ``deck_ptr`` on. Each
deck array keeps its meaning for the engine and the invariants: ``deck[:deck_ptr]`` holds the cards
that have left the deck (in card order, as ``position.from_position`` rebuilds it), ``deck[ptr:size]``
the deck from the top, ``deck_count`` its per-card counts; so each seat still owns exactly its list
across its zones. Everything s sees is copied unchanged, so ``game.observe(state, s)`` is the same
before and after; and since the hidden parts are first reduced to what s knows (compositions,
never orders), the result depends only on what s has seen and on ``rng`` (fallback rows aside).
"""
from __future__ import annotations

import collections
import types

import numpy as np

from yuugi.envs.core.rng import rekey

from . import cards as C
from .config import DECK_MAX
from .decks import CONSTRUCTED, CONSTRUCTED_SIZE, DECK_NAMES, SEALED_SIZE, sealed_decks
from .state import ITEM_ENTRY, ITEM_KOTODAMA, NinjaSlayerState

# Rows resampled by model of the opponent's list: "constructed", "sealed" and "fallback" (see above).
STATS: collections.Counter = collections.Counter()

_NAMED = np.stack([np.bincount(CONSTRUCTED[k], minlength=C.NUM_CARDS) for k in DECK_NAMES])  # [4, 48]



def seen_cards(st: NinjaSlayerState, p: np.ndarray) -> np.ndarray:
    """int64[B, 48]: per card id, the cards of seat ``p[i]`` that both seats see (all but its deck and
    its hand cards the other seat does not know)."""
    b = st.batch_size
    rows = np.arange(b)
    out = (st.etel_count[rows, p].astype(np.int64) + st.grave[rows, p] + st.dmg_seen[rows, p])
    hand = st.hand[rows, p]
    for cards in (st.fld_card[rows, p], np.where(st.hand_known[rows, p], hand, -1)):
        r, j = np.nonzero(cards >= 0)
        np.add.at(out, (r, cards[r, j].astype(np.int64)), 1)
    on = ((np.arange(st.stk_kind.shape[1])[None] < st.stk_len[:, None])
          & ((st.stk_kind == ITEM_ENTRY) | (st.stk_kind == ITEM_KOTODAMA)) & (st.stk_ctrl == p[:, None]))
    r, j = np.nonzero(on)
    np.add.at(out, (r, st.stk_card[r, j].astype(np.int64)), 1)
    return out


def _counts(cards: np.ndarray) -> np.ndarray:
    """int64[B, 48]: per card id, the copies in each row of ``cards`` (int[B, n], -1 for none)."""
    out = np.zeros((cards.shape[0], C.NUM_CARDS), np.int64)
    r, j = np.nonzero(cards >= 0)
    np.add.at(out, (r, cards[r, j].astype(np.int64)), 1)
    return out


def _expand(counts: np.ndarray, width: int) -> np.ndarray:
    """int64[B, width]: the cards of ``counts`` in card order, -1 after the last."""
    ends = np.cumsum(counts, axis=1)  # [B, 48]
    card = (ends[:, None, :] <= np.arange(width)[None, :, None]).sum(axis=2)
    return np.where(card < C.NUM_CARDS, card, -1)


def _shuffled(counts: np.ndarray, width: int, rng: np.random.Generator) -> np.ndarray:
    """int64[B, width]: the cards of ``counts`` in uniformly random order, -1 after the last."""
    cards = _expand(counts, width)
    key = np.where(cards >= 0, rng.random(cards.shape), 2.0)
    return np.take_along_axis(cards, np.argsort(key, axis=1, kind="stable"), axis=1)


def _spec_candidates(spec) -> np.ndarray:
    """bool[4 + 1]: which of D1..D4 (and the seat's explicit list, the last) a deck option allows."""
    allowed = np.zeros(len(DECK_NAMES) + 1, dtype=bool)
    if isinstance(spec, tuple):
        allowed[-1] = True
    elif spec in DECK_NAMES:
        allowed[DECK_NAMES.index(spec)] = True
    else:  # "constructed", "any", "sealed": a 50-card deck is one of D1..D4
        allowed[:len(DECK_NAMES)] = True
    return allowed


def deck_candidates(game, state: NinjaSlayerState, seat) -> tuple[np.ndarray, np.ndarray]:
    """The constructed lists ``seat`` may attribute to its opponent.

    Returns ``(lists, consistent)``: ``lists`` int64[B, 5, 48], per row the card counts of D1..D4 and
    of the explicit list the game's options give the opponent's seat (zeros where none), and
    ``consistent`` bool[B, 5]: the lists the game could have dealt that seat (a 50-card deck under its
    deck option) holding every card of the opponent that ``seat`` has seen.
    """
    b = state.batch_size
    seat = np.broadcast_to(np.asarray(seat, dtype=np.int64), (b,))
    opp = 1 - seat
    specs = game.config.decks
    explicit = np.stack([np.bincount(np.array(s, np.int64), minlength=C.NUM_CARDS) if isinstance(s, tuple)
                         else np.zeros(C.NUM_CARDS, np.int64) for s in specs])  # [2, 48]
    lists = np.concatenate([np.broadcast_to(_NAMED, (b, *_NAMED.shape)), explicit[opp][:, None, :]], axis=1)
    allowed = np.stack([_spec_candidates(s) for s in specs])[opp]  # [B, 5]
    allowed &= (state.deck_size[np.arange(b), opp] == CONSTRUCTED_SIZE)[:, None]
    seen = seen_cards(state, opp)
    consistent = allowed & (lists >= seen[:, None, :]).all(axis=2)
    return lists, consistent


def _sealed_unseen(game, seen: np.ndarray, need: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """int64[n, 48]: ``need[i]`` unseen cards for a sealed opponent, from fresh sealed pools (see above)."""
    n = seen.shape[0]
    stream = types.SimpleNamespace(
        rng_key=rng.integers(0, np.iinfo(np.uint64).max, size=n, dtype=np.uint64, endpoint=True),
        rng_counter=np.zeros(n, np.uint64))
    g = np.arange(n)
    first, second = (sealed_decks(stream, g, game.config.sr_rate) for _ in range(2))
    spare = np.maximum(_counts(first) - seen, 0)  # the first pool's cards beyond the seen ones
    cards = np.concatenate([_expand(spare, SEALED_SIZE), second.astype(np.int64)], axis=1)
    # The spare cards in random order first, then the second pool's in random order.
    key = np.where(cards >= 0, rng.random(cards.shape) + (np.arange(cards.shape[1]) >= SEALED_SIZE), 3.0)
    cards = np.take_along_axis(cards, np.argsort(key, axis=1, kind="stable"), axis=1)
    return _counts(np.where(np.arange(cards.shape[1])[None, :] < need[:, None], cards, -1))


def _write_deck(st: NinjaSlayerState, p: np.ndarray, owned: np.ndarray, remaining: np.ndarray) -> None:
    """Seat ``p[i]``'s deck array: the cards that left it (``owned`` minus the deck, card order) up to
    ``deck_ptr``, then ``remaining`` (int[B, 50], top first, -1 after the last), then -1."""
    rows = np.arange(st.batch_size)
    ptr = st.deck_ptr[rows, p].astype(np.int64)
    size = st.deck_size[rows, p].astype(np.int64)
    rem_counts = _counts(remaining)
    left = _expand(owned - rem_counts, DECK_MAX)
    pos = np.arange(DECK_MAX)[None, :]
    from_top = np.take_along_axis(remaining, np.clip(pos - ptr[:, None], 0, DECK_MAX - 1), axis=1)
    st.deck[rows, p] = np.where(pos < ptr[:, None], left, np.where(pos < size[:, None], from_top, -1))
    st.deck_count[rows, p] = rem_counts


def resample_hidden(game, state: NinjaSlayerState, seat, rng: np.random.Generator) -> NinjaSlayerState:
    """A copy of ``state`` with everything ``seat`` (int or int[B]) cannot see drawn again from ``rng``."""
    st = state.copy()
    b = st.batch_size
    rows = np.arange(b)
    seat = np.broadcast_to(np.asarray(seat, dtype=np.int64), (b,))
    opp = 1 - seat

    # Its own deck: the same composition, a new order.
    own_list = _counts(st.deck[rows, seat])
    _write_deck(st, seat, own_list, _shuffled(st.deck_count[rows, seat].astype(np.int64), DECK_MAX, rng))

    # The opponent's unseen cards, from its modelled list.
    seen = seen_cards(st, opp)
    hand = st.hand[rows, opp]
    unknown = (hand >= 0) & ~st.hand_known[rows, opp]
    n_hand = unknown.sum(axis=1)
    n_deck = (st.deck_size[rows, opp] - st.deck_ptr[rows, opp]).astype(np.int64)
    lists, consistent = deck_candidates(game, st, seat)
    pick = np.argmax(np.where(consistent, rng.random(consistent.shape), -1.0), axis=1)
    constructed = consistent.any(axis=1)
    sealed = ~constructed & (st.deck_size[rows, opp] == SEALED_SIZE)
    fallback = ~constructed & ~sealed
    unseen = np.zeros((b, C.NUM_CARDS), np.int64)
    unseen[constructed] = (lists[rows, pick] - seen)[constructed]
    if sealed.any():
        unseen[sealed] = _sealed_unseen(game, seen[sealed], (n_hand + n_deck)[sealed], rng)
    if fallback.any():
        true_unseen = st.deck_count[rows, opp].astype(np.int64) + _counts(np.where(unknown, hand, -1))
        unseen[fallback] = true_unseen[fallback]
    STATS.update(constructed=int(constructed.sum()), sealed=int(sealed.sum()), fallback=int(fallback.sum()))

    drawn = _shuffled(unseen, DECK_MAX, rng)  # the first n_hand to the unknown hand slots, the rest the deck
    ordinal = np.cumsum(unknown, axis=1) - 1
    new_hand = np.take_along_axis(drawn, np.clip(ordinal, 0, DECK_MAX - 1), axis=1)
    st.hand[rows, opp] = np.where(unknown, new_hand, hand).astype(st.hand.dtype)
    pos = np.arange(DECK_MAX)[None, :]
    deck_part = np.take_along_axis(drawn, np.clip(pos + n_hand[:, None], 0, DECK_MAX - 1), axis=1)
    deck_part = np.where(pos < n_deck[:, None], deck_part, -1)
    _write_deck(st, opp, seen + unseen, deck_part)
    rekey(st, rng)
    return st
