"""A deck's score: its win rate against an opponent deck, both played by CPU policies on the batched core.

``level`` and ``opponent_level`` are policies (anything with ``act(observation, mask, rng)``) or
level specs (``"random"``, ``"normal"``, a ``.npz`` path, ``module:attr`` ...). Specs are turned into
policies by ``agents.adapters.as_policy`` imported **inside** :func:`resolve_policy`, when a deck is
first scored: importing ``envs`` never imports ``agents``.

``seats`` says where the deck sits: ``"alternate"`` (it moves first in half the games, the extra
one of an odd count first), ``"first"`` or ``"second"`` (see :mod:`.matches`: seat 0 always moves
first). The score is the deck's wins plus half its draws over the games (a truncation is a draw).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.core.errors import OptionError
from envs.core.game import BatchGame

from .matches import SEED_STRIDE, Matchup, play_matchups

SEATS = ("alternate", "first", "second")


def resolve_policy(spec: Any, rules: dict[str, Any] | None = None) -> Any:
    """A policy as it is, or a level spec made into one (imports ``agents`` here, not at import time)."""
    if callable(getattr(spec, "act", None)):
        return spec
    from agents.adapters import as_policy  # lazy: envs must not import agents when imported

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
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise OptionError(f"games must be a positive integer, got {games!r}")
    n_first, n_second = split_seats(int(games), seats)
    mine, theirs = tuple(deck) if not isinstance(deck, str) else deck, \
        tuple(opponent_deck) if not isinstance(opponent_deck, str) else opponent_deck
    other = 0 if opponent_policy is policy else 1  # one policy on both sides: one call per round
    matchups = []
    if n_first:
        matchups.append(Matchup((mine, theirs), (0, other), n_first, seed_start))
    if n_second:
        matchups.append(Matchup((theirs, mine), (other, 0), n_second, seed_start + SEED_STRIDE // 2))
    out = play_matchups(game, matchups, [policy, opponent_policy][:other + 1], rng, batch=batch)
    first, second = (0, 0, 0), (0, 0, 0)
    k = 0
    if n_first:
        first = (int(out.first_wins[k]), int(out.first_losses[k]), int(out.draws[k]))
        k += 1
    if n_second:  # the deck is the second player: the first player's losses are its wins
        second = (int(out.first_losses[k]), int(out.first_wins[k]), int(out.draws[k]))
    return DeckScore(int(games), first[0] + second[0], first[1] + second[1], first[2] + second[2], first, second)
