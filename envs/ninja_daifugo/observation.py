"""The 877-dim observation of rules file §7, seen from one seat (relative seats: self, +1, +2, +3).

Every block is in [0, 1]. Blocks (offset: name [size]) are listed by :data:`LAYOUT`; cards are
53-wide one-hot vectors in card-index order (``4 * rank + suit``, joker 52). Hidden information
never appears: opponents' hands show only as counts and as the cards this seat *knows* they hold
(cards it gave them in tribute/exchange, or thrown publicly by 手裏剣).
"""
from __future__ import annotations

import numpy as np

from . import actions as A
from .cards import unpack_bits, popcount
from .config import DaifugoConfig
from .state import NUM_SEATS, DaifugoState

LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", 53),
    ("played_by_seat", 4 * 53),
    ("known_in_opponent_hands", 3 * 53),
    ("field_cards", 53),
    ("field_kind", 4),  # empty, single, group, sequence
    ("field_joker_single", 1),
    ("field_size", 14),
    ("field_low", 13),  # effective represented ranks
    ("field_high", 13),
    ("field_owner", 4),
    ("responses", 1),  # / 3
    ("lock", 5),  # flag + suits
    ("previous_play_suits", 5),  # valid flag + natural suits of the field play (lock reference)
    ("revolution", 1),
    ("eleven_back", 1),
    ("hand_counts", 4),  # / 16 (a hand holds up to 16 after tribute)
    ("finished", 4),
    ("finish_position", 4 * 5),  # none, 1..4 per seat
    ("titles", 4 * 5),  # none, 大富豪, 富豪, 貧民, 大貧民 per seat
    ("miyako_candidate", 4),
    ("ninja_points", 4 * 7),
    ("jutsu_table", 4 * 4 * 4),  # seat x jutsu x (equipped, uses/3, cost/6, level/5)
    ("skip_pending", 4),  # / 3, capped
    ("declaration", 10),
    ("school", 4),
    ("phase", 3),  # play, exchange, shuriken
    ("picks_left", 3),  # 0, 1, 2
    ("picked", 53),
    ("jutsu_used", 1),
    ("henge_shift", 3),  # 0, 1, 2
    ("lock_ignored", 1),
    ("received", 53),
    ("given", 53),
    ("game_index", 1),  # / series_games
    ("series_score", 4),  # scaled to [0, 1]
    ("removed_count", 1),  # 都落ち cards / 16
)
OFFSETS: dict[str, slice] = {}
_o = 0
for _name, _size in LAYOUT:
    OFFSETS[_name] = slice(_o, _o + _size)
    _o += _size
OBS_SIZE = _o
assert OBS_SIZE == 877, OBS_SIZE

_KIND_BLOCK = np.zeros(7, dtype=np.int64)
_KIND_BLOCK[[A.K_SINGLE, A.K_JSINGLE]] = 1
_KIND_BLOCK[A.K_GROUP] = 2
_KIND_BLOCK[A.K_SEQ] = 3


def _one_hot(out: np.ndarray, name: str, index: np.ndarray, width: int) -> None:
    """Set ``out[i, block + index[i, k] + width * k] = 1`` for every row i and column k."""
    sl = OFFSETS[name]
    index = np.asarray(index, dtype=np.int64)
    if index.ndim == 1:
        index = index[:, None]
    cols = sl.start + index + width * np.arange(index.shape[1])
    np.put_along_axis(out, cols, 1.0, axis=1)


