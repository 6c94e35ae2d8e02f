"""Rule options of ninja daifugō, validated once at construction."""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from envs.core.errors import OptionError

# Declarations (お館様の気まぐれ宣言), rules file §2.2.
D_NONE, D_WEAK_JOKER, D_NO_EIGHT_CUT, D_NO_LOCK, D_NO_SEQUENCE, D_START_REVOLUTION = 0, 1, 2, 3, 4, 5
D_DOUBLE_POINTS, D_COSTLY_JUTSU, D_ELEVEN_BACK, D_FIVE_SKIP = 6, 7, 8, 9
DECLARATION_TEXT = (
    "皆の者、存分に戦え (no change)",
    "ジョーカーは一番弱い札じゃ (the joker is the weakest card)",
    "八切りはならぬ (no 8-cut)",
    "縛りはなしじゃ (no suit lock)",
    "階段はならぬ (no sequences)",
    "はじめから革命じゃ (the game starts in revolution)",
    "忍法ポイントは倍じゃ (ninja points doubled)",
    "忍法は高くつくぞ (jutsu cost +1)",
    "イレブンバックじゃ (a J reverses strength until the field clears)",
    "五飛びじゃ (a 5 skips the next player)",
)
# Those that change the base card rules; D6/D7 act on the ninja layer.
BASE_RULE_DECLARATIONS = (0, 1, 2, 3, 4, 5, 8, 9)
ALL_DECLARATIONS = tuple(range(10))

REWARD_SCHEMES = {
    "zero_sum": (1.0, 1.0 / 3.0, -1.0 / 3.0, -1.0),  # rules file §5.9 default
    "uecda": (4.0, 3.0, 2.0, 1.0),  # UECda style REWARD(cl) = N - cl
}


@dataclasses.dataclass(frozen=True)
class DaifugoConfig:
    """Options (all have the rules file's defaults).

    * ``series_games``: games per episode (a series with tribute from game 2); 1 = single game.
    * ``declarations``: the pool one declaration per game is drawn from, uniformly; give a
      one-element tuple to fix it (e.g. ``(0,)`` for plain daifugō).
    * ``pass_lockout``: a pass locks you out until the field clears (UECda convention; off by default).
    * ``miyako_ochi``: 都落ち in force from game 2.
    * ``reward_scheme``: ``"zero_sum"`` (+1, +1/3, −1/3, −1) or ``"uecda"`` (4, 3, 2, 1).
    * ``max_game_steps``: decisions per game before the episode is truncated.
    """

    series_games: int = 5
    declarations: tuple[int, ...] = BASE_RULE_DECLARATIONS
    pass_lockout: bool = False
    miyako_ochi: bool = True
    reward_scheme: str = "zero_sum"
    max_game_steps: int = 4000

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "DaifugoConfig":
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise OptionError(f"unknown ninja_daifugo option(s) {unknown}; known options: {sorted(known)}")
        cfg = cls(**{k: (tuple(v) if k == "declarations" else v) for k, v in options.items()})
        cfg.validate()
        return cfg

    def validate(self) -> None:
        if not isinstance(self.series_games, int) or not 1 <= self.series_games <= 100:
            raise OptionError(f"series_games must be an integer 1..100, got {self.series_games!r}")
        if not self.declarations or any(d not in ALL_DECLARATIONS for d in self.declarations):
            raise OptionError(f"declarations must be a non-empty subset of 0..9, got {self.declarations!r}")
        if len(set(self.declarations)) != len(self.declarations):
            raise OptionError(f"declarations must not repeat, got {self.declarations!r}")
        for name in ("pass_lockout", "miyako_ochi"):
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.reward_scheme not in REWARD_SCHEMES:
            raise OptionError(f"reward_scheme must be one of {sorted(REWARD_SCHEMES)}, got {self.reward_scheme!r}")
        if not isinstance(self.max_game_steps, int) or self.max_game_steps < 10:
            raise OptionError(f"max_game_steps must be an integer >= 10, got {self.max_game_steps!r}")

    @property
    def rewards_by_position(self) -> tuple[float, float, float, float]:
        return REWARD_SCHEMES[self.reward_scheme]  # type: ignore[return-value]
