"""The observation of rules file §8, seen from one seat.

Per-player blocks list the seats relative to the observer: self, then the next seats clockwise.
Everything is public except what §8 hides: another seat's sealed bid shows only as "has bid" until
all bids of that stage are revealed, and the order of the retainer and oni decks never shows (only
their composition). All values are in [0, 1]. Blocks, in order (P = num_players):

| block | size | meaning |
|---|---|---|
| phase | 9 | bid, additional_bid, take_or_decline, heal, choose_oni, choose_cards, assign_damage, yellow_reward, over |
| round | 4 | hiring, round 1, 2, 3 |
| lap | 4 | laps completed in this round: 0, 1, 2, 3+ |
| slots_left | 1 | turn slots left in rounds 1–2 / (laps·P); 0 in hiring and the final round |
| own_seat | P | absolute seat of the observer |
| to_play | P | relative seat to act |
| start_player | P | relative seat of this round's start player |
| alive | P | warrior still in play |
| kibidango | P | / K0 |
| potions | P | / 3 |
| treasure | P | / total treasure of all oni |
| cards_in_play | P×10 | card c of relative seat s at s·10 + c |
| card_damage | P×10 | damage / printed power |
| knocked_out | P×10 | |
| fresh_damage | P×10 | damaged in the owner's latest battle (the strict heal rule) |
| auction_card | 9 | retainer on auction (retainer r = I1 I2 I3 S1 S2 S3 K1 K2 K3) |
| hiring_deck | 9 | retainers still face down (composition, not order) |
| declined | 9 | retainers declined after janken |
| bidders | P | seats bidding in the current stage |
| has_bid | P | seats that have submitted in the current stage |
| bid_value | P | first bid / K0 where known (own, or all once revealed) |
| bid_known | P | |
| add_value | P | additional bid / K0 where known |
| add_known | P | |
| last_bid | P | the previous auction's revealed first bids / K0 |
| last_add | P | ... and additional bids / K0 |
| last_add_made | P | who made an additional bid in the previous auction |
| oni_field | 12 | oni on the field |
| oni_damage | 12 | damage / printed power |
| oni_deck | 12 | oni still in the deck (composition) |
| oni_treasure | 12 | oni taken as treasure |
| oni_potion | 12 | yellow oni taken as potions |
| target | 12 | oni attacked this turn |
| fought | 10 | cards of the set sent this turn |
| pending_damage | 1 | / 15 |
| red_die, white_die | 6 + 6 | the last roll |
| outcome | 3 | win, draw, loss of the last battle |
| turns | 1 | battle turns / max_turns |
"""
from __future__ import annotations

import dataclasses
import functools

import numpy as np

from yuugi.envs.core.layout import block_offsets

from .cards import NUM_CARDS, NUM_ONI, NUM_RETAINERS
from .config import Derived, MomotaroConfig
from .state import AT_DECK, AT_FIELD, AT_POTION, AT_TREASURE, NUM_PHASES, PHASE_BID, PHASE_TAKE, MomotaroState
from .tables import COMBO_CARDS


def layout(p: int) -> tuple[tuple[str, int], ...]:
    return (
        ("phase", NUM_PHASES), ("round", 4), ("lap", 4), ("slots_left", 1),
        ("own_seat", p), ("to_play", p), ("start_player", p), ("alive", p), ("kibidango", p), ("potions", p),
        ("treasure", p), ("cards_in_play", p * NUM_CARDS), ("card_damage", p * NUM_CARDS),
        ("knocked_out", p * NUM_CARDS), ("fresh_damage", p * NUM_CARDS),
        ("auction_card", NUM_RETAINERS), ("hiring_deck", NUM_RETAINERS), ("declined", NUM_RETAINERS),
        ("bidders", p), ("has_bid", p), ("bid_value", p), ("bid_known", p), ("add_value", p), ("add_known", p),
        ("last_bid", p), ("last_add", p), ("last_add_made", p),
        ("oni_field", NUM_ONI), ("oni_damage", NUM_ONI), ("oni_deck", NUM_ONI), ("oni_treasure", NUM_ONI),
        ("oni_potion", NUM_ONI), ("target", NUM_ONI), ("fought", NUM_CARDS), ("pending_damage", 1),
        ("red_die", 6), ("white_die", 6), ("outcome", 3), ("turns", 1),
    )


