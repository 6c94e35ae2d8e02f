"""The rules of 鬼ヶ島 for one game (rules file §3–§5 and the state machine of §10), compiled with numba.

Every rule reads and writes game ``i`` of the batch arrays ``st`` (the namedtuple of
``MomotaroState.view()``, so ``st.hand[i, p, c]`` is card c of seat p in game i). ``T`` is the rule
set's :class:`~.tables.KernelTables` (powers, janken modifiers, card sets) and ``R`` its
:class:`~.config.KernelOptions` (plain ints). The batch kernels that loop over games are in
:mod:`.batch`.

A decision is applied by the rule of the game's phase (:func:`apply_action`); what follows it
without a decision (reveal, janken, dice, damage on a lone card, the end of the turn, the next round)
runs in the same function, a loop over the automatic steps until the game waits for its next decision
or is over. All chance (hiring and oni shuffles, janken, start-player ties, dice) comes from the
game's own stream (:mod:`yuugi.envs.core.streams`).
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.jit import rules
from yuugi.envs.core.streams import die_by_modulo, draw_below, permutation, splitmix64

from .actions import (AT_ASSIGN, AT_COMBO, AT_DECLINE, AT_END_HEAL, AT_HEAL, AT_ONI, AT_TAKE, AT_YELLOW_POTION,
                      AT_YELLOW_TREASURE)
from .cards import BLACK_ONI, NUM_CARDS, NUM_ONI, NUM_RETAINERS, WARRIOR
from .state import (AT_FIELD, AT_POTION, AT_TREASURE, OUT_DRAW, OUT_LOSS, OUT_WIN, PHASE_ADD, PHASE_ASSIGN,
                    PHASE_BID, PHASE_COMBO, PHASE_HEAL, PHASE_ONI, PHASE_OVER, PHASE_TAKE, PHASE_YELLOW)

# The automatic steps between decisions, in the order the rules chain them; WAIT: the game waits
# for a decision (or is over).
STEP_WAIT, STEP_NEXT_CARD, STEP_AFTER_ONI, STEP_END_TURN, STEP_NEW_ROUND, STEP_BEGIN_TURN, STEP_ENTER_ONI = range(7)

_SEED_MIX = np.uint64(0x5EED5EED5EED5EED)
_NO_START = -(1 << 63)  # the start-player score of an eliminated seat: below every living one


# ---- setup ---------------------------------------------------------------------------------


@rules
def new_game(st, i, seed, T, R):
    """Game ``i`` from ``seed``: every array at its neutral value, then the shuffled hiring (C1) and
    oni (C5) decks, K0 kibidango and a warrior each, the first auction open."""
    st.rng_key[i] = splitmix64(splitmix64(np.uint64(seed)) ^ _SEED_MIX)  # rng.keys_from_seeds
    st.rng_counter[i] = 0
    st.to_play[i] = 0
    st.terminated[i] = False
    st.truncated[i] = False
    st.phase[i] = PHASE_BID
    st.round[i] = 0
    for p in range(R.num_players):
        st.rewards[i, p] = 0.0
        st.kibi[i, p] = R.kibi
        st.potions[i, p] = 0
        st.treasure[i, p] = 0
        st.alive[i, p] = True
        for c in range(NUM_CARDS):
            st.hand[i, p, c] = c == WARRIOR
            st.ko[i, p, c] = False
            st.card_dmg[i, p, c] = 0
            st.fresh[i, p, c] = False
        st.bids[i, p] = -1
        st.adds[i, p] = -1
        st.bidders[i, p] = True
        st.last_bids[i, p] = -1
        st.last_adds[i, p] = -1
    st.hire_pos[i] = 0
    for r in range(NUM_RETAINERS):
        st.declined[i, r] = False
    for o in range(NUM_ONI):
        st.oni_at[i, o] = 0  # AT_DECK
        st.oni_owner[i, o] = -1
        st.oni_dmg[i, o] = 0
    st.start_player[i] = 0
    st.slot[i] = 0
    st.target[i] = -1
    st.combo[i] = -1
    st.pending[i] = 0
    st.dice[i, 0] = 0
    st.dice[i, 1] = 0
    st.outcome[i] = -1
    st.turns[i] = 0
    permutation(st.rng_key, st.rng_counter, i, st.hire_deck[i])  # C1, then C5 from the same stream
    permutation(st.rng_key, st.rng_counter, i, st.oni_deck[i])


# ---- the legal actions ---------------------------------------------------------------------


@rules
def heal_allowed(in_play, damage, fresh, potions, kibi, warrior, heal_any_turn):
    """A damaged card in play heals by a potion (the warrior) or a kibidango (a retainer); under the
    strict rule only damage from the owner's latest battle (fresh) heals. Scalars only, so that the
    per-card checks pass no arrays."""
    if not in_play or damage <= 0:
        return False
    if (potions if warrior else kibi) <= 0:
        return False
    return heal_any_turn != 0 or fresh


@rules
def can_heal_any(hand, damage, fresh, potions, kibi, heal_any_turn):
    """Some card of a seat (its rows ``hand``, ``damage``, ``fresh``) may be healed now (D4)."""
    for c in range(NUM_CARDS):
        if heal_allowed(hand[c], damage[c], fresh[c], potions, kibi, c == WARRIOR, heal_any_turn):
            return True
    return False


@rules
def legal_actions(st, i, mask, T, R):
    """``mask`` (bool[A], the row of game i): the legal actions of the seat to play, none once over."""
    for a in range(mask.shape[0]):
        mask[a] = False
    if st.terminated[i] or st.truncated[i]:
        return
    k0 = R.kibi
    p = st.to_play[i]
    ph = st.phase[i]
    if ph == PHASE_BID or ph == PHASE_ADD:  # D1 / D2: any amount the seat can still pay
        limit = int(st.kibi[i, p])
        if ph == PHASE_ADD:
            limit -= int(st.bids[i, p])
        for n in range(k0 + 1):
            mask[n] = n <= limit
    elif ph == PHASE_TAKE:  # D3
        mask[k0 + AT_TAKE] = True
        mask[k0 + AT_DECLINE] = True
    elif ph == PHASE_HEAL:  # D4
        for c in range(NUM_CARDS):
            mask[k0 + AT_HEAL + c] = heal_allowed(st.hand[i, p, c], st.card_dmg[i, p, c], st.fresh[i, p, c],
                                                  st.potions[i, p], st.kibi[i, p], c == WARRIOR, R.heal_any_turn)
        mask[k0 + AT_END_HEAL] = True
    elif ph == PHASE_ONI:  # D5: any oni on the field
        for o in range(NUM_ONI):
            mask[k0 + AT_ONI + o] = st.oni_at[i, o] == AT_FIELD
    elif ph == PHASE_COMBO:  # D6: every card set whose cards are all in play
        bits = 0
        for c in range(NUM_CARDS):
            if st.hand[i, p, c]:
                bits |= 1 << c
        for k in range(T.combo_bits.shape[0]):
            mask[k0 + AT_COMBO + k] = (bits & T.combo_bits[k]) == T.combo_bits[k]
    elif ph == PHASE_ASSIGN:  # D7: one of the cards that fought
        for c in range(NUM_CARDS):
            mask[k0 + AT_ASSIGN + c] = T.combo_cards[st.combo[i], c]
    elif ph == PHASE_YELLOW:  # D8
        mask[k0 + AT_YELLOW_TREASURE] = True
        mask[k0 + AT_YELLOW_POTION] = True


# ---- applying a decision -------------------------------------------------------------------


@rules
def apply_action(st, i, a, T, R):
    """Apply the legal action ``a`` to game ``i`` by the rule of its phase, then the automatic steps one
    after the other until the game waits for its next decision or is over."""
    ph = st.phase[i]
    if ph == PHASE_BID or ph == PHASE_ADD:
        step = bid(st, i, a)
    elif ph == PHASE_TAKE:
        step = take(st, i, a - R.kibi)
    elif ph == PHASE_HEAL:
        step = heal(st, i, a - R.kibi, R)
    elif ph == PHASE_ONI:
        step = choose_oni(st, i, a - R.kibi - AT_ONI)
    elif ph == PHASE_COMBO:
        step = send(st, i, a - R.kibi - AT_COMBO, T, R)
    elif ph == PHASE_YELLOW:
        step = yellow_reward(st, i, a - R.kibi, T)
    else:  # PHASE_ASSIGN
        step = damage_card(st, i, a - R.kibi - AT_ASSIGN, T)
    while step != STEP_WAIT:
        if step == STEP_NEXT_CARD:
            step = next_card(st, i)
        elif step == STEP_AFTER_ONI:
            step = after_oni(st, i, T)
        elif step == STEP_END_TURN:
            step = end_turn(st, i, R)
        elif step == STEP_NEW_ROUND:
            step = new_round(st, i)
        elif step == STEP_BEGIN_TURN:
            step = begin_turn(st, i, R)
        else:  # STEP_ENTER_ONI
            step = enter_oni(st, i)


# ---- hiring (§4) ---------------------------------------------------------------------------


@rules(inline=True)  # one call site, in apply_action
def bid(st, i, amount):
    """A sealed bid (D1) or additional bid (D2); the last bidder's bid reveals them all."""
    p = st.to_play[i]
    first = st.phase[i] == PHASE_BID
    if first:
        st.bids[i, p] = amount
    else:
        st.adds[i, p] = amount
    for q in range(p + 1, st.bids.shape[1]):  # the next seat of this stage bids
        if st.bidders[i, q]:
            st.to_play[i] = q
            return STEP_WAIT
    if first:
        return reveal_bids(st, i)
    return reveal_additional_bids(st, i)


