"""The rules of nigejozu for one game of a batch, compiled with numba (docs/rules/nigejozu.md).

Every rule reads and writes row ``i`` of the state's arrays: ``st`` is the namedtuple of
:meth:`~.state.NigejozuState.view` (``st.troops[i, p, side]``), ``tab`` the :data:`Tables` of the rule
set (the map's links, the card faces and moves, the options). The batch kernels of :mod:`.batch` loop
these rules over the games. The functions follow the rulebook: setup, the march phase (the legal
actions, placing troops, strategy cards, the end of a turn), then the battle phase and the score.

Sets of provinces are 11-bit integers (bit p = province p), so "which provinces qualify" for a card
is a few integer operations on the sets of :func:`provinces_with` and the link tables.

The rules run on every game at every step read what they use from ``st`` on their first lines
(:func:`legal_actions`, and :func:`~.observation.write_observation`), and the helpers they call take
arrays and numbers: numba counts references to each of the state's 24 arrays when a function uses
``st`` past a branch (about 50 atomic operations per call), which otherwise costs more than the rule.
"""
from __future__ import annotations

import collections

import numpy as np

from yuugi.envs.core.jit import rules
from yuugi.envs.core.streams import die, draw_below, permutation, splitmix64

from . import board
from . import cards as C
from .actions import CARD0, COUNT0, DONE, PROVINCE0, REROLL, ROLL
from .board import KYO, NUM_PROVINCES
from .cards import (BUNTAI, HITOJICHI, JOURAKU, KASEI, MUHON, NUM_EFFECTS, OTORI, SHINOBI, SHINRIKI,
                    TAIKYAKU, TSUIHOU, YAMAGOE)
from .config import MAX_SCORE, NigejozuConfig
from .state import ASHIKAGA, HOJO, PHASE_CARD, PHASE_DICE, PHASE_OVER, PHASE_REROLLED, PHASE_TURN_START

NOBODY = -1
_SEED_SALT = np.uint64(0x5EED5EED5EED5EED)  # rng.keys_from_seeds: key = splitmix64(splitmix64(seed) ^ salt)

# The rule set as the compiled rules receive it (one per game object, see :func:`tables`).
Tables = collections.namedtuple("Tables", [
    "adjacent",  # int64[11]: the neighbours of each province (land or sea) as a set
    "land",  # int64[11]: neighbours across a land border
    "sea",  # int64[11]: neighbours across a sea link
    "faces",  # int64[cards, 2]: the effect on each card's Hojo / Ashikaga face
    "two_step",  # bool[12]: the card picks a source X, then a destination Y
    "own_moved",  # int64[12]: own troops a two-step card moves X -> Y (分隊: half, counted when it resolves)
    "opp_moved",  # int64[12]: enemy troops it moves
    "troops_per_player", "taikyaku_n", "muhon_returns_to_hand", "reinf_per_win", "score_diff",
])


def tables(cfg: NigejozuConfig) -> Tables:
    """The :data:`Tables` of a rule set: built once per game object, passed to every kernel."""
    return Tables(adjacent=board.ADJ_MASK, land=board.LAND_MASK, sea=board.SEA_MASK,
                  faces=np.ascontiguousarray(cfg.faces, dtype=np.int64), two_step=C.TWO_STEP,
                  own_moved=C.OWN_MOVED, opp_moved=C.OPP_MOVED, troops_per_player=int(cfg.troops_per_player),
                  taikyaku_n=int(cfg.taikyaku_n), muhon_returns_to_hand=bool(cfg.muhon_returns_to_hand),
                  reinf_per_win=int(cfg.reinf_per_win), score_diff=cfg.reward_scheme == "score_diff")


# ---- counting troops and provinces ---------------------------------------------------------------
@rules
def count_for(die_value: int) -> int:
    """Troops a count die places: 1-2 → 1, 3-4 → 2, 5-6 → 3."""
    return (die_value + 1) // 2


@rules
def provinces_with(troops: np.ndarray, i: int, side: int, at_least: int) -> int:
    """The set of provinces holding at least ``at_least`` of ``side``'s troops."""
    found = 0
    for p in range(NUM_PROVINCES):
        if troops[i, p, side] >= at_least:
            found |= 1 << p
    return found


