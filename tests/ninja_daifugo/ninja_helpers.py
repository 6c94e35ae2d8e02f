"""Shared helpers for the ninja-layer scenario tests (``test_ninja_*.py``).

Every expected value in those tests comes from ``shared/rules/ninja_daifugo.md`` (§1 items 6–8,
§2.1–2.4, §5.6–5.7, §8 A20–A34, §9); these helpers only build games and positions, name actions
and step the engine. The jutsu action indices are written out from the rules file's §6.1 table,
not taken from the engine.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from yuugi.envs import make_game

from .scenario_helpers import act, card_index, label, load, mask, pos, step  # noqa: F401 (re-exported)

# §6.1: 足止め on relative seat +d = 2327 + d; 手裏剣 on +d = 2330 + d; 雷遁 2334; 変化 2335;
# PICK_CARD c = 2336 + c; PASS = 0.
PASS = 0


def ASH(d: int) -> int:
    return 2327 + d


def SHU(d: int) -> int:
    return 2330 + d


RAITON = 2334
HENGE = 2335
JUTSU_RANGE = range(2328, 2336)


def PICK(card: str) -> int:
    return 2336 + card_index(card)


# §2.1 base costs; §1 item 6 uses per level.
BASE_COST = {"ashidome": 2, "shuriken": 3, "raiton": 4, "henge": 2}
USES = {1: 1, 2: 2, 3: 2, 4: 3, 5: 3}


def ngame(loadouts: Any = None, ninja: str = "symmetric", declarations=(0,), series_games: int = 1, **opts: Any):
    """A ninja game: one game, fixed declaration. Symmetric mode by default with no jutsu at all
    unless ``loadouts`` says otherwise."""
    if ninja == "symmetric" and loadouts is None:
        loadouts = [{}, {}, {}, {}]
    o: dict[str, Any] = {"series_games": series_games, "declarations": tuple(declarations), "ninja": ninja}
    if loadouts is not None:
        o["loadouts"] = loadouts
    o.update(opts)
    return make_game("ninja_daifugo", **o)


def seat0(jutsu: dict | None = None, school: str | None = None, gokui: bool = False) -> list[dict]:
    """Symmetric-mode loadouts: seat 0 gets ``jutsu``/``school``/``gokui``; the others nothing."""
    me: dict[str, Any] = {"jutsu": dict(jutsu or {})}
    if school is not None:
        me["school"] = school
    if gokui:
        me["gokui"] = True
    return [me, {}, {}, {}]


def jutsu_legal(g, st) -> set[int]:
    """The jutsu action indices (2328..2335) that are unmasked."""
    m = mask(g, st)
    return {i for i in JUTSU_RANGE if m[i]}


def is_legal(g, st, action) -> bool:
    return bool(mask(g, st)[act(action)])


def legal_set(g, st) -> set[str]:
    return {label(i) for i in np.flatnonzero(mask(g, st))}


def points(g, st) -> list[int]:
    return pos(g, st)["points"]

