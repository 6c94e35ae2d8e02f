"""Every registered game passes the conformance harness, under its defaults and other rule sets.

The games come from the registry, so a game added later is checked under its defaults at once;
``OTHER_RULES`` (each game's ``GameSpec.test_rule_sets``) adds rule sets that change what the checks
see (player counts, card models, reward schemes, series lengths, the ninja layer, truncation). Sizes keep the whole file to seconds per game:
the batch check follows the 1,024 games for ``BATCH_STEPS`` decisions (the first deal of a
daifugō series and the exchange that opens the second), every other check plays games to the end.
"""
from __future__ import annotations

from typing import Any

import pytest

from yuugi import envs
from yuugi.envs import conformance as testing
from yuugi.envs.spec import SPECS, as_dict

# From each game's registry entry (yuugi.envs.spec.GameSpec.test_rule_sets).
OTHER_RULES: dict[str, list[dict[str, Any]]] = {name: [as_dict(rules) for rules in spec.test_rule_sets]
                                                for name, spec in SPECS.items()}
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


# Declared metadata, the expected values worked out by hand from each game's rules (see the
# comments next to each game's ``metadata``), not read back from the code.
EXPECTED_METADATA = [
    # nigejozu, T troops, N = taikyaku_n: per side <= T + N + 1 dice turns of <= 3 decisions and one
    # card turn of <= T + 2 (上洛: CARD, one pick per troop, DONE).
    ("nigejozu", {}, dict(num_players=2, utility="zero_sum", utility_sum=0.0, reward_range=(-1.0, 1.0),
                          max_decisions=2 * (3 * 22 + 20), chance=True, information="perfect")),
    ("nigejozu", {"troops_per_player": 12, "taikyaku_n": 2, "reward_scheme": "score_diff"},
     dict(max_decisions=2 * (3 * 15 + 14), utility="zero_sum", reward_range=(-1.0, 1.0))),
    # momotaro, N players: 9 auctions of <= 2N + 1 decisions; <= max_turns battle turns of
    # <= (warrior - 1) + 9 heals, END HEAL, ATTACK, SEND, DAMAGE, YELLOW.
    ("momotaro", {}, dict(num_players=4, utility="zero_sum", utility_sum=0.0, reward_range=(-1 / 3, 1.0),
                          max_decisions=9 * 9 + 300 * 16, chance=True, information="imperfect")),
    ("momotaro", {"num_players": 2, "warrior_value": 5, "max_turns": 100, "reward_scheme": "linear"},
     dict(num_players=2, reward_range=(-1.0, 1.0), max_decisions=9 * 5 + 100 * 18)),
    # ninja_daifugo: series_games games truncated at max_game_steps decisions each; places pay
    # (+1, +1/3, -1/3, -1) or (4, 3, 2, 1), the latter 10 per terminated game.
    ("ninja_daifugo", {}, dict(num_players=4, utility="zero_sum", utility_sum=0.0, reward_range=(-1.0, 1.0),
                               max_decisions=5 * 4000, chance=True, information="imperfect")),
    ("ninja_daifugo", {"series_games": 2, "max_game_steps": 300, "reward_scheme": "uecda"},
     dict(utility="constant_sum", utility_sum=20.0, reward_range=(0.0, 4.0), max_decisions=600)),
]


@pytest.mark.parametrize("name, rules, expected", EXPECTED_METADATA)
def test_declared_metadata(name: str, rules: dict[str, Any], expected: dict[str, Any]) -> None:
    meta = envs.make_game(name, **rules).metadata
    for field, value in expected.items():
        got = getattr(meta, field)
        assert got == (pytest.approx(value) if field == "reward_range" else value), (field, got, value)
