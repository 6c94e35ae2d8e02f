"""Helpers for the nigejozu tests: positions with a simple chip layout, stepping by label.

Expected values in the tests come from ``shared/rules/nigejozu.md``; these helpers only build
positions, name actions and step the engine.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from yuugi.envs import make_game
from yuugi.envs.nigejozu import actions as A

PROVINCES = ("九州", "四国", "種子島", "播磨", "京", "敦賀", "三河", "信濃", "奥州", "鎌倉", "蝦夷")
# Test layout: chip of province P_k is k + 2 (九州 #2 .. 蝦夷 #12), so chip n sits on PROVINCES[n - 2].
CHIPS = {name: k + 2 for k, name in enumerate(PROVINCES)}
HOJO_FACES = ("神力", "退却", "忍", "囮", "加勢", "分隊")  # rules file §3.3 face pairing, C1..C6
ASHIKAGA_FACES = ("山越え", "上洛", "物見", "追放", "謀反", "人質")
ROLL, REROLL, DONE = 0, 13, 28

_LABELS = {A.action_label(i): i for i in range(A.NUM_ACTIONS)}


def act(label: str) -> int:
    """Action index of a label such as ``"ROLL"``, ``"CARD 上洛"``, ``"PROVINCE 京"``, ``"COUNT_DIE 1"``."""
    return _LABELS[label]


def card(name: str) -> int:
    return act(f"CARD {name}")


def prov(name: str) -> int:
    return act(f"PROVINCE {name}")


def count_die(i: int) -> int:
    return act(f"COUNT_DIE {i}")


def game(**options: Any):
    return make_game("nigejozu", **options)


def position(troops: dict[str, tuple[int, int]] | None = None, to_play: str = "hojo",
             cards: dict[str, list[str]] | None = None, **extra: Any) -> dict[str, Any]:
    """A position on the test chip layout; hands default to what is not on the board."""
    pos: dict[str, Any] = {
        "chips": dict(CHIPS),
        "troops": {k: list(v) for k, v in (troops or {}).items()},
        "cards": cards or {"hojo": ["神力", "退却", "忍"], "ashikaga": ["追放", "謀反", "人質"]},
        "to_play": to_play,
    }
    pos.update(extra)
    return pos


def load(pos: dict[str, Any], seed: int = 0, **options: Any):
    g = game(**options)
    return g, g.from_position(pos, seed=seed)


def legal(g, st) -> set[str]:
    """Labels of the legal actions of game 0."""
    return {A.action_label(a) for a in np.flatnonzero(g.legal_mask(st)[0])}


def legal_provinces(g, st) -> set[str]:
    return {lab.split(" ", 1)[1] for lab in legal(g, st) if lab.startswith("PROVINCE")}


def legal_cards(g, st) -> set[str]:
    return {lab.split(" ", 1)[1] for lab in legal(g, st) if lab.startswith("CARD")}


def step(g, st, *actions: int | str):
    """Step game 0 through ``actions`` (indices or labels)."""
    for a in actions:
        g.step(st, np.array([act(a) if isinstance(a, str) else a]))
    return st


def troops(st, name: str) -> tuple[int, int]:
    p = PROVINCES.index(name)
    return int(st.troops[0, p, 0]), int(st.troops[0, p, 1])


def board(st) -> dict[str, tuple[int, int]]:
    """Non-empty provinces of game 0 as ``{name: (hojo, ashikaga)}``."""
    return {n: troops(st, n) for n in PROVINCES if sum(troops(st, n))}


def random_actions(g, st, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per game (0 where none)."""
    mask = g.legal_mask(st)
    counts = mask.sum(axis=1)
    out = np.zeros(st.batch_size, dtype=np.int64)
    for i in np.flatnonzero(counts):
        out[i] = rng.choice(np.flatnonzero(mask[i]))
    return out
