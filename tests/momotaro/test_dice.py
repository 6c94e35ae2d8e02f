"""The battle dice (C6): two faces 1..6 per battle, drawn from the game's own stream."""
from __future__ import annotations

import numpy as np

from yuugi.envs.core import rng

from .helpers import act, battle, game, player


def _splitmix64(x: int) -> int:
    """splitmix64 on Python ints (the stream's definition, written apart from the numpy code)."""
    m = (1 << 64) - 1
    z = (x + 0x9E3779B97F4A7C15) & m
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    return z ^ (z >> 31)


def test_a_battle_rolls_red_then_white_by_the_draw_modulo_six() -> None:
    g = game(2)
    pos = battle(2, [player({"W": 0}, kibidango=3), player({"W": 0}, kibidango=3)], {"R4": 0, "B4": 0, "G4": 0, "X6": 0})
    st = g.from_position(pos, seed=11)
    key, counter = int(st.rng_key[0]), int(st.rng_counter[0])
    act(g, st, "ATTACK R4", "SEND W")
    expected = [_splitmix64(key ^ _splitmix64(counter + k)) % 6 + 1 for k in range(2)]
    assert st.dice[0].tolist() == expected
    assert int(st.rng_counter[0]) == counter + 2


def test_modulo_dice_cover_every_face_evenly() -> None:
    class Streams:
        rng_key = rng.keys_from_seeds(np.arange(20_000))
        rng_counter = np.zeros(20_000, dtype=np.uint64)

    faces = rng.dice_by_modulo_at(Streams, np.arange(20_000), 2)
    counts = np.bincount(faces.ravel(), minlength=7)
    assert counts[0] == 0 and faces.max() == 6
    assert np.all(np.abs(counts[1:] - 40_000 / 6) < 5 * np.sqrt(40_000 / 6))  # 5 sigma
    assert (Streams.rng_counter == 2).all()
