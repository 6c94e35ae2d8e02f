"""``as_policy(obj)``: anything that can choose actions, as a batched :class:`~yuugi.agents.policy.Policy`.

Accepted, in the order they are tried:

- a ``Policy`` (an object with ``act(observation, mask, rng)``): returned as it is;
- a Stable-Baselines3 / sb3-contrib model object: wrapped (see :class:`SB3Policy`);
- a class whose instances are policies: instantiated without arguments;
- a plain function ``(observation float32[B, ...], mask bool[B, A], rng) -> actions int[B]``: wrapped;
- a string SPEC:

  - a CPU level name (``random``, ``easy``, ``normal``, ``hard``, or a persona) — needs ``game``;
  - a path to a ``.npz`` exported by ``yuugi train`` (numpy weights, checked against ``game`` when given);
  - a path to an SB3 / sb3-contrib ``.zip`` (needs the train extra: torch and SB3 are imported only here);
  - ``module:attr`` naming a Policy instance, a Policy class or a function (``attr`` may be dotted).

Anything else raises :class:`~yuugi.envs.core.errors.OptionError` naming it and these kinds.
"""
from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np

from yuugi.envs.core.errors import OptionError

from .policy import Policy

__all__ = ["FunctionPolicy", "SB3Policy", "SPEC_KINDS", "as_policy"]

SPEC_KINDS = ("a Policy object or class", "a function (observation, mask, rng) -> actions",
              "a level name (random, easy, normal, hard)", "a path to a .npz exported by `yuugi train`",
              "a path to a Stable-Baselines3 / sb3-contrib .zip", "'module:attr' naming a policy or a function")
_SB3_PACKAGES = ("stable_baselines3", "sb3_contrib")


def as_policy(obj: Any, game: Any = None, **rules: Any) -> Policy:
    """``obj`` as a batched policy; ``game`` (a name or a built game) and its ``rules`` where the kind needs them.

    Level names need ``game``; weights files and SB3 models are checked against it when it is given.
    """
    if _is_sb3_model(obj):
        return SB3Policy(obj, game=game)
    if isinstance(obj, type):
        return _from_class(obj, repr(obj))
    if _is_policy(obj):
        return obj
    if isinstance(obj, (str, Path)):
        return _from_spec(str(obj), game, rules)
    if callable(obj):
        return FunctionPolicy(obj)
    raise OptionError(f"cannot make a policy of {obj!r}; accepted: {_kinds()}")


def _kinds() -> str:
    return "; ".join(SPEC_KINDS)


def _is_policy(obj: Any) -> bool:
    return callable(getattr(obj, "act", None))


def _is_sb3_model(obj: Any) -> bool:
    # An SB3 model can only exist once its package is imported, so nothing is imported to ask.
    if sys.modules.get("stable_baselines3") is None:
        return False
    from stable_baselines3.common.base_class import BaseAlgorithm

    return isinstance(obj, BaseAlgorithm)


def _from_class(cls: type, where: str) -> Policy:
    if not callable(getattr(cls, "act", None)):
        raise OptionError(f"{where} is a class without an act(observation, mask, rng) method; accepted: {_kinds()}")
    try:
        policy = cls()
    except TypeError as e:
        raise OptionError(f"{where} is a policy class that cannot be built without arguments ({e}); "
                          f"name an instance instead") from e
    return policy


# ---- string specs --------------------------------------------------------------------------------
def _from_spec(spec: str, game: Any, rules: dict[str, Any]) -> Policy:
    lowered = spec.lower()
    if lowered.endswith(".npz"):
        return _load_npz(spec, game, rules)
    if lowered.endswith(".zip"):
        return SB3Policy(_load_sb3_zip(spec), game=game, name=Path(spec).stem)
    if ":" in spec:  # after the file suffixes, so a Windows path "C:\\a.npz" is a file
        return _from_import(spec)
    if _is_level_name(spec, game):
        from .registry import cpu

        return cpu(_game_name(game), spec, **rules)
    hint = " (a level name needs the game: as_policy(spec, game=...))" if game is None else ""
    raise OptionError(f"unknown policy spec {spec!r}{hint}; accepted: {_kinds()}")


def _game_name(game: Any) -> str:
    return game if isinstance(game, str) else game.name


def _is_level_name(spec: str, game: Any) -> bool:
    if game is None:
        return False
    from .registry import level_names

    try:
        return spec in level_names(_game_name(game))
    except AttributeError:
        return False


def _existing_file(spec: str, what: str) -> Path:
    path = Path(spec).expanduser()
    if not path.is_file():
        raise OptionError(f"policy spec {spec!r} names {what} but there is no such file")
    return path


def _load_npz(spec: str, game: Any, rules: dict[str, Any]) -> Policy:
    from .mlp import MLPPolicy

    path = _existing_file(spec, "numpy weights (.npz)")
    # The game check is MLPPolicy.load's own; pass the game only if this version of load takes one.
    if game is not None and "game" in inspect.signature(MLPPolicy.load).parameters:
        return MLPPolicy.load(path, game=game, rules=rules)
    return MLPPolicy.load(path)