def offsets(p: int) -> dict[str, slice]:
    return block_offsets(layout(p))[0]


def obs_size(p: int) -> int:
    return block_offsets(layout(p))[1]


@dataclasses.dataclass(frozen=True)
class _Scales:
    """What ``observe`` divides by and indexes with for one config's tables (built once per tables)."""

    off: dict[str, slice]
    size: int
    inv_k: float
    inv_total: float
    inv_slots: float
    inv_oni_power: np.ndarray  # float32[12]
    inv_card_power_by_seat: np.ndarray  # float32[P * 10]: the card_damage block, seat-major
    seat_offsets: np.ndarray  # [P]: 0..P-1, offset 0 is the observer
    is_self: np.ndarray  # bool[P]
    rel: np.ndarray  # int64[P, P]: rel[s, k] = absolute seat at offset k from seat s


@functools.lru_cache(maxsize=64)
def _scales(t: Derived) -> _Scales:
    # Keyed by the tables object itself (compared by identity), which a config builds once.
    p = t.num_players
    seat_offsets = np.arange(p)
    off, size = block_offsets(layout(p))
    return _Scales(off=off, size=size, inv_k=1.0 / max(t.kibi, 1), inv_total=1.0 / t.total_treasure,
                   inv_slots=1.0 / t.slot_limit, inv_oni_power=(1.0 / t.oni_power).astype(np.float32),
                   inv_card_power_by_seat=np.tile((1.0 / t.card_power).astype(np.float32), p),
                   seat_offsets=seat_offsets, is_self=seat_offsets == 0,
                   rel=(seat_offsets[:, None] + seat_offsets) % p)


_DECK_POSITIONS = np.arange(NUM_RETAINERS)
# Cards of the set sent this turn, by combo id; the last row (index -1 = no set) is empty.
_FOUGHT_BY_COMBO = np.vstack([COMBO_CARDS, np.zeros(NUM_CARDS, dtype=bool)])


