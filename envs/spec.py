"""One entry per game: everything the project's tools need to know about a game, in one place.

A :class:`GameSpec` is data only. Code it names (the versioned module, the heuristic, action priors)
is named by import path as a string, so ``envs`` stays importable with the runtime dependencies
alone (numpy, gymnasium, pettingzoo): the tables that the other layers used to keep apart are
derived from :data:`SPECS` where they live (``envs.GAMES``, ``yuugi.agents.registry.HEURISTICS`` and
``PERSONAS``, ``yuugi.agents.priors.PRIORS``, ``yuugi.training.train.selfplay.TRAIN_RULES``, ``TRAIN_PRIORS`` and
``TRAIN_DEFAULTS``, ``yuugi.training.bench.bench.BENCH_RULES``, ``yuugi.training.bench.trace_hash.RULE_SETS``), and adding a
game is one entry here. ``tests/core/test_game_spec.py`` checks that every entry resolves.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from yuugi.envs.core.errors import OptionError

Rules = Mapping[str, Any]


def _frozen(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(value or {}))


@dataclass(frozen=True)
class GameSpec:
    """A game's registry entry (every rule set is a mapping of the game's rule options).

    * ``name``: the game's id (``make_game(name)``, ``yuugi/<name>-v0``).
    * ``module``: the versioned module exposing ``env``, ``raw_env`` and ``Game``.
    * ``heuristic``: ``"module:Class"`` of the ``normal`` CPU (``easy`` and ``expert`` build on it),
      or None for a game without one (its CPUs are ``random`` and any shipped weights).
    * ``personas``: persona name -> level, for games whose table has named CPUs.
    * ``persona_romaji``: romaji -> persona name, so that a persona can be named on a keyboard
      without a Japanese input method (``--level moko``).
    * ``priors``: action-prior name -> ``"module:factory"`` (the factory takes no arguments and returns
      ``prior(observation, mask) -> float32[B, A]``, see :mod:`yuugi.agents.priors`); the name is what
      exported weights record.
    * ``train_prior``: the prior ``yuugi train`` guides the policy with by default (one of ``priors``).
    * ``train_rules``: rule options training plays under (the shipped ``hard`` weights fit them).
    * ``train_defaults``: ``TrainConfig`` settings the shipped weights were trained with (their
      ``rules`` are merged over ``train_rules``).
    * ``bench_rules``: rule options ``yuugi bench`` plays under.
    * ``eval_rules``: rule options ``yuugi eval`` plays under when given none; None: ``train_rules``
      (so that ``hard`` plays the rules its weights were trained for).
    * ``trace_rule_sets``: the non-default rule sets whose trace hashes guard behaviour-preserving
      changes (``python -m yuugi.training.bench.trace_hash``; the defaults are always traced).
    * ``test_rule_sets``: further non-default rule sets the conformance harness checks
      (``tests/core/test_conformance.py``): player counts, card models, truncation.
    """

    name: str
    module: str
    heuristic: str | None = None
    personas: Mapping[str, str] = field(default_factory=dict)
    persona_romaji: Mapping[str, str] = field(default_factory=dict)
    priors: Mapping[str, str] = field(default_factory=dict)
    train_prior: str | None = None
    train_rules: Rules = field(default_factory=dict)
    train_defaults: Mapping[str, Any] = field(default_factory=dict)
    bench_rules: Rules = field(default_factory=dict)
    eval_rules: Rules | None = None
    trace_rule_sets: tuple[Rules, ...] = ()
    test_rule_sets: tuple[Rules, ...] = ()

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        for name in ("personas", "persona_romaji", "priors", "train_rules", "train_defaults", "bench_rules"):
            set_(self, name, _frozen(getattr(self, name)))
        if self.eval_rules is not None:
            set_(self, "eval_rules", _frozen(self.eval_rules))
        set_(self, "trace_rule_sets", tuple(_frozen(r) for r in self.trace_rule_sets))
        set_(self, "test_rule_sets", tuple(_frozen(r) for r in self.test_rule_sets))
        strays = sorted(set(self.persona_romaji.values()) - set(self.personas))
        if strays:
            raise ValueError(f"{self.name}: persona_romaji names {strays}, which are not personas")
        if self.train_prior is not None and self.train_prior not in self.priors:
            raise ValueError(f"{self.name}: train_prior {self.train_prior!r} is not one of its priors "
                             f"{sorted(self.priors)}")

    @property
    def default_eval_rules(self) -> Mapping[str, Any]:
        """The rules ``yuugi eval`` plays when given none: ``eval_rules``, else ``train_rules``."""
        return self.train_rules if self.eval_rules is None else self.eval_rules


SPECS: dict[str, GameSpec] = {spec.name: spec for spec in (
    GameSpec(
        name="ninja_daifugo",
        module="yuugi.envs.ninja_daifugo_v0",
        heuristic="yuugi.agents.heuristics.ninja_daifugo:DaifugoHeuristic",
        # The faithful table's CPUs, by strength (the Lord is the strongest).
        personas={"モコ": "easy", "ジライヤ": "normal", "お館様": "hard"},
        persona_romaji={"moko": "モコ", "jiraiya": "ジライヤ", "oyakatasama": "お館様"},
        priors={"ninja_daifugo_heuristic": "yuugi.agents.priors:daifugo_heuristic_prior"},
        # Training learns on single games with symmetric loadouts; the bench counts single games, not
        # 5-game series, so that games/s means games.
        train_rules={"series_games": 1, "ninja": "symmetric"},
        bench_rules={"series_games": 1},
        trace_rule_sets=(
            {"ninja": "off", "series_games": 1},
            {"ninja": "symmetric", "pass_lockout": True, "miyako_ochi": False},
            {"rules": "uecda", "series_games": 3, "seat_change_every": 2},  # the 5-player competition game
        ),
        test_rule_sets=(
            {"ninja": "off", "series_games": 1, "declarations": [0, 1, 4, 5, 8, 9]},
            {"rules": "uecda", "series_games": 2, "seat_change_every": 1},
            {"ninja": "symmetric", "pass_lockout": True, "miyako_ochi": False, "series_games": 2,
             "reward_scheme": "uecda",
             "loadouts": {"jutsu": {"henge": 5, "raiton": 3}, "school": "henge", "gokui": True}},
            {"max_game_steps": 40, "series_games": 3, "reward_scheme": "uecda"},  # truncation mid-series
        ),
    ),
    GameSpec(
        name="nigejozu",
        module="yuugi.envs.nigejozu_v0",
        heuristic="yuugi.agents.heuristics.nigejozu:NigejozuHeuristic",
        # The heuristic's one-step soft-battle lookahead, which a plain MLP does not learn to match in
        # a 40-minute budget: the policy starts as the heuristic and PPO learns the corrections.
        # nigejozu_valued: the heuristic's decisions valued by a learned win probability (hard's; see
        # yuugi.agents.heuristics.nigejozu_valued)
        priors={"nigejozu_heuristic": "yuugi.agents.priors:nigejozu_heuristic_prior",
                "nigejozu_valued": "yuugi.agents.priors:nigejozu_valued_prior"},
        train_prior="nigejozu_heuristic",
        # The heuristic is the only opponent, and the learner is rewarded by the chip margin
        # ((own − other) / 77), whose signal is far less noisy than ±1 per game; the margin decides the win.
        train_defaults={"pool_size": 0, "ent_coef": 0.0, "bc_decisions": 0, "rules": {"reward_scheme": "score_diff"}},
        trace_rule_sets=(
            {"card_model": "single12", "taikyaku_n": 2},
            {"muhon_returns_to_hand": False, "reinf_per_win": 2, "reward_scheme": "score_diff"},
        ),
        test_rule_sets=(
            {"card_model": "single12", "taikyaku_n": 2},
            {"muhon_returns_to_hand": False, "reinf_per_win": 2, "reward_scheme": "score_diff",
             "troops_per_player": 12},
        ),
    ),
    GameSpec(
        name="momotaro",
        module="yuugi.envs.momotaro_v0",
        heuristic="yuugi.agents.heuristics.momotaro:MomotaroHeuristic",
        trace_rule_sets=(
            {"num_players": 2},
            {"num_players": 3, "heal_any_turn": False, "damage_reduces_power": False, "reward_scheme": "linear"},
        ),
        test_rule_sets=(
            {"num_players": 2},
            {"num_players": 3, "heal_any_turn": False, "damage_reduces_power": False, "reward_scheme": "linear",
             "kibi_per_player": "60/N"},
            {"max_turns": 12},  # truncation in the battle
        ),
    ),
    GameSpec(
        name="ninja_slayer",
        module="yuugi.envs.ninja_slayer_v0",
        heuristic="yuugi.agents.heuristics.ninja_slayer:NinjaSlayerHeuristic",
        # The heuristic scores every action by what it is worth (cards, damage, the race); the policy
        # starts as those scores and PPO learns the corrections, as nigejozu's does.
        priors={"ninja_slayer_heuristic": "yuugi.agents.priors:ninja_slayer_heuristic_prior",
                "ninja_slayer_tuned": "yuugi.agents.priors:ninja_slayer_tuned_prior"},
        train_prior="ninja_slayer_tuned",
        # Each seat's deck is drawn per game from D1–D4 and fresh sealed pools, so one policy plays
        # constructed and sealed; normal (the control style) is the opponent. The prior is the tuned style,
        # which beats normal by itself: PPO starting from normal's own scores played about even with it
        # (up to 1.9M learner steps; see the README).
        train_rules={"decks": "any"},
        # rated where hard's record says it was checked (constructed decks, the default; see level_records)
        eval_rules={},
        # Large updates taken in small steps (1,024 games x 32 steps, a KL limit): smaller ones drifted away
        # from the prior faster than they found anything better.
        train_defaults={"pool_size": 0, "ent_coef": 0.0, "bc_decisions": 0, "n_steps": 32, "batch_size": 4096,
                        "n_epochs": 2, "learning_rate": 3e-5, "target_kl": 0.005, "vf_net_arch": (128,),
                        "shaping": 0.3, "prior_gain": 8.0, "snapshot_every": 300_000, "curve_every": 32_768},
        trace_rule_sets=(
            {"decks": ("sealed", "sealed"), "ukemi_nullifies": "event"},
            {"decks": ("D1", "D4"), "priority_windows": "compact", "deckout_rule": "draw_from_empty"},
        ),
    ),
)}


def as_dict(rules: Mapping[str, Any]) -> dict[str, Any]:
    """A plain, independent copy of one of a spec's mappings (for the derived tables)."""
    return {key: copy.deepcopy(value) for key, value in rules.items()}


def game_spec(name: str) -> GameSpec:
    """The registry entry of ``name``; an unknown name is an OptionError naming the games."""
    if not isinstance(name, str) or name not in SPECS:
        raise OptionError(f"unknown game {name!r}; games: {sorted(SPECS)}")
    return SPECS[name]
