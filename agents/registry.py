"""The CPU opponents: ``cpu(game, level)`` by level name (or, for ninja_daifugo, persona name).

Levels, weakest first: ``random``, ``easy`` (the heuristic blundering half the time), ``normal``
(the heuristic), ``hard`` (a MaskablePPO policy trained by self-play, shipped as numpy weights in
``agents/weights/<game>_hard.npz``, and ``<game>_hard_<variant>.npz`` for rule sets whose spaces
differ, e.g. momotaro's ``_2p`` and ``_3p``: the one whose signature fits the rules plays; nigejozu's
and ninja_slayer's are prior-guided, see :mod:`yuugi.agents.priors`; ninja_slayer's network plays
looking a turn ahead, valued by a second trained network, see :mod:`yuugi.agents.lookahead`), ``expert``
(search, :mod:`yuugi.agents.expert`). Like RLCard's model zoo, opponents are named by id.

A trained level is offered (``available_levels``) only under the rule sets its record says it was checked
under (:mod:`yuugi.agents.level_records`); ``cpu`` still builds it under other rules its spaces fit, with a
warning naming the rules it was checked under.
"""
from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
from pathlib import Path
from typing import Any, Callable

from yuugi.envs import GAMES, make_game
from yuugi.envs.core.errors import OptionError
from yuugi.envs.spec import SPECS

from . import level_records, shipped, weights_format
from .mixed import EpsilonPolicy
from .mlp import MLPPolicy
from .policy import Policy, RandomPolicy

LEVELS = ("random", "easy", "normal", "hard", "expert")
# Levels one game has beyond those: ninja_daifugo's UECda baseline (the competition kit's default client,
# the field a UECda league measures against; it plays any daifugō rule set, 4 or 5 players).
GAME_LEVELS: dict[str, tuple[str, ...]] = {"ninja_daifugo": ("uecda_default",)}
# Every name a shipped CPU level goes by, in any game (a policy named otherwise is a user's own).
SHIPPED_LEVEL_NAMES = LEVELS + tuple(sorted({lv for extra in GAME_LEVELS.values() for lv in extra}))
# Levels a round-robin plays unless asked: expert searches on the core for every decision, which is
# orders of magnitude slower than the others (see agents/expert.py).
QUICK_LEVELS = ("random", "easy", "normal", "hard")
# module:class of each game's heuristic policy, and each game's personas (persona name -> level):
# both from the games' registry entries (yuugi.envs.spec).
HEURISTICS: dict[str, str] = {name: spec.heuristic for name, spec in SPECS.items() if spec.heuristic}
PERSONAS: dict[str, dict[str, str]] = {name: dict(spec.personas) for name, spec in SPECS.items() if spec.personas}
# romaji -> persona, per game (``--level moko`` for モコ)
PERSONA_ROMAJI: dict[str, dict[str, str]] = {name: dict(spec.persona_romaji) for name, spec in SPECS.items()
                                             if spec.persona_romaji}


def heuristic(game: str, **rules: Any) -> Policy:
    """``game``'s heuristic for these rule options.

    A heuristic that depends on the options takes them as its ``rules`` keyword (so it need not guess
    them from the spaces or assume the defaults); one that reads everything it needs from the
    observation takes none. Without rules, a heuristic plays as for the defaults, adapting to the
    spaces it is shown where it can (momotaro's to the player count), as a policy named without its
    game's rules must.
    """
    if game not in HEURISTICS:
        raise OptionError(f"no heuristic for game {game!r}; games: {sorted(HEURISTICS)}")
    module, name = HEURISTICS[game].split(":")
    try:
        cls = getattr(importlib.import_module(module), name)
    except ModuleNotFoundError as e:
        raise OptionError(f"the {game} heuristic is not built yet") from e
    if rules and "rules" in inspect.signature(cls).parameters:
        return cls(rules=rules)
    return cls()


def hard_weights(game: str, **rules: Any) -> Path:
    """The shipped weights file whose signature fits ``game`` under ``rules`` (of several, the one checked
    under these rules).

    When none fits, raises the :class:`~yuugi.agents.weights_format.WeightsError` of a file that cannot be
    read (it might have been the one), or else an OptionError naming the rule sets that have weights.
    """
    built = make_game(game, **rules)
    made_for, unreadable, fitting = [], [], []
    for path in shipped.shipped_weights(game):
        try:
            signature = weights_format.read_signature(path)
        except weights_format.WeightsError as e:
            unreadable.append(e)
            continue
        if weights_format.fits(signature, built):
            fitting.append(path)
        else:
            made_for.append(f"{path.name} ({weights_format.describe(signature)})")
    if len(fitting) > 1:
        # Rule sets with the same spaces can ship one file each (daifugō's single games and its default
        # series): the file whose record lists these rules as checked plays them, else the first that fits.
        return next((path for path in fitting if level_records.is_checked_under(game, path, rules)), fitting[0])
    if fitting:
        return fitting[0]
    if unreadable:
        raise unreadable[0]
    if not made_for:
        raise OptionError(f"no trained weights for {game!r} in {shipped.WEIGHTS_DIR}; train them with `yuugi train {game}`")
    raise OptionError(f"no hard weights fit {weights_format.describe(weights_format.game_signature(built, rules))}; "
                      f"shipped: {'; '.join(made_for)}; train them with `yuugi train {game}"
                      + "".join(f" --rule {k}={json.dumps(v)}" for k, v in sorted(rules.items())) + "`")


