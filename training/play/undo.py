"""Undo for ``yuugi play``: the game as it stood at each of the person's decisions.

A snapshot is the core's position (``to_position``, a small JSON-safe dict) plus what a position
does not carry: the game's chance stream (``rng_key``/``rng_counter``, so the same dice and deals
come again) and the CPUs' random generator (so a CPU that draws — ``easy`` blunders, ``random`` —
draws the same). Restoring both makes the CPUs answer an identical move with identical moves.
"""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from yuugi.envs.core.game import BatchGame, State


@dataclasses.dataclass(frozen=True)
class Snapshot:
    position: dict[str, Any]
    rng_key: int
    rng_counter: int
    cpu_rng: dict[str, Any]
    total: float  # the person's reward so far


def take(game: BatchGame, st: State, cpu_rng: np.random.Generator, total: float) -> Snapshot:
    return Snapshot(game.to_position(st, 0), int(st.rng_key[0]), int(st.rng_counter[0]),
                    cpu_rng.bit_generator.state, total)


def restore(game: BatchGame, snap: Snapshot, cpu_rng: np.random.Generator) -> State:
    """The game of ``snap`` (a new state); ``cpu_rng`` is put back to where it was then."""
    st = game.from_position(snap.position, seed=0)
    st.rng_key[:] = np.uint64(snap.rng_key)
    st.rng_counter[:] = np.uint64(snap.rng_counter)
    cpu_rng.bit_generator.state = snap.cpu_rng
    return st
