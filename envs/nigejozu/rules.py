"""The rules of nigejozu as batched numpy functions (rules file §3.3 and §4).

The rule functions of every game share one shape: ``init(st, g, cfg)`` deals games ``g`` of a state
from :func:`~.state.empty_state` (rng keys set), ``legal_mask(st, cfg)`` is bool[B, A], and
``apply(st, g, actions, cfg)`` applies one validated action per game of ``g``; ``cfg`` is the
:class:`~.config.NigejozuConfig`. Every function acts on the whole batch or on ``g``, an int array of
distinct game indices, and never loops over games (loops over the 11 chips of the battle phase are
fine). Sets of provinces are 11-bit integers (see :mod:`.board`), so card preconditions and target
steps are integer operations and table lookups.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core import rng

from . import actions as A
from . import cards as C
from .board import (ADJ, ADJ_MASK, BITS, HAS_LAND, HAS_SEA, KYO, KYO_NEIGHBOURS, LAND_MASK, NEIGH_OF_SET, NUM_PROVINCES,
                    POPCOUNT, POW2, SEA_MASK)
from .config import MAX_SCORE, NigejozuConfig
from .state import PHASE_CARD, PHASE_DICE, PHASE_OVER, PHASE_REROLLED, PHASE_TURN_START, NigejozuState

# Troops viewed as [n, 22] (province-major, faction-minor) times this matrix give each faction's set of
# provinces: row 2p + f holds 2**p in column f. One float32 matrix product over the whole batch is the
# fastest exact sum here (values < 2048); a product per game ([11] @ [n, 11, 2]) is four times slower.
_OCCUPANCY_WEIGHTS = np.zeros((2 * NUM_PROVINCES, 2), dtype=np.float32)
_OCCUPANCY_WEIGHTS[0::2, 0] = POW2
_OCCUPANCY_WEIGHTS[1::2, 1] = POW2
_ADJ_FLAT = ADJ.ravel()  # ADJ[p, q] at p * 11 + q: one take gathers a game's adjacency in chip order
_LATER = np.triu(np.ones((NUM_PROVINCES, NUM_PROVINCES), dtype=bool), 1)  # [k, j]: chip order j after k
_CHIP_NUMBERS_F = np.arange(2, 13, dtype=np.float32)
# Destination rule of each two-step card's second step (Y): index into the stack built in card_choices.
_Y_ADJ, _Y_ADJ_OWN, _Y_SEA, _Y_LAND, _Y_OWN_OTHER = range(5)
_Y_KIND = np.zeros(C.NUM_EFFECTS, dtype=np.intp)
_Y_KIND[C.HITOJICHI] = _Y_ADJ_OWN
_Y_KIND[C.SHINRIKI] = _Y_SEA
_Y_KIND[C.YAMAGOE] = _Y_LAND
_Y_KIND[C.SHINOBI] = _Y_OWN_OTHER
# Kind of each action (index into actions.KIND_NAMES): one lookup instead of a range test per kind.
_ROLL, _CARD, _REROLL, _COUNT, _PROVINCE, _DONE = range(6)
assert A.KIND_NAMES == ("roll", "card", "reroll", "count_die", "province", "done")
_KIND_OF_ACTION = np.zeros(A.NUM_ACTIONS, dtype=np.intp)
_KIND_OF_ACTION[A.CARD0:A.REROLL] = _CARD
_KIND_OF_ACTION[A.REROLL] = _REROLL
_KIND_OF_ACTION[A.COUNT0:A.PROVINCE0] = _COUNT
_KIND_OF_ACTION[A.PROVINCE0:A.DONE] = _PROVINCE
_KIND_OF_ACTION[A.DONE] = _DONE


def count_for(die: np.ndarray) -> np.ndarray:
    """Troops a count die places: 1-2 → 1, 3-4 → 2, 5-6 → 3."""
    return (die.astype(np.int64) + 1) // 2


def occupancy(troops: np.ndarray, at_least: int = 1) -> np.ndarray:
    """int64[n, 2]: per faction, the set of provinces holding at least ``at_least`` of its troops."""
    return ((troops.reshape(len(troops), 2 * NUM_PROVINCES) >= at_least) @ _OCCUPANCY_WEIGHTS).astype(np.int64)


# ---- setup -------------------------------------------------------------------------------------
def init(st: NigejozuState, g: np.ndarray, cfg: NigejozuConfig) -> None:
    """§4.3 for games ``g`` of ``st`` (fresh from :func:`~.state.empty_state`, rng keys set): chips
    shuffled onto the provinces, cards dealt 3 and 3, random start player."""
    keys, ctr = st.rng_key[g], st.rng_counter[g]
    # The chip shuffle, the card deal and the start player, in this order, from one draw.
    raw = rng.draw_uint64(keys, ctr, NUM_PROVINCES + cfg.num_cards + 1)
    chip = rng.permutations_from(raw[:, :NUM_PROVINCES]) + 2  # chip[i, p]
    deal = rng.permutations_from(raw[:, NUM_PROVINCES:-1])  # first 3 Hojo, next 3 Ashikaga
    start = rng.below_from(raw[:, -1], 2)
    st.rng_counter[g] = ctr
    st.chip[g] = chip
    st.prov_of[g[:, None], chip] = np.arange(NUM_PROVINCES)
    faces = cfg.faces
    st.held[g[:, None], 0, faces[deal[:, :3], 0]] = True
    st.held[g[:, None], 1, faces[deal[:, 3:6], 1]] = True
    st.hand[g] = cfg.troops_per_player
    st.to_play[g] = start
    st.phase[g] = PHASE_TURN_START


# ---- the legal mask ----------------------------------------------------------------------------
def first_choices(own: np.ndarray, opp: np.ndarray, own2: np.ndarray, opp2: np.ndarray) -> np.ndarray:
    """int64[n, 12]: per effect, the provinces that may be picked in step 0 (X, or each repeated pick).

    ``own``/``opp`` are the provinces where the player / the opponent has a troop, ``own2``/``opp2``
    where they have at least two. A non-empty set is also what makes the card usable, apart from the
    extra conditions in :func:`card_usable`.
    """
    return np.stack([
        own,  # 加勢: a province you occupy
        own,  # 物見: the troop to move
        opp & NEIGH_OF_SET[own],  # 人質: an enemy troop next to a province you occupy
        own & opp,  # 追放: a province you share
        opp,  # 謀反: an enemy troop anywhere
        own & opp2,  # 囮: 1 of yours and 2 of theirs
        own2 & HAS_SEA,  # 神力: 2 of yours with a sea link
        own2 & HAS_LAND,  # 山越え: 2 of yours with a land border
        own,  # 退却: each pick returns one troop
        own,  # 忍: the troop to move (needs a second occupied province, see card_usable)
        own2,  # 分隊: at least 2 to split
        own & KYO_NEIGHBOURS,  # 上洛: each pick moves one troop into 京
    ], axis=1)


def card_usable(st: NigejozuState, g: np.ndarray, me: np.ndarray, cfg: NigejozuConfig) -> np.ndarray:
    """bool[n, 12]: the preconditions of §3.3 for player ``me`` in games ``g``.

    Each precondition guarantees that the card's whole sequence can be completed.
    """
    r = np.arange(len(g))
    t = st.troops[g]
    occ1, occ2 = occupancy(t, 1), occupancy(t, 2)
    own, opp = occ1[r, me], occ1[r, 1 - me]
    ok = first_choices(own, opp, occ2[r, me], occ2[r, 1 - me]) != 0
    hand_me = st.hand[g, me] > 0
    ok[:, C.KASEI] &= hand_me
    ok[:, C.MUHON] &= hand_me
    ok[:, C.TAIKYAKU] = t[r, :, me].sum(axis=1, dtype=np.int64) >= cfg.taikyaku_n
    ok[:, C.SHINOBI] = POPCOUNT[own] >= 2
    return ok


def card_choices(st: NigejozuState, g: np.ndarray) -> np.ndarray:
    """int64[n]: provinces PROVINCE(x) may name in the current card step of games ``g``."""
    n = len(g)
    r = np.arange(n)
    me = st.to_play[g].astype(np.intp)
    t = st.troops[g]
    occ1, occ2 = occupancy(t, 1), occupancy(t, 2)
    own = occ1[r, me]
    e = st.effect[g].astype(np.intp)
    step0 = first_choices(own, occ1[r, 1 - me], occ2[r, me], occ2[r, 1 - me])[r, e]
    x = np.maximum(st.selected[g], 0).astype(np.intp)
    step1 = np.stack([ADJ_MASK[x], ADJ_MASK[x] & own, SEA_MASK[x], LAND_MASK[x], own & ~POW2[x]], axis=1)
    step1 = step1[r, _Y_KIND[e]]
    return np.where(st.card_step[g] == 0, step0, step1)


def legal_mask(st: NigejozuState, cfg: NigejozuConfig) -> np.ndarray:
    """bool[B, 29]: §4.7's masks by sub-state; all False where the game is over."""
    b = st.batch_size
    mask = np.zeros((b, A.NUM_ACTIONS), dtype=bool)
    live = ~(st.terminated | st.truncated)
    phase = st.phase
    me = st.to_play.astype(np.intp)
    rows = np.arange(b)
    turn_start = live & (phase == PHASE_TURN_START)
    mask[:, A.ROLL] = turn_start
    # Cards: once per game, only while both hands hold troops, only if the effect can be completed.
    # Only about one game in nine may use its card on a given turn: test the preconditions for those.
    g = (turn_start & (st.used[rows, me] < 0) & (st.hand[:, 0] > 0) & (st.hand[:, 1] > 0)).nonzero()[0]
    if len(g):
        mg = me[g]
        mask[g, A.CARD0:A.REROLL] = st.held[g, mg] & card_usable(st, g, mg, cfg)
    first_roll = live & (phase == PHASE_DICE)
    rolled = first_roll | (live & (phase == PHASE_REROLLED))
    mask[:, A.REROLL] = first_roll
    d = st.dice
    mask[:, A.COUNT0] = rolled
    mask[:, A.COUNT0 + 1] = rolled & (d[:, 1] != d[:, 0])  # sorted dice: a repeated value is the same choice
    mask[:, A.COUNT0 + 2] = rolled & (d[:, 2] != d[:, 1])
    g = (live & (phase == PHASE_CARD)).nonzero()[0]
    if len(g):
        mask[g, A.PROVINCE0:A.DONE] = BITS[card_choices(st, g)]
        mask[g, A.DONE] = (st.effect[g] == C.JOURAKU) & (st.picks[g] > 0)
    return mask