def _hard(game: str, **rules: Any) -> Policy:
    from .lookahead import looks_ahead, lookahead_hard

    path = hard_weights(game, **rules)
    network = MLPPolicy.load(path, game=game, rules=rules, name=f"{game}_hard")
    return lookahead_hard(game, network, heuristic(game, **rules)) if looks_ahead(game) else network


def _expert(game: str, **rules: Any) -> Policy:
    from .expert import ExpertPolicy

    return ExpertPolicy(game, heuristic(game, **rules))


def _search_built(game: str) -> bool:
    """expert needs the game's heuristic (its rollout policy) and a resampler of the hidden information."""
    from .search.resamplers import RESAMPLERS

    return _heuristic_built(game) and game in RESAMPLERS


def _uecda_default(game: str, **rules: Any) -> Policy:
    from .heuristics.uecda_default import UecdaDefault

    return UecdaDefault()


_BUILDERS: dict[str, Callable[..., Policy]] = {
    "uecda_default": _uecda_default,
    "random": lambda game, **rules: RandomPolicy(),
    "easy": lambda game, **rules: EpsilonPolicy(heuristic(game, **rules), 0.5, name="easy"),
    "normal": lambda game, **rules: heuristic(game, **rules),
    "hard": _hard,
    "expert": _expert,
}


def _heuristic_built(game: str) -> bool:
    return game in HEURISTICS and importlib.util.find_spec(HEURISTICS[game].split(":")[0]) is not None


def available_levels(game: str, **rules: Any) -> list[str]:
    """Levels that can be built for ``game`` under ``rules`` here.

    ``hard`` is listed only when shipped weights exist, read intact, fit these rules' spaces and their
    record lists these rules among those it was checked under (``level_records``: compared in the game's
    canonical options); ``expert`` when the game has a heuristic and a resampler of its hidden information.
    """
    _check_game(game)
    make_game(game, **rules)  # bad rules are an OptionError, not a shorter list
    levels = ["random"]
    if _heuristic_built(game):
        levels += ["easy", "normal"]
    try:
        weights = hard_weights(game, **rules)
        weights_format.read(weights)
        if level_records.is_checked_under(game, weights, rules):
            levels.append("hard")
    except OptionError:  # none fits, the one that might is unreadable, or its record is
        pass
    if _search_built(game):
        levels.append("expert")
    return levels + list(GAME_LEVELS.get(game, ()))


def level_names(game: str) -> list[str]:
    """Every name ``cpu`` knows for ``game``: the levels, then its personas, then their romaji."""
    return (list(LEVELS) + list(GAME_LEVELS.get(game, ())) + sorted(PERSONAS.get(game, {}))
            + sorted(PERSONA_ROMAJI.get(game, {})))


def persona_of(game: str, name: str) -> str | None:
    """The persona ``name`` means in ``game`` (its own name, or its romaji in any case, with or without
    hyphens: ``Oyakata-sama``), or None when it names no persona."""
    if not isinstance(name, str):
        return None
    if name in PERSONAS.get(game, {}):
        return name
    return PERSONA_ROMAJI.get(game, {}).get(name.lower().replace("-", "").replace("_", ""))


def level_of(game: str, name: str) -> str:
    """The level ``name`` (a level, a persona or a persona's romaji) stands for; unknown names as given."""
    persona = persona_of(game, name)
    return PERSONAS[game][persona] if persona is not None else name


def _check_game(game: str) -> None:
    if game not in GAMES:
        raise OptionError(f"unknown game {game!r}; games: {sorted(GAMES)}")


def cpu(game: str, level: str = "normal", **rules: Any) -> Policy:
    """The CPU opponent of ``game`` at ``level`` (a level name, or a persona name where a game has them).

    ``rules`` are the game's rule options: ``hard`` plays the weights made for them, and the heuristic
    (``easy``, ``normal``, and ``expert``'s rollouts) is told them. Under rules its record does not list
    as checked, ``hard`` still plays, with an :class:`~yuugi.agents.level_records.UncheckedRulesWarning`
    (once per game and rule set) naming the rules it was checked under.
    """
    _check_game(game)
    named = level_of(game, level)
    if named not in _BUILDERS or named not in LEVELS + GAME_LEVELS.get(game, ()):
        personas = sorted(PERSONAS.get(game, {})) + sorted(PERSONA_ROMAJI.get(game, {}))
        raise OptionError(f"unknown level {level!r} for {game}; levels: {list(LEVELS + GAME_LEVELS.get(game, ()))}"
                          + (f", personas: {personas}" if personas else ""))
    if rules and named != "hard":  # hard builds the game itself; the others play any rules, but bad ones are refused
        make_game(game, **rules)
    policy = _BUILDERS[named](game, **rules)
    policy.name = named  # type: ignore[attr-defined]
    if named in level_records.TRAINED_LEVELS:
        level_records.warn_if_unchecked(game, named, rules, stacklevel=2)  # pointing at cpu's caller
    return policy
