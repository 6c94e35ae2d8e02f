"""The ``Discrete(29)`` action table of rules file §4.7.

| index  | action |
|--------|--------|
| 0      | ROLL: roll the 3 dice (start of a placement turn) |
| 1..12  | CARD(e): use the strategy card with effect e = index − 1 |
| 13     | REROLL: roll all 3 dice again (once per turn) |
| 14..16 | COUNT_DIE(i): die i of the sorted dice sets the count, the other two the province |
| 17..27 | PROVINCE(x): choose province x = index − 17 in a card's current target step |
| 28     | DONE: finish 上洛 (after at least one move) |
"""
from __future__ import annotations

from typing import Any

from .board import NUM_PROVINCES, PROVINCE_NAMES, PROVINCE_ROMAJI
from .cards import EFFECT_NAMES, EFFECT_ROMAJI, EFFECT_TEXT, NUM_EFFECTS

ROLL = 0
CARD0 = 1
REROLL = 13
COUNT0 = 14
PROVINCE0 = 17
DONE = 28
NUM_ACTIONS = 29
KIND_NAMES = ("roll", "card", "reroll", "count_die", "province", "done")


def _check(a: int) -> int:
    a = int(a)
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action {a} out of range 0..{NUM_ACTIONS - 1}")
    return a


def action_label(a: int) -> str:
    """Short readable label, e.g. ``"ROLL"``, ``"CARD 山越え"``, ``"COUNT_DIE 1"``, ``"PROVINCE 京"``."""
    a = _check(a)
    if a == ROLL:
        return "ROLL"
    if a < REROLL:
        return f"CARD {EFFECT_NAMES[a - CARD0]}"
    if a == REROLL:
        return "REROLL"
    if a < PROVINCE0:
        return f"COUNT_DIE {a - COUNT0}"
    if a < DONE:
        return f"PROVINCE {PROVINCE_NAMES[a - PROVINCE0]}"
    return "DONE"


def describe_action(a: int) -> dict[str, Any]:
    """A JSON-safe description of an action index: kind plus the card, die or province it names."""
    a = _check(a)
    d: dict[str, Any] = {"index": a, "label": action_label(a)}
    if a == ROLL:
        d.update(kind="roll", text="roll the three dice to place troops")
    elif a < REROLL:
        e = a - CARD0
        d.update(kind="card", effect=e, name=EFFECT_NAMES[e], romaji=EFFECT_ROMAJI[e], text=EFFECT_TEXT[e])
    elif a == REROLL:
        d.update(kind="reroll", text="roll all three dice again (once per turn)")
    elif a < PROVINCE0:
        i = a - COUNT0
        d.update(kind="count_die", die=i,
                 text=f"sorted die {i} sets the count (1-2: 1, 3-4: 2, 5-6: 3); the other two pick the province")
    elif a < DONE:
        x = a - PROVINCE0
        d.update(kind="province", province=x, name=PROVINCE_NAMES[x], romaji=PROVINCE_ROMAJI[x])
    else:
        d.update(kind="done", text="finish 上洛")
    return d


assert PROVINCE0 + NUM_PROVINCES == DONE and CARD0 + NUM_EFFECTS == REROLL
