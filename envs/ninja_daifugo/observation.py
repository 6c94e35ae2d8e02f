"""The observation of rules file §7, seen from one seat (relative seats: self, +1, +2, ... clockwise).

Its layout follows the player count n (:func:`layout`): 901 floats with the ninja game's four
players, 1,063 with the UECda game's five. Every block is in [0, 1]. Blocks (offset: name [size])
are listed by :func:`layout` (:data:`LAYOUT` for four players); cards are 53-wide one-hot vectors in
card-index order (``4 * rank + suit``, joker 52). Hidden information never appears: opponents'
hands show only as counts and as the cards this seat *knows* they hold (cards it gave them in
tribute/exchange, or thrown publicly by 手裏剣). "+1" is the player in the next seat clockwise (the
one who plays after this seat); in the UECda game, where players change seats, the relative seats
follow the current seating.

The last four blocks (whose turn it is, who passed, the 手裏剣 target, the opponents' schools) were
appended after the first release's 877 columns, so that a network trained on those columns keeps
its input positions (only the card counts changed scale, from a capped /16 to /:data:`MAX_HAND`).
"""
from __future__ import annotations

import functools

import numpy as np

from yuugi.envs.core.jit import rules
from yuugi.envs.core.layout import block_offsets

from . import actions as A
from .cards import NUM_CARDS, count_cards, lowest_card
from .config import USES_BY_LEVEL
from .state import NUM_SEATS
from .ninjutsu import jutsu_cost
from .seats import player_after, seats_between

# The largest hand any reachable state holds: the dealer's 14 cards (53 dealt to 4 seats; a
# 大富豪 leaves the exchange with 14 again) plus one 手裏剣 card from each opponent for each of its
# uses (at most 3 per game, at Lv4-5). Nothing else adds cards during play, and the 大富豪's 16
# during the exchange is below it. Hand counts and the 都落ち count are divided by it, whatever the
# player count (five players hold at most 13 cards, during the exchange).
DEALT_MAX = 14
MAX_HAND = DEALT_MAX + (NUM_SEATS - 1) * max(USES_BY_LEVEL)
assert MAX_HAND == 23


def layout(n: int = NUM_SEATS) -> tuple[tuple[str, int], ...]:
    """The observation's blocks (name, size) for ``n`` players, in order."""
    return (
        ("hand", 53),
        ("played_by_seat", n * 53),
        ("known_in_opponent_hands", (n - 1) * 53),
        ("field_cards", 53),
        ("field_kind", 4),  # empty, single, group, sequence
        ("field_joker_single", 1),
        ("field_size", 14),
        ("field_low", 13),  # effective represented ranks
        ("field_high", 13),
        ("field_owner", n),
        ("responses", 1),  # / 3
        ("lock", 5),  # flag + suits
        ("previous_play_suits", 5),  # valid flag + natural suits of the field play (lock reference)
        ("revolution", 1),
        ("eleven_back", 1),
        ("hand_counts", n),  # / MAX_HAND
        ("finished", n),
        ("finish_position", n * (n + 1)),  # none, 1..n per seat
        ("titles", n * (n + 1)),  # none, 大富豪, 富豪, (平民,) 貧民, 大貧民 per seat
        ("miyako_candidate", n),
        ("ninja_points", n * 7),
        ("jutsu_table", n * 4 * 4),  # seat x jutsu x (equipped, uses/3, cost/6, level/5)
        ("skip_pending", n),  # / 3, capped
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
        ("series_score", n),  # scaled to [0, 1]
        ("removed_count", 1),  # 都落ち cards / MAX_HAND
        # Appended blocks (see the module docstring): what a player at the table sees of the turn order.
        ("to_play", n),  # the seat to act; all zero once the series is over
        ("passed", n),  # seats that passed (or were skipped) on the current field play; in this trick under pass_lockout
        ("shuriken_target", n),  # the seat a pending 手裏剣 throw goes to (the observer itself may be it)
        ("opponent_schools", (n - 1) * 4),  # +1, +2, +3: none, 雷, 変化, 妨害
    )


BLOCKS = tuple(name for name, _ in layout())
LAYOUT = layout(NUM_SEATS)
OFFSETS, OBS_SIZE = block_offsets(LAYOUT)
assert OBS_SIZE == 901, OBS_SIZE
FIRST_RELEASE_SIZE = OFFSETS["removed_count"].stop  # the 877 columns of the first release, in place
assert FIRST_RELEASE_SIZE == 877


