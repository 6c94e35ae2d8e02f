"""What a game declares about itself, after OpenSpiel's ``GameType`` / ``GameInfo``.

Every game exposes a :class:`GameMetadata` as ``game.metadata``, computed from its rule options
(the longest possible episode, for instance, depends on the truncation settings). The declarations
are promises that :mod:`yuugi.envs.conformance` checks against play: a zero-sum game's returns sum to
zero, every step's rewards lie in ``reward_range``, and every episode ends within
``max_decisions`` decisions.
"""
from __future__ import annotations

import dataclasses
import math

UTILITIES = ("zero_sum", "constant_sum", "general_sum")
INFORMATION = ("perfect", "imperfect")


@dataclasses.dataclass(frozen=True)
class GameMetadata:
    """A game's declared properties under one set of rule options.

    * ``num_players``: seats in every episode.
    * ``utility``: ``"zero_sum"`` (the players' returns sum to 0 in every episode),
      ``"constant_sum"`` (they sum to ``utility_sum`` in every episode that terminates; a truncated
      episode may stop short of it) or ``"general_sum"`` (no promise).
    * ``utility_sum``: 0.0 for zero-sum, the constant for constant-sum, None for general-sum.
    * ``reward_range``: the smallest and largest reward one seat can get on one step.
    * ``max_decisions``: an upper bound on the decisions (core ``step`` calls on a game) from
      ``init`` to the end of the episode, terminated or truncated. Each game derives it from its
      rules and truncation options and says how in a comment.
    * ``chance``: the game has chance events (a shuffle, a deal, dice), drawn from its seed.
    * ``information``: ``"perfect"`` when every seat sees the whole state apart from future chance
      (as in OpenSpiel, backgammon is perfect information), else ``"imperfect"`` (hidden hands,
      sealed bids).
    """

    num_players: int
    utility: str
    utility_sum: float | None
    reward_range: tuple[float, float]
    max_decisions: int
    chance: bool
    information: str

    def __post_init__(self) -> None:
        if not isinstance(self.num_players, int) or self.num_players < 1:
            raise ValueError(f"num_players must be a positive integer, got {self.num_players!r}")
        if self.utility not in UTILITIES:
            raise ValueError(f"utility must be one of {UTILITIES}, got {self.utility!r}")
        if self.utility == "zero_sum" and self.utility_sum != 0.0:
            raise ValueError(f"a zero_sum game has utility_sum 0.0, got {self.utility_sum!r}")
        if self.utility == "constant_sum" and not (
                isinstance(self.utility_sum, (int, float)) and math.isfinite(self.utility_sum)):
            raise ValueError(f"a constant_sum game needs a finite utility_sum, got {self.utility_sum!r}")
        if self.utility == "general_sum" and self.utility_sum is not None:
            raise ValueError(f"a general_sum game has utility_sum None, got {self.utility_sum!r}")
        lo, hi = self.reward_range
        if not lo <= hi:
            raise ValueError(f"reward_range must be (low, high) with low <= high, got {self.reward_range!r}")
        if not isinstance(self.max_decisions, int) or self.max_decisions < 1:
            raise ValueError(f"max_decisions must be a positive integer, got {self.max_decisions!r}")
        if not isinstance(self.chance, bool):
            raise ValueError(f"chance must be True or False, got {self.chance!r}")
        if self.information not in INFORMATION:
            raise ValueError(f"information must be one of {INFORMATION}, got {self.information!r}")

    @property
    def zero_sum(self) -> bool:
        return self.utility == "zero_sum"

    @property
    def perfect_information(self) -> bool:
        return self.information == "perfect"
