"""The 48-card pool (32 characters C01..C32, 16 kotodama K01..K16) as static numpy tables.

The table is read once from ``cards.csv`` beside this module. Card id ``i`` (0..47) is the row
index: C01..C32 are ids 0..31, K01..K16 ids 32..47; ``CODES[i]`` is the printed code ("C04").
Every rule reads these arrays by card id, so a card's behaviour is data, never code.
"""
from __future__ import annotations

import csv
from importlib import resources

import numpy as np

NUM_CARDS = 48

# Keyword bits.
KW_UKEMI, KW_INTERRUPT, KW_KAIZEN, KW_HAYATE = 1, 2, 4, 8
KEYWORD_NAMES = ("UKEMI", "INTERRUPT", "KAIZEN", "HAYATE")

# Triggers (0 = none).
TRIGGER_NAMES = ("", "ON_ENTER", "ON_AISATSU", "ON_KILL", "ON_DESTROYED", "TURN_START", "IKUSA_START",
                 "IKUSA_END", "TURN_END", "ACTIVATED", "CAST")
(TR_NONE, TR_ON_ENTER, TR_ON_AISATSU, TR_ON_KILL, TR_ON_DESTROYED, TR_TURN_START, TR_IKUSA_START,
 TR_IKUSA_END, TR_TURN_END, TR_ACTIVATED, TR_CAST) = range(len(TRIGGER_NAMES))
NUM_TRIGGERS = len(TRIGGER_NAMES)

# The closed set of 16 effect opcodes; the numbers are the opcode codes.
OPCODE_NAMES = ("NONE", "DMG_CHAR", "DMG_PLAYER", "DRAW", "BUFF_K", "BUFF_W", "DEBUFF_K", "TAP", "UNTAP",
                "DESTROY_LE", "BOUNCE", "RAMP", "COUNTER", "GRANT_KAIZEN", "AMBUSH", "HEAL")
(OP_NONE, OP_DMG_CHAR, OP_DMG_PLAYER, OP_DRAW, OP_BUFF_K, OP_BUFF_W, OP_DEBUFF_K, OP_TAP, OP_UNTAP,
 OP_DESTROY_LE, OP_BOUNCE, OP_RAMP, OP_COUNTER, OP_GRANT_KAIZEN, OP_AMBUSH, OP_HEAL) = range(16)
NUM_OPCODES = 16

# Target kinds.
TARGET_NAMES = ("NONE", "SELF", "OPP_CHAR", "OWN_CHAR", "ANY_CHAR", "OPP_PLAYER", "ALL_OPP_CHARS",
                "ALL_OWN_CHARS", "STACK", "SOURCE")
(TK_NONE, TK_SELF, TK_OPP_CHAR, TK_OWN_CHAR, TK_ANY_CHAR, TK_OPP_PLAYER, TK_ALL_OPP, TK_ALL_OWN, TK_STACK,
 TK_SOURCE) = range(len(TARGET_NAMES))
NUM_TARGET_KINDS = len(TARGET_NAMES)
CHOOSABLE_TK = np.zeros(NUM_TARGET_KINDS, dtype=bool)
CHOOSABLE_TK[[TK_OPP_CHAR, TK_OWN_CHAR, TK_ANY_CHAR]] = True

RARITY_NAMES = ("C", "U", "R", "SR")
FACTION_NAMES = ("KURO", "KASU", "HIBA", "TSUK", "-")


def _load() -> list[dict[str, str]]:
    text = resources.files(__package__).joinpath("cards.csv").read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


def _parse_cost(text: str) -> tuple[int, int, int]:
    """An activation cost such as ``"E1"``, ``"O"``, ``"J2"`` or ``"E1 O"`` as (etel, ojigi, jitsu)."""
    e = o = j = 0
    i = 0
    s = text.replace("+", " ").replace(" ", "")
    while i < len(s):
        ch = s[i]
        i += 1
        digits = ""
        while i < len(s) and s[i].isdigit():
            digits += s[i]
            i += 1
        if ch == "E":
            e += int(digits or 1)
        elif ch == "O":
            o = 1
        elif ch == "J":
            j += int(digits or 1)
        else:
            raise ValueError(f"unknown activation cost atom {ch!r} in {text!r}")
    return e, o, j


_ROWS = _load()
assert len(_ROWS) == NUM_CARDS, f"the card table must have 48 rows, has {len(_ROWS)}"

