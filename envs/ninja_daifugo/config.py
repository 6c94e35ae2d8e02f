"""Rule options of ninja daifugō, validated once at construction."""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

from yuugi.envs.core.errors import OptionError
from yuugi.envs.core.options import check_bool, check_choice, check_int, check_int_tuple, check_option_names

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
NINJA_DECLARATIONS = (D_DOUBLE_POINTS, D_COSTLY_JUTSU)
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
        unknown = [key for key in spec if key not in ("jutsu", "school", "gokui")]
        if unknown:
            raise OptionError(f"{where}: unknown key(s) {unknown}; use 'jutsu', 'school', 'gokui'")
        jutsu = spec.get("jutsu", {})
        if not isinstance(jutsu, Mapping):
            raise OptionError(f"{where}.jutsu must map jutsu names to levels, got {jutsu!r}")
        if len(jutsu) > 2:
            raise OptionError(f"{where}.jutsu: at most 2 jutsu can be equipped, got {list(jutsu)}")
        levels = [0, 0, 0, 0]
        for name, level in jutsu.items():
            name = check_choice(f"{where}.jutsu (a jutsu name)", name, JUTSU)
            levels[JUTSU.index(name)] = check_int(f"{where}.jutsu.{name} (its level)", level, 1, 5)
        school = check_choice(f"{where}.school", spec.get("school"), SCHOOLS)
        gokui = check_bool(f"{where}.gokui", spec.get("gokui", False))
        if gokui and 5 not in levels:
            raise OptionError(f"{where}.gokui (極意) needs a jutsu at level 5")
        return cls(tuple(levels), SCHOOLS.index(school), gokui)  # type: ignore[arg-type]


REWARD_SCHEMES = ("zero_sum", "uecda")
RULE_SETS = ("ninja", "uecda")  # the ninja game of the rules file, or the UECda competition's standard game
UECDA_PLAYERS = 5
NINJA_PLAYERS = 4
# Options the UECda preset fixes (a different value raises): no ninja layer, no declarations, no 都落ち;
# its own pass rule (a pass locks the player out of the trick) is always on.
UECDA_FIXED = {"ninja": "off", "declarations": (0,), "miyako_ochi": False, "pass_lockout": True}
UECDA_SEAT_CHANGE_EVERY = 5  # the official server's default configuration (the champion's own server: 3)
UECDA_CLASS_RESET_EVERY = 100


def rewards_by_place(scheme: str, players: int) -> tuple[float, ...]:
    """The reward of each finishing place 1..players: ``zero_sum`` from +1 down to -1 in equal steps
    (+1, +1/3, -1/3, -1 with four players, rules file §5.9), ``uecda`` the competition's points
    ``players - place + 1`` (5, 4, 3, 2, 1 with five players; 4, 3, 2, 1 with four)."""
    if scheme == "uecda":
        return tuple(float(players - k) for k in range(players))
    return tuple((players - 1 - 2 * k) / (players - 1) for k in range(players))


MAX_SERIES_GAMES = 100  # fits the int8 series counters
# The truncation guard: the int32 ``game_steps`` counter holds far more, but a game of 54 cards
# that runs 25 times the default length (4000) is a loop, not a game.
MAX_GAME_STEPS = 100_000