@rules
def troops_on_map(troops: np.ndarray, i: int, side: int) -> int:
    total = 0
    for p in range(NUM_PROVINCES):
        total += int(troops[i, p, side])
    return total


@rules
def neighbours(provinces: int, links: np.ndarray) -> int:
    """The set of provinces linked (by ``links``) to some province of ``provinces``."""
    found = 0
    for p in range(NUM_PROVINCES):
        if (provinces >> p) & 1:
            found |= links[p]
    return found


@rules
def with_links(links: np.ndarray) -> int:
    """The set of provinces that have at least one link of ``links``."""
    found = 0
    for p in range(NUM_PROVINCES):
        if links[p] != 0:
            found |= 1 << p
    return found


@rules
def size(provinces: int) -> int:
    n = 0
    for p in range(NUM_PROVINCES):
        n += (provinces >> p) & 1
    return n


# ---- setup ---------------------------------------------------------------------------------------
@rules
def new_game(st, i: int, seed: np.uint64, tab) -> None:
    """A new game in row ``i``, its chance drawn from the stream of ``seed`` (setup, §4.3)."""
    clear(st, i)
    st.rng_key[i] = splitmix64(splitmix64(seed) ^ _SEED_SALT)
    deal(st, i, tab)


@rules
def clear(st, i: int) -> None:
    """Row ``i`` as :func:`~.state.empty_state` leaves it: no chips, no troops, no cards, nothing chosen."""
    st.to_play[i] = 0
    st.terminated[i] = False
    st.truncated[i] = False
    st.rewards[i, :] = 0.0
    st.rng_key[i] = np.uint64(0)
    st.rng_counter[i] = np.uint64(0)
    st.chip[i, :] = 0
    st.prov_of[i, :] = -1
    st.troops[i, :, :] = 0
    st.hand[i, :] = 0
    st.removed[i, :] = 0
    st.escape[i] = NOBODY
    st.held[i, :, :] = False
    st.used[i, :] = -1
    st.phase[i] = PHASE_TURN_START
    st.dice[i, :] = 0
    st.effect[i] = -1
    st.card_step[i] = 0
    st.selected[i] = -1
    st.picks[i] = 0
    st.turn[i] = 0
    st.winner_of[i, :] = NOBODY
    st.reinf[i, :, :] = 0
    st.score[i, :] = 0


@rules(allocates=True)
def deal(st, i: int, tab) -> None:
    """Setup: the 11 chips shuffled onto the provinces, 3 cards to each side (own faces up), each
    side's troops in hand, and a random start player."""
    shuffle = np.empty(NUM_PROVINCES, np.int64)  # province p gets chip shuffle[p] + 2
    permutation(st.rng_key, st.rng_counter, i, shuffle)
    for p in range(NUM_PROVINCES):
        st.chip[i, p] = shuffle[p] + 2
        st.prov_of[i, shuffle[p] + 2] = p
    deck = np.empty(tab.faces.shape[0], np.int64)  # the cards in shuffled order
    permutation(st.rng_key, st.rng_counter, i, deck)
    for k in range(3):
        st.held[i, HOJO, tab.faces[deck[k], HOJO]] = True  # the first three cards to Hojo
        st.held[i, ASHIKAGA, tab.faces[deck[3 + k], ASHIKAGA]] = True  # the next three to Ashikaga
    st.hand[i, :] = tab.troops_per_player
    st.to_play[i] = draw_below(st.rng_key, st.rng_counter, i, 2)
    st.phase[i] = PHASE_TURN_START


