"""Helpers of the rules audit: scenario tables built as positions, read back through positions.

The audit drives the engine through its public interface only (``Game``, positions, the flat
action indices of the documentation page) so that each expected outcome comes from the rules, not
from the engine's internals.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from yuugi.envs.core.errors import IllegalActionError
from yuugi.envs.ninja_slayer_v0 import Game

# ---- action indices (documentation page, "Actions") ------------------------------------------------
PASS, SKIP_ETEL, END_AISATSU, NO_INTERRUPT = 0, 11, 272, 279
NO_TARGET = 12  # target index 12: no choice / the player / the stack
PLAYER = 6  # AISATSU target u = 6: the opponent


def etel_put(h: int) -> int:
    return 1 + h


def enter(h: int) -> int:
    return 12 + h


def cast(h: int, t: int = NO_TARGET) -> int:
    return 22 + 13 * h + t


def activate(f: int, t: int = NO_TARGET) -> int:
    return 152 + 13 * f + t


def aisatsu(a: int, u: int = PLAYER) -> int:
    return 230 + 7 * a + u


def interrupt(f: int) -> int:
    return 273 + f


def choose(t: int) -> int:
    return 280 + t


def opp(slot: int) -> int:
    """Target index of the opponent's field slot."""
    return 6 + slot


# ---- building positions --------------------------------------------------------------------------
def ch(card: str, **flags: Any) -> dict[str, Any]:
    """A field character: ``ch("C09", tapped=True, damage=1)``."""
    return {"card": card, **flags}


def seat(deck: Any = None, hand: Any = (), field: Any = (), etel: int = 0, untapped: int | None = None,
         **extra: Any) -> dict[str, Any]:
    """One seat: a deck (top first; 20 vanilla C01 by default), hand cards, field, エテル count."""
    return {"deck": list(deck) if deck is not None else ["C01"] * 20, "hand": list(hand),
            "field": [ch(c) if isinstance(c, str) else c for c in field],
            "etel": ["C01"] * etel, "etel_untapped": etel if untapped is None else untapped, **extra}


def damaged(n_up: int, n_down: int = 0) -> dict[str, Any]:
    """Seat keywords for a damage zone of n_up face-up and n_down face-down cards."""
    return {"damage_up": n_up, "damage_down": n_down, "damage_seen": ["C01"] * (n_up + n_down)}


def position(p0: dict, p1: dict, phase: str, decision: str, turn_player: int = 0, turn: int = 5,
             **extra: Any) -> dict[str, Any]:
    return {"game": "ninja_slayer", "turn": turn, "turn_player": turn_player, "first_player": 0, "phase": phase,
            "decision": decision, "players": [p0, p1], **extra}


# ---- driving a table -------------------------------------------------------------------------------
class Table:
    """One game loaded from a position; ``auto_pass_forced`` is off so every window is visible."""

    def __init__(self, pos: dict, **options: Any):
        options.setdefault("auto_pass_forced", False)
        self.g = Game(**options)
        self.st = self.g.from_position(pos)

    # actions
    def act(self, *actions: int) -> "Table":
        for a in actions:
            self.g.step(self.st, np.array([a]))
        return self

    def passes(self, n: int = 2) -> "Table":
        return self.act(*([PASS] * n))

    def legal(self, a: int) -> bool:
        return bool(self.g.legal_mask(self.st)[0, a])

    def assert_illegal(self, a: int) -> None:
        """The action is masked, raises IllegalActionError and leaves the state unchanged."""
        assert not self.legal(a), f"{self.g.action_label(a)} should be illegal"
        before = self.pos
        with pytest.raises(IllegalActionError):
            self.act(a)
        assert self.pos == before

    # reading the state (through the position format)
    @property
    def pos(self) -> dict[str, Any]:
        return self.g.to_position(self.st, 0)

    def seat(self, p: int) -> dict[str, Any]:
        return self.pos["players"][p]

    def slot(self, p: int, s: int) -> dict[str, Any] | None:
        return self.seat(p)["field"][s]

    def field(self, p: int) -> list[str | None]:
        return [None if c is None else c["card"] for c in self.seat(p)["field"]]

    def hand(self, p: int) -> list[str | None]:
        return self.seat(p)["hand"]

    def grave(self, p: int) -> list[str]:
        return sorted(self.seat(p)["grave"])

    def deck(self, p: int) -> list[str]:
        return self.seat(p)["deck"]

    def dmg(self, p: int) -> int:
        s = self.seat(p)
        return s["damage_up"] + s["damage_down"]

    def stack_cards(self) -> list[str]:
        return [it["card"] for it in self.pos["stack"]]

    @property
    def decision(self) -> str:
        return self.pos["decision"]

    @property
    def phase(self) -> str:
        return self.pos["phase"]

    @property
    def to_play(self) -> int:
        return self.pos["to_play"]

    @property
    def over(self) -> bool:
        return self.pos["terminated"]

    def resolve_all(self) -> "Table":
        """Both players pass until the stack is empty (each pass pair resolves the top item)."""
        for _ in range(40):
            if self.over or not self.pos["stack"]:
                return self
            assert self.decision == "priority", f"expected a priority decision, got {self.decision}"
            self.passes()
        raise AssertionError("the stack did not empty")
