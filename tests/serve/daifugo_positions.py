"""Scripted ninja daifugō positions for the daifugō screen's tests (the ``from_position`` format).

Both are the second and last game of a 2-game series (``SERIES_RULES``), with the person at seat 0.
"""
from __future__ import annotations

from typing import Any

from yuugi.envs.ninja_daifugo.cards import JOKER, card_name

SERIES_RULES: dict[str, Any] = {"series_games": 2}
TITLES = ["daifugo", "fugo", "hinmin", "daihinmin"]  # seat 0 is the 大富豪 of game 1
SPADES_ABOVE_7 = ["S8", "ST", "SJ", "SQ", "SK", "SA", "S2"]


def _deal(rest: list[str], sizes: list[int]) -> list[list[str]]:
    out, k = [], 0
    for n in sizes:
        out.append(rest[k:k + n])
        k += n
    assert k == len(rest)
    return out


def lock_then_revolution() -> dict[str, Any]:
    """♠5 then ♠6 have locked ♠ (縛り: two plays of the same suit in a row); seat 0 (the person) holds ♠7
    and the four 9s. Nobody else holds a spade above 7, the joker or a ninja point, so after ♠7 all must
    pass and the person leads again: the four 9s are a revolution, which nobody can answer (no other
    seat holds four of a rank: the person holds a 3, a 4 and a 6 of the ranks whose spades they hold)."""
    mine = ["S7", "S9", "H9", "D9", "C9", "H3", "C4", "D6"]
    discard = SPADES_ABOVE_7 + [card_name(JOKER), "S5"]
    placed = set(mine) | set(discard) | {"S6"}
    rest = [card_name(c) for c in range(53) if card_name(c) not in placed]
    others = _deal(rest, [12, 12, 11])
    return {"hands": [mine] + others, "to_play": 0, "field": {"cards": ["S6"], "owner": 3, "kind": "single"},
            "lock": ["S"], "discard": discard, "declaration": 0, "game_index": 1, "titles": TITLES,
            "series_score": [1.0, 1 / 3, -1 / 3, -1.0], "points": [0, 0, 0, 0]}


def exchange() -> dict[str, Any]:
    """The exchange of game 2: the person, 大富豪 of game 1, gives 2 cards to the 大貧民 (seat 3)."""
    cards = [card_name(c) for c in range(53)]
    mine = cards[::4][:13] + ["JK", "H2"]  # 15 cards: a 大富豪's 13 and the 2 of the tribute
    rest = [c for c in cards if c not in mine]
    return {"hands": [mine] + _deal(rest, [13, 13, 12]), "to_play": 0, "phase": "exchange", "declaration": 6,
            "game_index": 1, "titles": TITLES, "series_score": [1.0, 1 / 3, -1 / 3, -1.0]}