# ---- the march phase: what may be done -----------------------------------------------------------
@rules
def legal_actions(st, i: int, tab, mask: np.ndarray) -> None:
    """``mask`` (bool[29], one row of the batch's mask): the legal actions of game ``i``'s player."""
    troops, hand, dice, used, held = st.troops, st.hand, st.dice, st.used, st.held
    over, phase, me = st.terminated[i] or st.truncated[i], st.phase[i], int(st.to_play[i])
    effect, step, selected, picks = int(st.effect[i]), int(st.card_step[i]), int(st.selected[i]), int(st.picks[i])
    mask[:] = False
    if over:
        return
    if phase == PHASE_TURN_START:
        mask[ROLL] = True
        # One card per game, only while both hands hold troops.
        if used[i, me] < 0 and hand[i, HOJO] > 0 and hand[i, ASHIKAGA] > 0:
            for e in range(NUM_EFFECTS):
                if held[i, me, e]:
                    mask[CARD0 + e] = card_usable(troops, hand, i, me, e, tab)
    elif phase == PHASE_DICE or phase == PHASE_REROLLED:
        mask[REROLL] = phase == PHASE_DICE  # once per turn
        # The dice are sorted: a repeated value as the count is the same choice, offered once.
        mask[COUNT0] = True
        mask[COUNT0 + 1] = dice[i, 1] != dice[i, 0]
        mask[COUNT0 + 2] = dice[i, 2] != dice[i, 1]
    elif phase == PHASE_CARD:
        choices = card_choices(troops, i, me, effect, step, selected, tab)
        for x in range(NUM_PROVINCES):
            mask[PROVINCE0 + x] = ((choices >> x) & 1) == 1
        mask[DONE] = effect == JOURAKU and picks > 0  # 上洛 may stop after its first pick


@rules
def card_usable(troops: np.ndarray, hand: np.ndarray, i: int, me: int, e: int, tab) -> bool:
    """A card may be chosen only if its effect can be carried out in full."""
    if e == TAIKYAKU:  # that many of your troops on the map
        return troops_on_map(troops, i, me) >= tab.taikyaku_n
    if e == SHINOBI:  # a destination you occupy, other than the source
        return size(provinces_with(troops, i, me, 1)) >= 2
    if (e == KASEI or e == MUHON) and hand[i, me] == 0:  # a troop in hand to place
        return False
    return card_sources(troops, i, me, e, tab) != 0


@rules
def card_choices(troops: np.ndarray, i: int, me: int, e: int, step: int, selected: int, tab) -> int:
    """The provinces PROVINCE(x) may name in the current pick of card ``e``."""
    if step == 0:
        return card_sources(troops, i, me, e, tab)
    return card_destinations(troops, i, me, e, selected, tab)


@rules
def card_sources(troops: np.ndarray, i: int, me: int, e: int, tab) -> int:
    """The provinces a card's first pick may name (X, or each pick of 退却 / 上洛) on this board.

    A card needs at least one (and more, see :func:`card_usable`), which guarantees that its whole
    sequence can be completed.
    """
    adjacent, land, sea = tab.adjacent, tab.land, tab.sea
    own = provinces_with(troops, i, me, 1)
    enemy = provinces_with(troops, i, 1 - me, 1)
    if e == HITOJICHI:  # an enemy troop next to a province you occupy
        return enemy & neighbours(own, adjacent)
    if e == TSUIHOU:  # a province you share
        return own & enemy
    if e == MUHON:  # an enemy troop anywhere
        return enemy
    if e == OTORI:  # 1 of yours and 2 of theirs
        return own & provinces_with(troops, i, 1 - me, 2)
    if e == SHINRIKI:  # 2 of yours with a sea link
        return provinces_with(troops, i, me, 2) & with_links(sea)
    if e == YAMAGOE:  # 2 of yours with a land border
        return provinces_with(troops, i, me, 2) & with_links(land)
    if e == BUNTAI:  # at least 2 to split
        return provinces_with(troops, i, me, 2)
    if e == JOURAKU:  # each pick moves one troop into 京 from a neighbour of 京
        return own & adjacent[KYO]
    return own  # 加勢, 物見, 退却, 忍: a province you occupy


@rules
def card_destinations(troops: np.ndarray, i: int, me: int, e: int, x: int, tab) -> int:
    """The provinces the second pick (Y) of a two-step card may name, from source ``x``."""
    adjacent, land, sea = tab.adjacent, tab.land, tab.sea
    own = provinces_with(troops, i, me, 1)
    if e == HITOJICHI:  # next to X and yours
        return adjacent[x] & own
    if e == SHINRIKI:  # across the sea
        return sea[x]
    if e == YAMAGOE:  # across a land border
        return land[x]
    if e == SHINOBI:  # another province you occupy, anywhere
        return own & ~(1 << x)
    return adjacent[x]  # 物見, 追放, 囮, 分隊