@functools.lru_cache(maxsize=None)
def offsets(n: int) -> tuple[dict[str, slice], int]:
    """``({block: slice}, size)`` of the observation for ``n`` players."""
    return block_offsets(layout(n))


def observation_size(n: int) -> int:
    return offsets(n)[1]


def offsets_for_width(width: int) -> dict[str, slice] | None:
    """The block offsets of an observation ``width`` columns wide (of 4 or 5 players); None for another width."""
    for n in (NUM_SEATS, NUM_SEATS + 1):
        if offsets(n)[1] == width:
            return offsets(n)[0]
    return None


def block_starts(n: int) -> np.ndarray:
    """int64[len(BLOCKS)]: where each block starts for ``n`` players (what the compiled observation reads)."""
    return np.array([offsets(n)[0][name].start for name in BLOCKS], dtype=np.int64)


# Block numbers: the compiled observation reads a block's start as ``R.obs_at[block]``.
(HAND, PLAYED, KNOWN, FIELD_CARDS, FIELD_KIND, FIELD_JOKER_SINGLE, FIELD_SIZE, FIELD_LOW, FIELD_HIGH, FIELD_OWNER,
 RESPONSES, LOCK, PREVIOUS_SUITS, REVOLUTION, ELEVEN_BACK, HAND_COUNTS, FINISHED, FINISH_POSITION, TITLES, MIYAKO,
 NINJA_POINTS, JUTSU_TABLE, SKIP_PENDING, DECLARATION, SCHOOL, PHASE, PICKS_LEFT, PICKED, JUTSU_USED, HENGE_SHIFT,
 LOCK_IGNORED, RECEIVED, GIVEN, GAME_INDEX, SERIES_SCORE, REMOVED_COUNT, TO_PLAY, PASSED, SHURIKEN_TARGET,
 OPPONENT_SCHOOLS) = range(len(BLOCKS))
assert BLOCKS[OPPONENT_SCHOOLS] == "opponent_schools" and BLOCKS[JUTSU_TABLE] == "jutsu_table"
_THREE = np.float32(3.0)
_ONE = np.uint64(1)
_MAX_HAND = np.float32(MAX_HAND)


@rules
def put_cards(out: np.ndarray, at: int, cards: np.uint64) -> None:
    """A 53-wide one-hot block of a card set (one write per card it holds: an observation has 13 such
    blocks, and visiting only the cards held halves the observation's cost)."""
    rest = cards
    while rest:
        out[at + lowest_card(rest)] = 1.0
        rest &= rest - _ONE


@rules
def put_one_hot(out: np.ndarray, at: int, value: int) -> None:
    """Column ``at + value`` of a one-hot block; nothing for a value of -1 (none)."""
    if value >= 0:
        out[at + value] = 1.0


@rules
def seen_from(st, i: int, player: int, observer: int) -> int:
    """A player (or -1, none) relative to the observer: 0 itself, 1 the next seat clockwise, ..."""
    return seats_between(st, i, observer, player) if player >= 0 else -1


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


