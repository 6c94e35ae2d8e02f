"""Positions and action names for the UECda tests (cards as "S3", "HT", "JK")."""
from __future__ import annotations

from typing import Any

from yuugi.envs import make_game
from yuugi.envs.ninja_daifugo import actions as A

RANKS = "3456789TJQKA2"
SUITS = "SHDC"
ALL_CARDS = [s + r for r in RANKS for s in SUITS] + ["JK"]
LABELS = {A.action_label(i): i for i in range(A.NUM_ACTIONS)}


def plain_game(players: int = 4) -> Any:
    """A daifugō game of one deal: the 4-player base rules without ninja, or the 5-player UECda preset."""
    if players == 5:
        return make_game("ninja_daifugo", rules="uecda")
    return make_game("ninja_daifugo", series_games=1, declarations=(0,), ninja="off")


def position(hands: list[list[str]], to_play: int = 0, field: dict | None = None, **extra: Any) -> dict:
    """Every card in no hand and not on the field goes to the discard."""
    used = {c for h in hands for c in h} | set(field["cards"] if field else [])
    pos: dict[str, Any] = {"hands": [list(h) for h in hands], "to_play": to_play, "field": field,
                           "discard": [c for c in ALL_CARDS if c not in used]}
    pos.update(extra)
    return pos


def label(action: int) -> str:
    return A.action_label(int(action))
