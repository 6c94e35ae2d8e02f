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

from yuugi.envs.core.jit import rules
from yuugi.envs.core.layout import block_offsets

from .cards import NUM_CARDS, NUM_ONI, NUM_RETAINERS
from .state import AT_DECK, AT_FIELD, AT_POTION, AT_TREASURE, NUM_PHASES, PHASE_BID, PHASE_TAKE


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


def block_starts(p: int) -> np.ndarray:
    """int64[blocks]: the first column of each block, in :func:`layout` order (the ``B_*`` numbers)."""
    return np.array([sl.start for sl in offsets(p).values()], dtype=np.int64)


# Block numbers in layout order: the compiled observation finds block b at column T.obs_offsets[b].
(B_PHASE, B_ROUND, B_LAP, B_SLOTS_LEFT, B_OWN_SEAT, B_TO_PLAY, B_START_PLAYER, B_ALIVE, B_KIBIDANGO, B_POTIONS,
 B_TREASURE, B_CARDS_IN_PLAY, B_CARD_DAMAGE, B_KNOCKED_OUT, B_FRESH_DAMAGE, B_AUCTION_CARD, B_HIRING_DECK,
 B_DECLINED, B_BIDDERS, B_HAS_BID, B_BID_VALUE, B_BID_KNOWN, B_ADD_VALUE, B_ADD_KNOWN, B_LAST_BID, B_LAST_ADD,
 B_LAST_ADD_MADE, B_ONI_FIELD, B_ONI_DAMAGE, B_ONI_DECK, B_ONI_TREASURE, B_ONI_POTION, B_TARGET, B_FOUGHT,
 B_PENDING_DAMAGE, B_RED_DIE, B_WHITE_DIE, B_OUTCOME, B_TURNS) = range(39)
assert [name for name, _ in layout(2)][B_TURNS] == "turns" and [name for name, _ in layout(2)][B_FOUGHT] == "fought"


@rules
def observe_seat(st, i, seat, out, T, R):
    """``out`` (float32[obs_size], the row of game i): game i seen from ``seat``.

    Every value is computed as the rules file's fractions in float64 and stored as float32; the two
    damage blocks multiply in float32 by the float32 inverse powers of the tables.
    """
    for j in range(out.shape[0]):
        out[j] = 0.0
    off = T.obs_offsets
    p = st.kibi.shape[1]
    done = st.terminated[i] or st.truncated[i]
    battle = st.round[i] > 0
    hiring = not battle
    inv_k = 1.0 / max(R.kibi, 1)

    # Where the game stands.
    out[off[B_PHASE] + (NUM_PHASES - 1 if done else st.phase[i])] = 1.0
    out[off[B_ROUND] + st.round[i]] = 1.0
    if battle:
        out[off[B_LAP] + min(st.slot[i] // p, 3)] = 1.0
        out[off[B_START_PLAYER] + (st.start_player[i] - seat) % p] = 1.0
    if st.round[i] == 1 or st.round[i] == 2:
        left = (R.slot_limit - st.slot[i]) * (1.0 / R.slot_limit)
        out[off[B_SLOTS_LEFT]] = min(max(left, 0.0), 1.0)
    out[off[B_OWN_SEAT] + seat] = 1.0
    if not done:
        out[off[B_TO_PLAY] + (st.to_play[i] - seat) % p] = 1.0

    # The players, relative seat k = absolute seat (seat + k) % P.
    inv_total = 1.0 / R.total_treasure
    for k in range(p):
        q = (seat + k) % p
        out[off[B_ALIVE] + k] = st.alive[i, q]
        out[off[B_KIBIDANGO] + k] = st.kibi[i, q] * inv_k
        out[off[B_POTIONS] + k] = min(st.potions[i, q], 3) / 3.0
        out[off[B_TREASURE] + k] = st.treasure[i, q] * inv_total
        for c in range(NUM_CARDS):
            out[off[B_CARDS_IN_PLAY] + k * NUM_CARDS + c] = st.hand[i, q, c]
            out[off[B_CARD_DAMAGE] + k * NUM_CARDS + c] = np.float32(st.card_dmg[i, q, c]) * T.inv_card_power[c]
            out[off[B_KNOCKED_OUT] + k * NUM_CARDS + c] = st.ko[i, q, c]
            out[off[B_FRESH_DAMAGE] + k * NUM_CARDS + c] = st.fresh[i, q, c]

    # The hiring: the card on auction, the face-down composition, the sealed bids (§8).
    pos = st.hire_pos[i]
    if hiring:
        out[off[B_AUCTION_CARD] + st.hire_deck[i, min(pos, NUM_RETAINERS - 1)]] = 1.0
    for j in range(NUM_RETAINERS):
        out[off[B_HIRING_DECK] + st.hire_deck[i, j]] = 1.0 if j > pos else 0.0
        out[off[B_DECLINED] + j] = st.declined[i, j]
    first = st.phase[i] == PHASE_BID
    for k in range(p):
        q = (seat + k) % p
        bidder = st.bidders[i, q] and hiring
        bid, add = st.bids[i, q], st.adds[i, q]
        out[off[B_BIDDERS] + k] = bidder
        out[off[B_HAS_BID] + k] = bidder and ((bid >= 0) if first else (add >= 0))
        # A sealed bid is known to its owner at once and to everyone after the stage's reveal.
        bid_known = bid >= 0 and (not first or k == 0)
        out[off[B_BID_VALUE] + k] = (bid if bid_known else 0) * inv_k
        out[off[B_BID_KNOWN] + k] = bid_known
        add_known = add >= 0 and (st.phase[i] == PHASE_TAKE or k == 0)
        out[off[B_ADD_VALUE] + k] = (add if add_known else 0) * inv_k
        out[off[B_ADD_KNOWN] + k] = add_known
        last_bid, last_add = st.last_bids[i, q], st.last_adds[i, q]
        out[off[B_LAST_BID] + k] = max(last_bid, 0) * inv_k
        out[off[B_LAST_ADD] + k] = max(last_add, 0) * inv_k
        out[off[B_LAST_ADD_MADE] + k] = last_add >= 0

    # The oni.
    for o in range(NUM_ONI):
        at = st.oni_at[i, o]
        out[off[B_ONI_FIELD] + o] = at == AT_FIELD
        out[off[B_ONI_DAMAGE] + o] = np.float32(st.oni_dmg[i, o]) * T.inv_oni_power[o]
        out[off[B_ONI_DECK] + o] = at == AT_DECK
        out[off[B_ONI_TREASURE] + o] = at == AT_TREASURE
        out[off[B_ONI_POTION] + o] = at == AT_POTION

    # This turn's battle.
    if st.target[i] >= 0:
        out[off[B_TARGET] + st.target[i]] = 1.0
    if st.combo[i] >= 0:
        for c in range(NUM_CARDS):
            out[off[B_FOUGHT] + c] = T.combo_cards[st.combo[i], c]
    out[off[B_PENDING_DAMAGE]] = min(st.pending[i], 15) / 15.0
    if st.dice[i, 0] > 0:
        out[off[B_RED_DIE] + max(st.dice[i, 0] - 1, 0)] = 1.0
        out[off[B_WHITE_DIE] + max(st.dice[i, 1] - 1, 0)] = 1.0
    if st.outcome[i] >= 0:
        out[off[B_OUTCOME] + st.outcome[i]] = 1.0
    out[off[B_TURNS]] = min(st.turns[i] / R.max_turns, 1.0)
