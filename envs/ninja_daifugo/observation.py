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

from yuugi.envs.core.jit import rules
from yuugi.envs.core.layout import block_offsets

from . import actions as A
from .cards import NUM_CARDS, count_cards
from .config import USES_BY_LEVEL
from .state import NUM_SEATS
from .ninjutsu import jutsu_cost

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

# Where each block starts (plain ints: compiled code reads them as constants).
_AT = {name: sl.start for name, sl in OFFSETS.items()}
HAND, PLAYED, KNOWN, FIELD_CARDS = _AT["hand"], _AT["played_by_seat"], _AT["known_in_opponent_hands"], _AT["field_cards"]
FIELD_KIND, FIELD_JOKER_SINGLE, FIELD_SIZE, FIELD_LOW, FIELD_HIGH = (
    _AT["field_kind"], _AT["field_joker_single"], _AT["field_size"], _AT["field_low"], _AT["field_high"])
FIELD_OWNER, RESPONSES, LOCK, PREVIOUS_SUITS = (_AT["field_owner"], _AT["responses"], _AT["lock"],
                                                _AT["previous_play_suits"])
REVOLUTION, ELEVEN_BACK, HAND_COUNTS, FINISHED = _AT["revolution"], _AT["eleven_back"], _AT["hand_counts"], _AT["finished"]
FINISH_POSITION, TITLES, MIYAKO, NINJA_POINTS = (_AT["finish_position"], _AT["titles"], _AT["miyako_candidate"],
                                                 _AT["ninja_points"])
JUTSU_TABLE, SKIP_PENDING, DECLARATION, SCHOOL = _AT["jutsu_table"], _AT["skip_pending"], _AT["declaration"], _AT["school"]
PHASE, PICKS_LEFT, PICKED, JUTSU_USED = _AT["phase"], _AT["picks_left"], _AT["picked"], _AT["jutsu_used"]
HENGE_SHIFT, LOCK_IGNORED, RECEIVED, GIVEN = _AT["henge_shift"], _AT["lock_ignored"], _AT["received"], _AT["given"]
GAME_INDEX, SERIES_SCORE, REMOVED_COUNT = _AT["game_index"], _AT["series_score"], _AT["removed_count"]
TO_PLAY, PASSED, SHURIKEN_TARGET, OPPONENT_SCHOOLS = (_AT["to_play"], _AT["passed"], _AT["shuriken_target"],
                                                      _AT["opponent_schools"])
_THREE = np.float32(3.0)
_MAX_HAND = np.float32(MAX_HAND)


@rules
def put_cards(out: np.ndarray, at: int, cards: np.uint64) -> None:
    """A 53-wide one-hot block of a card set."""
    for c in range(NUM_CARDS):
        if (cards >> np.uint64(c)) & np.uint64(1):
            out[at + c] = 1.0


@rules
def put_one_hot(out: np.ndarray, at: int, value: int) -> None:
    """Column ``at + value`` of a one-hot block; nothing for a value of -1 (none)."""
    if value >= 0:
        out[at + value] = 1.0


@rules
def seen_from(seat: int, observer: int, n: int) -> int:
    """A seat (or -1, none) relative to the observer: 0 itself, 1 the next seat, ..."""
    return (seat - observer) % n if seat >= 0 else -1


@rules
def thirds(count: int) -> np.float32:
    """A small count (responses, skips) / 3, capped at 1."""
    return np.float32(min(count, 3)) / _THREE


@rules
def hand_fraction(cards: np.uint64) -> np.float32:
    """A card count / MAX_HAND (capped: only an unreachable loaded position holds more)."""
    return np.float32(min(count_cards(cards), MAX_HAND)) / _MAX_HAND


@rules
def field_kind(kind: int) -> int:
    """The field_kind column of a play: 1 single (the joker single too), 2 group, 3 sequence."""
    if kind == A.K_SINGLE or kind == A.K_JSINGLE:
        return 1
    if kind == A.K_GROUP:
        return 2
    if kind == A.K_SEQ:
        return 3
    return 0


