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

import numpy as np

from .cards import NUM_CARDS, NUM_ONI, NUM_RETAINERS
from .config import MomotaroConfig
from .rules import Engine
from .state import AT_DECK, AT_FIELD, AT_POTION, AT_TREASURE, NUM_PHASES, PH_BID, PH_TAKE, MomotaroState
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
    out, o = {}, 0
    for name, size in layout(p):
        out[name] = slice(o, o + size)
        o += size
    return out


def obs_size(p: int) -> int:
    return sum(size for _, size in layout(p))


class Observer:
    """Builds observations for one configuration (offsets and scales precomputed)."""

    def __init__(self, cfg: MomotaroConfig, engine: Engine) -> None:
        self.cfg, self.eng = cfg, engine
        self.P = cfg.num_players
        self.off = offsets(self.P)
        self.size = obs_size(self.P)
        self.inv_k = 1.0 / max(cfg.kibi, 1)
        self.inv_card_power = (1.0 / engine.power).astype(np.float32)
        self.inv_oni_power = (1.0 / engine.oni_power).astype(np.float32)
        self.inv_total = 1.0 / engine.d.total_treasure
        self.inv_slots = 1.0 / engine.slot_limit
        self.seat_offsets = np.arange(self.P)
        self.eye_p = np.eye(self.P, dtype=np.float32)
        self.eye_ret = np.eye(NUM_RETAINERS, dtype=np.float32)

    def observe(self, st: MomotaroState, seat: int | np.ndarray) -> np.ndarray:
        b, p, off = st.batch_size, self.P, self.off
        rows = np.arange(b)
        r1 = rows[:, None]
        seat = np.broadcast_to(np.asarray(seat, dtype=np.int64), (b,))
        rel = (seat[:, None] + self.seat_offsets) % p  # rel[i, k] = absolute seat at offset k
        out = np.zeros((b, self.size), dtype=np.float32)

        def put(name: str, values: np.ndarray) -> None:
            out[:, off[name]] = values

        def hot(name: str, index: np.ndarray, valid: np.ndarray | None = None) -> None:
            cols = off[name].start + index.astype(np.int64)
            if valid is None:
                out[rows, cols] = 1.0
            else:
                out[rows[valid], cols[valid]] = 1.0

        def rel_seat(x: np.ndarray) -> np.ndarray:
            return (x.astype(np.int64) - seat) % p

        done = st.terminated | st.truncated
        hot("phase", np.where(done, NUM_PHASES - 1, st.phase))
        hot("round", st.round)
        battle = st.round > 0
        lap = st.slot // p
        hot("lap", np.minimum(lap, 3), battle)
        left = np.where((st.round == 1) | (st.round == 2), (self.eng.slot_limit - st.slot) * self.inv_slots, 0.0)
        put("slots_left", np.clip(left, 0.0, 1.0)[:, None])
        hot("own_seat", seat)
        hot("to_play", rel_seat(st.to_play), ~done)
        hot("start_player", rel_seat(st.start_player), battle)
        put("alive", st.alive[r1, rel])
        put("kibidango", st.kibi[r1, rel] * self.inv_k)
        put("potions", np.minimum(st.potions[r1, rel], 3) / 3.0)
        put("treasure", st.treasure[r1, rel] * self.inv_total)
        put("cards_in_play", st.hand[r1, rel].reshape(b, -1))
        put("card_damage", (st.card_dmg[r1, rel] * self.inv_card_power).reshape(b, -1))
        put("knocked_out", st.ko[r1, rel].reshape(b, -1))
        put("fresh_damage", st.fresh[r1, rel].reshape(b, -1))

        hiring = st.round == 0
        pos = np.minimum(st.hire_pos, NUM_RETAINERS - 1).astype(np.int64)
        hot("auction_card", st.hire_deck[rows, pos], hiring)
        face_down = np.arange(NUM_RETAINERS) > st.hire_pos[:, None].astype(np.int64)  # deck positions
        ret_down = np.zeros((b, NUM_RETAINERS), dtype=np.float32)
        np.put_along_axis(ret_down, st.hire_deck.astype(np.int64), face_down.astype(np.float32), axis=1)
        put("hiring_deck", ret_down)
        put("declined", st.declined)
        bidders = st.bidders[r1, rel] & hiring[:, None]
        put("bidders", bidders)
        bids, adds = st.bids[r1, rel], st.adds[r1, rel]
        first = st.phase == PH_BID
        put("has_bid", np.where(first[:, None], bids >= 0, adds >= 0) & bidders)
        # A sealed bid is known to its owner at once and to everyone after the stage's reveal.
        bid_known = (bids >= 0) & ((~first)[:, None] | (rel == seat[:, None]))
        put("bid_value", np.where(bid_known, bids, 0) * self.inv_k)
        put("bid_known", bid_known)
        add_known = (adds >= 0) & ((st.phase == PH_TAKE)[:, None] | (rel == seat[:, None]))
        put("add_value", np.where(add_known, adds, 0) * self.inv_k)
        put("add_known", add_known)
        last_b, last_a = st.last_bids[r1, rel], st.last_adds[r1, rel]
        put("last_bid", np.maximum(last_b, 0) * self.inv_k)
        put("last_add", np.maximum(last_a, 0) * self.inv_k)
        put("last_add_made", last_a >= 0)

        at = st.oni_at
        put("oni_field", at == AT_FIELD)
        put("oni_damage", st.oni_dmg * self.inv_oni_power)
        put("oni_deck", at == AT_DECK)
        put("oni_treasure", at == AT_TREASURE)
        put("oni_potion", at == AT_POTION)
        has_target = st.target >= 0
        hot("target", np.maximum(st.target, 0), has_target)
        has_combo = st.combo >= 0
        put("fought", COMBO_CARDS[np.maximum(st.combo, 0)] & has_combo[:, None])
        put("pending_damage", np.minimum(st.pending, 15)[:, None] / 15.0)
        rolled = st.dice[:, 0] > 0
        hot("red_die", np.maximum(st.dice[:, 0] - 1, 0), rolled)
        hot("white_die", np.maximum(st.dice[:, 1] - 1, 0), rolled)
        hot("outcome", np.maximum(st.outcome, 0), st.outcome >= 0)
        put("turns", np.minimum(st.turns / self.cfg.max_turns, 1.0)[:, None])
        return out

