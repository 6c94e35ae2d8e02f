"""The conformance harness passes a correct toy game and catches each way a game can break.

Each broken toy in ``toy_games.BROKEN`` breaks one promise; every check is run on it on its own,
and exactly the matching check must fail, with a message naming the check, the game and the step.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

from yuugi.envs import conformance as testing
from yuugi.envs.core.metadata import GameMetadata
from yuugi.envs.conformance import CHECKS, ConformanceError

from .toy_games import BROKEN, DiceNim, raw_env

SEEDS = tuple(range(8))


def _run_check(name: str, game: Any, make_env: Callable[[], Any]) -> None:
    if name == "batch":
        testing.check_batch(game, 0, batch_size=64)
    elif name == "aec":
        testing.check_aec(game, SEEDS, make_env=make_env)
    elif name == "observation":
        testing.check_observation(game, SEEDS, make_env=make_env)
    elif name == "termination":
        testing.check_termination(game, SEEDS)
    else:
        getattr(testing, f"check_{name}")(game, SEEDS)


def _failed_checks(game: Any, make_env: Callable[[], Any]) -> dict[str, ConformanceError]:
    failed = {}
    for name in CHECKS:
        try:
            _run_check(name, game, make_env)
        except ConformanceError as e:
            failed[name] = e
    return failed


def test_the_check_list_and_the_broken_toys_match():
    assert set(BROKEN) == set(CHECKS)


def test_correct_toy_passes_every_check():
    game = DiceNim()
    assert _failed_checks(game, lambda: raw_env(game)) == {}
    testing.check_game(game, SEEDS, make_env=lambda: raw_env(game))  # the default batch of 1,024 too


@pytest.mark.parametrize("check", CHECKS)
def test_broken_toy_fails_exactly_its_check(check: str):
    game_cls, env_cls = BROKEN[check]
    game = game_cls()
    failed = _failed_checks(game, lambda: env_cls(game))
    assert list(failed) == [check], {k: str(v) for k, v in failed.items()}
    error = failed[check]
    assert isinstance(error, AssertionError)
    assert error.check == check and f"'{check}'" in str(error)
    assert error.game_index is not None and f"game {error.game_index}" in str(error)
    assert error.step is not None and f"step {error.step}" in str(error)


@pytest.mark.parametrize("check", CHECKS)
def test_check_game_reports_the_broken_check(check: str):
    game_cls, env_cls = BROKEN[check]
    game = game_cls()
    with pytest.raises(ConformanceError) as info:
        testing.check_game(game, SEEDS, make_env=lambda: env_cls(game), batch_size=64)
    assert info.value.check == check


def test_failures_point_at_the_right_game_and_step():
    """The out-of-bounds observation is reported where it first happens: the first game whose pile exceeds 10."""
    game = BROKEN["observation"][0]()
    with pytest.raises(ConformanceError) as info:
        testing.check_observation(game, SEEDS)
    piles = DiceNim().init(np.asarray(SEEDS)).pile
    assert info.value.step == 0 and info.value.game_index == int(np.flatnonzero(piles > 10)[0])


def test_batch_check_inspects_the_last_row():
    """Batch-dependent randomness shows at the rows the check follows; with rows=[0] alone it cannot."""
    game = BROKEN["batch"][0]()
    testing.check_batch(game, 0, batch_size=1024, rows=[0])
    with pytest.raises(ConformanceError) as info:
        testing.check_batch(game, 0, batch_size=1024, rows=[1023])
    assert info.value.game_index == 1023


def test_a_game_without_metadata_is_refused():
    class NoMetadata(DiceNim):
        metadata = None  # type: ignore[assignment]

    with pytest.raises(ConformanceError, match="GameMetadata") as info:
        testing.check_mask(NoMetadata())
    assert info.value.check == "metadata"


def test_unknown_skip_names_the_checks():
    with pytest.raises(ValueError, match="illegal_action"):
        testing.check_game(DiceNim(), skip=["illegal"])


@pytest.mark.parametrize("kwargs, problem", [
    (dict(utility="zero_sum", utility_sum=1.0), "utility_sum 0.0"),
    (dict(utility="constant_sum", utility_sum=None), "finite utility_sum"),
    (dict(utility="general_sum", utility_sum=0.0), "utility_sum None"),
    (dict(utility="zero-sum"), "utility must be one of"),
    (dict(reward_range=(1.0, -1.0)), "low <= high"),
    (dict(max_decisions=0), "max_decisions"),
    (dict(information="partial"), "information must be one of"),
])
def test_metadata_rejects_inconsistent_declarations(kwargs: dict[str, Any], problem: str):
    base: dict[str, Any] = dict(num_players=2, utility="zero_sum", utility_sum=0.0, reward_range=(-1.0, 1.0),
                                max_decisions=10, chance=False, information="perfect")
    with pytest.raises(ValueError, match=problem):
        GameMetadata(**{**base, **kwargs})
