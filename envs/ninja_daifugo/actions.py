"""The ``Discrete(2389)`` action table of the rules file §6 and its per-action metadata.

| Range     | Count | Meaning |
|-----------|-------|---------|
| 0         | 1     | PASS |
| 1–53      | 53    | single card c (53 = the joker single) |
| 54–196    | 143   | natural group: rank r, suit subset m of size 2–4, ``54 + 11 r + m`` |
| 197–391   | 195   | joker group: rank r, natural subset m (size 1–4) + joker, ``197 + 15 r + m`` |
| 392–655   | 264   | natural sequence: suit s, length L, start st, ``392 + 66 s + off3[L] + st`` |
| 656–2327  | 1672  | joker sequence: joker at position p, ``656 + 418 s + offJ[L] + st L + p`` |
| 2328–2330 | 3     | 足止め on relative seat +1/+2/+3 |
| 2331–2333 | 3     | 手裏剣 on relative seat +1/+2/+3 |
| 2334      | 1     | 雷遁 |
| 2335      | 1     | 変化 |
| 2336–2388 | 53    | PICK_CARD c (exchange gift, 手裏剣 throw) |

Subsets m follow ``itertools.combinations`` order over suits ♠♥♦♣ (the rules file's table).
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from .cards import JOKER, NUM_CARDS, RANK_5, RANK_8, RANK_CHARS, RANK_J, SUIT_CHARS, card_name, mask_names

NUM_ACTIONS = 2389
NUM_PLAY_ACTIONS = 2328  # PASS and the 2,327 card plays
PASS = 0
SINGLE0, NAT_GROUP0, JOKER_GROUP0, NAT_SEQ0, JOKER_SEQ0 = 1, 54, 197, 392, 656
ASHIDOME0, SHURIKEN0, RAITON, HENGE, PICK0 = 2328, 2331, 2334, 2335, 2336
JOKER_SINGLE = SINGLE0 + JOKER
SPADE3_SINGLE = SINGLE0 + 0

SUBSETS11 = [c for k in (2, 3, 4) for c in combinations(range(4), k)]
SUBSETS15 = [(s,) for s in range(4)] + SUBSETS11
OFF3 = {3: 0, 4: 11, 5: 21, 6: 30, 7: 38, 8: 45, 9: 51, 10: 56, 11: 60, 12: 63, 13: 65}
OFFJ = {3: 0, 4: 33, 5: 73, 6: 118, 7: 166, 8: 215, 9: 263, 10: 308, 11: 348, 12: 381, 13: 405}

# Kinds of action.
K_PASS, K_SINGLE, K_JSINGLE, K_GROUP, K_SEQ, K_JUTSU, K_PICK = range(7)
KIND_NAMES = ("pass", "single", "joker_single", "group", "sequence", "jutsu", "pick")
JUTSU_NAMES = ("ashidome", "shuriken", "raiton", "henge")
JUTSU_JA = ("足止め", "手裏剣", "雷遁", "変化")


def _mask_of(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _build() -> dict[str, np.ndarray]:
    n = NUM_ACTIONS
    cards = np.zeros(n, dtype=np.uint64)
    kind = np.full(n, K_PASS, dtype=np.int8)
    size = np.zeros(n, dtype=np.int8)
    lo = np.full(n, -1, dtype=np.int8)
    hi = np.full(n, -1, dtype=np.int8)
    ns = np.zeros(n, dtype=np.int8)  # natural-suit bitmask
    has_joker = np.zeros(n, dtype=bool)
    seq_suit = np.full(n, -1, dtype=np.int8)
    joker_pos = np.full(n, -1, dtype=np.int8)  # position of the joker in a sequence
    jutsu = np.full(n, -1, dtype=np.int8)
    target = np.zeros(n, dtype=np.int8)  # relative seat of a targeted jutsu
    pick = np.full(n, -1, dtype=np.int8)

    def put(i: int, cs: list[int], k: int, l: int, h: int, nsm: int, j: bool, suit: int = -1, jp: int = -1) -> None:
        cards[i] = np.uint64(_mask_of(cs))
        kind[i], size[i], lo[i], hi[i], ns[i], has_joker[i] = k, len(cs), l, h, nsm, j
        seq_suit[i], joker_pos[i] = suit, jp

    for c in range(NUM_CARDS):
        if c == JOKER:
            put(SINGLE0 + c, [c], K_JSINGLE, -1, -1, 0, True)
        else:
            put(SINGLE0 + c, [c], K_SINGLE, c // 4, c // 4, 1 << (c % 4), False)
    for r in range(13):
        for m, sub in enumerate(SUBSETS11):
            put(NAT_GROUP0 + 11 * r + m, [4 * r + s for s in sub], K_GROUP, r, r, sum(1 << s for s in sub), False)
        for m, sub in enumerate(SUBSETS15):
            put(JOKER_GROUP0 + 15 * r + m, [4 * r + s for s in sub] + [JOKER], K_GROUP, r, r,
                sum(1 << s for s in sub), True)
    for s in range(4):
        for length in range(3, 14):
            for st in range(0, 14 - length):
                ranks = list(range(st, st + length))
                put(NAT_SEQ0 + 66 * s + OFF3[length] + st, [4 * r + s for r in ranks], K_SEQ, st, st + length - 1,
                    1 << s, False, s)
                for p in range(length):
                    nat = [4 * r + s for i, r in enumerate(ranks) if i != p]
                    put(JOKER_SEQ0 + 418 * s + OFFJ[length] + st * length + p, nat + [JOKER], K_SEQ, st,
                        st + length - 1, 1 << s, True, s, p)
    for d in (1, 2, 3):
        kind[ASHIDOME0 + d - 1], jutsu[ASHIDOME0 + d - 1], target[ASHIDOME0 + d - 1] = K_JUTSU, 0, d
        kind[SHURIKEN0 + d - 1], jutsu[SHURIKEN0 + d - 1], target[SHURIKEN0 + d - 1] = K_JUTSU, 1, d
    kind[RAITON], jutsu[RAITON] = K_JUTSU, 2
    kind[HENGE], jutsu[HENGE] = K_JUTSU, 3
    for c in range(NUM_CARDS):
        kind[PICK0 + c], pick[PICK0 + c], cards[PICK0 + c] = K_PICK, c, np.uint64(1 << c)
    plays = (kind >= K_SINGLE) & (kind <= K_SEQ)
    represents = lambda r: plays & (kind != K_JSINGLE) & (lo <= r) & (r <= hi)  # noqa: E731
    return dict(
        cards=cards, kind=kind, size=size, lo=lo, hi=hi, ns=ns, has_joker=has_joker, seq_suit=seq_suit,
        joker_pos=joker_pos, jutsu=jutsu, target=target, pick=pick,
        has8=represents(RANK_8), has5=represents(RANK_5), has_jack=represents(RANK_J),
        revolution=plays & (((kind == K_GROUP) & (size >= 4)) | ((kind == K_SEQ) & (size >= 4))),
    )


_T = _build()
CARDS: np.ndarray = _T["cards"]  # uint64[A]: cards leaving the hand (the picked card for PICK)
KIND: np.ndarray = _T["kind"]
SIZE: np.ndarray = _T["size"]
LO: np.ndarray = _T["lo"]  # represented ranks (-1 for pass, joker single, jutsu, pick)
HI: np.ndarray = _T["hi"]
NS: np.ndarray = _T["ns"]
HAS_JOKER: np.ndarray = _T["has_joker"]
SEQ_SUIT: np.ndarray = _T["seq_suit"]
JOKER_POS: np.ndarray = _T["joker_pos"]
JUTSU: np.ndarray = _T["jutsu"]
TARGET: np.ndarray = _T["target"]
PICK_CARD: np.ndarray = _T["pick"]
HAS8: np.ndarray = _T["has8"]
HAS5: np.ndarray = _T["has5"]
HAS_JACK: np.ndarray = _T["has_jack"]
REVOLUTION: np.ndarray = _T["revolution"]


def action_label(a: int) -> str:
    """Short readable label, e.g. ``"pass"``, ``"S3"``, ``"S5 H5"``, ``"S5 S6 JK(S7)"``, ``"pick D9"``."""
    a = int(a)
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action {a} out of range 0..{NUM_ACTIONS - 1}")
    k = int(KIND[a])
    if k == K_PASS:
        return "pass"
    if k == K_JUTSU:
        j = int(JUTSU[a])
        return JUTSU_NAMES[j] + (f"(+{int(TARGET[a])})" if TARGET[a] else "")
    if k == K_PICK:
        return "pick " + card_name(int(PICK_CARD[a]))
    names = [n for n in mask_names(int(CARDS[a])) if n != "JK"]
    if HAS_JOKER[a]:
        if k == K_SEQ:
            jr = int(LO[a]) + int(JOKER_POS[a])
            names.insert(int(JOKER_POS[a]), f"JK({SUIT_CHARS[int(SEQ_SUIT[a])]}{RANK_CHARS[jr]})")
        else:
            names.append("JK")
    return " ".join(names)


def describe_action(a: int) -> dict[str, Any]:
    """A JSON-safe description: kind, cards, represented ranks, joker position, jutsu and target."""
    a = int(a)
    label = action_label(a)
    k = int(KIND[a])
    d: dict[str, Any] = {"index": a, "label": label, "kind": KIND_NAMES[k]}
    if K_SINGLE <= k <= K_SEQ:
        d["cards"] = mask_names(int(CARDS[a]))
        d["ranks"] = [RANK_CHARS[r] for r in range(int(LO[a]), int(HI[a]) + 1)] if LO[a] >= 0 else []
        d["joker_position"] = int(JOKER_POS[a]) if JOKER_POS[a] >= 0 else (None if not HAS_JOKER[a] else "wild")
        d["revolution"] = bool(REVOLUTION[a])
    elif k == K_JUTSU:
        d["jutsu"] = JUTSU_NAMES[int(JUTSU[a])]
        d["target"] = int(TARGET[a]) or None
    elif k == K_PICK:
        d["cards"] = [card_name(int(PICK_CARD[a]))]
    return d
