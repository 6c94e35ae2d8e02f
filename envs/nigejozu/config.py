"""Rule options of nigejozu (rules file §4.10), validated once at construction."""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping

import numpy as np

from yuugi.envs.core.errors import OptionError
from yuugi.envs.core.options import check_bool, check_choice, check_int, check_option_names

from .cards import CARD_MODELS, DEFAULT_PAIRING, NUM_EFFECTS, effect_index, face_table

REWARD_SCHEMES = ("win_loss", "score_diff")
MAX_SCORE = sum(range(2, 13))  # 77: every chip


@dataclasses.dataclass(frozen=True)
class NigejozuConfig:
    """Options (defaults are the rules file's).

    * ``troops_per_player``: troop pieces per side, 12..18 (18).
    * ``taikyaku_n``: troops 退却 returns to hand, 1..6 (3; the original game's fan code uses 2).
    * ``muhon_returns_to_hand``: the troop 謀反 bounces goes back to its owner's hand (True) or
      leaves the game (False).
    * ``reinf_per_win``: 援軍 placed per adjacent province after a win, 1..3 (1).
    * ``card_model``: ``"paired6"`` (6 double-sided cards, 3 each) or ``"single12"``.
    * ``face_pairing``: for ``paired6``, six (Hojo face, Ashikaga face) pairs covering the 12 effects
      once each, by name or index (default: the rules file's table). Refused with ``single12``,
      which has no pairs (it would be ignored).
    * ``reward_scheme``: ``"win_loss"`` (+1/−1 at the end) or ``"score_diff"`` ((own − other)/77).
    """

    troops_per_player: int = 18
    taikyaku_n: int = 3
    muhon_returns_to_hand: bool = True
    reinf_per_win: int = 1
    card_model: str = "paired6"
    face_pairing: tuple[tuple[int, int], ...] | None = None  # None: DEFAULT_PAIRING
    reward_scheme: str = "win_loss"

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "troops_per_player", check_int("troops_per_player", self.troops_per_player, 12, 18))
        set_(self, "taikyaku_n", check_int("taikyaku_n", self.taikyaku_n, 1, 6))
        set_(self, "reinf_per_win", check_int("reinf_per_win", self.reinf_per_win, 1, 3))
        set_(self, "muhon_returns_to_hand", check_bool("muhon_returns_to_hand", self.muhon_returns_to_hand))
        set_(self, "card_model", check_choice("card_model", self.card_model, CARD_MODELS))
        set_(self, "reward_scheme", check_choice("reward_scheme", self.reward_scheme, REWARD_SCHEMES))
        if self.face_pairing is None:
            set_(self, "face_pairing", DEFAULT_PAIRING)
        elif self.card_model == "single12":
            raise OptionError("face_pairing pairs the faces of paired6's double-sided cards; single12 has single "
                              "cards, so it would be ignored: give card_model='paired6' or leave face_pairing out")
        else:
            set_(self, "face_pairing", _parse_pairing(self.face_pairing))

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "NigejozuConfig":
        check_option_names("nigejozu", options, cls)
        return cls(**options)

    @property
    def faces(self) -> np.ndarray:
        """int64[cards, 2]: effect on each physical card's Hojo / Ashikaga face."""
        return face_table(self.card_model, self.face_pairing)

    @property
    def num_cards(self) -> int:
        return 6 if self.card_model == "paired6" else NUM_EFFECTS


def _parse_pairing(value: Any) -> tuple[tuple[int, int], ...]:
    try:
        pairs = tuple((effect_index(h), effect_index(a)) for h, a in value)
    except (TypeError, ValueError) as e:
        raise OptionError(f"face_pairing must be six (hojo_face, ashikaga_face) pairs of card names: {e}") from None
    if len(pairs) != 6 or sorted(e for pair in pairs for e in pair) != list(range(NUM_EFFECTS)):
        raise OptionError(f"face_pairing must be six pairs using each of the 12 effects once, got {value!r}")
    return pairs