@dataclasses.dataclass(frozen=True)
class DaifugoConfig:
    """Options (all have the rules file's defaults).

    * ``rules``: ``"ninja"`` (the ninja game of the rules file: 4 players, the options below) or
      ``"uecda"`` (the UECda competition's standard game: 5 players, no ninja layer, no
      declarations, no 都落ち, its own trick, lock, revolution and exchange rules; see
      ``docs/rules/ninja_daifugo.md``). ``rules="uecda"`` fixes ``ninja="off"``, ``declarations=(0,)``,
      ``miyako_ochi=False`` and ``pass_lockout=True``, and makes ``reward_scheme="uecda"`` the default.
    * ``seat_change_every`` (UECda only, default 5): the seats are shuffled before game 1 and every
      so many games of a series (0 = never: players sit in seat order).
    * ``class_reset_every`` (UECda only, default 100): the classes are reset every so many games (the
      game after a reset has no exchange and a random dealer).
    * ``series_games``: games per episode (a series with tribute from game 2); 1 = single game.
    * ``declarations``: the pool one declaration per game is drawn from, uniformly; give a
      one-element tuple to fix it (e.g. ``(0,)`` for plain daifugō).
    * ``pass_lockout``: a pass locks you out until the field clears (UECda convention; off by default).
    * ``miyako_ochi``: 都落ち in force from game 2.
    * ``reward_scheme``: ``"zero_sum"`` (+1, +1/3, −1/3, −1; five players +1, +1/2, 0, −1/2, −1) or
      ``"uecda"`` (4, 3, 2, 1; five players 5, 4, 3, 2, 1).
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
    # None below: the default of the rule set (ninja: False, True, "zero_sum", "faithful"; uecda: fixed).
    pass_lockout: bool | None = None
    miyako_ochi: bool | None = None
    reward_scheme: str | None = None
    max_game_steps: int = 4000
    ninja: str | None = None
    loadouts: Any = None
    rules: str = "ninja"
    seat_change_every: int | None = None
    class_reset_every: int | None = None
    seat_loadouts: tuple[Loadout, ...] = dataclasses.field(init=False, repr=False, compare=False, default=())

    def __post_init__(self) -> None:
        # Each option on its own first (canonical Python values), then the checks across options.
        set_ = object.__setattr__
        set_(self, "rules", check_choice("rules", self.rules, RULE_SETS))
        self._apply_rule_set_defaults()
        set_(self, "series_games", check_int("series_games", self.series_games, 1, MAX_SERIES_GAMES))
        set_(self, "pass_lockout", check_bool("pass_lockout", self.pass_lockout))
        set_(self, "miyako_ochi", check_bool("miyako_ochi", self.miyako_ochi))
        set_(self, "reward_scheme", check_choice("reward_scheme", self.reward_scheme, REWARD_SCHEMES))
        set_(self, "max_game_steps", check_int("max_game_steps", self.max_game_steps, 10, MAX_GAME_STEPS))
        set_(self, "ninja", check_choice("ninja", self.ninja, NINJA_MODES))
        set_(self, "seat_change_every", check_int("seat_change_every", self.seat_change_every, 0, MAX_SERIES_GAMES))
        set_(self, "class_reset_every", check_int("class_reset_every", self.class_reset_every, 1, MAX_SERIES_GAMES))
        if self.declarations is None:
            set_(self, "declarations", BASE_RULE_DECLARATIONS if self.ninja == "off" else ALL_DECLARATIONS)
        else:
            set_(self, "declarations", check_int_tuple("declarations (declaration numbers)", self.declarations,
                                                       0, len(ALL_DECLARATIONS) - 1, unique=True))
        self.validate()
        set_(self, "seat_loadouts", self._parse_loadouts())

    def _apply_rule_set_defaults(self) -> None:
        """Fill the options left at None with the rule set's defaults; under ``rules="uecda"`` refuse a
        value the preset fixes, and the UECda-only options under ``rules="ninja"``."""
        set_ = object.__setattr__
        if self.rules == "ninja":
            for name in ("seat_change_every", "class_reset_every"):
                if getattr(self, name) is not None:
                    raise OptionError(f"{name} is an option of rules='uecda' (the ninja game has no seat changes "
                                      f"or class resets)")
            defaults = {"pass_lockout": False, "miyako_ochi": True, "reward_scheme": "zero_sum", "ninja": "faithful",
                        "seat_change_every": 0, "class_reset_every": MAX_SERIES_GAMES}
        else:
            for name, fixed in UECDA_FIXED.items():
                given = getattr(self, name)
                if given is None:
                    continue
                same = tuple(given) == fixed if name == "declarations" and isinstance(given, (list, tuple)) \
                    else given == fixed
                if not same:
                    raise OptionError(f"rules='uecda' fixes {name}={fixed!r} (got {given!r}); leave it out")
            defaults = dict(UECDA_FIXED, reward_scheme="uecda", seat_change_every=UECDA_SEAT_CHANGE_EVERY,
                            class_reset_every=UECDA_CLASS_RESET_EVERY)
        for name, value in defaults.items():
            if getattr(self, name) is None:
                set_(self, name, value)

    def _parse_loadouts(self) -> tuple[Loadout, ...]:
        spec = self.loadouts
        if self.ninja == "off":
            if spec is not None:
                raise OptionError("loadouts need the ninja layer: set ninja='faithful' or 'symmetric'")
            return (Loadout(),) * self.num_players
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
        return cls(**options)

    def validate(self) -> None:
        """The checks across options (each option alone is checked in ``__post_init__``)."""
        if self.ninja == "off":
            ninja_only = sorted(set(self.declarations) & set(NINJA_DECLARATIONS))  # type: ignore[arg-type]
            if ninja_only:
                raise OptionError(f"declarations {ninja_only} act on the ninja layer, which ninja='off' removes; "
                                  f"with ninja='off' choose from {BASE_RULE_DECLARATIONS}")

    @property
    def ninja_on(self) -> bool:
        return self.ninja != "off"

    @property
    def uecda(self) -> bool:
        """The UECda competition's standard game (``rules="uecda"``)."""
        return self.rules == "uecda"

    @property
    def num_players(self) -> int:
        """The player count is a rule: 4 in the ninja game, 5 in the UECda game."""
        return UECDA_PLAYERS if self.uecda else NINJA_PLAYERS

    @property
    def rewards_by_position(self) -> tuple[float, ...]:
        return rewards_by_place(str(self.reward_scheme), self.num_players)