@rules
def reveal_bids(st, i):
    """The highest first bid takes the retainer; a tie goes to additional bids among the tied (D2)."""
    seats = st.bids.shape[1]
    top = -1
    for q in range(seats):
        top = max(top, int(st.bids[i, q]))
    tied, first_tied = 0, -1
    for q in range(seats):
        if st.bids[i, q] == top:
            tied += 1
            if first_tied < 0:
                first_tied = q
    if tied == 1:
        return award(st, i, first_tied, top)
    st.phase[i] = PHASE_ADD
    for q in range(seats):
        st.bidders[i, q] = st.bids[i, q] == top
    st.to_play[i] = first_tied
    return STEP_WAIT


@rules
def reveal_additional_bids(st, i):
    """The highest additional bid takes the retainer (paying first + additional bid); a tie again
    goes to janken among the still-tied (C2), whose winner decides D3."""
    seats = st.bids.shape[1]
    top = -1
    for q in range(seats):
        if st.bidders[i, q]:
            top = max(top, int(st.adds[i, q]))
    tied, first_tied = 0, -1
    for q in range(seats):
        if st.bidders[i, q] and st.adds[i, q] == top:
            tied += 1
            if first_tied < 0:
                first_tied = q
    if tied == 1:
        return award(st, i, first_tied, int(st.bids[i, first_tied]) + int(st.adds[i, first_tied]))
    k = draw_below(st.rng_key, st.rng_counter, i, tied)
    st.phase[i] = PHASE_TAKE
    for q in range(seats):
        if st.bidders[i, q] and st.adds[i, q] == top:
            if k == 0:
                st.to_play[i] = q
                break
            k -= 1
    return STEP_WAIT


