"""Rule options of ninja daifugō, validated once at construction."""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

from envs.core.errors import OptionError
from envs.core.options import check_option_names

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

# Ninjutsu (rules file §2.1): index, name, base cost.
JUTSU = ("ashidome", "shuriken", "raiton", "henge")
ASHIDOME, SHURIKEN, RAITON, HENGE = range(4)
BASE_COST = (2, 3, 4, 2)
USES_BY_LEVEL = (0, 1, 2, 2, 3, 3)  # index = level; level 0 = not equipped
SCHOOLS = (None, "rai", "henge", "bogai")  # none, 雷, 変化, 妨害
SCHOOL_RAI, SCHOOL_HENGE, SCHOOL_BOGAI = 1, 2, 3
NINJA_MODES = ("faithful", "symmetric", "off")
MAX_POINTS = 6
# The CPUs of the faithful table (§2.1): Lv1, no school.
CPU_LOADOUTS = (
    {"jutsu": {"raiton": 1, "shuriken": 1}},  # ジライヤ
    {"jutsu": {"ashidome": 1, "raiton": 1}},  # お館様
    {"jutsu": {"henge": 1, "ashidome": 1}},  # モコ
)
DEFAULT_LOADOUT: dict[str, Any] = {"jutsu": {"ashidome": 1, "shuriken": 1}, "school": None, "gokui": False}


@dataclasses.dataclass(frozen=True)
class Loadout:
    """One seat's ninja equipment: jutsu levels (0 = not equipped), school, 極意."""

    levels: tuple[int, int, int, int] = (0, 0, 0, 0)
    school: int = 0
    gokui: bool = False

    @classmethod
    def parse(cls, spec: Mapping[str, Any], where: str) -> "Loadout":
        if not isinstance(spec, Mapping):
            raise OptionError(f"{where} must be a dict like {DEFAULT_LOADOUT}, got {spec!r}")
        unknown = sorted(set(spec) - {"jutsu", "school", "gokui"})
        if unknown:
            raise OptionError(f"{where}: unknown key(s) {unknown}; use 'jutsu', 'school', 'gokui'")
        jutsu = spec.get("jutsu", {})
        if not isinstance(jutsu, Mapping):
            raise OptionError(f"{where}.jutsu must map jutsu names to levels, got {jutsu!r}")
        if len(jutsu) > 2:
            raise OptionError(f"{where}.jutsu: at most 2 jutsu can be equipped, got {sorted(jutsu)}")
        levels = [0, 0, 0, 0]
        for name, level in jutsu.items():
            if name not in JUTSU:
                raise OptionError(f"{where}.jutsu: unknown jutsu {name!r}; choose from {JUTSU}")
            if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 5:
                raise OptionError(f"{where}.jutsu.{name}: level must be 1..5, got {level!r}")
            levels[JUTSU.index(name)] = level
        school = spec.get("school")
        if school not in SCHOOLS:
            raise OptionError(f"{where}.school must be one of {SCHOOLS}, got {school!r}")
        gokui = spec.get("gokui", False)
        if not isinstance(gokui, bool):
            raise OptionError(f"{where}.gokui must be True or False, got {gokui!r}")
        if gokui and 5 not in levels:
            raise OptionError(f"{where}.gokui (極意) needs a jutsu at level 5")
        return cls(tuple(levels), SCHOOLS.index(school), gokui)  # type: ignore[arg-type]


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
    * ``ninja``: ``"faithful"`` (seat 0 is the configurable player; seats 1–3 are the CPUs ジライヤ,
      お館様, モコ with their Lv1 loadouts and no school), ``"symmetric"`` (every seat configurable,
      for self-play) or ``"off"`` (plain daifugō: no points, jutsu masked).
    * ``loadouts``: faithful: one loadout dict for seat 0; symmetric: one dict for every seat or a
      list of four. A loadout is ``{"jutsu": {"henge": 5, "ashidome": 3}, "school": "henge",
      "gokui": True}`` — at most two jutsu at levels 1..5, school ``None``/``"rai"``/``"henge"``/
      ``"bogai"``, 極意 (+1 starting point) only with a jutsu at level 5.
    """

    series_games: int = 5
    declarations: tuple[int, ...] | None = None  # None: all ten (D0-D5, D8, D9 when ninja is off)
    pass_lockout: bool = False
    miyako_ochi: bool = True
    reward_scheme: str = "zero_sum"
    max_game_steps: int = 4000
    ninja: str = "faithful"
    loadouts: Any = None
    seat_loadouts: tuple[Loadout, ...] = dataclasses.field(init=False, repr=False, compare=False, default=())

    def __post_init__(self) -> None:
        if self.ninja not in NINJA_MODES:
            raise OptionError(f"ninja must be one of {NINJA_MODES}, got {self.ninja!r}")
        if self.declarations is None:
            default = BASE_RULE_DECLARATIONS if self.ninja == "off" else ALL_DECLARATIONS
            object.__setattr__(self, "declarations", default)
        object.__setattr__(self, "seat_loadouts", self._parse_loadouts())

    def _parse_loadouts(self) -> tuple[Loadout, ...]:
        spec = self.loadouts
        if self.ninja == "off":
            if spec is not None:
                raise OptionError("loadouts need the ninja layer: set ninja='faithful' or 'symmetric'")
            return (Loadout(),) * 4
        if self.ninja == "faithful":
            if spec is not None and not isinstance(spec, Mapping):
                raise OptionError("loadouts in faithful mode is one dict, for seat 0 (the CPUs are fixed)")
            mine = Loadout.parse(spec if spec is not None else DEFAULT_LOADOUT, "loadouts")
            return (mine,) + tuple(Loadout.parse(c, f"cpu loadout {i + 1}") for i, c in enumerate(CPU_LOADOUTS))
        if spec is None or isinstance(spec, Mapping):
            one = Loadout.parse(spec if spec is not None else DEFAULT_LOADOUT, "loadouts")
            return (one,) * 4
        if not isinstance(spec, Sequence) or len(spec) != 4:
            raise OptionError(f"loadouts in symmetric mode is a dict or a list of 4 dicts, got {spec!r}")
        return tuple(Loadout.parse(x, f"loadouts[{i}]") for i, x in enumerate(spec))

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "DaifugoConfig":
        check_option_names("ninja_daifugo", options, cls)
        cfg = cls(**{k: (tuple(v) if k == "declarations" and v is not None else v) for k, v in options.items()})
        cfg.validate()
        return cfg

    def validate(self) -> None:
        if not isinstance(self.series_games, int) or not 1 <= self.series_games <= 100:
            raise OptionError(f"series_games must be an integer 1..100, got {self.series_games!r}")
        if not isinstance(self.declarations, tuple) or not self.declarations or any(
                d not in ALL_DECLARATIONS for d in self.declarations):
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
    def ninja_on(self) -> bool:
        return self.ninja != "off"

    @property
    def rewards_by_position(self) -> tuple[float, float, float, float]:
        return REWARD_SCHEMES[self.reward_scheme]  # type: ignore[return-value]
