"""The round-robin of :func:`yuugi.training.eval.evaluate.evaluate`, its games spread over Ray tasks.

A pairing's games are played in chunks of ``batch`` games (the local evaluator's batches), and
every chunk is one Ray task: it plays games ``start .. stop-1`` of the pairing on their seeds
(``seed * 10_000_019 + g``, or ``+ g // n`` in a mirrored run of n games per deal) with the policy
generator the local evaluator gives that batch, :func:`yuugi.training.eval.evaluate.chunk_rng`
``(seed, a, b, start)``. A chunk's scores therefore depend only on what it is
given, never on which worker ran it or on what ran before, and the driver folds them exactly as
the local evaluator does: pairings in schedule order, each game's openskill update in game order,
the same seeded bootstrap and Wilson intervals. Any number of workers gives the local table, for
policies that draw random numbers too.

The policies are built once by the driver and shipped to the tasks by value (``ray.put``), so
weights files need to exist only where the command runs. ``workers`` caps the tasks in flight (the
cluster may have more CPUs than you want to use).
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Mapping

import numpy as np

from yuugi.training.eval.evaluate import (SEED_STRIDE, EvalResult, check_round_robin, chunk_rng, outside_checked_rules,
                               pairing_of, play_games, rate_games, round_robin_extra, score_of_a, seat_layout)
from yuugi.training.eval.mirror import check_whole_deals, deal_seeds, games_per_deal

def chunk_scores(game_name: str, rules: Mapping[str, Any], policy_a: Any, policy_b: Any, a: int, b: int,
                 start: int, stop: int, seed: int, layout: str, per_deal: int = 1) -> np.ndarray:
    """A's score (mean return per seat minus B's) in games ``start .. stop-1`` of pairing (a, b)."""
    from yuugi.envs import make_game

    game = make_game(game_name, **dict(rules))
    g = np.arange(start, stop)
    seating = seat_layout(layout, g, game.num_players)  # 0 -> a, 1 -> b
    returns = play_games(game, seating, [policy_a, policy_b], deal_seeds(seed * SEED_STRIDE, g, per_deal),
                         chunk_rng(seed, a, b, start))
    return score_of_a(seating, returns)


def evaluate_distributed(game_name: str, policies: Mapping[str, Any], games: int = 1000, seed: int = 0,
                         rules: Mapping[str, Any] | None = None, batch: int = 500, layout: str = "alternate",
                         workers: int = 2, progress: Callable[[int], None] | None = None,
                         mirror: bool = False) -> EvalResult:
    """Round-robin over every pair of ``policies`` (as :func:`yuugi.training.eval.evaluate.evaluate` takes them),
    its chunks of ``batch`` games run as Ray tasks, at most ``workers`` at a time.

    Ray must be initialised (``ray.init``) by the caller. ``progress(n)`` is told when ``n`` more
    games are finished.
    """
    import ray
    from openskill.models import PlackettLuce

    from yuugi.agents.adapters import as_policy
    from yuugi.envs import make_game

    check_round_robin(games, policies, layout)
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    rules = dict(rules or {})
    game = make_game(game_name, **rules)
    per_deal = games_per_deal(layout, game.num_players, mirror)
    check_whole_deals(games, per_deal, layout)
    names = list(policies)
    built = {n: as_policy(policies[n], game=game_name, **rules) for n in names}
    acting = [ray.put(built[n]) for n in names]
    schedule = list(itertools.combinations(range(len(names)), 2))
    chunks = [(ia, ib, start, min(start + batch, games)) for ia, ib in schedule for start in range(0, games, batch)]
    play = ray.remote(num_cpus=1)(chunk_scores)

    scores: dict[tuple[int, int, int], np.ndarray] = {}
    running: dict[Any, tuple[int, int, int, int]] = {}
    waiting = list(reversed(chunks))
    while waiting or running:
        while waiting and len(running) < workers:
            ia, ib, start, stop = chunk = waiting.pop()
            running[play.remote(game_name, rules, acting[ia], acting[ib], ia, ib, start, stop, seed, layout,
                                per_deal)] = chunk
        (done,), _ = ray.wait(list(running), num_returns=1)
        ia, ib, start, stop = running.pop(done)
        scores[(ia, ib, start)] = ray.get(done)
        if progress is not None:
            progress(stop - start)

    model = PlackettLuce()
    ratings = {n: model.rating(name=n) for n in names}
    pairings = []
    for ia, ib in schedule:
        a, b = names[ia], names[ib]
        score = np.concatenate([scores[(ia, ib, start)] for start in range(0, games, batch)])
        rate_games(model, ratings, a, b, score)
        pairings.append(pairing_of(a, b, score, [seed, ia, ib], per_deal))
    # the starred rows of policies rated outside their checked rules, as the local table has them
    extra = round_robin_extra(game, layout, games, len(schedule), mirror,
                              outside_checked_rules(game_name, built, rules))
    return EvalResult(game_name, pairings, {n: (r.mu, r.sigma) for n, r in ratings.items()}, extra)