@rules(inline=True)  # one call per decision
def observe(st, i: int, seat: int, T, R, out: np.ndarray) -> None:
    """What ``seat`` sees of game ``i``, into ``out`` (float32[observation size]); seats are relative to
    it, clockwise in the current seating. ``R.obs_at[block]`` is where each block starts."""
    n = st.active.shape[1]
    at = R.obs_at
    out[:] = 0.0
    over = st.terminated[i] or st.truncated[i]
    fa = int(st.field_action[i])
    # Cards: the own hand, every seat's plays, what this seat knows of the others' hands, the field,
    # its own pick in progress, what it received and gave in tribute and exchange.
    put_cards(out, at[HAND], st.hands[i, seat])
    for k in range(n):
        other = player_after(st, i, seat, k)
        put_cards(out, at[PLAYED] + NUM_CARDS * k, st.played[i, other])
        if k > 0:
            put_cards(out, at[KNOWN] + NUM_CARDS * (k - 1), st.known[i, seat, other])
    put_cards(out, at[FIELD_CARDS], st.field_cards[i])
    if st.to_play[i] == seat:
        put_cards(out, at[PICKED], st.picked[i])
    put_cards(out, at[RECEIVED], st.received[i, seat])
    put_cards(out, at[GIVEN], st.given[i, seat])
    # The field play.
    put_one_hot(out, at[FIELD_KIND], field_kind(int(T.kind[fa])) if fa >= 0 else 0)
    if fa >= 0 and T.kind[fa] == A.K_JSINGLE:
        out[at[FIELD_JOKER_SINGLE]] = 1.0
    put_one_hot(out, at[FIELD_SIZE], int(T.size[fa]) if fa >= 0 else 0)
    put_one_hot(out, at[FIELD_LOW], int(st.field_elo[i]))
    put_one_hot(out, at[FIELD_HIGH], int(st.field_ehi[i]))
    put_one_hot(out, at[FIELD_OWNER], seen_from(st, i, int(st.field_owner[i]), seat) if fa >= 0 else -1)
    # The trick: answers so far, the lock, the suits a lock would follow, the order of the ranks.
    out[at[RESPONSES]] = thirds(int(st.responses[i]))
    lock = int(st.lock[i])
    if lock > 0:
        out[at[LOCK]] = 1.0
    for s in range(4):
        if (lock >> s) & 1:
            out[at[LOCK] + 1 + s] = 1.0
    if fa >= 0 and A.K_SINGLE <= T.kind[fa] <= A.K_SEQ and not T.has_joker[fa]:
        out[at[PREVIOUS_SUITS]] = 1.0
        for s in range(4):
            if (T.ns[fa] >> s) & 1:
                out[at[PREVIOUS_SUITS] + 1 + s] = 1.0
    if st.revolution[i]:
        out[at[REVOLUTION]] = 1.0
    if st.eleven_back[i]:
        out[at[ELEVEN_BACK]] = 1.0
    # Every seat, relative to the observer.
    for k in range(n):
        other = player_after(st, i, seat, k)
        out[at[HAND_COUNTS] + k] = hand_fraction(st.hands[i, other])
        if st.finish_pos[i, other] > 0:
            out[at[FINISHED] + k] = 1.0
        out[at[FINISH_POSITION] + (n + 1) * k + int(st.finish_pos[i, other])] = 1.0
        out[at[TITLES] + (n + 1) * k + int(st.titles[i, other])] = 1.0
        out[at[NINJA_POINTS] + 7 * k + int(st.points[i, other])] = 1.0
        if k == 0:
            out[at[SCHOOL] + int(st.school[i, other])] = 1.0
        else:
            out[at[OPPONENT_SCHOOLS] + 4 * (k - 1) + int(st.school[i, other])] = 1.0
        out[at[SKIP_PENDING] + k] = thirds(int(st.skip_pending[i, other]))
        if st.passed[i, other]:
            out[at[PASSED] + k] = 1.0
        if R.ninja_on:  # the jutsu table (all public); it stays zero with the layer off
            for j in range(4):
                level = int(st.levels[i, other, j])
                jat = at[JUTSU_TABLE] + 4 * (4 * k + j)
                out[jat + 1] = np.float32(st.uses_left[i, other, j] / 3.0)
                if level >= 1:
                    out[jat] = 1.0
                    out[jat + 2] = np.float32(jutsu_cost(j, level, int(st.declaration[i])) / 6.0)
                    out[jat + 3] = np.float32(level / 5.0)
    put_one_hot(out, at[MIYAKO], seen_from(st, i, int(st.miyako[i]), seat))
    put_one_hot(out, at[TO_PLAY], -1 if over else seen_from(st, i, int(st.to_play[i]), seat))
    put_one_hot(out, at[SHURIKEN_TARGET], seen_from(st, i, int(st.shuriken_target[i]), seat))
    # The game and the series.
    put_one_hot(out, at[DECLARATION], int(st.declaration[i]))
    put_one_hot(out, at[PHASE], int(st.phase[i]))
    put_one_hot(out, at[PICKS_LEFT], int(st.picks_left[i]))
    put_one_hot(out, at[HENGE_SHIFT], int(st.henge_shift[i]))
    if st.jutsu_used[i]:
        out[at[JUTSU_USED]] = 1.0
    if st.lock_ignored[i]:
        out[at[LOCK_IGNORED]] = 1.0
    out[at[GAME_INDEX]] = np.float32(st.game_index[i] / max(R.series_games, 1))
    low, span = np.float32(R.score_low), np.float32(R.score_span)
    for k in range(n):
        scaled = (st.series_score[i, player_after(st, i, seat, k)] - low) / span
        out[at[SERIES_SCORE] + k] = min(max(scaled, np.float32(0.0)), np.float32(1.0))
    out[at[REMOVED_COUNT]] = hand_fraction(st.removed[i])