def _from_import(spec: str) -> Policy:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise OptionError(f"policy spec {spec!r} must be 'module:attr'; accepted: {_kinds()}")
    try:
        target: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        raise OptionError(f"policy spec {spec!r}: no module {e.name!r} can be imported") from e
    for part in attr.split("."):
        if not hasattr(target, part):
            raise OptionError(f"policy spec {spec!r}: {module_name} has no attribute {attr!r}")
        target = getattr(target, part)
    if isinstance(target, type):
        return _from_class(target, f"policy spec {spec!r}")
    if _is_policy(target):
        return target
    if callable(target):
        return FunctionPolicy(target, name=attr)
    raise OptionError(f"policy spec {spec!r} names {type(target).__name__} {target!r}, which is neither "
                      f"a policy nor a function")


# ---- wrappers ------------------------------------------------------------------------------------
class FunctionPolicy:
    """A plain function ``(observation, mask, rng) -> actions`` as a Policy (it must be batched too)."""

    def __init__(self, fn: Callable[..., Any], name: str | None = None) -> None:
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "function")

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        actions = np.asarray(self.fn(observation, mask, rng))
        if actions.dtype.kind not in "iu" or actions.shape != (len(mask),):
            raise ValueError(f"policy function {self.name!r} must return {len(mask)} integer actions (one per "
                             f"row of the batch), got dtype {actions.dtype} and shape {actions.shape}")
        return actions.astype(np.int64, copy=False)


def _load_sb3_zip(spec: str) -> Any:
    path = _existing_file(spec, "a Stable-Baselines3 model (.zip)")
    try:
        from sb3_contrib import MaskablePPO
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
        from stable_baselines3 import A2C, DQN, PPO
        from stable_baselines3.common.save_util import load_from_zip_file
    except ImportError as e:
        raise OptionError(f"policy spec {spec!r} is an SB3 model, which needs the train extra "
                          f"(pip install 'yuugi[train]'): {e}") from e
    try:
        data, _, _ = load_from_zip_file(path, load_data=True, custom_objects=None, device="cpu")
    except Exception as e:  # a corrupt or foreign zip: SB3 raises many kinds
        raise OptionError(f"policy spec {spec!r} is not a readable Stable-Baselines3 model: {e}") from e
    policy_class = (data or {}).get("policy_class")
    # The zip records the policy class, not the algorithm: a maskable policy is MaskablePPO's; for
    # the rest try the algorithms with discrete actions in turn (only the policy is used to act).
    if isinstance(policy_class, type) and issubclass(policy_class, MaskableActorCriticPolicy):
        algorithms: tuple[Any, ...] = (MaskablePPO,)
    else:
        algorithms = (PPO, A2C, DQN)
    problems = []
    for algorithm in algorithms:
        try:
            return algorithm.load(path, device="cpu")
        except Exception as e:  # noqa: BLE001 - the next algorithm may fit
            problems.append(f"{algorithm.__name__}: {e}")
    raise OptionError(f"policy spec {spec!r}: no Stable-Baselines3 algorithm loads it ({'; '.join(problems)})")


class SB3Policy:
    """A Stable-Baselines3 / sb3-contrib model as a batched Policy, acting deterministically.

    MaskablePPO is asked with ``predict(observation, action_masks=mask, deterministic=True)``.
    Models that know no masks (PPO, A2C, DQN) would pick illegal actions, so they play the legal
    action their network ranks highest (largest logit, or Q-value).
    """

    def __init__(self, model: Any, game: Any = None, name: str | None = None) -> None:
        self.model = model
        self.name = name or type(model).__name__
        self.maskable = "action_masks" in inspect.signature(model.predict).parameters
        if game is not None:
            self._check_spaces(game)

    def _check_spaces(self, game: Any) -> None:
        if isinstance(game, str):
            from yuugi.envs import make_game

            game = make_game(game)
        obs_shape = tuple(getattr(self.model.observation_space, "shape", ()) or ())
        n = getattr(self.model.action_space, "n", None)
        if obs_shape != tuple(game.observation_shape) or n != game.num_actions:
            raise OptionError(f"SB3 model {self.name!r} was made for observations {obs_shape} and {n} actions; "
                              f"{game.name} has {tuple(game.observation_shape)} and {game.num_actions}")

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        observation = np.asarray(observation, dtype=np.float32)
        if self.maskable:
            actions, _ = self.model.predict(observation, action_masks=mask, deterministic=True)
            return np.asarray(actions, dtype=np.int64).reshape(-1)
        scores = self._action_scores(observation)
        return np.where(mask, scores, -np.inf).argmax(axis=1).astype(np.int64)

    def _action_scores(self, observation: np.ndarray) -> np.ndarray:
        import torch

        policy = self.model.policy
        obs_tensor, _ = policy.obs_to_tensor(observation)
        with torch.no_grad():
            if hasattr(policy, "q_net"):  # DQN
                scores = policy.q_net(obs_tensor)
            else:
                scores = policy.get_distribution(obs_tensor).distribution.logits
        return scores.cpu().numpy().reshape(len(observation), -1)
