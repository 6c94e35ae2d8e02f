"""Rule options of 鬼ヶ島 (rules file §12), validated once at construction, and the tables they imply.

Every option has the rules file's default. Options that §12 lists but for which no alternative rule
is defined (``treasure_equals_power``, ``declined_retainer``, ``janken``, ``black_regen``,
``public_hands``) are accepted with their one defined value, so option sets written from §12 work;
any other value raises :class:`OptionError` saying so.
"""
from __future__ import annotations

import collections
import dataclasses
import functools
from typing import Any, Mapping

import numpy as np

from yuugi.envs.core.errors import OptionError
from yuugi.envs.core.options import check_bool, check_choice, check_int, check_int_tuple, check_option_names, is_integer

from .actions import ActionLayout
from .cards import (BLACK_ONI, COLOUR_LETTERS, FIXED_ONI_POWER, IS_YELLOW, M_NONE, M_PAPER, M_ROCK, M_SCISSORS,
                    MARK_NAMES, NUM_CARDS, NUM_ONI, ONI_COLOUR, RETAINER_POWER, T_DOG, T_MONKEY, T_PHEASANT,
                    YELLOW_POTIONS, CARD_TYPE, janken)
from .tables import COMBO_CARDS, COMBO_SINGLE_CARD, COMBO_SIZE, NUM_COMBOS, POW2, KernelTables

# The options the compiled rules read, as plain ints (flags 0/1), passed to every kernel with the tables.
KernelOptions = collections.namedtuple("KernelOptions", (
    "num_players",  # P
    "kibi",  # K0: bids are 0..K0 and the other actions start at K0 + 1
    "heal_any_turn",  # 1: any damaged card may be healed at the start of its owner's turn
    "damage_reduces_power",  # 1: a damaged card fights with printed - damage
    "linear_rewards",  # 1: reward_scheme "linear", 0: "winner"
    "max_turns",  # battle turns before truncation
    "slot_limit",  # turn slots in rounds 1 and 2: laps * P
    "total_treasure",  # the printed power of every oni together
))

DEFAULT_LAPS = {2: 3, 3: 2, 4: 2}  # §5.1: 2 laps per round, 3 with two players
REWARD_SCHEMES = ("winner", "linear")
_SINGLE_VALUED = {
    "treasure_equals_power": True,
    "declined_retainer": "discard",
    "janken": "uniform",
    "black_regen": "every_handover",
    "public_hands": True,
}


