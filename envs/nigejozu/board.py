"""The fixed map of rules file §3.1: 11 provinces, land and sea links, as bitmask tables.

Provinces are indexed P0..P10 as in the rules file. Sets of provinces are 11-bit integers (bit p =
province p): :data:`ADJ_MASK`, :data:`LAND_MASK` and :data:`SEA_MASK` give each province's neighbours
as a set, so every "which provinces qualify" question of the card preconditions is a couple of integer
operations (see :mod:`.rules`).
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.positions import index_by_name

NUM_PROVINCES = 11
KYO = 4  # 京, the target of 上洛

# (Japanese display name, romaji) per province; only 京, 敦賀, 信濃, 鎌倉 are attested, the rest are
# the rules file's inferred labels (P2 is its "種子島/南海の島" placeholder).
PROVINCE_NAMES: tuple[str, ...] = ("九州", "四国", "種子島", "播磨", "京", "敦賀", "三河", "信濃", "奥州", "鎌倉", "蝦夷")
PROVINCE_ROMAJI: tuple[str, ...] = ("Kyushu", "Shikoku", "Tanegashima", "Harima", "Kyo", "Tsuruga", "Mikawa",
                                    "Shinano", "Oshu", "Kamakura", "Ezo")

SEA_LINKS: tuple[tuple[int, int], ...] = ((0, 1), (0, 2), (0, 3), (1, 3), (1, 4), (8, 10))
LAND_LINKS: tuple[tuple[int, int], ...] = ((3, 4), (4, 5), (4, 6), (5, 6), (5, 7), (6, 7), (6, 9), (7, 8), (7, 9),
                                           (8, 9))


def _link_matrix(links: tuple[tuple[int, int], ...]) -> np.ndarray:
    m = np.zeros((NUM_PROVINCES, NUM_PROVINCES), dtype=bool)
    for a, b in links:
        m[a, b] = m[b, a] = True
    return m


ADJ_LAND: np.ndarray = _link_matrix(LAND_LINKS)  # bool[11, 11]
ADJ_SEA: np.ndarray = _link_matrix(SEA_LINKS)
ADJ: np.ndarray = ADJ_LAND | ADJ_SEA  # "adjacent" = land or sea (reinforcements and most cards)

POW2: np.ndarray = (1 << np.arange(NUM_PROVINCES)).astype(np.int64)
ADJ_MASK: np.ndarray = (ADJ * POW2).sum(axis=1).astype(np.int64)  # int64[11]: neighbours of p as a set
LAND_MASK: np.ndarray = (ADJ_LAND * POW2).sum(axis=1).astype(np.int64)
SEA_MASK: np.ndarray = (ADJ_SEA * POW2).sum(axis=1).astype(np.int64)
SEA_SURROUNDED: tuple[int, ...] = tuple(int(p) for p in np.flatnonzero(LAND_MASK == 0))


def province_index(name: object) -> int:
    """Index of a province given by Japanese name, romaji (any case) or index; ValueError otherwise."""
    return index_by_name(name, PROVINCE_NAMES, PROVINCE_ROMAJI, "province")


assert SEA_SURROUNDED == (0, 1, 2, 10), SEA_SURROUNDED
assert sorted(ADJ.sum(axis=1).tolist()) == [1, 1, 3, 3, 3, 3, 3, 3, 4, 4, 4]  # rules file §2.4 degree sequence
