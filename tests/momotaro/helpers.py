"""Helpers for the 鬼ヶ島 tests: build positions, name actions, step, find seeds with given dice.

Every expected value in the tests comes from ``shared/rules/momotaro.md``; these helpers only set
positions up and drive the engine.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from yuugi.envs import make_game

ONI = ("R4", "R5", "R6", "B4", "B5", "B6", "G4", "G5", "G6", "X6", "Y2", "Y4")  # §6 oni ids, default values
ONI_POWER = dict(zip(ONI, (4, 5, 6, 4, 5, 6, 4, 5, 6, 6, 2, 4)))  # §2.3
CARD_POWER = {"W": 3, "I1": 1, "I2": 2, "I3": 3, "S1": 1, "S2": 2, "S3": 3, "K1": 1, "K2": 2, "K3": 3}  # §2.1-2


def game(n: int = 4, **options: Any):
    return make_game("momotaro", num_players=n, **options)


def label_index(g, label: str) -> int:
    labels = {g.action_label(a): a for a in range(g.num_actions)}
    if label not in labels:
        raise KeyError(f"no action labelled {label!r}")
    return labels[label]


def act(g, st, *labels: str) -> None:
    """Step game 0 of ``st`` with the actions named by ``labels`` in turn (validated)."""
    for label in labels:
        g.step(st, np.array([label_index(g, label)]))


def legal_labels(g, st, i: int = 0) -> set[str]:
    return {g.action_label(a) for a in np.flatnonzero(g.legal_mask(st)[i])}


def player(cards: dict[str, int] | None = None, knocked_out: list[str] | None = None, kibidango: int = 0,
           potions: int = 0, **extra: Any) -> dict[str, Any]:
    out = {"cards": {"W": 0} if cards is None else dict(cards), "knocked_out": list(knocked_out or []),
           "kibidango": kibidango, "potions": potions}
    out.update(extra)
    return out


def battle(n: int, players: list[dict], field: dict[str, int], round_: int = 1, taken: dict | None = None,
           start: int = 0, slot: int = 0, phase: str = "choose_oni", **extra: Any) -> dict[str, Any]:
    """A battle position: ``field`` maps oni on the field to their damage; the other oni of the rounds
    dealt so far are ``taken`` (name -> {"by", "as"}); the remaining oni are in the deck."""
    taken = dict(taken or {})
    dealt = list(field) + list(taken)
    assert len(dealt) <= 4 * round_, "more oni than rounds dealt"
    rest = [o for o in ONI if o not in dealt]
    assert len(dealt) == 4 * round_, f"{len(dealt)} oni dealt by round {round_}: give field + taken = {4 * round_}"
    # Every retainer is hired or declined after hiring.
    owned = {c for p in players for c in list(p["cards"]) + p["knocked_out"] if c != "W"}
    pos = {
        "num_players": n, "round": round_, "phase": phase, "players": players,
        "declined": [c for c in CARD_POWER if c != "W" and c not in owned],
        "oni_order": dealt + rest, "oni_damage": {o: d for o, d in field.items() if d},
        "oni_taken": taken, "start_player": start, "slot": slot,
    }
    pos.update(extra)
    return pos


def filler_taken(names: list[str], by: int = 0) -> dict[str, dict]:
    """Oni taken as treasure (by ``by``) to pad the dealt part of a position."""
    return {o: {"by": by, "as": "treasure"} for o in names}


def find_seed(make_state: Callable[[int], Any], step: Callable[[Any], None], want: Callable[[Any], bool],
              tries: int = 2000) -> Any:
    """The state after ``step`` for the first seed whose outcome satisfies ``want``."""
    for seed in range(tries):
        st = make_state(seed)
        step(st)
        if want(st):
            return st
    raise AssertionError("no seed produced the wanted chance outcome")