@rules
def take(st, i, choice):
    """D3: the janken winner takes the card (paying first + additional bid) or declines it."""
    if choice == AT_TAKE:
        w = st.to_play[i]
        return award(st, i, w, int(st.bids[i, w]) + int(st.adds[i, w]))
    st.declined[i, st.hire_deck[i, st.hire_pos[i]]] = True  # out of the game, nobody pays
    return STEP_NEXT_CARD


@rules
def award(st, i, winner, price):
    """The auction's winner pays its price (the kibidango leave the game) and takes the retainer."""
    st.kibi[i, winner] -= price
    st.hand[i, winner, st.hire_deck[i, st.hire_pos[i]] + 1] = True
    return STEP_NEXT_CARD


@rules
def next_card(st, i):
    """The next retainer goes up for auction; after the ninth, the first battle round."""
    for q in range(st.bids.shape[1]):
        st.last_bids[i, q] = st.bids[i, q]
        st.last_adds[i, q] = st.adds[i, q]
        st.bids[i, q] = -1
        st.adds[i, q] = -1
        st.bidders[i, q] = True
    st.hire_pos[i] += 1
    if st.hire_pos[i] >= NUM_RETAINERS:
        return STEP_NEW_ROUND
    st.phase[i] = PHASE_BID
    st.to_play[i] = 0
    return STEP_WAIT