@rules
def observe(st, i: int, seat: int, T, R, out: np.ndarray) -> None:
    """What ``seat`` sees of game ``i``, into ``out`` (float32[901]); seats are relative to it."""
    n = st.active.shape[1]
    out[:] = 0.0
    over = st.terminated[i] or st.truncated[i]
    fa = int(st.field_action[i])
    # Cards: the own hand, every seat's plays, what this seat knows of the others' hands, the field,
    # its own pick in progress, what it received and gave in tribute and exchange.
    put_cards(out, HAND, st.hands[i, seat])
    for k in range(n):
        other = (seat + k) % n
        put_cards(out, PLAYED + NUM_CARDS * k, st.played[i, other])
        if k > 0:
            put_cards(out, KNOWN + NUM_CARDS * (k - 1), st.known[i, seat, other])
    put_cards(out, FIELD_CARDS, st.field_cards[i])
    if st.to_play[i] == seat:
        put_cards(out, PICKED, st.picked[i])
    put_cards(out, RECEIVED, st.received[i, seat])
    put_cards(out, GIVEN, st.given[i, seat])
    # The field play.
    put_one_hot(out, FIELD_KIND, field_kind(int(T.kind[fa])) if fa >= 0 else 0)
    if fa >= 0 and T.kind[fa] == A.K_JSINGLE:
        out[FIELD_JOKER_SINGLE] = 1.0
    put_one_hot(out, FIELD_SIZE, int(T.size[fa]) if fa >= 0 else 0)
    put_one_hot(out, FIELD_LOW, int(st.field_elo[i]))
    put_one_hot(out, FIELD_HIGH, int(st.field_ehi[i]))
    put_one_hot(out, FIELD_OWNER, seen_from(int(st.field_owner[i]), seat, n) if fa >= 0 else -1)
    # The trick: answers so far, the lock, the suits a lock would follow, the order of the ranks.
    out[RESPONSES] = thirds(int(st.responses[i]))
    lock = int(st.lock[i])
    if lock > 0:
        out[LOCK] = 1.0
    for s in range(4):
        if (lock >> s) & 1:
            out[LOCK + 1 + s] = 1.0
    if fa >= 0 and A.K_SINGLE <= T.kind[fa] <= A.K_SEQ and not T.has_joker[fa]:
        out[PREVIOUS_SUITS] = 1.0
        for s in range(4):
            if (T.ns[fa] >> s) & 1:
                out[PREVIOUS_SUITS + 1 + s] = 1.0
    if st.revolution[i]:
        out[REVOLUTION] = 1.0
    if st.eleven_back[i]:
        out[ELEVEN_BACK] = 1.0
    # Every seat, relative to the observer.
    for k in range(n):
        other = (seat + k) % n
        out[HAND_COUNTS + k] = hand_fraction(st.hands[i, other])
        if st.finish_pos[i, other] > 0:
            out[FINISHED + k] = 1.0
        out[FINISH_POSITION + 5 * k + int(st.finish_pos[i, other])] = 1.0
        out[TITLES + 5 * k + int(st.titles[i, other])] = 1.0
        out[NINJA_POINTS + 7 * k + int(st.points[i, other])] = 1.0
        if k == 0:
            out[SCHOOL + int(st.school[i, other])] = 1.0
        else:
            out[OPPONENT_SCHOOLS + 4 * (k - 1) + int(st.school[i, other])] = 1.0
        out[SKIP_PENDING + k] = thirds(int(st.skip_pending[i, other]))
        if st.passed[i, other]:
            out[PASSED + k] = 1.0
        if R.ninja_on:  # the jutsu table (all public); it stays zero with the layer off
            for j in range(4):
                level = int(st.levels[i, other, j])
                at = JUTSU_TABLE + 4 * (4 * k + j)
                out[at + 1] = np.float32(st.uses_left[i, other, j] / 3.0)
                if level >= 1:
                    out[at] = 1.0
                    out[at + 2] = np.float32(jutsu_cost(j, level, int(st.declaration[i])) / 6.0)
                    out[at + 3] = np.float32(level / 5.0)
    put_one_hot(out, MIYAKO, seen_from(int(st.miyako[i]), seat, n))
    put_one_hot(out, TO_PLAY, -1 if over else seen_from(int(st.to_play[i]), seat, n))
    put_one_hot(out, SHURIKEN_TARGET, seen_from(int(st.shuriken_target[i]), seat, n))
    # The game and the series.
    put_one_hot(out, DECLARATION, int(st.declaration[i]))
    put_one_hot(out, PHASE, int(st.phase[i]))
    put_one_hot(out, PICKS_LEFT, int(st.picks_left[i]))
    put_one_hot(out, HENGE_SHIFT, int(st.henge_shift[i]))
    if st.jutsu_used[i]:
        out[JUTSU_USED] = 1.0
    if st.lock_ignored[i]:
        out[LOCK_IGNORED] = 1.0
    out[GAME_INDEX] = np.float32(st.game_index[i] / max(R.series_games, 1))
    low, span = np.float32(R.score_low), np.float32(R.score_span)
    for k in range(n):
        scaled = (st.series_score[i, (seat + k) % n] - low) / span
        out[SERIES_SCORE + k] = min(max(scaled, np.float32(0.0)), np.float32(1.0))
    out[REMOVED_COUNT] = hand_fraction(st.removed[i])
