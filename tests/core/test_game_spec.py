"""Every game's registry entry (``yuugi.envs.spec.GameSpec``) resolves, and the tables read elsewhere derive from it.

Resolving an entry means: its versioned module imports and offers ``env``, ``raw_env`` and ``Game``;
every rule set it names (training, bench, eval, trace and test rule sets) builds the game; its
heuristic class loads, accepts every rule set (where it takes rules) and plays legal actions; each
of its priors is made and grades a batch; its personas name levels; and its training defaults are
``TrainConfig`` settings.
"""
from __future__ import annotations

import dataclasses
import importlib
import inspect
from typing import Any

import numpy as np
import pytest

from yuugi import envs
from yuugi.envs.core.errors import OptionError
from yuugi.envs.spec import SPECS, GameSpec, as_dict, game_spec


def _load(path: str) -> Any:
    module, attr = path.split(":")
    return getattr(importlib.import_module(module), attr)


def resolve(spec: GameSpec) -> None:
    """Raises (ImportError, AttributeError, OptionError, AssertionError, ...) where ``spec`` does not resolve."""
    from yuugi.agents.priors import FLOOR
    from yuugi.agents.registry import LEVELS
    from yuugi.training.train.selfplay import TrainConfig

    module = importlib.import_module(spec.module)
    for attr in ("env", "raw_env", "Game"):
        assert callable(getattr(module, attr)), f"{spec.module}.{attr} is not callable"
    rule_sets = [{}, spec.train_rules, spec.bench_rules, spec.default_eval_rules,
                 {**spec.train_rules, **spec.train_defaults.get("rules", {})}, *spec.trace_rule_sets,
                 *spec.test_rule_sets]
    for rules in rule_sets:
        module.Game(**rules)
    game = module.Game(**spec.train_rules)
    state = game.init(np.arange(8))
    obs, mask = game.observe(state, state.to_play), game.legal_mask(state)
    if spec.heuristic is not None:
        cls = _load(spec.heuristic)
        if "rules" in inspect.signature(cls).parameters:  # told the rules, as cpu(game, level, **rules) does
            for rules in rule_sets:
                cls(rules=dict(rules))
            policy = cls(rules=dict(spec.train_rules))
        else:
            policy = cls()
        actions = policy.act(obs, mask, np.random.default_rng(0))
        assert mask[np.arange(8), actions].all(), f"{spec.heuristic} played an illegal action"
    for name, path in spec.priors.items():
        graded = _load(path)()(obs, mask)
        assert graded.shape == mask.shape, f"prior {name}: shape {graded.shape}, expected {mask.shape}"
        assert ((graded >= FLOOR) & (graded <= 0)).all(), f"prior {name}: values outside [{FLOOR}, 0]"
    for persona, level in spec.personas.items():
        assert level in LEVELS, f"persona {persona!r} names the unknown level {level!r}"
    TrainConfig(game=spec.name, **as_dict(spec.train_defaults))  # an unknown setting is a TypeError


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_registered_game_resolves(name: str) -> None:
    resolve(SPECS[name])


@pytest.mark.parametrize("broken, error", [
    ({"module": "envs.no_such_game_v0"}, ModuleNotFoundError),
    ({"heuristic": "yuugi.agents.heuristics.nigejozu:NoSuchHeuristic"}, AttributeError),
    ({"priors": {"nigejozu_heuristic": "yuugi.agents.priors:no_such_prior"}}, AttributeError),
    ({"train_rules": {"no_such_option": 1}}, OptionError),
    ({"trace_rule_sets": ({"taikyaku_n": 99},)}, OptionError),
    ({"heuristic": "yuugi.agents.heuristics.momotaro:MomotaroHeuristic"}, OptionError),  # told nigejozu's rules
    ({"personas": {"someone": "grandmaster"}}, AssertionError),
    ({"train_defaults": {"no_such_setting": 1}}, TypeError),
])
def test_a_broken_entry_does_not_resolve(broken: dict[str, Any], error: type) -> None:
    spec = dataclasses.replace(SPECS["nigejozu"], **broken)
    with pytest.raises(error):
        resolve(spec)


def test_a_training_prior_must_be_one_of_the_games_priors() -> None:
    with pytest.raises(ValueError, match="nigejozu_heuristic"):
        GameSpec(name="x", module="envs.x_v0", train_prior="nigejozu_heuristic")


def test_each_entry_is_filed_under_its_own_name() -> None:
    assert all(spec.name == name for name, spec in SPECS.items())
    assert game_spec("momotaro") is SPECS["momotaro"]
    with pytest.raises(OptionError, match="unknown game 'go'.*momotaro"):
        game_spec("go")


def test_an_entry_cannot_be_changed_through_the_tables_derived_from_it() -> None:
    from yuugi.training.train.selfplay import TRAIN_DEFAULTS

    with pytest.raises(TypeError):
        SPECS["ninja_daifugo"].train_rules["series_games"] = 5  # type: ignore[index]
    TRAIN_DEFAULTS["nigejozu"]["rules"]["reward_scheme"] = "win_loss"
    try:
        assert SPECS["nigejozu"].train_defaults["rules"] == {"reward_scheme": "score_diff"}
    finally:
        TRAIN_DEFAULTS["nigejozu"]["rules"]["reward_scheme"] = "score_diff"


def _non_empty(field: str) -> dict[str, Any]:
    return {name: as_dict(getattr(spec, field)) for name, spec in SPECS.items() if getattr(spec, field)}


def test_the_tables_the_other_layers_read_equal_the_entries() -> None:
    from yuugi.agents.priors import PRIORS
    from yuugi.agents.registry import HEURISTICS, PERSONAS
    from yuugi.training.bench.bench import BENCH_RULES
    from yuugi.training.train.selfplay import TRAIN_DEFAULTS, TRAIN_PRIORS, TRAIN_RULES
    from yuugi.training.bench.trace_hash import RULE_SETS

    assert envs.GAMES == {name: spec.module for name, spec in SPECS.items()}
    assert HEURISTICS == {name: spec.heuristic for name, spec in SPECS.items() if spec.heuristic}
    assert PERSONAS == _non_empty("personas")
    assert set(PRIORS) == {prior for spec in SPECS.values() for prior in spec.priors}
    assert TRAIN_RULES == _non_empty("train_rules")
    assert TRAIN_DEFAULTS == _non_empty("train_defaults")
    assert TRAIN_PRIORS == {name: spec.train_prior for name, spec in SPECS.items() if spec.train_prior}
    assert BENCH_RULES == _non_empty("bench_rules")
    assert RULE_SETS == {name: [{}] + [dict(r) for r in spec.trace_rule_sets] for name, spec in SPECS.items()}


def test_eval_rules_default_to_the_training_rules() -> None:
    """Without eval rules of its own, a game is evaluated under the rules its hard weights were trained for."""
    daifugo = SPECS["ninja_daifugo"]
    assert daifugo.eval_rules is None and daifugo.default_eval_rules == {"series_games": 1, "ninja": "symmetric"}
    own = dataclasses.replace(daifugo, eval_rules={"series_games": 3})
    assert own.default_eval_rules == {"series_games": 3}