# ---- rounds and turns (§5.1) ---------------------------------------------------------------


@rules
def new_round(st, i):
    """Next round: 4 new oni join the field; the start player (§5.1, C3/C4) takes the first turn:
    in round 1 the most kibidango, later the fewest treasure then the most kibidango, living players
    only, janken among the tied."""
    st.round[i] += 1
    r = int(st.round[i])
    for j in range(4):
        st.oni_at[i, st.oni_deck[i, 4 * (r - 1) + j]] = AT_FIELD
    seats = st.kibi.shape[1]
    best, tied = _NO_START, 0
    for q in range(seats):
        s = start_score(st.alive[i, q], st.kibi[i, q], st.treasure[i, q], r)
        if s > best:
            best, tied = s, 1
        elif s == best:
            tied += 1
    k = draw_below(st.rng_key, st.rng_counter, i, tied)
    start = 0
    for q in range(seats):
        if start_score(st.alive[i, q], st.kibi[i, q], st.treasure[i, q], r) == best:
            if k == 0:
                start = q
                break
            k -= 1
    st.start_player[i] = start
    st.slot[i] = 0
    st.to_play[i] = start
    return STEP_BEGIN_TURN


@rules
def start_score(alive, kibi, treasure, r):
    """Who starts round r: the highest score (kibidango, minus treasure first after round 1)."""
    if not alive:
        return _NO_START
    if r == 1:
        return int(kibi)
    return int(kibi) - (int(treasure) << 7)


@rules
def begin_turn(st, i, R):
    """Turn start: the heal step (D4) when something can be healed, else choose the oni."""
    p = st.to_play[i]
    if can_heal_any(st.hand[i, p], st.card_dmg[i, p], st.fresh[i, p], st.potions[i, p], st.kibi[i, p], R.heal_any_turn):
        st.phase[i] = PHASE_HEAL
        return STEP_WAIT
    return STEP_ENTER_ONI


@rules
def heal(st, i, choice, R):
    """D4: one damage off one card (a potion for the warrior, a kibidango for a retainer), or END."""
    if choice == AT_END_HEAL:
        return STEP_ENTER_ONI
    c = choice - AT_HEAL
    p = st.to_play[i]
    st.card_dmg[i, p, c] -= 1
    if c == WARRIOR:
        st.potions[i, p] -= 1
    else:
        st.kibi[i, p] -= 1
    if can_heal_any(st.hand[i, p], st.card_dmg[i, p], st.fresh[i, p], st.potions[i, p], st.kibi[i, p], R.heal_any_turn):
        return STEP_WAIT
    return STEP_ENTER_ONI


@rules
def enter_oni(st, i):
    """The heal step for the player's fresh damage is over; D5 next."""
    p = st.to_play[i]
    for c in range(NUM_CARDS):
        st.fresh[i, p, c] = False
    st.phase[i] = PHASE_ONI
    return STEP_WAIT


@rules
def choose_oni(st, i, o):
    st.target[i] = o
    st.combo[i] = -1
    st.phase[i] = PHASE_COMBO
    return STEP_WAIT


# ---- the battle (§5.2 steps 3–6) -----------------------------------------------------------


