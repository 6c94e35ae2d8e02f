"""Every registered game passes the conformance harness, under its defaults and other rule sets.

The games come from the registry, so a game added later is checked under its defaults at once;
``OTHER_RULES`` adds rule sets that change what the checks see (player counts, card models,
reward schemes, series lengths, the ninja layer). Sizes keep the whole file to seconds per game:
the batch check follows the 1,024 games for ``BATCH_STEPS`` decisions (the first deal of a
daifugō series and the exchange that opens the second), every other check plays games to the end.
"""
from __future__ import annotations

from typing import Any

import pytest

import envs
from envs.core import testing

OTHER_RULES: dict[str, list[dict[str, Any]]] = {
    "ninja_daifugo": [
        {"ninja": "off", "series_games": 1, "declarations": [0, 1, 4, 5, 8, 9]},
        {"ninja": "symmetric", "pass_lockout": True, "miyako_ochi": False, "series_games": 2,
         "reward_scheme": "uecda", "loadouts": {"jutsu": {"henge": 5, "raiton": 3}, "school": "henge", "gokui": True}},
    ],
    "nigejozu": [
        {"card_model": "single12", "taikyaku_n": 2},
        {"muhon_returns_to_hand": False, "reinf_per_win": 2, "reward_scheme": "score_diff", "troops_per_player": 12},
    ],
    "momotaro": [
        {"num_players": 2},
        {"num_players": 3, "heal_any_turn": False, "damage_reduces_power": False, "reward_scheme": "linear",
         "kibi_per_player": "60/N"},
    ],
}
BATCH_STEPS = 200
SEEDS = (0, 1, 2)


def _cases() -> list[Any]:
    cases = []
    for name in envs.available_games():
        for k, rules in enumerate([{}] + OTHER_RULES.get(name, [])):
            cases.append(pytest.param(name, rules, id=f"{name}-{'defaults' if not k else f'rules{k}'}"))
    return cases


@pytest.mark.parametrize("name, rules", _cases())
def test_game_conforms(name: str, rules: dict[str, Any]) -> None:
    game = envs.make_game(name, **rules)
    testing.check_game(game, SEEDS, make_env=lambda: envs.make_raw(name, **rules), batch_max_steps=BATCH_STEPS)


def test_every_registered_game_is_covered() -> None:
    """The parametrization above reaches every game of the registry."""
    covered = {c.values[0] for c in _cases()}
    assert covered == set(envs.available_games()) and covered
