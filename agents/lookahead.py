"""``hard`` where the shipped network plays better looking a turn ahead: ninja_slayer.

ninja_slayer's network (MaskablePPO guided by a tuned heuristic, ``agents/weights/ninja_slayer_hard.npz``)
wins about 52.5% of its games against ``normal``, and longer training, distillation of ``expert`` and
other PPO runs did not take it further (README). Its ``hard`` is that network with a learned value and a
one-turn lookahead, the way programs with a policy and a value network play at a small budget: the
network proposes its likely actions (its top 3, those it gives at least 2%); each is played in 2
determinizations of what the seat cannot see, out to the end of the turn by the network at both seats,
and the position reached is valued by the win network (:mod:`yuugi.agents.search.slayer_value`); a
candidate replaces the network's first choice only when it beats it, sample by sample, by more than one
standard error. It is :class:`~yuugi.agents.expert.ExpertPolicy` with a fixed, small budget (one round,
about a millisecond a decision on one core), where ``expert`` searches more candidates and samples,
rolls out through the opponent's next turn and values with this win network and a second one together.

Both networks were trained: the policy by PPO, the value on 100,000 games of that policy against
``normal`` (:mod:`yuugi.training.train.slayer_value`); the level's record, ``ninja_slayer_hard.json``,
says how, and how it was selected and checked.
"""
from __future__ import annotations

from typing import Any, Callable

from yuugi.agents.policy import Policy


def _ninja_slayer_search() -> dict[str, Any]:
    from yuugi.agents.search.slayer_value import ValuedTurnEnd

    return {"top_n": 3, "samples": 2, "horizon": ValuedTurnEnd(1)}


# Per game whose hard level looks ahead: the settings of the search around its network (made when a
# level is built, since the horizon reads its value network's file then).
LOOKAHEAD: dict[str, Callable[[], dict[str, Any]]] = {"ninja_slayer": _ninja_slayer_search}


def looks_ahead(game: str) -> bool:
    return game in LOOKAHEAD


def lookahead_hard(game: str, network: Policy, heuristic: Policy) -> Policy:
    """``game``'s hard level: ``network`` proposing and playing the rollouts of a one-round search."""
    from yuugi.agents.expert import ExpertPolicy

    return ExpertPolicy(game, heuristic, think_ms=None, rounds=1, guide=network, rollout_policy=network,
                        name="hard", **LOOKAHEAD[game]())
