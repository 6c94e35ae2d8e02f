"""The 901-dim observation of rules file §7, seen from one seat (relative seats: self, +1, +2, +3).

Every block is in [0, 1]. Blocks (offset: name [size]) are listed by :data:`LAYOUT`; cards are
53-wide one-hot vectors in card-index order (``4 * rank + suit``, joker 52). Hidden information
never appears: opponents' hands show only as counts and as the cards this seat *knows* they hold
(cards it gave them in tribute/exchange, or thrown publicly by 手裏剣).

The last four blocks (whose turn it is, who passed, the 手裏剣 target, the opponents' schools) were
appended after the first release's 877 columns, so that a network trained on those columns keeps
its input positions (only the card counts changed scale, from a capped /16 to /:data:`MAX_HAND`).
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.layout import block_offsets

from . import actions as A
from . import tables as T
from .ninjutsu import effective_cost
from .config import USES_BY_LEVEL, DaifugoConfig
from .state import NUM_SEATS, DaifugoState

# The largest hand any reachable state holds: the dealer's 14 cards (53 dealt to 4 seats; a
# 大富豪 leaves the exchange with 14 again) plus one 手裏剣 card from each opponent for each of its
# uses (at most 3 per game, at Lv4-5). Nothing else adds cards during play, and the 大富豪's 16
# during the exchange is below it. Hand counts and the 都落ち count are divided by it.
DEALT_MAX = 14
MAX_HAND = DEALT_MAX + (NUM_SEATS - 1) * max(USES_BY_LEVEL)
assert MAX_HAND == 23

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
    ("hand_counts", 4),  # / MAX_HAND
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
    ("removed_count", 1),  # 都落ち cards / MAX_HAND
    # Appended blocks (see the module docstring): what a player at the table sees of the turn order.
    ("to_play", 4),  # the seat to act; all zero once the series is over
    ("passed", 4),  # seats that passed (or were skipped) on the current field play; in this trick under pass_lockout
    ("shuriken_target", 4),  # the seat a pending 手裏剣 throw goes to (the observer itself may be it)
    ("opponent_schools", 3 * 4),  # +1, +2, +3: none, 雷, 変化, 妨害
)
OFFSETS, OBS_SIZE = block_offsets(LAYOUT)
assert OBS_SIZE == 901, OBS_SIZE
FIRST_RELEASE_SIZE = OFFSETS["removed_count"].stop  # the 877 columns of the first release, in place
assert FIRST_RELEASE_SIZE == 877

_KIND_BLOCK = np.zeros(7, dtype=np.int64)
_KIND_BLOCK[[A.K_SINGLE, A.K_JSINGLE]] = 1
_KIND_BLOCK[A.K_GROUP] = 2
_KIND_BLOCK[A.K_SEQ] = 3
# Field tables by field action + 1 (0 = an empty field): its kind block and whether it is the joker
# single (its size: tables.FIELD_SIZE).
_FIELD_KIND = np.concatenate([[0], _KIND_BLOCK[A.KIND]])
_FIELD_JOKER_SINGLE = np.concatenate([[False], A.KIND == A.K_JSINGLE])
_NOWHERE = OBS_SIZE  # a scratch column past the end, for one-hots that are absent
_SEATS = np.arange(NUM_SEATS)
# Seat arithmetic modulo 4 by a bit mask: for a power of two, x & (n - 1) is numpy's x % n, negative
# x included (two's complement), and several times cheaper than the integer modulo.
_SEAT_MASK = NUM_SEATS - 1
assert NUM_SEATS & _SEAT_MASK == 0
_CARDS_AT_START = OFFSETS["field_cards"].stop  # hand, played x4, known x3, field: 9 contiguous card blocks
assert _CARDS_AT_START == 9 * 53
assert OFFSETS["given"].start == OFFSETS["received"].stop


_AT = {name: np.int64(sl.start) for name, sl in OFFSETS.items()}  # int64: int8 fields + offset must not wrap
# Start columns of the per-seat one-hot blocks, one per relative seat.
_SEAT5 = 5 * _SEATS
_SEAT7 = 7 * _SEATS
# Block starts of the scalar one-hots (in the order observe stacks them) and the per-seat ones.
# The plain ones first, then the four that name a seat (relative to the observer).
_SCALAR_BASE = np.array([_AT[n] for n in ("field_kind", "field_size", "field_low", "field_high", "declaration", "phase",
                                           "picks_left", "henge_shift", "field_owner", "miyako_candidate", "to_play",
                                           "shuriken_target")], dtype=np.int64)
_NUM_PLAIN = 8  # the first 8 are plain values, the last 4 name a seat
# Per relative seat: finish position, title, points; then the schools (own, and the opponents').
_SEAT_BASE = np.concatenate([_AT["finish_position"] + _SEAT5, _AT["titles"] + _SEAT5, _AT["ninja_points"] + _SEAT7,
                             [_AT["school"]], _AT["opponent_schools"] + 4 * _SEATS[:-1]])
# The jutsu table entry (equipped, uses left / 3, cost / 6, level / 5) by one flat key
# ((declaration * 6 + level) * 4 + jutsu) * 8 + uses left: a single gather per observation.
_JUTSU_ENTRY = np.zeros((10, 6, 4, 8, 4), dtype=np.float32)
for _lv in range(1, 6):
    _JUTSU_ENTRY[:, _lv, :, :, 0] = 1.0
    _JUTSU_ENTRY[:, _lv, :, :, 3] = _lv / 5.0
    for _d in range(10):
        _JUTSU_ENTRY[_d, _lv, :, :, 2] = (effective_cost(np.full(4, _lv), np.array(_d)) / 6.0)[:, None]
_JUTSU_ENTRY[..., 1] = np.arange(8) / 3.0
_JUTSU_ENTRY = _JUTSU_ENTRY.reshape(-1, 4)
_JUTSU_KEY = np.arange(4) * 8  # the jutsu's part of the key


# Columns that the card unpack does not write: between the first card blocks and "picked", between
# "picked" and "received", and after "given" (with the scratch column).
_NOT_CARDS = (slice(_CARDS_AT_START, OFFSETS["picked"].start), slice(OFFSETS["picked"].stop, OFFSETS["received"].start),
              slice(OFFSETS["given"].stop, OBS_SIZE + 1))


# Lookups for two scalar blocks: the lock (flag + suits) by lock mask, and the field play's natural
# suits (valid flag + suits; a joker play or an empty field is no lock reference) by action + 1.
_LOCK5 = np.array([[m > 0] + [(m >> k) & 1 for k in range(4)] for m in range(16)], dtype=np.float32)
_PREVIOUS5 = np.zeros((A.NUM_ACTIONS + 1, 5), dtype=np.float32)
_natural = (A.KIND >= A.K_SINGLE) & (A.KIND <= A.K_SEQ) & ~A.HAS_JOKER
_PREVIOUS5[1:, 0] = _natural
_PREVIOUS5[1:, 1:] = ((A.NS[:, None].astype(np.int64) >> np.arange(4)) & 1) * _natural[:, None]
# The two contiguous runs of scalar blocks that observe writes as slices.
_TRICK_RUN = slice(OFFSETS["responses"].start, OFFSETS["finished"].stop)
_SERIES_RUN = slice(OFFSETS["game_index"].start, OFFSETS["removed_count"].stop)
assert [name for name, _ in LAYOUT[10:17]] == ["responses", "lock", "previous_play_suits", "revolution",
                                               "eleven_back", "hand_counts", "finished"]
assert [name for name, _ in LAYOUT[-7:-4]] == ["game_index", "series_score", "removed_count"]
_THIRDS = np.array([0.0, 1.0, 2.0, 3.0], dtype=np.float32) / 3  # responses and skips, capped at 3
# Card counts / MAX_HAND, by popcount. No reachable count exceeds MAX_HAND; the cap only keeps a
# hand loaded from an unreachable position inside [0, 1].
_COUNT_FRACTION = np.minimum(np.arange(65), MAX_HAND).astype(np.float32) / MAX_HAND


def observe(st: DaifugoState, seat: int | np.ndarray, cfg: DaifugoConfig) -> np.ndarray:
    """float32[B, 901] for ``seat`` (an int, or one seat per game)."""
    b = st.batch_size
    rows = np.arange(b)
    seat = np.asarray(seat, dtype=np.int64)
    if seat.ndim == 0:  # one seat for every game (np.full: np.broadcast_to costs microseconds at B=1)
        seat = np.full(b, seat)
    rel = (seat[:, None] + _SEATS) & _SEAT_MASK  # rel[i, k] = absolute seat at offset k
    # Per-seat arrays are read seat-relative through flat indices: a 1-D gather is several times
    # cheaper than 2-D fancy indexing at large batches.
    at = (rows * NUM_SEATS)[:, None] + rel  # flat index of [game i, the seat at offset k]

    def by_seat(a: np.ndarray) -> np.ndarray:
        """a[i, rel[i, k]] for a [B, 4] array."""
        return a.reshape(-1)[at]

    # Card blocks (most of the width) are written whole below, so only the rest starts at zero.
    out = np.empty((b, OBS_SIZE + 1), dtype=np.float32)
    for gap in _NOT_CARDS:
        out[:, gap] = 0.0

    # All card blocks in one unpack: hand, played x4, known x3, field | picked | received, given.
    own = at[:, :1]  # flat index of [game i, observer]
    hands = by_seat(st.hands)  # (the observer's hand, and every hand's count below)
    mine = st.to_play == seat  # a pick in progress is the picker's own secret
    cards = np.concatenate([
        hands[:, :1], by_seat(st.played),
        st.known.reshape(-1)[own * NUM_SEATS + rel[:, 1:]],  # known[i, seat, rel[i, k]], k = 1..3
        st.field_cards[:, None], np.where(mine, st.picked, np.uint64(0))[:, None],
        st.received.reshape(-1)[own], st.given.reshape(-1)[own]], axis=1)
    # One unpack along the rows of 96 bytes (numpy unpacks a long axis several times faster than
    # 12 short ones of 8 bytes, or with count=53); the 11 unused bits of each card set are skipped.
    bits = np.unpackbits(cards.view(np.uint8), axis=1, bitorder="little").reshape(b, 12, 64)[:, :, :53]
    # Write through (b, blocks, 53) views of the output: no intermediate copies of the bits.
    out[:, :_CARDS_AT_START].reshape(b, 9, 53)[...] = bits[:, :9]
    out[:, OFFSETS["picked"]] = bits[:, 9]
    out[:, OFFSETS["received"].start:OFFSETS["given"].stop].reshape(b, 2, 53)[...] = bits[:, 10:]

    # Every one-hot column at once: raw indices (-1 = absent -> the scratch column) + block starts.
    # The per-game values are built field-major, one row per block (np.array over a list of arrays
    # is one call; np.stack costs several at a batch of one).
    fa1 = st.field_action + 1  # field play + 1, 0 on an empty field: the index of the field tables
    raw = np.array([_FIELD_KIND[fa1], T.FIELD_SIZE[fa1], st.field_elo, st.field_ehi, st.declaration, st.phase,
                    st.picks_left, st.henge_shift,
                    # Seats (-1 for none): the field owner (none on an empty field), the 都落ち candidate,
                    # the seat to act (none once over), the 手裏剣 target.
                    np.where(fa1 == 0, -1, st.field_owner), st.miyako,
                    np.where(st.terminated | st.truncated, -1, st.to_play), st.shuriken_target], dtype=np.int64)
    named = raw[_NUM_PLAIN:]  # the seats, seen from the observer
    named[...] = np.where(named >= 0, (named - seat) & _SEAT_MASK, -1)
    columns = np.where(raw >= 0, raw + _SCALAR_BASE[:, None], _NOWHERE)
    # Per relative seat: finish position, title, points, school (all four gathered in one index).
    per_seat = np.array([st.finish_pos, st.titles, st.points, st.school], dtype=np.int64).reshape(4, -1)[:, at]
    fin = per_seat[0]
    row_start = rows * (OBS_SIZE + 1)  # flat indices: cheaper than 2-D ones
    flat = out.reshape(-1)
    flat[columns + row_start] = 1.0
    flat[per_seat + (_SEAT_BASE.reshape(4, 1, 4) + row_start[:, None])] = 1.0

    # The jutsu table: [seat, jutsu] x (equipped, uses left / 3, cost / 6, level / 5); all public.
    if cfg.ninja_on:  # with the layer off the table stays zero (its columns were zeroed above)
        key = (st.declaration.astype(np.int64)[:, None, None] * 6 + st.levels) * 32 + _JUTSU_KEY + st.uses_left
        # np.take gathers table rows (here 4 jutsu keys, then 4 entries) 3-4x faster than fancy indexing.
        seat_keys = np.take(key.reshape(b * NUM_SEATS, 4), at, axis=0)  # [B, relative seat, jutsu]
        out[:, OFFSETS["jutsu_table"]] = np.take(_JUTSU_ENTRY, seat_keys, axis=0).reshape(b, -1)
    # The scalar blocks: two contiguous runs written as slices (from "responses" to "finished", and
    # from "game_index" to "removed_count"), plus five lone blocks. Small counts go through float32 tables.
    out[:, _TRICK_RUN] = np.concatenate([
        _THIRDS[np.minimum(st.responses, 3)][:, None], np.take(_LOCK5, st.lock, axis=0),
        np.take(_PREVIOUS5, fa1, axis=0), st.revolution[:, None], st.eleven_back[:, None],
        _COUNT_FRACTION[np.bitwise_count(hands)], fin > 0,
    ], axis=1, dtype=np.float32)
    lo, hi = min(cfg.rewards_by_position), max(cfg.rewards_by_position)
    scaled = (by_seat(st.series_score) - lo * cfg.series_games) / ((hi - lo) * cfg.series_games)
    scaled = np.minimum(np.maximum(scaled, 0.0), 1.0)  # clipped to [0, 1] (np.clip: a slower call at B=1)
    out[:, _SERIES_RUN] = np.concatenate([
        (st.game_index / max(cfg.series_games, 1))[:, None], scaled,
        _COUNT_FRACTION[np.bitwise_count(st.removed)][:, None],
    ], axis=1, dtype=np.float32)
    out[:, OFFSETS["passed"]] = by_seat(st.passed)
    out[:, _AT["field_joker_single"]] = _FIELD_JOKER_SINGLE[fa1]
    out[:, _AT["jutsu_used"]] = st.jutsu_used
    out[:, _AT["lock_ignored"]] = st.lock_ignored
    out[:, OFFSETS["skip_pending"]] = _THIRDS[np.minimum(by_seat(st.skip_pending), 3)]
    return out[:, :OBS_SIZE]