def observe(st: DaifugoState, seat: int | np.ndarray, cfg: DaifugoConfig) -> np.ndarray:
    b = st.batch_size
    rows = np.arange(b)
    seat = np.broadcast_to(np.asarray(seat, dtype=np.int64), (b,))
    rel = (seat[:, None] + np.arange(NUM_SEATS)) % NUM_SEATS  # rel[i, k] = absolute seat at offset k
    out = np.zeros((b, OBS_SIZE), dtype=np.float32)
    r1 = rows[:, None]

    out[:, OFFSETS["hand"]] = unpack_bits(st.hands[rows, seat])
    out[:, OFFSETS["played_by_seat"]] = unpack_bits(st.played[r1, rel]).reshape(b, -1)
    out[:, OFFSETS["known_in_opponent_hands"]] = unpack_bits(st.known[r1, seat[:, None], rel[:, 1:]]).reshape(b, -1)
    out[:, OFFSETS["field_cards"]] = unpack_bits(st.field_cards)

    fa = st.field_action.astype(np.int64)
    empty = fa < 0
    kind = np.where(empty, A.K_PASS, A.KIND[fa])
    _one_hot(out, "field_kind", _KIND_BLOCK[kind], 4)
    out[:, OFFSETS["field_joker_single"]] = (kind == A.K_JSINGLE)[:, None]
    _one_hot(out, "field_size", np.where(empty, 0, A.SIZE[fa]), 14)
    has_ranks = st.field_elo >= 0
    lo_cols = OFFSETS["field_low"].start + np.maximum(st.field_elo, 0).astype(np.int64)
    hi_cols = OFFSETS["field_high"].start + np.maximum(st.field_ehi, 0).astype(np.int64)
    out[rows[has_ranks], lo_cols[has_ranks]] = 1.0
    out[rows[has_ranks], hi_cols[has_ranks]] = 1.0
    owner_rel = (st.field_owner.astype(np.int64) - seat) % NUM_SEATS
    out[rows[~empty], OFFSETS["field_owner"].start + owner_rel[~empty]] = 1.0
    out[:, OFFSETS["responses"].start] = np.minimum(st.responses, 3) / 3.0
    lock_bits = (st.lock[:, None].astype(np.int64) >> np.arange(4)) & 1
    lk = OFFSETS["lock"]
    out[:, lk.start] = st.lock > 0
    out[:, lk.start + 1:lk.stop] = lock_bits
    natural_field = ~empty & ~A.HAS_JOKER[fa]
    pv = OFFSETS["previous_play_suits"]
    out[:, pv.start] = natural_field
    out[:, pv.start + 1:pv.stop] = ((A.NS[fa][:, None].astype(np.int64) >> np.arange(4)) & 1) * natural_field[:, None]
    out[:, OFFSETS["revolution"].start] = st.revolution
    out[:, OFFSETS["eleven_back"].start] = st.eleven_back
    out[:, OFFSETS["hand_counts"]] = np.minimum(popcount(st.hands[r1, rel]), 16) / 16.0
    fin = st.finish_pos[r1, rel].astype(np.int64)
    out[:, OFFSETS["finished"]] = fin > 0
    _one_hot(out, "finish_position", fin, 5)
    _one_hot(out, "titles", st.titles[r1, rel], 5)
    has_cand = st.miyako >= 0
    cand_rel = (st.miyako.astype(np.int64) - seat) % NUM_SEATS
    out[rows[has_cand], OFFSETS["miyako_candidate"].start + cand_rel[has_cand]] = 1.0
    _one_hot(out, "ninja_points", np.zeros((b, NUM_SEATS), dtype=np.int64), 7)
    out[:, OFFSETS["skip_pending"]] = np.minimum(st.skip_pending[r1, rel], 3) / 3.0
    _one_hot(out, "declaration", st.declaration, 10)
    out[:, OFFSETS["school"].start] = 1.0  # no school
    _one_hot(out, "phase", st.phase, 3)
    _one_hot(out, "picks_left", st.picks_left, 3)
    mine = st.to_play == seat  # the pick in progress is the picker's own secret
    out[:, OFFSETS["picked"]] = unpack_bits(np.where(mine, st.picked, np.uint64(0)))
    out[:, OFFSETS["henge_shift"].start] = 1.0
    out[:, OFFSETS["received"]] = unpack_bits(st.received[rows, seat])
    out[:, OFFSETS["given"]] = unpack_bits(st.given[rows, seat])
    out[:, OFFSETS["game_index"].start] = st.game_index / max(cfg.series_games, 1)
    lo, hi = min(cfg.rewards_by_position), max(cfg.rewards_by_position)
    scaled = (st.series_score[r1, rel] - lo * cfg.series_games) / ((hi - lo) * cfg.series_games)
    out[:, OFFSETS["series_score"]] = np.clip(scaled, 0.0, 1.0)
    out[:, OFFSETS["removed_count"].start] = np.minimum(popcount(st.removed), 16) / 16.0
    return out