CODES: tuple[str, ...] = tuple(r["id"] for r in _ROWS)
NAMES_ROMAJI: tuple[str, ...] = tuple(r["name_romaji"] for r in _ROWS)
NAMES_JP: tuple[str, ...] = tuple(r["name_jp"] for r in _ROWS)
IS_CHAR = np.array([r["type"] == "CHAR" for r in _ROWS], dtype=bool)
COST = np.array([int(r["cost"]) for r in _ROWS], dtype=np.int16)
KARATE = np.array([int(r["karate"]) for r in _ROWS], dtype=np.int16)
KOUSAKU = np.array([int(r["kousaku"]) for r in _ROWS], dtype=np.int16)
KEYWORDS = np.array([sum(1 << KEYWORD_NAMES.index(k) for k in r["keywords"].split()) for r in _ROWS], dtype=np.int16)
TRIGGER = np.array([TRIGGER_NAMES.index(r["trigger"]) for r in _ROWS], dtype=np.int16)
_COSTS = [_parse_cost(r["act_cost"]) for r in _ROWS]
ACT_E = np.array([c[0] for c in _COSTS], dtype=np.int16)
ACT_O = np.array([c[1] for c in _COSTS], dtype=bool)
ACT_J = np.array([c[2] for c in _COSTS], dtype=np.int16)
OPCODE = np.array([OPCODE_NAMES.index(r["opcode"]) for r in _ROWS], dtype=np.int16)
ARG = np.array([int(r["arg"]) for r in _ROWS], dtype=np.int16)
TARGET = np.array([TARGET_NAMES.index(r["target"]) for r in _ROWS], dtype=np.int16)
UK_OP = np.array([OPCODE_NAMES.index(r["ukemi_op"] or "NONE") for r in _ROWS], dtype=np.int16)
UK_ARG = np.array([int(r["ukemi_arg"]) for r in _ROWS], dtype=np.int16)
UK_TARGET = np.array([TARGET_NAMES.index(r["ukemi_tk"] or "NONE") for r in _ROWS], dtype=np.int16)
RARITY = np.array([RARITY_NAMES.index(r["rarity"]) for r in _ROWS], dtype=np.int16)
FACTION = np.array([FACTION_NAMES.index(r["faction"]) for r in _ROWS], dtype=np.int16)

HAS_UKEMI = (KEYWORDS & KW_UKEMI) != 0
HAS_INTERRUPT = (KEYWORDS & KW_INTERRUPT) != 0
HAS_KAIZEN = (KEYWORDS & KW_KAIZEN) != 0
HAS_HAYATE = (KEYWORDS & KW_HAYATE) != 0

for _arr in (IS_CHAR, COST, KARATE, KOUSAKU, KEYWORDS, TRIGGER, ACT_E, ACT_O, ACT_J, OPCODE, ARG, TARGET, UK_OP,
             UK_ARG, UK_TARGET, RARITY, FACTION, HAS_UKEMI, HAS_INTERRUPT, HAS_KAIZEN, HAS_HAYATE):
    _arr.flags.writeable = False

# Scales that put every static feature in [0, 1].
MAX_COST, MAX_KARATE, MAX_KOUSAKU, MAX_ARG = 5, 6, 3, 9


def card_index(value: object) -> int:
    """A card id from a code (``"C04"``, any case) or an id 0..47; ``ValueError`` naming the choices."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= int(value) < NUM_CARDS:
        return int(value)
    if isinstance(value, str) and value.upper() in CODES:
        return CODES.index(value.upper())
    raise ValueError(f"unknown card {value!r}; cards are the codes C01..C32 and K01..K16 (or ids 0..47)")


def _static_features() -> np.ndarray:
    """float32[49, F]: the static features of each card id; row 48 (an empty slot, id -1) is all zeros."""
    cols = [
        np.ones(NUM_CARDS),  # present
        (np.arange(NUM_CARDS) + 1) / NUM_CARDS,  # the id itself, (id + 1) / 48
        IS_CHAR.astype(float),
        COST / MAX_COST, KARATE / MAX_KARATE, KOUSAKU / MAX_KOUSAKU,
    ]
    cols += [((KEYWORDS >> b) & 1).astype(float) for b in range(4)]
    cols += [(TRIGGER == t).astype(float) for t in range(NUM_TRIGGERS)]
    cols += [(OPCODE == o).astype(float) for o in range(NUM_OPCODES)]
    cols.append(ARG / MAX_ARG)
    cols += [(TARGET == k).astype(float) for k in range(NUM_TARGET_KINDS)]
    cols += [(UK_OP == o).astype(float) for o in range(NUM_OPCODES)]
    cols.append(UK_ARG / MAX_ARG)
    cols += [ACT_E / 2.0, ACT_O.astype(float), ACT_J / 2.0]
    table = np.stack(cols, axis=1).astype(np.float32)
    return np.concatenate([table, np.zeros((1, table.shape[1]), np.float32)])


CARD_FEATURES = _static_features()
CARD_FEATURES.flags.writeable = False
NUM_CARD_FEATURES = CARD_FEATURES.shape[1]
CARD_ID_COLUMN = 1  # the feature that is the id itself, (id + 1) / 48: all the "card_ids" observation shows
