"""Mirrored play: each deal played once from every seating of a layout, so that its luck (a stronger
hand, a better roll) falls on both policies alike.

Game g of a mirrored run is dealt with the seed of deal ``g // n`` (``n`` games per deal), and the
layouts cycle through their seatings in exactly that many games
(:func:`yuugi.training.eval.evaluate.seat_layout`): ``field`` puts A at seat ``g mod P``, so the P
games of a deal seat A once at every seat; ``alternate`` swaps A's and B's seats every game, so a
deal's two games play it both ways round. For two players both layouts are the same two games.

The games of one deal are not independent draws, so a mirrored score's interval is bootstrapped over
deals (each deal's mean score), not over games. The Wilson interval of the share of games A is ahead
still counts games, as the expert ladder's does.
"""
from __future__ import annotations

import numpy as np


class MirrorError(ValueError):
    """A mirrored run whose games (or batches) do not hold every deal whole."""


def games_per_deal(layout: str, players: int, mirror: bool) -> int:
    """How many games play one deal: 1 unmirrored; mirrored, every seating of ``layout`` once (P in
    ``field``, 2 in ``alternate``)."""
    if not mirror:
        return 1
    return players if layout == "field" else 2


def check_whole_deals(games: int, per_deal: int, layout: str, what: str = "games") -> None:
    """MirrorError unless ``games`` (the count named ``what``) is a whole number of deals."""
    if games % per_deal:
        raise MirrorError(f"a mirrored run plays each deal from all {per_deal} seatings of the {layout} layout: "
                          f"{what} must be a multiple of {per_deal}, got {games}")


def deal_seeds(first_seed: int, games: np.ndarray, per_deal: int) -> np.ndarray:
    """The seed each of ``games`` (indices in the run) is dealt with: one deal per ``per_deal`` games in a row."""
    return first_seed + np.asarray(games) // per_deal


def deal_means(score: np.ndarray, per_deal: int) -> np.ndarray:
    """Each deal's mean score (the games' own scores when a deal is one game): what an interval is drawn from."""
    return np.asarray(score).reshape(-1, per_deal).mean(axis=1)