# ---- applying actions --------------------------------------------------------------------------
def apply(st: NigejozuState, g: np.ndarray, actions: np.ndarray, cfg: NigejozuConfig) -> None:
    """Apply the already validated ``actions`` (one per game of ``g``) to games ``g``."""
    a = actions
    kind = _KIND_OF_ACTION[a]
    # One count of the action kinds decides which handlers run at all (a batch of one has one kind).
    present = np.bincount(kind, minlength=len(A.KIND_NAMES)).tolist()
    if present[_ROLL] or present[_REROLL]:
        roll, reroll = kind == _ROLL, kind == _REROLL
        _roll(st, g[roll | reroll])
        st.phase[g[roll]] = PHASE_DICE
        st.phase[g[reroll]] = PHASE_REROLLED
    if present[_CARD]:
        is_card = kind == _CARD
        _use_card(st, g[is_card], a[is_card] - A.CARD0)
    ended = []
    if present[_COUNT]:
        place = kind == _COUNT
        _place(st, g[place], a[place] - A.COUNT0)
        ended.append(g[place])
    if present[_PROVINCE]:
        pick = kind == _PROVINCE
        ended.append(_card_step(st, g[pick], a[pick] - A.PROVINCE0, cfg))
    if present[_DONE]:
        ended.append(g[kind == _DONE])
    if ended:
        end_turn(st, np.concatenate(ended) if len(ended) > 1 else ended[0], cfg)