@dataclasses.dataclass(frozen=True, eq=False)
class MomotaroConfig:
    """Options (all default to the rules file's resolutions, §11–§12).

    * ``num_players``: 2, 3 or 4.
    * ``kibi_per_player``: kibidango each player starts with, an integer 0..60, or ``"60/N"``
      (30 / 20 / 15). The bid actions are sized from it: ``Discrete(K0 + 96)``.
    * ``warrior_value``: power of every warrior (1..9, default 3).
    * ``colored_values``: the three printed values of each of red, blue and green oni (distinct,
      increasing, 1..9; default ``(4, 5, 6)``).
    * ``green_mark`` / ``monkey_mark``: janken mark of green oni / Monkeys (default ``"paper"``).
    * ``laps_per_round``: laps in rounds 1 and 2, an integer for every player count or a mapping
      ``{2: 3, 3: 2, 4: 2}`` (the default).
    * ``heal_any_turn``: heal at the start of any own turn (default); ``False`` = only damage taken
      in the player's previous battle may be healed, on the turn right after it.
    * ``damage_reduces_power``: a damaged player card fights with printed − damage (default True).
    * ``reward_scheme``: ``"winner"`` (+1 to 1st, split when shared; −1/(N−1) to the others) or
      ``"linear"`` (1 − 2·(rank−1)/(N−1), tied ranks averaged). Both are zero-sum.
    * ``max_turns``: battle turns before the game is truncated (default 300).
    """

    num_players: int = 4
    kibi_per_player: int | str = 15
    warrior_value: int = 3
    colored_values: tuple[int, int, int] = (4, 5, 6)
    green_mark: str = "paper"
    monkey_mark: str = "paper"
    laps_per_round: int | Mapping[int, int] = dataclasses.field(default_factory=lambda: dict(DEFAULT_LAPS))
    heal_any_turn: bool = True
    damage_reduces_power: bool = True
    reward_scheme: str = "winner"
    max_turns: int = 300
    treasure_equals_power: bool = True
    declined_retainer: str = "discard"
    janken: str = "uniform"
    black_regen: str = "every_handover"
    public_hands: bool = True

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "MomotaroConfig":
        check_option_names("momotaro", options, cls)
        return cls(**options)

    def __post_init__(self) -> None:
        # Each option on its own (canonical Python values), then the checks across options.
        set_ = object.__setattr__
        set_(self, "num_players", check_int("num_players", self.num_players, 2, 4))
        k = self.kibi_per_player
        if isinstance(k, str) and k == "60/N":
            set_(self, "kibi_per_player", "60/N")  # a plain str, whatever str subclass was given
        elif is_integer(k) and 0 <= k <= 60:
            set_(self, "kibi_per_player", int(k))
        else:
            raise OptionError(f"kibi_per_player must be an integer 0..60 or '60/N', got {k!r}")
        set_(self, "warrior_value", check_int("warrior_value", self.warrior_value, 1, 9))
        cv = check_int_tuple("colored_values", self.colored_values, 1, 9, min_len=3, max_len=3)
        if not cv[0] < cv[1] < cv[2]:
            raise OptionError(f"colored_values must be three increasing integers in 1..9, got {self.colored_values!r}")
        set_(self, "colored_values", cv)
        for name in ("green_mark", "monkey_mark"):
            set_(self, name, check_choice(name, getattr(self, name), MARK_NAMES[1:]))
        set_(self, "laps_per_round", self._checked_laps())
        for name in ("heal_any_turn", "damage_reduces_power"):
            set_(self, name, check_bool(name, getattr(self, name)))
        set_(self, "reward_scheme", check_choice("reward_scheme", self.reward_scheme, REWARD_SCHEMES))
        set_(self, "max_turns", check_int("max_turns", self.max_turns, 1, 10000))  # int16 turn counters
        for name, only in _SINGLE_VALUED.items():
            try:
                check_choice(name, getattr(self, name), (only,))
            except OptionError:
                raise OptionError(f"{name}: the rules define only {only!r} (got {getattr(self, name)!r})") from None

    def _checked_laps(self) -> int | dict[int, int]:
        lp = self.laps_per_round
        if is_integer(lp):
            return check_int("laps_per_round", lp, 1, 10)
        if not isinstance(lp, Mapping):
            raise OptionError(f"laps_per_round must be an integer or a mapping {{players: laps}}, got {lp!r}")
        laps = {check_int("laps_per_round (a player count)", n, 2, 4): check_int(f"laps_per_round[{n}]", v, 1, 10)
                for n, v in lp.items()}
        if self.num_players not in laps:
            raise OptionError(f"laps_per_round has no entry for {self.num_players} players: {lp!r}")
        return laps

    # ---- derived values ------------------------------------------------------------------------
    @property
    def kibi(self) -> int:
        """K0, the kibidango each player starts with."""
        return 60 // self.num_players if self.kibi_per_player == "60/N" else int(self.kibi_per_player)

    @property
    def laps(self) -> int:
        lp = self.laps_per_round
        return int(lp) if is_integer(lp) else int(lp[self.num_players])  # type: ignore[index]

    @functools.cached_property
    def tables(self) -> "Derived":
        """The numeric tables these options imply, built on first use and shared by every rule function."""
        return Derived.build(self)

    def derive(self) -> "Derived":
        return self.tables


