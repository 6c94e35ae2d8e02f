"""Each game's search settings for ``expert`` (:mod:`yuugi.agents.expert`): what it searches and how.

* ``GAME_SEARCH``: the guide that proposes the candidates and is the reference, the rollout policy,
  how many candidates and determinizations per round;
* ``HORIZONS``: where a game's rollouts stop before the end of the game (a horizon with a
  ``value(state)`` method has the rows it stops unfinished valued by it; otherwise they score 0);
* ``SEARCH_WHEN``: which decisions are worth a search (the others play the guide's choice);
* :func:`fast_rollout_policy`: a faster equivalent of a rollout policy on rollout batches.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from yuugi.agents.policy import Policy
from yuugi.agents.search.rollout import Horizon
from yuugi.agents.search.slayer_value import EXPERT_VALUE_WEIGHTS, ValuedTurnEnd
from yuugi.agents.search.valued_horizon import ValuedTurnsAhead
from yuugi.envs.core.game import State


def end_of_deal(origin: State, now: State) -> np.ndarray:
    """Daifugō's horizon: a rollout ends with the deal it started in (a series has several).

    The finishing place of this deal is its reward and decides the titles of the next one, so the
    place is what a decision now is judged by; simulating the later deals would multiply the cost
    for a signal dominated by future chance.
    """
    return now.game_index != origin.game_index


# A horizon with a ``value(state)`` method has the rows it stops unfinished valued by it (else they score 0);
# one with ``for_game(game)`` is bound to the game first (nigejozu's and ninja_slayer's values read its
# observation). ninja_slayer's rollouts play through the opponent's next turn and are valued by two win
# networks together: hard's and a second one, fitted on other games (their errors differ; their mean errs less).
HORIZONS: dict[str, Horizon] = {"ninja_daifugo": end_of_deal,
                                "ninja_slayer": ValuedTurnEnd(2, network=EXPERT_VALUE_WEIGHTS),
                                "nigejozu": ValuedTurnsAhead(3)}


def last_battle_round(state: State) -> np.ndarray:
    """momotaro's decisions worth a search: those of the third (last) battle round.

    Earlier decisions (the sealed bids of the hiring, the first two rounds' attacks) shape a game
    whose end is far away and full of dice: a few dozen rollouts cannot tell their candidates apart,
    and with random rollouts they misjudge them. In the last round the end is near and the rollouts
    are short, so ``hard``'s own play is an accurate evaluator. Searching from the last round only
    scored +0.058 [+0.008, +0.107] against ``hard`` at a 4-player table (1,000 selection games), from
    round 2 on +0.056 [+0.007, +0.106] at twice the cost, every decision +0.021 over 2,000 games.
    """
    return state.round >= 3


# Per game, the decisions worth a search (state -> bool[B]); the others play the guide's choice.
SEARCH_WHEN: dict[str, Callable[[State], np.ndarray]] = {"momotaro": last_battle_round}

# Each game's search, chosen by matches against ``hard`` on selection seeds from 500000 on
# (training/eval/expert_ladder.py; records in agents/weights/<game>_expert_ladder_selection.json): the
# guide that proposes candidates and is the reference, the rollout policy, how many candidates and
# determinizations per round. Random rollouts are 20-50 times cheaper than the heuristic's or the
# network's, so they buy many more samples in the same time: in nigejozu 128 random rollouts per
# candidate scored +0.22 against the hard of then where 32 scored 0.00; against the hard that values
# boards by a learned win probability they were level (+0.006 over 2,000 games), and nigejozu now rolls
# out three turns by hard and values the turn start reached by hard's network (ValuedTurnsAhead):
# +0.144 [+0.024, +0.272] over 1,000 selection games, two turns +0.104 [-0.020, +0.232] (and against
# today's two-network hard +0.106 [+0.020, +0.192] over 2,000 ladder games). Where random replies
# misjudge a position the better policy's rollouts win despite their cost: momotaro searches its last
# battle round only (SEARCH_WHEN), where 32 rollouts by hard scored +0.058 against hard (4 players,
# 1,000 games) and searching every decision with random rollouts +0.021 (2,000 games). ninja_slayer's hard
# is itself a one-round search (its network, 2 samples of rollouts to the end of the turn valued by its
# win network: yuugi.agents.lookahead), so the expert searches the same way with more: 8 samples of 4
# candidates, rolled out through the opponent's next turn, valued there by two win networks together
# (hard's and a second one fitted on other games: HORIZONS). Valued by hard's network alone it was barely
# ahead of hard (+0.110 [+0.022, +0.192] over the ladder's 2,000 games, -0.010 [-0.098, +0.076] over 2,000
# fresh ones); on 600 selection games (seeds 600000 and up) that search scored +0.167, 16 samples +0.187,
# 16 samples to the end of the turn +0.180 (+0.187 with both networks), and with both networks +0.240,
# the best; see ninja_slayer_expert_ladder_selection.json and the README for its confirmation. (Before
# hard searched, the expert searched from normal's candidates with normal's rollouts: +0.46 [+0.20, +0.72]
# against normal over 200 games with 4 rollouts per candidate, -0.32 with 16 random ones.) A game not listed gets
# DEFAULT_SEARCH.
DEFAULT_SEARCH: dict[str, Any] = {"guide": "normal", "rollout": "normal", "top_n": 4, "samples": 4}
GAME_SEARCH: dict[str, dict[str, Any]] = {
    "ninja_daifugo": {"guide": "normal", "rollout": "normal", "top_n": 4, "samples": 4},
    "nigejozu": {"guide": "hard", "rollout": "hard", "top_n": 4, "samples": 32},
    "momotaro": {"guide": "hard", "rollout": "hard", "top_n": 4, "samples": 32},
    "ninja_slayer": {"guide": "hard", "rollout": "hard", "top_n": 4, "samples": 8},
}


def search_defaults(game_name: str) -> dict[str, Any]:
    return dict(GAME_SEARCH.get(game_name, DEFAULT_SEARCH))


def fast_rollout_policy(game_name: str, policy: Policy, heuristic: Policy) -> Policy:
    """``policy``, or an equivalent that is faster on rollout batches (daifugō's heuristic on legal actions only)."""
    if game_name == "ninja_daifugo" and policy is heuristic:
        from yuugi.agents.search.daifugo_rollout import SparseDaifugoHeuristic

        return SparseDaifugoHeuristic()
    return policy