@rules
def send(st, i, k, T, R):
    """D6: the card set k fights; dice (C6: red for the oni, white for the player) and the result."""
    st.combo[i] = k
    p = st.to_play[i]
    o = st.target[i]
    war = 0
    for c in range(NUM_CARDS):
        if T.combo_cards[k, c]:
            war += T.card_power[c]
            if R.damage_reduces_power:
                war -= st.card_dmg[i, p, c]
    war += T.combo_oni_mod[k, o]
    red = die_by_modulo(st.rng_key, st.rng_counter, i, 6)
    white = die_by_modulo(st.rng_key, st.rng_counter, i, 6)
    st.dice[i, 0] = red
    st.dice[i, 1] = white
    power = T.oni_power[o]
    oni_dmg = int(st.oni_dmg[i, o])
    diff = (war + white) - (power - oni_dmg + red)
    if diff > 0:  # win: the oni takes the difference
        st.outcome[i] = OUT_WIN
        oni_dmg += diff
        st.pending[i] = 0
    elif diff == 0:  # draw: one damage each
        st.outcome[i] = OUT_DRAW
        oni_dmg += 1
        st.pending[i] = 1
    else:  # loss: the player's cards take the difference
        st.outcome[i] = OUT_LOSS
        st.pending[i] = -diff
    oni_dmg = min(oni_dmg, power)  # a defeated oni's excess does not matter
    st.oni_dmg[i, o] = oni_dmg
    if oni_dmg < power:
        return STEP_AFTER_ONI
    if T.is_yellow[o]:
        st.phase[i] = PHASE_YELLOW  # D8 first; the card damage of a draw follows
        return STEP_WAIT
    st.oni_at[i, o] = AT_TREASURE  # flipped: treasure = printed power
    st.oni_owner[i, o] = p
    st.treasure[i, p] += power
    return STEP_AFTER_ONI


@rules
def yellow_reward(st, i, choice, T):
    """D8: 黄鬼 as treasure (its value) or as potions (1 for 黄鬼2, 2 for 黄鬼4); final."""
    o = st.target[i]
    p = st.to_play[i]
    if choice == AT_YELLOW_TREASURE:
        st.treasure[i, p] += T.oni_power[o]
        st.oni_at[i, o] = AT_TREASURE
    else:
        st.potions[i, p] += T.yellow_potions[o]
        st.oni_at[i, o] = AT_POTION
    st.oni_owner[i, o] = p
    return STEP_AFTER_ONI


@rules
def after_oni(st, i, T):
    """Damage to the player's side: on the one card of a single-card set, else the choice D7."""
    if st.pending[i] <= 0:
        return STEP_END_TURN
    k = st.combo[i]
    if T.combo_size[k] == 1:
        return damage_card(st, i, T.combo_single_card[k], T)
    st.phase[i] = PHASE_ASSIGN
    return STEP_WAIT


@rules
def damage_card(st, i, c, T):
    """All the pending damage on card c; at printed power it is knocked out and the excess is lost;
    a knocked-out warrior eliminates its player."""
    p = st.to_play[i]
    power = T.card_power[c]
    dmg = min(int(st.card_dmg[i, p, c]) + int(st.pending[i]), power)
    st.card_dmg[i, p, c] = dmg
    if dmg >= power:
        st.hand[i, p, c] = False
        st.ko[i, p, c] = True
        if c == WARRIOR:
            st.alive[i, p] = False
    else:
        st.fresh[i, p, c] = True
    st.pending[i] = 0
    return STEP_END_TURN


# ---- end of turn (§5.2 step 7) and the end of the game (§5.7) ------------------------------


@rules(inline=True)  # one call site
def end_turn(st, i, R):
    """黒鬼 recovers; the game ends (every warrior out, or round 3's field cleared) or is cut at
    max_turns; else the next living seat plays, or the next round begins."""
    if st.oni_at[i, BLACK_ONI] == AT_FIELD and st.oni_dmg[i, BLACK_ONI] > 0:
        st.oni_dmg[i, BLACK_ONI] -= 1  # at every hand-over
    st.turns[i] += 1
    field = False
    for o in range(NUM_ONI):
        if st.oni_at[i, o] == AT_FIELD:
            field = True
    anyone = False
    seats = st.alive.shape[1]
    for q in range(seats):
        if st.alive[i, q]:
            anyone = True
    rnd = st.round[i]
    if not anyone or (rnd == 3 and not field):
        finish(st, i, R)
        return STEP_WAIT
    if st.turns[i] >= R.max_turns:
        st.truncated[i] = True
        st.phase[i] = PHASE_OVER
        return STEP_WAIT
    # Next living seat clockwise; dead seats are skipped but use up their turn slot (§11 #15).
    cur = int(st.start_player[i]) + int(st.slot[i])
    step, seat = 0, (cur + 1) % seats
    for j in range(seats):
        q = (cur + 1 + j) % seats
        if st.alive[i, q]:
            step, seat = j, q
            break
    new_slot = int(st.slot[i]) + step + 1
    if rnd < 3 and (not field or new_slot >= R.slot_limit):
        return STEP_NEW_ROUND
    st.slot[i] = new_slot
    st.to_play[i] = seat
    return STEP_BEGIN_TURN


