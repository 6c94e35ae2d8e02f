"""The one play loop: step a batch of games with per-seat policies until no game waits on them.

Every face and tool that lets policies play a batch (the vector face's opponents, evaluation, the
bench) runs :func:`rollout`. One round observes every game once, asks each policy for the actions
of the rows it plays (one call per policy per round; a search policy, one with
``act_state(game, state, seats, rng)``, gets a copy of its games' states instead of observations and
must use only what the acting seat may know), checks them against the legal mask, and
steps only those rows in place (``BatchGame.step`` with an ``active`` mask): the state is never
copied. Finished games are either left finished or replaced at once by ``replace``.

When most rows act, the observations and masks of a round are computed over the whole batch and
the acting rows taken from them (a game's observation does not depend on the other rows, so this
is what observing the acting rows alone gives, without copying them out); when only a few act,
those few are copied out and observed alone.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence

import numpy as np

from yuugi.envs.core.errors import CallError
from yuugi.envs.core.game import BatchGame, State


class ActingPolicy(Protocol):
    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray: ...


# (state) -> bool[B]: the rows that act this round (default: every game not over)
Acting = Callable[[State], np.ndarray]
# (rows, seats) -> int[len(rows)]: the index in ``policies`` that plays each acting row's seat
PolicyOf = Callable[[np.ndarray, np.ndarray], np.ndarray]


def policy_table(seat_policy: np.ndarray) -> PolicyOf:
    """``policy_of`` for a fixed table ``seat_policy[game, seat]`` of policy indices."""
    return lambda rows, seats: seat_policy[rows, seats]


def not_over(state: State) -> np.ndarray:
    return ~state.done


def play_round(game: BatchGame, state: State, policies: Sequence[ActingPolicy], policy_of: PolicyOf,
               rng: np.random.Generator, rows: np.ndarray, *, check: bool = True) -> None:
    """One decision in each game of ``rows`` (indices of live games), made by its seat's policy."""
    seats = state.to_play[rows].astype(np.int64)
    if 2 * rows.size >= state.batch_size:  # most rows act: observe the batch in place, take their rows
        obs = game.observe(state, state.to_play)
        mask = game.legal_mask(state)
        if rows.size != state.batch_size:
            obs, mask = obs[rows], mask[rows]
    else:  # a few rows act (the tail of an evaluation): copying them out is cheaper than the batch
        few = state.take(rows)
        obs, mask = game.observe(few, seats), game.legal_mask(few)
    who = np.asarray(policy_of(rows, seats))

    def decide(policy: Any, mine: np.ndarray | slice) -> np.ndarray:
        if callable(getattr(policy, "act_state", None)):  # a search policy simulates from its games' states
            return game.action_array(policy.act_state(game, state.take(rows[mine]), seats[mine], rng))
        return game.action_array(policy.act(obs[mine], mask[mine], rng))

    if (who == who[0]).all():  # one policy plays every acting row: no selection
        chosen = decide(policies[int(who[0])], slice(None))
    else:
        chosen = np.zeros(rows.size, dtype=np.int64)
        for k in np.unique(who):
            mine = who == k
            chosen[mine] = decide(policies[k], mine)
    if chosen.shape[0] != rows.size:
        raise CallError(f"a policy returned {chosen.shape[0]} actions for {rows.size} games (one per game expected)")
    if check:  # policies must stay legal; the error names the game and the action
        bad = ~mask[np.arange(rows.size), np.clip(chosen, 0, game.num_actions - 1)] | (chosen < 0) | (
            chosen >= game.num_actions)
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            game.validate(state, _scatter(chosen, rows, state.batch_size), _rows_mask(rows[first:first + 1],
                                                                                       state.batch_size))
    if rows.size == state.batch_size:  # every game acts (rows are the live games): no scatter
        game.step(state, chosen, check=False)
    else:
        game.step(state, _scatter(chosen, rows, state.batch_size), _rows_mask(rows, state.batch_size), check=False)


def _scatter(values: np.ndarray, rows: np.ndarray, batch: int) -> np.ndarray:
    full = np.zeros(batch, dtype=np.int64)
    full[rows] = values
    return full


def _rows_mask(rows: np.ndarray, batch: int) -> np.ndarray:
    active = np.zeros(batch, dtype=bool)
    active[rows] = True
    return active


def rollout(game: BatchGame, state: State, policies: Sequence[ActingPolicy], policy_of: PolicyOf,
            rng: np.random.Generator, *, acting: Acting = not_over,
            replace: Callable[[np.ndarray], State] | None = None,
            after_round: Callable[[np.ndarray, np.ndarray], Any] | None = None, check: bool = True) -> State:
    """Play rounds until no row of ``state`` is ``acting``; ``state`` is stepped in place and returned.

    ``after_round(rows, finished)`` runs after each round with the rows that acted and the rows that
    have just finished (before they are replaced): the place to add up rewards and count games; a
    truthy return stops the rollout. ``replace(finished)`` returns fresh games for those rows (then
    the rollout runs until ``after_round`` stops it or nothing acts).
    """
    while True:
        rows = np.flatnonzero(acting(state))
        if rows.size == 0:
            return state
        play_round(game, state, policies, policy_of, rng, rows, check=check)
        finished = rows[state.done[rows]]
        stop = after_round(rows, finished) if after_round is not None else False
        if replace is not None and finished.size:
            state.put(finished, replace(finished))
        if stop:
            return state