@dataclasses.dataclass(frozen=True, eq=False)
class Derived:
    """Numeric tables implied by a config (built once per config, read by the rule functions)."""

    card_power: np.ndarray  # int16[10]: printed power of the player cards (warrior first)
    card_mark: np.ndarray  # int8[10]
    oni_power: np.ndarray  # int16[12]: printed power = treasure value
    oni_mark: np.ndarray  # int8[12]
    oni_names: tuple[str, ...]  # "R4", ..., "X6", "Y2", "Y4"
    combo_oni_mod: np.ndarray  # int16[58, 12]: janken modifier of each card set against each oni
    total_treasure: int
    num_players: int  # P
    kibi: int  # K0, the kibidango each player starts with (bids are 0..K0)
    layout: ActionLayout  # the action ids for K0
    slot_limit: int  # turn slots in rounds 1 and 2: laps * P
    kernel_tables: KernelTables  # the tables above as the compiled rules read them
    kernel_options: KernelOptions  # the options as the compiled rules read them

    @classmethod
    def build(cls, cfg: MomotaroConfig) -> "Derived":
        marks = {"rock": M_ROCK, "scissors": M_SCISSORS, "paper": M_PAPER}
        card_power = RETAINER_POWER.copy()
        card_power[0] = cfg.warrior_value
        type_mark = {T_DOG: M_ROCK, T_MONKEY: marks[cfg.monkey_mark], T_PHEASANT: M_SCISSORS}
        card_mark = np.array([type_mark.get(int(t), M_NONE) for t in CARD_TYPE], dtype=np.int8)
        oni_power = np.zeros(NUM_ONI, dtype=np.int16)
        for colour in range(3):
            oni_power[3 * colour:3 * colour + 3] = cfg.colored_values
        for o, v in FIXED_ONI_POWER.items():
            oni_power[o] = v
        colour_mark = (M_SCISSORS, M_ROCK, marks[cfg.green_mark], M_NONE, M_NONE)  # red チョキ, blue グー
        oni_mark = np.array([colour_mark[int(c)] for c in ONI_COLOUR], dtype=np.int8)
        names = tuple(f"{COLOUR_LETTERS[int(ONI_COLOUR[o])]}{int(oni_power[o])}" for o in range(NUM_ONI))
        mod = np.zeros((NUM_COMBOS, NUM_ONI), dtype=np.int16)
        for k in range(NUM_COMBOS):
            for c in np.flatnonzero(COMBO_CARDS[k]):
                for o in range(NUM_ONI):
                    mod[k, o] += janken(int(card_mark[c]), int(oni_mark[o]))
        assert oni_power[BLACK_ONI] == 6
        p, k = cfg.num_players, cfg.kibi
        from .observation import block_starts  # observation -> state -> config: imported on first build

        i64 = lambda x: np.ascontiguousarray(x, dtype=np.int64)  # noqa: E731
        kernel_tables = KernelTables(
            card_power=i64(card_power), oni_power=i64(oni_power), combo_oni_mod=i64(mod),
            combo_cards=COMBO_CARDS.copy(),
            combo_bits=i64((COMBO_CARDS.astype(np.int64) * POW2).sum(axis=1)), combo_size=i64(COMBO_SIZE),
            combo_single_card=i64(COMBO_SINGLE_CARD), yellow_potions=i64(YELLOW_POTIONS), is_yellow=IS_YELLOW.copy(),
            inv_card_power=(1.0 / card_power).astype(np.float32), inv_oni_power=(1.0 / oni_power).astype(np.float32),
            obs_offsets=i64(block_starts(p)))
        total = int(oni_power.sum())
        kernel_options = KernelOptions(
            num_players=p, kibi=k, heal_any_turn=int(cfg.heal_any_turn),
            damage_reduces_power=int(cfg.damage_reduces_power), linear_rewards=int(cfg.reward_scheme == "linear"),
            max_turns=int(cfg.max_turns), slot_limit=cfg.laps * p, total_treasure=total)
        return cls(card_power, card_mark, oni_power, oni_mark, names, mod, total, num_players=p,
                   kibi=k, layout=ActionLayout(k), slot_limit=cfg.laps * p, kernel_tables=kernel_tables,
                   kernel_options=kernel_options)


assert NUM_CARDS == 10
