"""Deck-versus-deck games on the batched core, seat 0 moving first, in one batch kept full.

The game draws the first player at random when a game starts (after both decks are built and
shuffled). A match-up asks for the first player's deck, so a :class:`Matchup`'s games are taken
from a stream of seeds, keeping those whose draw gave seat 0 the first move: in every game played
here **seat 0 is the first player**. Each seat's deck and policy are fixed per match-up; the queue
holds games of many match-ups at once and refills finished rows from it (``rollout``'s ``replace``),
so short games never leave the batch half empty.

Policies are anything with ``act(observation, mask, rng) -> actions`` (the caller builds them; this
module never imports ``agents``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import numpy as np

from yuugi.envs.core.game import BatchGame, State
from yuugi.envs.faces.rollout import rollout

SEED_STRIDE = 10**7  # seeds of one match-up's stream: start .. start + SEED_STRIDE - 1


@dataclass(frozen=True)
class Matchup:
    """``games`` games: ``decks[0]`` at seat 0 (the first player), ``decks[1]`` at seat 1, each seat
    played by ``policies[k]`` (indices into the policy list); seeds scanned from ``seed_start``."""

    decks: tuple[Any, Any]
    policies: tuple[int, int]
    games: int
    seed_start: int


@dataclass
class Outcomes:
    """Per match-up: games where the first player (seat 0) won, lost, and drew (truncations included)."""

    first_wins: np.ndarray
    first_losses: np.ndarray
    draws: np.ndarray
    truncated: np.ndarray
    seeds: list[np.ndarray]  # the seeds played, per match-up

    def score(self, k: int) -> float:
        """The first player's wins plus half its draws, over the games of match-up ``k``."""
        n = int(self.first_wins[k] + self.first_losses[k] + self.draws[k])
        return float((self.first_wins[k] + 0.5 * self.draws[k]) / n)


def first_player_games(game: BatchGame, decks: tuple[Any, Any], seed_start: int,
                       games: int) -> tuple[State, np.ndarray]:
    """``games`` new games with ``decks`` where seat 0 moves first, and their seeds.

    Seeds ``seed_start, seed_start + 1, ...`` are started in chunks; the games whose first player is
    seat 0 are kept in seed order (about half of them).
    """
    kept: list[State] = []
    seeds_kept: list[np.ndarray] = []
    have, start = 0, seed_start
    chunk = min(4096, 2 * games + 64)  # about half the seeds give seat 0 the first move
    while have < games:
        seeds = np.arange(start, start + chunk, dtype=np.int64)
        start += chunk
        if start - seed_start > SEED_STRIDE:
            raise RuntimeError(f"fewer than {games} games with seat 0 first in {SEED_STRIDE} seeds from {seed_start}")
        st = game.init(seeds, {"decks": decks})
        rows = np.flatnonzero(st.first == 0)[: games - have]
        kept.append(st.take(rows))
        seeds_kept.append(seeds[rows])
        have += rows.size
    return State.concat(kept), np.concatenate(seeds_kept)


def _queue(game: BatchGame, matchups: Sequence[Matchup], piece: int) -> Iterator[tuple[int, State, np.ndarray]]:
    """(match-up index, games, their seeds) in pieces of at most ``piece`` games, taking the match-ups in
    turn, so every match-up advances at about the same pace (a run stopped early has even counts)."""
    done = [0] * len(matchups)
    start = [m.seed_start for m in matchups]
    while True:
        moved = False
        for k, m in enumerate(matchups):
            if done[k] >= m.games:
                continue
            n = min(piece, m.games - done[k])
            st, seeds = first_player_games(game, m.decks, start[k], n)
            start[k] = int(seeds[-1]) + 1
            done[k] += n
            moved = True
            yield k, st, seeds
        if not moved:
            return


def play_matchups(game: BatchGame, matchups: Sequence[Matchup], policies: Sequence[Any], rng: np.random.Generator,
                  batch: int = 1024, on_finished: Any = None, on_progress: Any = None) -> Outcomes:
    """Play every game of ``matchups`` with at most ``batch`` games at once; returns their outcomes.

    ``on_finished(n)`` is told each time ``n`` more games have ended; ``on_progress(outcomes)`` gets the
    outcomes so far after each round in which games ended (a place to save a partial result).
    """
    if batch < 1:
        raise ValueError(f"batch must be a positive number of games, got {batch!r}")
    m = len(matchups)
    out = Outcomes(np.zeros(m, np.int64), np.zeros(m, np.int64), np.zeros(m, np.int64), np.zeros(m, np.int64),
                   [[] for _ in range(m)])  # type: ignore[list-item]
    pieces = _queue(game, matchups, piece=max(16, batch // max(1, m)))
    pending: list[tuple[int, State, np.ndarray]] = []

    def pull(n: int) -> tuple[State | None, np.ndarray, np.ndarray]:
        """Up to ``n`` queued games, their match-up indices and seeds."""
        parts, owners, seeds, have = [], [], [], 0
        while have < n:
            if not pending:
                nxt = next(pieces, None)
                if nxt is None:
                    break
                pending.append(nxt)
            k, st, sd = pending.pop(0)
            take = min(n - have, st.batch_size)
            parts.append(st.take(np.arange(take)))
            owners.append(np.full(take, k))
            seeds.append(sd[:take])
            if take < st.batch_size:
                pending.insert(0, (k, st.take(np.arange(take, st.batch_size)), sd[take:]))
            have += take
        if not parts:
            return None, np.zeros(0, np.int64), np.zeros(0, np.int64)
        return State.concat(parts), np.concatenate(owners), np.concatenate(seeds)

    state, owner, seeds = pull(batch)
    if state is None:
        return out
    owner = owner.astype(np.int64)
    row_policy = np.array([matchups[k].policies for k in owner], dtype=np.int64)

    def record(rows: np.ndarray, finished: np.ndarray) -> None:
        if not finished.size:
            return
        r0 = state.rewards[finished, 0]
        k = owner[finished]
        np.add.at(out.first_wins, k, r0 > 0)
        np.add.at(out.first_losses, k, r0 < 0)
        np.add.at(out.draws, k, r0 == 0)
        np.add.at(out.truncated, k, state.truncated[finished])
        for kk, sd in zip(k, seeds[finished]):
            out.seeds[kk].append(int(sd))
        if on_finished is not None:
            on_finished(int(finished.size))
        if on_progress is not None:
            on_progress(out)

    def replace(finished: np.ndarray) -> State:
        fresh, who, sd = pull(finished.size)
        n = 0 if fresh is None else fresh.batch_size
        # rows with no game left keep their finished game: it is over, so it never acts again
        if n < finished.size:
            rest = state.take(finished[n:])
            fresh = rest if fresh is None else State.concat([fresh, rest])
        owner[finished[:n]] = who
        seeds[finished[:n]] = sd
        row_policy[finished[:n]] = np.array([matchups[k].policies for k in who], dtype=np.int64).reshape(n, 2)
        return fresh

    rollout(game, state, policies, lambda r, s: row_policy[r, s], rng, after_round=record, replace=replace)
    out.seeds = [np.sort(np.array(s, dtype=np.int64)) for s in out.seeds]
    return out