@rules(allocates=True)
def finish(st, i, R):
    """The game ends: rank-based rewards (§5.7, §9)."""
    st.terminated[i] = True
    st.phase[i] = PHASE_OVER
    seats = st.alive.shape[1]
    keys = np.empty(seats, np.int64)
    for q in range(seats):
        keys[q] = rank_key(st.alive[i, q], st.treasure[i, q], st.hand[i, q], st.kibi[i, q])
    ranks = np.empty(seats, np.int64)
    place_rewards(keys, R.linear_rewards, ranks, st.rewards[i])


@rules
def rank_key(alive, treasure, hand, kibi):
    """The ranking key of §5.7: survivors first, then treasure, surviving retainers, kibidango.

    Fields are packed so that comparing keys compares the tie-break chain in order (treasure < 1024,
    retainers <= 9, kibidango <= 60).
    """
    retainers = 0
    for c in range(1, NUM_CARDS):
        if hand[c]:
            retainers += 1
    return (int(alive) << 20) | (int(treasure) << 10) | (retainers << 6) | int(kibi)


@rules
def place_rewards(keys, linear, ranks, rewards):
    """Ranks (1 = first, shared ranks) and zero-sum rewards of one game from its keys: "winner" pays the
    firsts (N - k)/(k(N - 1)) and the others -1/(N - 1); "linear" 1 - 2(place - 1)/(N - 1), tied seats
    sharing the mean of the places they cover."""
    n = keys.shape[0]
    firsts = 0
    for p in range(n):
        greater = 0
        for q in range(n):
            if keys[q] > keys[p]:
                greater += 1
        if greater == 0:
            firsts += 1
    for p in range(n):
        greater, equal = 0, 0
        for q in range(n):
            if keys[q] > keys[p]:
                greater += 1
            elif keys[q] == keys[p]:
                equal += 1
        ranks[p] = 1 + greater
        if linear:
            mean_place = greater + (equal - 1) / 2.0
            rewards[p] = 1.0 - 2.0 * mean_place / (n - 1)
        elif greater == 0:
            rewards[p] = (n - firsts) / (firsts * (n - 1))
        else:
            rewards[p] = -1.0 / (n - 1)


def rank_keys(alive: np.ndarray, treasure: np.ndarray, hand: np.ndarray, kibi: np.ndarray) -> np.ndarray:
    """int64[n, P]: :func:`rank_key` of every seat of n games (for people: the render, the tests)."""
    keys = np.empty(alive.shape, dtype=np.int64)
    for g in range(alive.shape[0]):
        for p in range(alive.shape[1]):
            keys[g, p] = rank_key(alive[g, p], treasure[g, p], hand[g, p], kibi[g, p])
    return keys


def rank_rewards(keys: np.ndarray, scheme: str) -> tuple[np.ndarray, np.ndarray]:
    """(ranks int64[n, P] with 1 = first and shared ranks, rewards float32[n, P]) of :func:`place_rewards`."""
    ranks = np.empty(keys.shape, dtype=np.int64)
    rewards = np.empty(keys.shape, dtype=np.float32)
    for g in range(keys.shape[0]):
        place_rewards(np.ascontiguousarray(keys[g], dtype=np.int64), int(scheme == "linear"), ranks[g], rewards[g])
    return ranks, rewards
