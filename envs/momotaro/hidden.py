"""What a 鬼ヶ島 seat cannot know, drawn again consistently with what it has seen.

Hidden from a seat (see the observation's docstring):

* the **order** of the retainers still face down in the hiring deck (positions after the one on
  auction; the seat sees their composition);
* the **order** of the oni still in the oni deck (positions from ``4 × round`` on; composition seen);
* the **sealed bids** of the other seats in the stage under way: first bids while the phase is
  ``bid`` and additional bids while it is ``additional_bid`` (the seat sees *that* they bid);
* all **future chance** (janken, start-player ties, dice): the game's random stream.

:func:`resample_hidden` shuffles the face-down part of each deck uniformly, draws each hidden bid
uniformly among the amounts its bidder could legally have bid (0 .. kibidango, minus the revealed
first bid for an additional one), and gives each game a fresh random stream. Everything the seat
sees is copied unchanged, so its observation is the same before and after.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.rng import rekey

from .state import PHASE_ADD, PHASE_BID, MomotaroState



def _shuffle_tail(deck: np.ndarray, first_hidden: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``deck`` [B, n] with positions ``>= first_hidden[i]`` of row i uniformly permuted among themselves.

    The hidden part is put in a canonical order (by value) before the shuffle, so the result depends
    only on its composition, never on the true order it replaces.
    """
    n = deck.shape[1]
    pos = np.arange(n)
    hidden = pos[None, :] >= first_hidden[:, None]
    canonical = np.where(hidden, n + deck.astype(np.int64), pos[None, :])
    deck = np.take_along_axis(deck, np.argsort(canonical, axis=1, kind="stable"), axis=1)
    # Seen positions sort first in their own order (keys 0..n-1), hidden ones after them at random.
    key = np.where(hidden, n + rng.random(deck.shape), pos[None, :])
    return np.take_along_axis(deck, np.argsort(key, axis=1, kind="stable"), axis=1)


def _redraw_bids(values: np.ndarray, hidden: np.ndarray, limit: np.ndarray, rng: np.random.Generator) -> None:
    """Overwrite ``values[hidden]`` with uniform integers 0..limit (in place)."""
    if hidden.any():
        top = limit[hidden].astype(np.int64)
        values[hidden] = np.minimum((rng.random(top.shape) * (top + 1)).astype(np.int64), top)


def resample_hidden(game, state: MomotaroState, seat, rng: np.random.Generator) -> MomotaroState:
    """A copy of ``state`` with everything ``seat`` (int or int[B]) cannot see drawn again from ``rng``."""
    out = state.copy()
    b = out.batch_size
    seat = np.broadcast_to(np.asarray(seat, dtype=np.int64), (b,))
    out.hire_deck[:] = _shuffle_tail(out.hire_deck, out.hire_pos.astype(np.int64) + 1, rng)
    out.oni_deck[:] = _shuffle_tail(out.oni_deck, 4 * out.round.astype(np.int64), rng)
    others = np.arange(game.num_players)[None, :] != seat[:, None]
    live = ~(out.terminated | out.truncated)
    hidden_bids = others & (live & (out.phase == PHASE_BID))[:, None] & (out.bids >= 0)
    _redraw_bids(out.bids, hidden_bids, out.kibi, rng)
    hidden_adds = others & (live & (out.phase == PHASE_ADD))[:, None] & (out.adds >= 0)
    _redraw_bids(out.adds, hidden_adds, out.kibi - np.maximum(out.bids, 0), rng)
    rekey(out, rng)
    return out

