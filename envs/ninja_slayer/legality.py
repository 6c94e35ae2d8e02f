"""Which instant-speed actions (ENTER, CAST, ACTIVATE) a seat may take, for the legal mask."""
from __future__ import annotations

import numpy as np

from . import cards as C
from . import targets
from .config import STACK_USER_MAX
from .seat_rows import per_seat, seat_rows, seat_slots
from .state import PHASE_CHAR, NinjaSlayerState

# Per card id, with one more entry at the end for an empty slot (id -1 indexes it): the cost of a
# kotodama / of a character (a value no seat can pay, 127, for the other type and for an empty
# slot), and whether a field card has an activated ability. :func:`may_have_instant` uses them.
_NEVER = 127
_KOTO_COST = np.append(np.where(C.IS_CHAR, _NEVER, C.COST), _NEVER)
_CHAR_COST = np.append(np.where(C.IS_CHAR, C.COST, _NEVER), _NEVER)
_ACTIVATED = np.append(C.TRIGGER == C.TR_ACTIVATED, False)


def _payable(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, instant: np.ndarray) -> tuple[np.ndarray, ...]:
    """(hand card ids, field card ids, own slots occupied, affordable hand cards, payable abilities)."""
    rows = seat_rows(g, me)
    hand = seat_slots(st.hand, rows).astype(np.int64)
    c = np.maximum(hand, 0)
    fc = seat_slots(st.fld_card, rows)
    own = fc >= 0
    f = np.maximum(fc, 0).astype(np.int64)
    unt = per_seat(st.etel_untapped, rows)[:, None]
    ok = (instant & (st.stk_len[g] < STACK_USER_MAX))[:, None]
    afford = (hand >= 0) & (C.COST[c] <= unt) & ok
    payable = _ACTIVATED.take(fc)  # own characters with an activated ability (few cards have one: often none)
    if np.count_nonzero(payable):
        payable &= ((C.ACT_E[f] <= unt) & (~C.ACT_O[f] | ~seat_slots(st.fld_tap, rows))
                    & (C.ACT_J[f] <= per_seat(st.dmg_up, rows)[:, None]) & ok)
    return c, f, own, afford, payable


def _enter_ok(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, prio: np.ndarray, own: np.ndarray) -> np.ndarray:
    """bool[n]: the seat may put a character onto the field now (its character step, empty stack, room)."""
    ok = st.phase[g] == PHASE_CHAR  # (tested first: the other conditions matter only in this step)
    if np.count_nonzero(ok):
        ok &= prio & (me == st.tp[g]) & (st.stk_len[g] == 0) & ~own.all(axis=1)
    return ok


def _castable(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, c: np.ndarray, afford: np.ndarray, cfg) -> np.ndarray:
    """bool[n, 10]: affordable kotodama (with ``mask_useless``, not a HEAL with an empty damage zone)."""
    cast_ok = afford & ~C.IS_CHAR[c]
    if cfg.mask_useless:
        heal = C.OPCODE[c] == C.OP_HEAL
        empty = (st.dmg_up[g, me] + st.dmg_down[g, me] == 0)[:, None]
        cast_ok &= ~(heal & empty)
    return cast_ok