# ---- the march phase: doing it -------------------------------------------------------------------
@rules
def play(st, i: int, action: int, tab) -> None:
    """The player of game ``i`` takes ``action`` (a legal one); automatic steps follow up to the next
    decision (the end of the turn, and after the last turn the battle phase)."""
    turn_ends = False
    if action == ROLL:
        roll_dice(st.dice, st.rng_key, st.rng_counter, i)
        st.phase[i] = PHASE_DICE
    elif action < REROLL:
        use_card(st, i, action - CARD0)
    elif action == REROLL:
        roll_dice(st.dice, st.rng_key, st.rng_counter, i)
        st.phase[i] = PHASE_REROLLED
    elif action < PROVINCE0:
        place_troops(st, i, action - COUNT0)
        turn_ends = True
    elif action < DONE:
        turn_ends = card_pick(st, i, action - PROVINCE0, tab)
    else:  # DONE: 上洛 stops
        turn_ends = True
    if turn_ends and end_turn(st, i):
        battle(st, i, tab)


@rules
def roll_dice(dice: np.ndarray, key: np.ndarray, counter: np.ndarray, i: int) -> None:
    """Three dice, kept sorted ascending (a reroll replaces all three)."""
    a = die(key, counter, i, 6)
    b = die(key, counter, i, 6)
    c = die(key, counter, i, 6)
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    dice[i, 0] = a
    dice[i, 1] = b
    dice[i, 2] = c


@rules
def place_troops(st, i: int, count_die: int) -> None:
    """COUNT_DIE: that die sets how many troops, the other two dice's sum names the province by its chip;
    a hand holding fewer places them all."""
    dice, troops, hand = st.dice, st.troops, st.hand
    me = int(st.to_play[i])
    pair = int(dice[i, 0]) + int(dice[i, 1]) + int(dice[i, 2]) - int(dice[i, count_die])
    p = st.prov_of[i, pair]
    k = min(count_for(int(dice[i, count_die])), int(hand[i, me]))
    troops[i, p, me] += k
    hand[i, me] -= k


@rules
def use_card(st, i: int, e: int) -> None:
    """CARD(e): the player's marker goes on the card; its picks follow."""
    st.used[i, st.to_play[i]] = e
    st.phase[i] = PHASE_CARD
    st.effect[i] = e
    st.card_step[i] = 0
    st.selected[i] = -1
    st.picks[i] = 0


@rules
def card_pick(st, i: int, x: int, tab) -> bool:
    """PROVINCE(x) for the card being resolved; True when the card is complete."""
    troops, hand, picks = st.troops, st.hand, st.picks
    e = int(st.effect[i])
    me = int(st.to_play[i])
    enemy = 1 - me
    if tab.two_step[e]:
        if st.card_step[i] == 0:  # the source X; the destination comes next
            st.selected[i] = x
            st.card_step[i] = 1
            return False
        source = int(st.selected[i])
        own = int(troops[i, source, me]) // 2 if e == BUNTAI else tab.own_moved[e]
        move_troops(troops, i, source, x, me, own)
        move_troops(troops, i, source, x, enemy, tab.opp_moved[e])
        return True
    if e == KASEI:  # a troop from the hand onto X
        troops[i, x, me] += 1
        hand[i, me] -= 1
        return True
    if e == MUHON:  # the enemy troop at X leaves (to its hand, or out of the game); one of yours replaces it
        troops[i, x, enemy] -= 1
        if tab.muhon_returns_to_hand:
            hand[i, enemy] += 1
        else:
            st.removed[i, enemy] += 1
        troops[i, x, me] += 1
        hand[i, me] -= 1
        return True
    if e == TAIKYAKU:  # one troop from X back to the hand per pick, taikyaku_n picks
        troops[i, x, me] -= 1
        hand[i, me] += 1
        picks[i] += 1
        return picks[i] >= tab.taikyaku_n
    # 上洛: one troop from X into 京 per pick; it ends when no neighbour of 京 holds one
    troops[i, x, me] -= 1
    troops[i, KYO, me] += 1
    picks[i] += 1
    return (provinces_with(troops, i, me, 1) & tab.adjacent[KYO]) == 0