@functools.lru_cache(maxsize=16)
def _row_starts(b: int, p: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, rows * P as a column, rows * obs_size as a column) for a batch of ``b`` games.

    The same at every call of a batch size, so they are built once.
    """
    rows = np.arange(b)
    return rows, rows[:, None] * p, rows[:, None] * obs_size(p)


@functools.lru_cache(maxsize=16)
def _block_starts(b: int, p: int, names: tuple[str, ...]) -> np.ndarray:
    """int64[len(names), B]: flat index into a [B, obs_size] array of column 0 of each block, per game."""
    off = offsets(p)
    return np.array([off[name].start for name in names])[:, None] + _row_starts(b, p)[2][:, 0]


def observe(st: MomotaroState, seat: int | np.ndarray, cfg: MomotaroConfig) -> np.ndarray:
    """float32[B, obs_size(P)]: each game seen from ``seat`` (one seat for all games, or one per game)."""
    sc = _scales(cfg.tables)
    b, p, off, size = st.batch_size, cfg.num_players, sc.off, sc.size
    rows, row_p, row_size = _row_starts(b, p)
    seat = np.asarray(seat, dtype=np.int64)
    if seat.ndim == 0:  # one seat for every game (the AEC face)
        seat = np.full(b, seat)
    # Row of (game i, relative seat k) in a per-player array viewed as [B*P, ...]: one np.take
    # per array is several times faster than indexing with (rows, rel).
    who = (row_p + sc.rel.take(seat, axis=0)).ravel()

    def by_seat(x: np.ndarray) -> np.ndarray:
        """x[i, rel[i]] for x of shape [B, P] or [B, P, n], flattened to [B, P*n]."""
        return x.reshape(b * p, -1).take(who, axis=0).reshape(b, -1)

    out = np.zeros((b, size), dtype=np.float32)

    def put(name: str, values: np.ndarray) -> None:
        out[:, off[name]] = values

    done = st.terminated | st.truncated
    battle = st.round > 0
    hiring = ~battle
    rolled = st.dice[:, 0] > 0
    pos = np.minimum(st.hire_pos, NUM_RETAINERS - 1).astype(np.int64)
    # Every one-hot block in one scatter: (block, column within it, shown). A hidden one writes
    # 0.0 into its own block, which is zero anyway (blocks never share a column).
    always = np.ones(b, dtype=bool)
    hots = (
        ("phase", np.where(done, NUM_PHASES - 1, st.phase), always),
        ("round", st.round, always),
        ("lap", np.minimum(st.slot // p, 3), battle),
        ("own_seat", seat, always),
        ("to_play", (st.to_play - seat) % p, ~done),
        ("start_player", (st.start_player - seat) % p, battle),
        ("auction_card", st.hire_deck[rows, pos], hiring),
        ("target", np.maximum(st.target, 0), st.target >= 0),
        ("red_die", np.maximum(st.dice[:, 0] - 1, 0), rolled),
        ("white_die", np.maximum(st.dice[:, 1] - 1, 0), rolled),
        ("outcome", np.maximum(st.outcome, 0), st.outcome >= 0),
    )
    # [11, B], block-major; concatenating the 1-D columns is cheaper than np.stack for a small batch.
    cols = np.concatenate([index for _, index, _ in hots], dtype=np.int64).reshape(len(hots), b)
    cols += _block_starts(b, p, tuple(name for name, _, _ in hots))
    out.reshape(-1)[cols] = np.concatenate([shown for _, _, shown in hots], dtype=np.float32).reshape(len(hots), b)

    left = np.where((st.round == 1) | (st.round == 2), (cfg.tables.slot_limit - st.slot) * sc.inv_slots, 0.0)
    put("slots_left", np.minimum(np.maximum(left, 0.0), 1.0)[:, None])
    put("alive", by_seat(st.alive))
    put("kibidango", by_seat(st.kibi) * sc.inv_k)
    put("potions", np.minimum(by_seat(st.potions), 3) / 3.0)
    put("treasure", by_seat(st.treasure) * sc.inv_total)
    put("cards_in_play", by_seat(st.hand))
    put("card_damage", by_seat(st.card_dmg) * sc.inv_card_power_by_seat)
    put("knocked_out", by_seat(st.ko))
    put("fresh_damage", by_seat(st.fresh))

    # Retainers still face down: deck position j holds retainer hire_deck[i, j].
    down_cols = (row_size + off["hiring_deck"].start) + st.hire_deck
    out.reshape(-1)[down_cols] = (_DECK_POSITIONS > st.hire_pos[:, None]).astype(np.float32)
    put("declined", st.declined)
    bidders = by_seat(st.bidders) & hiring[:, None]
    put("bidders", bidders)
    bids, adds = by_seat(st.bids), by_seat(st.adds)
    first = st.phase == PHASE_BID
    put("has_bid", np.where(first[:, None], bids >= 0, adds >= 0) & bidders)
    # A sealed bid is known to its owner (offset 0) at once and to everyone after the stage's reveal.
    bid_known = (bids >= 0) & ((~first)[:, None] | sc.is_self)
    put("bid_value", np.where(bid_known, bids, 0) * sc.inv_k)
    put("bid_known", bid_known)
    add_known = (adds >= 0) & ((st.phase == PHASE_TAKE)[:, None] | sc.is_self)
    put("add_value", np.where(add_known, adds, 0) * sc.inv_k)
    put("add_known", add_known)
    last_b, last_a = by_seat(st.last_bids), by_seat(st.last_adds)
    put("last_bid", np.maximum(last_b, 0) * sc.inv_k)
    put("last_add", np.maximum(last_a, 0) * sc.inv_k)
    put("last_add_made", last_a >= 0)

    at = st.oni_at
    put("oni_field", at == AT_FIELD)
    put("oni_damage", st.oni_dmg * sc.inv_oni_power)
    put("oni_deck", at == AT_DECK)
    put("oni_treasure", at == AT_TREASURE)
    put("oni_potion", at == AT_POTION)
    put("fought", _FOUGHT_BY_COMBO[st.combo])
    put("pending_damage", np.minimum(st.pending, 15)[:, None] / 15.0)
    put("turns", np.minimum(st.turns / cfg.max_turns, 1.0)[:, None])
    return out
