"""The flat ``Discrete(293)`` action space (ego-centric indices).

``h`` is a hand slot 0..9, ``f``/``a`` one of my field slots 0..5; a target ``t`` (0..12) is 0..5 my
slot, 6..11 the opponent's slot t − 6, 12 no choice / the player / the stack; an アイサツ target
``u`` (0..6) is 0..5 the opponent's slot, 6 the opponent.

| index | action |
|---|---|
| 0 | PASS |
| 1..10 | ETEL_PUT(h) = 1 + h |
| 11 | SKIP_ETEL |
| 12..21 | ENTER(h) = 12 + h |
| 22..151 | CAST(h, t) = 22 + 13h + t |
| 152..229 | ACTIVATE(f, t) = 152 + 13f + t |
| 230..271 | AISATSU(a, u) = 230 + 7a + u |
| 272 | END_AISATSU |
| 273..278 | INTERRUPT(f) = 273 + f |
| 279 | NO_INTERRUPT |
| 280..292 | CHOOSE_TARGET(t) = 280 + t |
"""
from __future__ import annotations

from typing import Any

import numpy as np

PASS = 0
ETEL0 = 1
SKIP_ETEL = 11
ENTER0 = 12
CAST0 = 22
ACTIVATE0 = 152
AISATSU0 = 230
END_AISATSU = 272
INTERRUPT0 = 273
NO_INTERRUPT = 279
TARGET0 = 280
NUM_ACTIONS = 293

FAMILY_NAMES = ("pass", "etel_put", "skip_etel", "enter", "cast", "activate", "aisatsu", "end_aisatsu", "interrupt",
                "no_interrupt", "choose_target")
_STARTS = np.array([PASS, ETEL0, SKIP_ETEL, ENTER0, CAST0, ACTIVATE0, AISATSU0, END_AISATSU, INTERRUPT0,
                    NO_INTERRUPT, TARGET0])
FAMILY = (np.searchsorted(_STARTS, np.arange(NUM_ACTIONS), side="right") - 1).astype(np.int8)
NUM_FAMILIES = len(FAMILY_NAMES)
(F_PASS, F_ETEL, F_SKIP_ETEL, F_ENTER, F_CAST, F_ACTIVATE, F_AISATSU, F_END_AISATSU, F_INTERRUPT, F_NO_INTERRUPT,
 F_TARGET) = range(NUM_FAMILIES)


def _target_text(t: int) -> str:
    if t < 6:
        return f"my slot {t}"
    if t < 12:
        return f"opponent slot {t - 6}"
    return "-"


def describe_action(a: int) -> dict[str, Any]:
    """A JSON-safe description: the family and its arguments."""
    a = int(a)
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action {a} out of range 0..{NUM_ACTIONS - 1}")
    fam = FAMILY_NAMES[FAMILY[a]]
    d: dict[str, Any] = {"index": a, "kind": fam}
    if fam == "etel_put":
        d["hand_slot"] = a - ETEL0
    elif fam == "enter":
        d["hand_slot"] = a - ENTER0
    elif fam == "cast":
        d["hand_slot"], d["target"] = divmod(a - CAST0, 13)
    elif fam == "activate":
        d["field_slot"], d["target"] = divmod(a - ACTIVATE0, 13)
    elif fam == "aisatsu":
        d["attacker_slot"], d["target"] = divmod(a - AISATSU0, 7)
    elif fam == "interrupt":
        d["field_slot"] = a - INTERRUPT0
    elif fam == "choose_target":
        d["target"] = a - TARGET0
    d["label"] = action_label(a)
    return d


def action_label(a: int) -> str:
    """A short label such as ``"PASS"``, ``"CAST h2 -> opponent slot 1"``, ``"AISATSU a0 -> player"``."""
    a = int(a)
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action {a} out of range 0..{NUM_ACTIONS - 1}")
    fam = FAMILY[a]
    if fam == F_PASS:
        return "PASS"
    if fam == F_ETEL:
        return f"ETEL_PUT h{a - ETEL0}"
    if fam == F_SKIP_ETEL:
        return "SKIP_ETEL"
    if fam == F_ENTER:
        return f"ENTER h{a - ENTER0}"
    if fam == F_CAST:
        h, t = divmod(a - CAST0, 13)
        return f"CAST h{h} -> {_target_text(t)}"
    if fam == F_ACTIVATE:
        f, t = divmod(a - ACTIVATE0, 13)
        return f"ACTIVATE f{f} -> {_target_text(t)}"
    if fam == F_AISATSU:
        s, u = divmod(a - AISATSU0, 7)
        return f"AISATSU a{s} -> " + ("player" if u == 6 else f"opponent slot {u}")
    if fam == F_END_AISATSU:
        return "END_AISATSU"
    if fam == F_INTERRUPT:
        return f"INTERRUPT f{a - INTERRUPT0}"
    if fam == F_NO_INTERRUPT:
        return "NO_INTERRUPT"
    return f"CHOOSE_TARGET {_target_text(a - TARGET0)}"
