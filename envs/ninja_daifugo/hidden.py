"""What a daifugō seat cannot know, dealt again consistently with everything it has seen.

Hidden from seat s: the other seats' hands, except the cards s *knows* they hold (``known[s, h]``:
cards s gave them in tribute or exchange, cards thrown to them publicly by 手裏剣), the face-down
都落ち pile, the other seats' own knowledge and exchange records, an exchange pick in progress by
another seat, and all future chance (later deals and declarations: the game's random stream).

:func:`resample_hidden` deals the unseen cards again, uniformly among the deals that agree with
what s has observed:

* every other seat keeps its hand size and the cards s knows it holds; the 都落ち pile keeps its
  size; the cards s played, saw played and holds stay where they are;
* cards s gave away that it has not seen since (not played, not known in a hand) can only be in the
  face-down 都落ち pile (a card leaves a hand only by a play, a public throw or an exchange), so
  they stay there;
* **tribute**: when s received tribute this game (as 大富豪 or 富豪), the giver handed over its
  strongest cards, so it held nothing stronger than the weakest card s received; the giver's
  unseen cards are therefore dealt from the cards weaker than that (in the tribute order of this
  game's declaration). Drawing the giver's cards uniformly from those first and then the rest
  uniformly is exactly uniform over the consistent deals.

Approximations, by choice: a tribute between two other seats is not inferred from (s does not
see those cards), and the other seats' records that only their own observations show (what they
know of third hands, what they gave and received) are cleared; the rollout policies do not read
them. The opponents' earlier choices are not used as evidence (a determinization, not a belief).
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.rng import rekey

from .cards import BIT, NUM_CARDS, popcount, unpack_bits
from .config import D_START_REVOLUTION, D_WEAK_JOKER
from .tables import TRIBUTE_ORDER
from .state import DAIFUGO, FUGO, DaifugoState

_U0 = np.uint64(0)
# _POSITION[v, c]: card c's place in tribute order v (0 = strongest).
_POSITION = np.zeros((len(TRIBUTE_ORDER), NUM_CARDS), dtype=np.int64)
for _v, _order in enumerate(TRIBUTE_ORDER):
    _POSITION[_v, _order.astype(np.int64)] = np.arange(NUM_CARDS)



def _to_mask(bits: np.ndarray) -> np.ndarray:
    """uint64[...]: the bitmask of bool[..., 53]."""
    return np.bitwise_or.reduce(np.where(bits, BIT, _U0), axis=-1)


def _deal(eligible: np.ndarray, counts: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """uint64[B, k]: ``counts[i, j]`` cards for slot j, drawn without replacement uniformly from ``eligible[i]``.

    ``eligible`` is bool[B, 53]; row i must hold at least ``counts[i].sum()`` eligible cards.
    """
    key = np.where(eligible, rng.random(eligible.shape), np.inf)
    rank = np.argsort(np.argsort(key, axis=1, kind="stable"), axis=1, kind="stable")  # 0 = first drawn
    ends = np.cumsum(counts, axis=1)
    slot = (rank[:, :, None] >= ends[:, None, :]).sum(axis=2)  # k = past every slot
    k = counts.shape[1]
    return np.stack([_to_mask(eligible & (slot == j)) for j in range(k)], axis=1)


def _tribute_giver(st: DaifugoState, seat: np.ndarray) -> np.ndarray:
    """The seat that gave ``seat`` tribute this game (-1 when none did)."""
    rows = np.arange(st.batch_size)
    n = st.titles.shape[1]  # the 大貧民 and the 貧民 are the last two places, n and n - 1
    title = st.titles[rows, seat]
    giver_title = np.where(title == DAIFUGO, n, np.where(title == FUGO, n - 1, -1))
    found = st.titles == giver_title[:, None]
    giver = np.where(found.any(axis=1), found.argmax(axis=1), -1)
    return np.where((st.game_index > 0) & (giver_title > 0), giver, -1)


def _weaker_than_tribute(st: DaifugoState, seat: np.ndarray) -> np.ndarray:
    """bool[B, 53]: cards weaker than every tribute card ``seat`` received (in this game's order)."""
    rows = np.arange(st.batch_size)
    variant = np.where(st.declaration == D_WEAK_JOKER, 2, np.where(st.declaration == D_START_REVOLUTION, 1, 0))
    position = _POSITION[variant]  # [B, 53]
    received = unpack_bits(st.received[rows, seat])
    weakest = np.where(received, position, -1).max(axis=1)
    return position > weakest[:, None]


def resample_hidden(game, state: DaifugoState, seat, rng: np.random.Generator) -> DaifugoState:
    """A copy of ``state`` with everything ``seat`` (int or int[B]) cannot see dealt again from ``rng``."""
    st = state.copy()
    b = st.batch_size
    rows = np.arange(b)
    seat = np.broadcast_to(np.asarray(seat, dtype=np.int64), (b,))
    n = st.hands.shape[1]
    k = n - 1  # the other players
    others = (seat[:, None] + np.arange(1, n)) % n  # [B, n - 1]
    r3 = rows[:, None]
    known = st.known[r3, seat[:, None], others]  # what s knows each other seat holds
    unseen_hands = st.hands[r3, others] & ~known
    pool = np.bitwise_or.reduce(unseen_hands, axis=1) | st.removed
    pinned_removed = pool & st.given[rows, seat]
    free = pool & ~pinned_removed
    counts = np.concatenate([popcount(unseen_hands), (popcount(st.removed) - popcount(pinned_removed))[:, None]],
                            axis=1)

    # The tribute giver's unseen cards first, from the cards weaker than its tribute.
    giver = _tribute_giver(st, seat)
    slot_of_giver = (others == giver[:, None])  # [B, n - 1]; all False when there is no giver
    constrained = slot_of_giver.any(axis=1)
    free_bits = unpack_bits(free)
    giver_count = (counts[:, :k] * slot_of_giver).sum(axis=1)
    giver_cards = _deal(free_bits & _weaker_than_tribute(st, seat) & constrained[:, None],
                        (giver_count * constrained)[:, None], rng)[:, 0]
    counts[:, :k] -= giver_count[:, None] * slot_of_giver
    dealt = _deal(free_bits & ~unpack_bits(giver_cards), counts, rng)
    dealt[:, :k] |= np.where(slot_of_giver, giver_cards[:, None], _U0)

    st.hands[r3, others] = known | dealt[:, :k]
    st.removed[:] = pinned_removed | dealt[:, k]
    # Other seats' private records: cleared, except what they know of s's own hand (s knows who gave it what).
    for j in range(k):
        o = others[:, j]
        about_seat = st.known[rows, o, seat].copy()
        st.known[rows, o] = 0
        st.known[rows, o, seat] = about_seat
        st.given[rows, o] = 0
        st.received[rows, o] = 0
    # An exchange pick under way by another seat: the same number of cards from its new hand.
    picking = (st.picked != 0) & (st.to_play.astype(np.int64) != seat)
    if picking.any():
        g = picking.nonzero()[0]
        hand = unpack_bits(st.hands[g, st.to_play[g].astype(np.int64)])
        st.picked[g] = _deal(hand, popcount(st.picked[g])[:, None], rng)[:, 0]
    rekey(st, rng)
    return st
