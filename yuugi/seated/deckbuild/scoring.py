"""A deck's score: its win rate against an opponent deck, both played by CPU policies on the batched core.

``level`` and ``opponent_level`` are policies (anything with ``act(observation, mask, rng)``) or
level specs (``"random"``, ``"normal"``, a ``.npz`` path, ``module:attr`` ...). Specs are turned into
policies by ``yuugi.agents.adapters.as_policy`` imported **inside** :func:`resolve_policy`, when a deck is
first scored: importing ``envs`` never imports ``agents``.

``seats`` says where the deck sits: ``"alternate"`` (it moves first in half the games, the extra
one of an odd count first), ``"first"`` or ``"second"`` (see :mod:`.matches`: seat 0 always moves
first). The score is the deck's wins plus half its draws over the games (a truncation is a draw).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from yuugi.envs.core.errors import OptionError
from yuugi.envs.core.game import BatchGame

from yuugi.seated.deckbuild.matches import SEED_STRIDE, Matchup, play_matchups

SEATS = ("alternate", "first", "second")


def resolve_policy(spec: Any, rules: dict[str, Any] | None = None) -> Any:
    """A policy as it is, or a level spec made into one (imports ``agents`` here, not at import time)."""
    if callable(getattr(spec, "act", None)):
        return spec
    from yuugi.agents.adapters import as_policy  # lazy: envs must not import agents when imported

    return as_policy(spec, game="ninja_slayer", **dict(rules or {}))


def split_seats(games: int, seats: str) -> tuple[int, int]:
    """(games the deck moves first, games it moves second)."""
    if seats not in SEATS:
        raise OptionError(f"seats must be one of {list(SEATS)}, got {seats!r}")
    if seats == "first":
        return games, 0
    if seats == "second":
        return 0, games
    return games - games // 2, games // 2


@dataclass
class DeckScore:
    games: int
    wins: int
    losses: int
    draws: int
    first: tuple[int, int, int]  # (wins, losses, draws) when the deck moved first
    second: tuple[int, int, int]  # ... when it moved second

    @property
    def win_rate(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games


def score_deck(game: BatchGame, deck: Any, opponent_deck: Any, policy: Any, opponent_policy: Any, games: int,
               seed_start: int, rng: np.random.Generator, seats: str = "alternate", batch: int = 1024) -> DeckScore:
    """Play ``games`` games of ``deck`` (policy ``policy``) against ``opponent_deck`` (``opponent_policy``).

    The games moving first use the seeds from ``seed_start``, those moving second from
    ``seed_start + SEED_STRIDE // 2``; ``rng`` drives the policies.
    """
    return score_decks(game, [(deck, opponent_deck, games, seed_start)], policy, opponent_policy, rng, seats, batch)[0]


def score_decks(game: BatchGame, entries: Sequence[tuple[Any, Any, int, int]], policy: Any, opponent_policy: Any,
                rng: np.random.Generator, seats: str = "alternate", batch: int = 1024) -> list[DeckScore]:
    """:func:`score_deck` for many ``(deck, opponent_deck, games, seed_start)`` at once, in one batch."""
    other = 0 if opponent_policy is policy else 1  # one policy on both sides: one call per round
    matchups, where = [], []
    for deck, opponent_deck, games, seed_start in entries:
        if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
            raise OptionError(f"games must be a positive integer, got {games!r}")
        n_first, n_second = split_seats(int(games), seats)
        mine = deck if isinstance(deck, str) else tuple(deck)
        theirs = opponent_deck if isinstance(opponent_deck, str) else tuple(opponent_deck)
        at = [None, None]
        if n_first:
            at[0] = len(matchups)
            matchups.append(Matchup((mine, theirs), (0, other), n_first, seed_start))
        if n_second:
            at[1] = len(matchups)
            matchups.append(Matchup((theirs, mine), (other, 0), n_second, seed_start + SEED_STRIDE // 2))
        where.append((int(games), at))
    out = play_matchups(game, matchups, [policy, opponent_policy][:other + 1], rng, batch=batch)
    scores = []
    for games, (i_first, i_second) in where:
        first = (0, 0, 0) if i_first is None else \
            (int(out.first_wins[i_first]), int(out.first_losses[i_first]), int(out.draws[i_first]))
        # moving second, the deck wins when the first player loses
        second = (0, 0, 0) if i_second is None else \
            (int(out.first_losses[i_second]), int(out.first_wins[i_second]), int(out.draws[i_second]))
        scores.append(DeckScore(games, first[0] + second[0], first[1] + second[1], first[2] + second[2], first, second))
    return scores
