"""The cards of 鬼ヶ島 (rules file §2): ids, names, types and janken marks.

Player cards (per player, id 0..9)::

    0 = W (the player's own warrior), 1..3 = I1..I3 (イヌ Dog), 4..6 = S1..S3 (サル Monkey),
    7..9 = K1..K3 (キジ Pheasant)

Retainer r (0..8) of the hiring deck is player card ``r + 1``. Oni (id 0..11)::

    0..2 = R (赤鬼 red), 3..5 = B (青鬼 blue), 6..8 = G (緑鬼 green), 9 = X6 (黒鬼), 10 = Y2, 11 = Y4 (黄鬼)

The printed values of the coloured oni are an option (§12 ``colored_values``, default 4, 5, 6), so
their names are built from the configured values (``R4``.. by default); see :mod:`.config`.
"""
from __future__ import annotations

import numpy as np

NUM_CARDS = 10  # per player: warrior + 9 retainers
NUM_RETAINERS = 9
NUM_ONI = 12
WARRIOR = 0

# Card types.
T_WARRIOR, T_DOG, T_MONKEY, T_PHEASANT = 0, 1, 2, 3
CARD_TYPE = np.array([T_WARRIOR, 1, 1, 1, 2, 2, 2, 3, 3, 3], dtype=np.int8)
RETAINER_POWER = np.array([0, 1, 2, 3, 1, 2, 3, 1, 2, 3], dtype=np.int16)  # warrior's comes from the config
CARD_NAMES = ("W", "I1", "I2", "I3", "S1", "S2", "S3", "K1", "K2", "K3")
CARD_JA = ("戦士", "イヌ1", "イヌ2", "イヌ3", "サル1", "サル2", "サル3", "キジ1", "キジ2", "キジ3")
WARRIOR_JA = ("桃太郎", "柿太郎", "栗太郎", "瓜太郎")  # warrior i belongs to seat i (cosmetic)
RETAINER_CARDS = np.arange(1, NUM_CARDS)

# Janken marks.
M_NONE, M_ROCK, M_SCISSORS, M_PAPER = 0, 1, 2, 3
MARK_NAMES = ("none", "rock", "scissors", "paper")
MARK_JA = ("", "グー", "チョキ", "パー")


def janken(card_mark: int, oni_mark: int) -> int:
    """+1 when the card's mark beats the oni's, -1 when it loses, 0 on equal or missing marks (§2.3).

    グー beats チョキ, チョキ beats パー, パー beats グー.
    """
    if card_mark == M_NONE or oni_mark == M_NONE or card_mark == oni_mark:
        return 0
    beats = {M_ROCK: M_SCISSORS, M_SCISSORS: M_PAPER, M_PAPER: M_ROCK}
    return 1 if beats[card_mark] == oni_mark else -1


# Oni colours.
C_RED, C_BLUE, C_GREEN, C_BLACK, C_YELLOW = 0, 1, 2, 3, 4
ONI_COLOUR = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 4, 4], dtype=np.int8)
COLOUR_LETTERS = "RBGXY"
COLOUR_JA = ("赤鬼", "青鬼", "緑鬼", "黒鬼", "黄鬼")
BLACK_ONI = 9
YELLOW_ONI = (10, 11)
FIXED_ONI_POWER = {9: 6, 10: 2, 11: 4}  # 黒鬼6, 黄鬼2, 黄鬼4 ([SEED])
YELLOW_POTIONS = np.zeros(NUM_ONI, dtype=np.int8)
YELLOW_POTIONS[10], YELLOW_POTIONS[11] = 1, 2  # 黄鬼2 -> 1 potion, 黄鬼4 -> 2 potions
IS_YELLOW = ONI_COLOUR == C_YELLOW