def instant_actions(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg, instant: np.ndarray,
                    prio: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ENTER bool[n,10], CAST bool[n,10,13], ACTIVATE bool[n,6,13]) for seat ``me`` in games ``g``.

    ``instant``: the seat may play instants now (priority or declaration); ``prio``: it holds
    priority (ENTER also needs the turn player's character step and an empty stack).
    """
    n = len(g)
    c, f, own, afford, payable = _payable(st, g, me, instant)
    can = afford.any(axis=1) | payable.any(axis=1)  # most seats can pay for nothing
    n_can = np.count_nonzero(can)
    every = n_can == n  # (every row can pay for something, as at most agent decisions at batch size 1)
    if not every:
        enter = np.zeros((n, c.shape[1]), bool)
        cast = np.zeros((n, c.shape[1], targets.NUM_TARGETS), bool)
        act = np.zeros((n, f.shape[1], targets.NUM_TARGETS), bool)
        if n_can == 0:
            return enter, cast, act
        maybe = can.nonzero()[0]
        g, me, c, f, afford, payable = g[maybe], me[maybe], c[maybe], f[maybe], afford[maybe], payable[maybe]
        prio, own = prio[maybe], own[maybe]
    r = np.arange(len(g))
    tt = targets.table(st, g, me, cfg.mask_useless)
    enter_m = afford & C.IS_CHAR[c] & _enter_ok(st, g, me, prio, own)[:, None]
    cast_m = _castable(st, g, me, c, afford, cfg)[:, :, None] & tt[r[:, None], C.TARGET[c]]
    act_m = payable[:, :, None] & tt[r[:, None], C.TARGET[f]]
    if every:  # the rows of the result
        return enter_m, cast_m, act_m
    enter[maybe], cast[maybe], act[maybe] = enter_m, cast_m, act_m
    return enter, cast, act


# any_instant by table look-ups. A row's *situation* says which target kinds have a legal target
# (``targets.available``): bit 0 an opposing character, bit 1 an own character, bit 2 an item on the
# stack, bit 3 a damage card to heal (only read under mask_useless). Per situation and card the
# tables give the エテル a card needs to be cast, or its ability activated (per tapped state: a
# tapped character cannot pay an オジギ cost), with a cost no seat can pay (_NEVER) where it cannot
# be played that way; a row has a castable card when the cheapest card of its hand costs at most
# its untapped エテル. Card columns are shifted by one: column 0 is an empty slot (id -1).
_SIT_OPP, _SIT_OWN, _SIT_STACK, _SIT_HEAL = 1, 2, 4, 8
_NUM_SITUATIONS = 16
_COLS = C.NUM_CARDS + 1


def _target_ok(mask_useless: bool, situation: int) -> np.ndarray:
    """bool[kinds + 1]: target kind k has a legal target in ``situation``; the extra last entry: a HEAL
    may be cast (under mask_useless only with a damage card to heal)."""
    opp, own = bool(situation & _SIT_OPP), bool(situation & _SIT_OWN)
    ok = np.zeros(C.NUM_TARGET_KINDS + 1, bool)
    ok[[C.TK_NONE, C.TK_SELF, C.TK_OPP_PLAYER]] = True
    ok[C.TK_OPP_CHAR], ok[C.TK_OWN_CHAR], ok[C.TK_ANY_CHAR] = opp, own, opp or own
    ok[C.TK_ALL_OPP] = opp or not mask_useless  # ALL_* only with something to affect
    ok[C.TK_ALL_OWN] = own or not mask_useless
    ok[C.TK_STACK] = bool(situation & _SIT_STACK)
    ok[-1] = bool(situation & _SIT_HEAL) or not mask_useless  # HEAL only with a damage card to heal
    return ok


def _situation_costs(mask_useless: bool) -> tuple[np.ndarray, np.ndarray]:
    """(cast int16[16 * 49], activate int16[16 * 2 * 49]), flat: the エテル needed to cast a kotodama at
    ``situation * 49 + 1 + card``, to activate a character's ability at ``(situation * 2 + tapped) * 49
    + 1 + card``; _NEVER where it cannot be played that way (and for an empty slot, card -1)."""
    cast = np.full((_NUM_SITUATIONS, _COLS), _NEVER, np.int16)
    act = np.full((_NUM_SITUATIONS, 2, _COLS), _NEVER, np.int16)
    heal = ~C.IS_CHAR & (C.OPCODE == C.OP_HEAL)
    activated = C.TRIGGER == C.TR_ACTIVATED
    for sit in range(_NUM_SITUATIONS):
        ok = _target_ok(mask_useless, sit)
        has_target = ok[C.TARGET]
        cast[sit, 1:] = np.where(~C.IS_CHAR & has_target & (~heal | ok[-1]), C.COST, _NEVER)
        act[sit, 0, 1:] = np.where(activated & has_target, C.ACT_E, _NEVER)
        act[sit, 1, 1:] = np.where(activated & has_target & ~C.ACT_O, C.ACT_E, _NEVER)
    return cast.reshape(-1), act.reshape(-1)


_SIT_COSTS = {False: _situation_costs(False), True: _situation_costs(True)}
_ACT_J_1 = np.append(0, C.ACT_J)  # ジツ cost per card, column 0 an empty slot (shifted like the tables)


def _slot_major(arr: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``arr[B, 2, k]`` at seat rows ``rows`` as a contiguous ``[k, n]`` (the seat's slots by
    :func:`~.seat_rows.seat_slots`), so that a reduction over the k slots then runs along rows of n values (numpy
    reduces a short last axis slowly). A few rows (batch size 1) are not worth the copy: a view."""
    rows_major = seat_slots(arr, rows)
    return rows_major.T.copy() if len(rows) > _VIEW_MAX else rows_major.T


_VIEW_MAX = 32


def any_instant(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg, instant, prio) -> np.ndarray:
    """bool[n]: ``instant_actions`` has at least one legal action (found without building the arrays).

    ``instant`` and ``prio`` (bool, or bool[n]) as for :func:`instant_actions`.
    """
    rows = seat_rows(g, me)
    hand = _slot_major(st.hand, rows)  # [10, n]
    fc = _slot_major(st.fld_card, rows)  # [6, n]
    own = fc >= 0
    unt = per_seat(st.etel_untapped, rows)
    stk = st.stk_len[g]
    sit = (_slot_major(st.fld_card, rows ^ 1) >= 0).any(axis=0) * _SIT_OPP
    sit += own.any(axis=0) * _SIT_OWN
    sit += (stk > 0) * _SIT_STACK
    if cfg.mask_useless:
        sit += (per_seat(st.dmg_up, rows) + per_seat(st.dmg_down, rows) > 0) * _SIT_HEAL
    cast_cost, act_cost = _SIT_COSTS[cfg.mask_useless]
    found = cast_cost.take(sit * _COLS + 1 + hand).min(axis=0) <= unt
    # (few cards have an activated ability: only the rows whose field holds one are looked at, and
    # where no field holds one, the usual case, one count decides it)
    activated = _ACTIVATED.take(fc)
    if np.count_nonzero(activated):
        holds = activated.any(axis=0)
        n_holds = np.count_nonzero(holds)
        a = slice(None) if n_holds == len(g) else holds.nonzero()[0]
        fa, ra = fc[:, a], rows[a]
        card = fa + (sit[a] * (2 * _COLS) + 1)
        card += _COLS * _slot_major(st.fld_tap, ra)  # the tapped half of the table
        act = (act_cost.take(card) <= unt[a]) & (_ACT_J_1.take(fa + 1) <= per_seat(st.dmg_up, ra))
        found[a] |= act.any(axis=0)
    enter = st.phase[g] == PHASE_CHAR  # (tested first: the other conditions matter only in this step)
    if np.count_nonzero(enter):
        enter &= prio & (me == st.tp[g]) & (stk == 0)
        n_enter = np.count_nonzero(enter)
        if n_enter:
            # (the room and the cost only for those rows: at a large batch, a few of them)
            e = slice(None) if n_enter == len(g) else enter.nonzero()[0]
            enter[e] = ~own[:, e].all(axis=0) & (_CHAR_COST.take(hand[:, e]).min(axis=0) <= unt[e])
            found |= enter
    return instant & (stk < STACK_USER_MAX) & found


def may_have_instant(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, prio) -> np.ndarray:
    """bool[n]: a cheap test that is True wherever :func:`any_instant` can be (a superset).

    An instant action needs an affordable kotodama in hand, an affordable character in hand during
    the seat's own character step with an empty stack (held priority), or a character on the field
    with an activated ability. Rows where none of these holds have no instant action.
    """
    rows = seat_rows(g, me)
    hand = _slot_major(st.hand, rows)  # [10, n]
    unt = per_seat(st.etel_untapped, rows)
    may = (_KOTO_COST.take(hand).min(axis=0) <= unt) | _ACTIVATED.take(_slot_major(st.fld_card, rows)).any(axis=0)
    step = st.phase[g] == PHASE_CHAR  # (tested first: the other conditions matter only in this step)
    if np.count_nonzero(step):
        step &= prio & (me == st.tp[g]) & (st.stk_len[g] == 0)
        if np.count_nonzero(step):
            may |= step & (_CHAR_COST.take(hand).min(axis=0) <= unt)
    return may
