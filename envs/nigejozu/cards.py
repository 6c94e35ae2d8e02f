"""The twelve strategy-card effects (軍略カード, rules file §3.3) and the physical card models.

Effects are numbered E0..E11 as in the rules file. ``paired6`` (default): 6 double-sided cards, each
with a Hojo face and an Ashikaga face carrying different effects (:data:`DEFAULT_PAIRING`); a
player may use only the own-faction faces of the 3 cards dealt to them. ``single12``: 12 cards, each
with one effect on both faces; 3 dealt to each player, 6 unused.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.positions import index_by_name

NUM_EFFECTS = 12
(KASEI, MONOMI, HITOJICHI, TSUIHOU, MUHON, OTORI, SHINRIKI, YAMAGOE, TAIKYAKU, SHINOBI, BUNTAI,
 JOURAKU) = range(NUM_EFFECTS)
EFFECT_NAMES: tuple[str, ...] = ("加勢", "物見", "人質", "追放", "謀反", "囮", "神力", "山越え", "退却", "忍", "分隊", "上洛")
EFFECT_ROMAJI: tuple[str, ...] = ("kasei", "monomi", "hitojichi", "tsuihou", "muhon", "otori", "shinriki", "yamagoe",
                                  "taikyaku", "shinobi", "buntai", "jouraku")
EFFECT_TEXT: tuple[str, ...] = (
    "place 1 troop from your hand in a province you occupy",
    "move 1 of your troops to an adjacent province",
    "move 1 enemy troop to an adjacent province you occupy",
    "move 1 enemy troop from a province you share to an adjacent province",
    "return 1 enemy troop to its hand (or remove it) and put 1 of yours from hand in its place",
    "move 1 of your troops and 2 enemy troops from one province to an adjacent one",
    "move 2 of your troops across a sea link",
    "move 2 of your troops across a land border",
    "return N of your troops from the board to your hand (one pick at a time)",
    "move 1 of your troops to another province you occupy (no adjacency needed)",
    "move half (rounded down) of your troops in a province to an adjacent one",
    "move any number of your troops from provinces adjacent to 京 into 京, one at a time",
)
# Cards whose target is chosen in two steps: source X, then destination Y.
TWO_STEP: np.ndarray = np.zeros(NUM_EFFECTS, dtype=bool)
TWO_STEP[[MONOMI, HITOJICHI, TSUIHOU, OTORI, SHINRIKI, YAMAGOE, SHINOBI, BUNTAI]] = True
# Troops moved X -> Y when a two-step card resolves (分隊 moves half, computed at resolution).
OWN_MOVED: np.ndarray = np.array([0, 1, 0, 0, 0, 1, 2, 2, 0, 1, 0, 0], dtype=np.int64)
OPP_MOVED: np.ndarray = np.array([0, 0, 1, 1, 0, 2, 0, 0, 0, 0, 0, 0], dtype=np.int64)

CARD_MODELS = ("paired6", "single12")
# The rules file's face pairing (§3.3): card Ck = (Hojo face, Ashikaga face).
DEFAULT_PAIRING: tuple[tuple[int, int], ...] = (
    (SHINRIKI, YAMAGOE), (TAIKYAKU, JOURAKU), (SHINOBI, MONOMI), (OTORI, TSUIHOU), (KASEI, MUHON), (BUNTAI, HITOJICHI),
)


def effect_index(name: object) -> int:
    """Effect id of a name given in Japanese, romaji (any case) or as an index; ValueError otherwise."""
    return index_by_name(name, EFFECT_NAMES, EFFECT_ROMAJI, "strategy card")


def face_table(card_model: str, pairing: tuple[tuple[int, int], ...]) -> np.ndarray:
    """int64[cards, 2]: the effect on each card's Hojo (column 0) and Ashikaga (column 1) face."""
    if card_model == "paired6":
        return np.asarray(pairing, dtype=np.int64)
    return np.repeat(np.arange(NUM_EFFECTS, dtype=np.int64)[:, None], 2, axis=1)
