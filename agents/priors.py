"""Action priors: numpy functions that grade every action of a batch of decisions.

A prior-guided :class:`~yuugi.agents.mlp.MLPPolicy` (residual policy learning) reads the prior as extra
inputs and adds it, through a learned linear map that starts as a multiple of the identity, to its
own logits. Training therefore starts from the prior's choices rather than from noise, and
MaskablePPO learns the corrections. A prior is named in the exported ``.npz`` and looked up here,
so playing against such a policy still needs only numpy.

Every prior returns float32[B, A] in ``[FLOOR, 0]``: 0 for the best legal action, ``FLOOR`` for
illegal ones, and ``FLOOR`` for every action of a row with no legal action (a finished game).
"""
from __future__ import annotations

import importlib
from typing import Any, Callable

import numpy as np

from yuugi.envs.spec import SPECS

Prior = Callable[[np.ndarray, np.ndarray], np.ndarray]
FLOOR = -3.0


class HeuristicScorePrior:
    """A heuristic's action scores, relative to the best legal one, in units of ``scale``.

    ``scores(observation, mask)`` of the heuristic must return one number per action on a common
    scale (nigejozu's are chip points of its board value). A row with a single legal action is not
    scored (the heuristic is only asked where there is a choice).
    """

    def __init__(self, heuristic: object, scale: float) -> None:
        self.heuristic = heuristic
        self.scale = float(scale)

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        mask = np.asarray(mask, dtype=bool)
        out = np.where(mask, np.float32(0.0), np.float32(FLOOR))
        choice = np.flatnonzero(mask.sum(axis=1) > 1)
        if len(choice):
            m = mask[choice]
            obs = np.asarray(observation, dtype=np.float32)[choice]
            s = self.heuristic.scores(obs, m)  # type: ignore[attr-defined]
            s = np.where(m & np.isfinite(s), s, -np.inf)
            rel = (s - s.max(axis=1, keepdims=True)) / self.scale
            out[choice] = np.maximum(rel, FLOOR)
        return out


def DaifugoHeuristicScores() -> Any:
    """The scorer of :class:`yuugi.agents.heuristics.ninja_daifugo.DaifugoHeuristic` (``scores(obs, mask)``,
    without the heuristic's tie-break noise). Units are the heuristic's: one rank of card strength."""
    from yuugi.agents.heuristics.ninja_daifugo import DaifugoHeuristic

    return DaifugoHeuristic()


def daifugo_heuristic_prior() -> Prior:
    # 2 points per unit (a pair of ranks of card strength): the prior spans 6 points below the best
    # action, so the head's starting gain of 4 makes a play one rank weaker e^2 times less likely.
    return HeuristicScorePrior(DaifugoHeuristicScores(), scale=2.0)


def nigejozu_heuristic_prior() -> Prior:
    from yuugi.agents.heuristics.nigejozu import NigejozuHeuristic

    # 4 chip points per unit: the prior spans 12 chip points below the best action.
    return HeuristicScorePrior(NigejozuHeuristic(), scale=4.0)


def nigejozu_valued_prior() -> Prior:
    from yuugi.agents.heuristics.nigejozu_valued import NigejozuValued

    # Its scores are this side's chance to win: 2 percentage points per unit, so the prior spans 6
    # points below the best action. hard plays the argmax, the same at any scale; the scale sets how
    # many candidates the expert's search keeps from hard's softmax: at 10 points per unit it kept
    # more, and its random rollouts chose worse than hard (-0.37 after 700 of the ladder's games).
    return HeuristicScorePrior(NigejozuValued(), scale=0.02)


def ninja_slayer_heuristic_prior() -> Prior:
    from yuugi.agents.heuristics.ninja_slayer import NinjaSlayerHeuristic

    # One point of the heuristic's worth per unit (about a point of damage, or a cheap character): the
    # prior spans 3 points below the best action. Its ``normal`` style (control).
    return HeuristicScorePrior(NinjaSlayerHeuristic(), scale=1.0)


def ninja_slayer_tuned_prior() -> Prior:
    from yuugi.agents.heuristics.ninja_slayer import NinjaSlayerHeuristic

    # The tuned style's scores (the control style's knobs searched against control), on the same scale.
    return HeuristicScorePrior(NinjaSlayerHeuristic("tuned"), scale=1.0)


def _factory(path: str) -> Callable[[], Prior]:
    """The factory named ``"module:function"``, imported when a prior is made (not when it is listed)."""
    def make() -> Prior:
        module, function = path.split(":")
        return getattr(importlib.import_module(module), function)()
    return make


# Every game's priors, by the name exported weights record (from the games' registry entries, yuugi.envs.spec).
PRIORS: dict[str, Callable[[], Prior]] = {name: _factory(path) for spec in SPECS.values()
                                          for name, path in spec.priors.items()}


def make_prior(name: str) -> Prior:
    if name not in PRIORS:
        raise ValueError(f"unknown action prior {name!r}; priors: {sorted(PRIORS)}")
    return PRIORS[name]()
