"""Shared helpers: a game, random play, positions built from short descriptions."""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.sampling import random_legal
from yuugi.envs.ninja_slayer_v0 import Game

from .invariants import check_invariants


def game(**options) -> Game:
    return Game(**options)


def play_random(g: Game, n_games: int, seed: int, check: bool = True, max_steps: int = 6000):
    """Play ``n_games`` random games to the end, checking the invariants at every step."""
    st = g.init(np.arange(n_games, dtype=np.uint64) + np.uint64(seed) * np.uint64(1_000_003))
    rng = np.random.default_rng(seed)
    steps = 0
    while not st.done.all():
        mask = g.legal_mask(st)
        if check:
            check_invariants(g, st, mask)
        g.step(st, random_legal(mask, rng), mask=mask)
        steps += 1
        assert steps < max_steps, "a game ran past the episode bound"
    check_invariants(g, st, g.legal_mask(st))
    return st


# ---- scenario positions --------------------------------------------------------------------------
PASS, SKIP_ETEL, END_AISATSU, NO_INTERRUPT = 0, 11, 272, 279


def etel_put(h: int) -> int:
    return 1 + h


def enter(h: int) -> int:
    return 12 + h


def cast(h: int, t: int = 12) -> int:
    return 22 + 13 * h + t


def activate(f: int, t: int = 12) -> int:
    return 152 + 13 * f + t


def aisatsu(a: int, u: int = 6) -> int:
    return 230 + 7 * a + u


def interrupt(f: int) -> int:
    return 273 + f


def choose(t: int) -> int:
    return 280 + t


def char(card: str, **kw) -> dict:
    return {"card": card, **kw}


def seat(deck=None, hand=(), field=(), etel=0, etel_untapped=None, **kw) -> dict:
    """One seat of a scenario: a deck (top first; 20 vanilla C01 by default), hand, field, エテル count."""
    d = {"deck": list(deck) if deck is not None else ["C01"] * 20, "hand": list(hand), "field": list(field),
         "etel": ["C01"] * etel, "etel_untapped": etel if etel_untapped is None else etel_untapped}
    d.update(kw)
    return d


def table(p0: dict, p1: dict, phase: str = "declare", decision: str = "declare", turn_player: int = 0, **kw) -> dict:
    pos = {"game": "ninja_slayer", "turn": 3, "turn_player": turn_player, "first_player": 0, "phase": phase,
           "decision": decision, "players": [p0, p1]}
    pos.update(kw)
    return pos


def load(pos: dict, **options):
    """(game, state) from a scenario position; auto_pass_forced is off unless asked for."""
    options.setdefault("auto_pass_forced", False)
    g = Game(**options)
    return g, g.from_position(pos)


def step(g, st, *actions: int):
    """Play actions one by one on game 0 (each must be legal)."""
    for a in actions:
        g.step(st, np.array([a]))
    return st


def deck_len(st, p: int, i: int = 0) -> int:
    """Cards left in seat ``p``'s deck."""
    return int(st.deck_size[i, p] - st.deck_ptr[i, p])


def passes(g, st, n: int = 2):
    return step(g, st, *([PASS] * n))