def _roll(st: NigejozuState, g: np.ndarray) -> None:
    """3d6 from each game's own stream, sorted ascending."""
    if not len(g):
        return
    d = rng.dice_at(st, g, 3)
    d.sort(axis=1)
    st.dice[g] = d


def _place(st: NigejozuState, g: np.ndarray, i: np.ndarray) -> None:
    """COUNT_DIE(i): die i sets the count, the other two the province; short hands place what is left."""
    if not len(g):
        return
    me = st.to_play[g].astype(np.intp)
    d = st.dice[g].astype(np.int64)
    die = d[np.arange(len(g)), i]
    p = st.prov_of[g, d.sum(axis=1) - die].astype(np.intp)
    k = np.minimum(count_for(die), st.hand[g, me])
    st.troops[g, p, me] += k
    st.hand[g, me] -= k


def _use_card(st: NigejozuState, g: np.ndarray, e: np.ndarray) -> None:
    """CARD(e): the player's marker goes on the card; its target steps follow."""
    if not len(g):
        return
    st.used[g, st.to_play[g].astype(np.intp)] = e
    st.phase[g] = PHASE_CARD
    st.effect[g] = e
    st.card_step[g] = 0
    st.selected[g] = -1
    st.picks[g] = 0


def _card_step(st: NigejozuState, g: np.ndarray, x: np.ndarray, cfg: NigejozuConfig) -> np.ndarray:
    """PROVINCE(x) in a card's target step; returns the games whose card is now complete.

    Each card's handler runs only when some game of ``g`` is resolving that card (one count of the
    effects decides; a batch holds few card steps, often of only a few effects).
    """
    if not len(g):
        return g
    e = st.effect[g].astype(np.intp)
    me = st.to_play[g].astype(np.intp)
    opp = 1 - me
    present = np.bincount(e, minlength=C.NUM_EFFECTS)
    done = []
    if present[C.TWO_STEP].any():
        two = C.TWO_STEP[e]
        # Step 0 of a two-step card only records the source.
        first = two & (st.card_step[g] == 0)
        st.selected[g[first]] = x[first]
        st.card_step[g[first]] = 1
        # Step 1 resolves: move troops X -> Y (X != Y always, so the two writes never collide).
        sec = two & ~first
        if sec.any():
            gs, es, ms, os_, ys = g[sec], e[sec], me[sec], opp[sec], x[sec]
            xs = st.selected[gs].astype(np.intp)
            own_n = np.where(es == C.BUNTAI, st.troops[gs, xs, ms] // 2, C.OWN_MOVED[es])
            opp_n = C.OPP_MOVED[es]
            st.troops[gs, xs, ms] -= own_n
            st.troops[gs, ys, ms] += own_n
            st.troops[gs, xs, os_] -= opp_n
            st.troops[gs, ys, os_] += opp_n
            done.append(gs)
    if present[C.KASEI]:  # 加勢: a troop from hand onto X.
        k = e == C.KASEI
        st.troops[g[k], x[k], me[k]] += 1
        st.hand[g[k], me[k]] -= 1
        done.append(g[k])
    if present[C.MUHON]:  # 謀反: an enemy troop at X goes back to its hand (or out of the game); one of yours replaces it.
        m = e == C.MUHON
        gm, xm, mm, om = g[m], x[m], me[m], opp[m]
        st.troops[gm, xm, om] -= 1
        if cfg.muhon_returns_to_hand:
            st.hand[gm, om] += 1
        else:
            st.removed[gm, om] += 1
        st.troops[gm, xm, mm] += 1
        st.hand[gm, mm] -= 1
        done.append(gm)
    if present[C.TAIKYAKU]:  # 退却: one troop from X back to hand per pick, exactly taikyaku_n picks.
        t = e == C.TAIKYAKU
        gt = g[t]
        st.troops[gt, x[t], me[t]] -= 1
        st.hand[gt, me[t]] += 1
        st.picks[gt] += 1
        done.append(gt[st.picks[gt] >= cfg.taikyaku_n])
    if present[C.JOURAKU]:  # 上洛: one troop from X into 京 per pick; it ends when no neighbour of 京 has one left.
        j = e == C.JOURAKU
        gj, mj = g[j], me[j]
        st.troops[gj, x[j], mj] -= 1
        st.troops[gj, KYO, mj] += 1
        st.picks[gj] += 1
        left = occupancy(st.troops[gj], 1)[np.arange(len(gj)), mj] & KYO_NEIGHBOURS
        done.append(gj[left == 0])
    if not done:
        return g[:0]
    return np.concatenate(done) if len(done) > 1 else done[0]


def end_turn(st: NigejozuState, g: np.ndarray, cfg: NigejozuConfig) -> None:
    """§4.4 end of turn: the escape chip, the next player (consecutive turns), or the battle."""
    if not len(g):
        return
    me = st.to_play[g].astype(np.intp)
    st.turn[g] += 1
    empty = st.hand[g, me] == 0
    take = empty & (st.escape[g] < 0)
    st.escape[g[take]] = me[take]
    other_has = st.hand[g, 1 - me] > 0
    st.to_play[g] = np.where(other_has, 1 - me, me)
    st.phase[g] = PHASE_TURN_START
    st.dice[g] = 0
    st.effect[g] = -1
    st.card_step[g] = 0
    st.selected[g] = -1
    st.picks[g] = 0
    battle(st, g[empty & ~other_has], cfg)


# ---- the battle phase --------------------------------------------------------------------------
def battle(st: NigejozuState, g: np.ndarray, cfg: NigejozuConfig) -> None:
    """§4.5 for games ``g``: provinces in chip order 2..12, then the final score and rewards.

    Works in chip order (index k = the province bearing chip k + 2) and tracks only the strength
    difference Ashikaga − Hojo, so each chip costs two numpy calls:

    * Ashikaga takes chip k iff troops1 + 援軍1 − troops0 − 援軍0 + [Ashikaga holds the 逃げチップ] > 0
      (equal strength goes to the chip holder).
    * A 援軍 only ever goes to a province holding the winner's troops, so a side without troops
      somewhere has strength 0 there: the sole-occupant rule needs no special case.
    * The winner of chip k sends ``reinf_per_win`` to each adjacent later province (chip still on the
      map) where it has troops; an empty province (chip set aside) sends nothing.

    The difference starts as if Hojo took every chip (all of Hojo's 援軍 already counted); each chip
    Ashikaga takes then adds its ``swing`` (Ashikaga's 援軍 from it, plus Hojo's that do not come).
    """
    n = len(g)
    if not n:
        return
    r = g[:, None]
    order = st.prov_of[g, 2:].astype(np.intp)  # [n, 11]: province of chip k + 2
    t = st.troops[r, order].astype(np.int64)  # [n, 11, 2] in chip order
    has0, has1 = t[:, :, 0] > 0, t[:, :, 1] > 0
    taken = has0 | has1  # [n, k]: somebody is there, the chip is taken
    # sends[n, k, j]: chip-order province j is adjacent to k, resolved after it, and k's chip is taken.
    sends = _ADJ_FLAT.take(order[:, :, None] * NUM_PROVINCES + order[:, None, :]) & _LATER & taken[:, :, None]
    to0 = sends & has0[:, None, :]  # where Hojo's 援軍 from chip k would go
    to1 = sends & has1[:, None, :]
    per = cfg.reinf_per_win
    esc1 = st.escape[g] == 1
    hojo_everywhere = t[:, :, 1] - t[:, :, 0] + esc1[:, None] - per * to0.sum(axis=1)  # [n, j]
    # Chip-major rows ([chip, game]) keep every step of the loop below on contiguous rows of the batch.
    strength = np.ascontiguousarray(hojo_everywhere.T)  # [j, n]
    swing = np.ascontiguousarray((per * (to0.view(np.int8) + to1.view(np.int8))).transpose(1, 2, 0))  # [k, j, n]
    ashikaga_wins = np.empty((NUM_PROVINCES, n), dtype=bool)
    for k in range(NUM_PROVINCES):
        np.greater(strength[k], 0, out=ashikaga_wins[k])
        np.add(strength, swing[k], out=strength, where=ashikaga_wins[k])
    taken = taken.T
    won1 = ashikaga_wins & taken  # [k, n]
    won0 = ~ashikaga_wins & taken
    # Chips taken per side: one float32 product (exact: at most 77) over both sides' [k, n] rows.
    score = (_CHIP_NUMBERS_F @ np.stack([won0, won1])).astype(np.int64).T  # [n, 2]
    # 援軍 received at each chip j: the winner's sends from every chip k it took, as one float32
    # product per game ([1, k] @ [k, j], exact: at most 11).
    reinf0 = (won0.T[:, None, :].astype(np.float32) @ to0.astype(np.float32))[:, 0].astype(np.int64) * per  # [n, j]
    reinf1 = (won1.T[:, None, :].astype(np.float32) @ to1.astype(np.float32))[:, 0].astype(np.int64) * per
    won0, won1 = won0.T, won1.T  # [n, 11]
    winner_ = np.where(won0, 0, np.where(won1, 1, -1))
    st.winner_of[r, order] = winner_
    st.reinf[r, order, 0] = reinf0
    st.reinf[r, order, 1] = reinf1
    st.score[g] = score
    esc = st.escape[g].astype(np.int64)
    won = np.where(score[:, 0] > score[:, 1], 0, np.where(score[:, 1] > score[:, 0], 1, esc))
    if cfg.reward_scheme == "win_loss":
        st.rewards[g, won] = 1.0
        st.rewards[g, 1 - won] = -1.0
    else:
        diff = (score[:, 0] - score[:, 1]) / MAX_SCORE
        st.rewards[g, 0] = diff
        st.rewards[g, 1] = -diff
    st.phase[g] = PHASE_OVER
    st.terminated[g] = True


def winner(st: NigejozuState) -> np.ndarray:
    """int64[B]: the winning faction of finished games (higher score, ties to the escape chip), else -1."""
    s = st.score.astype(np.int64)
    w = np.where(s[:, 0] > s[:, 1], 0, np.where(s[:, 1] > s[:, 0], 1, st.escape.astype(np.int64)))
    return np.where(st.phase == PHASE_OVER, w, -1)