@rules
def move_troops(troops: np.ndarray, i: int, source: int, destination: int, side: int, n: int) -> None:
    troops[i, source, side] -= n
    troops[i, destination, side] += n


@rules
def end_turn(st, i: int) -> bool:
    """The end of a turn: the first side to empty its hand takes the escape chip; the other side plays
    next while it has troops in hand (so a side may take consecutive turns). True when both hands are
    empty: the battle phase follows."""
    hand = st.hand
    me = int(st.to_play[i])
    other = 1 - me
    st.turn[i] += 1
    emptied = hand[i, me] == 0
    if emptied and st.escape[i] == NOBODY:
        st.escape[i] = me
    other_has_troops = hand[i, other] > 0
    st.to_play[i] = other if other_has_troops else me
    st.phase[i] = PHASE_TURN_START
    st.dice[i, :] = 0
    st.effect[i] = -1
    st.card_step[i] = 0
    st.selected[i] = -1
    st.picks[i] = 0
    return emptied and not other_has_troops


# ---- the battle phase and the score --------------------------------------------------------------
@rules
def battle(st, i: int, tab) -> None:
    """The battle phase (§4.5): provinces resolved in chip order 2..12, then the score and the rewards.

    In each province the stronger side (troops + reinforcements) wins, equal strength to the escape
    chip's holder; a province nobody holds sets its chip aside. The winner sends ``reinf_per_win``
    reinforcements to each adjacent province resolved later where it has troops.
    """
    troops, reinf, chip_of, winner_of, adjacent = st.troops, st.reinf, st.chip, st.winner_of, tab.adjacent
    escape = int(st.escape[i])
    reinf[i, :, :] = 0
    winner_of[i, :] = NOBODY
    hojo_score = 0
    ashikaga_score = 0
    for chip in range(2, 13):
        p = int(st.prov_of[i, chip])
        hojo = int(troops[i, p, HOJO])
        ashikaga = int(troops[i, p, ASHIKAGA])
        if hojo == 0 and ashikaga == 0:
            continue  # nobody there: the chip is set aside
        hojo += int(reinf[i, p, HOJO])
        ashikaga += int(reinf[i, p, ASHIKAGA])
        w = ASHIKAGA if ashikaga > hojo or (ashikaga == hojo and escape == ASHIKAGA) else HOJO
        winner_of[i, p] = w
        if w == HOJO:
            hojo_score += chip
        else:
            ashikaga_score += chip
        for q in range(NUM_PROVINCES):
            if (adjacent[p] >> q) & 1 and chip_of[i, q] > chip and troops[i, q, w] > 0:
                reinf[i, q, w] += tab.reinf_per_win
    st.score[i, HOJO] = hojo_score
    st.score[i, ASHIKAGA] = ashikaga_score
    pay_rewards(st.rewards, i, hojo_score, ashikaga_score, escape, tab.score_diff)
    st.phase[i] = PHASE_OVER
    st.terminated[i] = True


@rules
def pay_rewards(rewards: np.ndarray, i: int, hojo_score: int, ashikaga_score: int, escape: int,
                score_diff: bool) -> None:
    """+1 to the winner, -1 to the loser; or with ``score_diff`` the chip margin over 77 (no tie-break)."""
    if score_diff:
        margin = (hojo_score - ashikaga_score) / MAX_SCORE
        rewards[i, HOJO] = margin
        rewards[i, ASHIKAGA] = -margin
    else:
        w = final_winner(hojo_score, ashikaga_score, escape)
        rewards[i, w] = 1.0
        rewards[i, 1 - w] = -1.0


@rules
def final_winner(hojo_score: int, ashikaga_score: int, escape: int) -> int:
    """The side whose chips add up to more; equal totals go to the escape chip's holder."""
    if hojo_score > ashikaga_score:
        return HOJO
    if ashikaga_score > hojo_score:
        return ASHIKAGA
    return escape


@rules
def winner(st, i: int) -> int:
    """The winning side of game ``i`` once it is over, else -1."""
    if st.phase[i] != PHASE_OVER:
        return NOBODY
    return final_winner(int(st.score[i, HOJO]), int(st.score[i, ASHIKAGA]), int(st.escape[i]))
