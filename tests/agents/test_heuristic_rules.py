"""The CPU levels hand the game's rule options to its heuristic (``cpu(game, level, **rules)``)."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.registry import cpu, heuristic
from yuugi.envs import make_game


def _first_decisions(name: str, **rules: object) -> tuple[np.ndarray, np.ndarray]:
    game = make_game(name, **rules)
    st = game.init(np.arange(16))
    return game.observe(st, st.to_play), game.legal_mask(st)


def test_the_levels_tell_the_heuristic_the_rules() -> None:
    assert heuristic("nigejozu", taikyaku_n=2, reinf_per_win=3).taikyaku_n == 2
    assert cpu("nigejozu", "normal", reinf_per_win=3).reinf_per_win == 3
    assert cpu("nigejozu", "easy", muhon_returns_to_hand=False).base.muhon_returns_to_hand is False
    assert cpu("momotaro", "normal", num_players=3, kibi_per_player="60/N").config.kibi == 20


def test_momotaro_under_rules_refuses_another_games_observations() -> None:
    """Told 2 players, it does not silently play a 3-player table (the sizes differ: 56·N + 144)."""
    obs, mask = _first_decisions("momotaro", num_players=3)
    with pytest.raises(ValueError, match="2 players: 256"):
        cpu("momotaro", "normal", num_players=2).act(obs, mask, np.random.default_rng(0))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_momotaro_without_rules_still_adapts_to_the_player_count(players: int) -> None:
    """A level named without rules (as ``as_policy("normal", game=built)`` does) plays any table legally."""
    obs, mask = _first_decisions("momotaro", num_players=players)
    actions = cpu("momotaro", "normal").act(obs, mask, np.random.default_rng(0))
    assert mask[np.arange(len(mask)), actions].all()


def test_a_heuristic_refuses_rules_its_game_refuses() -> None:
    from yuugi.envs.core.errors import OptionError

    with pytest.raises(OptionError, match="taikyaku_n"):
        heuristic("nigejozu", taikyaku_n=9)
