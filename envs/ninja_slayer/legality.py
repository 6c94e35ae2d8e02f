"""Which instant-speed actions (ENTER, CAST, ACTIVATE) a seat may take, for the legal mask."""
from __future__ import annotations

import numpy as np

from . import cards as C
from . import targets
from .config import STACK_USER_MAX
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
    hand = st.hand[g, me].astype(np.int64)
    c = np.maximum(hand, 0)
    fc = st.fld_card[g, me]
    own = fc >= 0
    f = np.maximum(fc, 0).astype(np.int64)
    unt = st.etel_untapped[g, me][:, None]
    ok = (instant & (st.stk_len[g] < STACK_USER_MAX))[:, None]
    afford = (hand >= 0) & (C.COST[c] <= unt) & ok
    payable = (own & (C.TRIGGER[f] == C.TR_ACTIVATED) & (C.ACT_E[f] <= unt) & (~C.ACT_O[f] | ~st.fld_tap[g, me])
               & (C.ACT_J[f] <= st.dmg_up[g, me][:, None]) & ok)
    return c, f, own, afford, payable


def _enter_ok(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, prio: np.ndarray, own: np.ndarray) -> np.ndarray:
    """bool[n]: the seat may put a character onto the field now (its character step, empty stack, room)."""
    return prio & (me == st.tp[g]) & (st.phase[g] == PHASE_CHAR) & (st.stk_len[g] == 0) & ~own.all(axis=1)


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
    enter = np.zeros((n, c.shape[1]), bool)
    cast = np.zeros((n, c.shape[1], targets.NUM_TARGETS), bool)
    act = np.zeros((n, f.shape[1], targets.NUM_TARGETS), bool)
    maybe = np.flatnonzero(afford.any(axis=1) | payable.any(axis=1))  # most seats can pay for nothing
    if len(maybe) == 0:
        return enter, cast, act
    g, me, c, f, afford, payable = g[maybe], me[maybe], c[maybe], f[maybe], afford[maybe], payable[maybe]
    r = np.arange(len(g))
    tt = targets.table(st, g, me, cfg.mask_useless)
    enter[maybe] = afford & C.IS_CHAR[c] & _enter_ok(st, g, me, prio[maybe], own[maybe])[:, None]
    cast[maybe] = _castable(st, g, me, c, afford, cfg)[:, :, None] & tt[r[:, None], C.TARGET[c]]
    act[maybe] = payable[:, :, None] & tt[r[:, None], C.TARGET[f]]
    return enter, cast, act


# any_instant as bit tests. A row's available target kinds are one integer (bit k: kind k has a legal
# target; bit 10: a HEAL may be cast, i.e. not masked as useless); each card needs the bits in its
# _REQ entry (a bit never set, 11, for a card that cannot be played that way and for an empty slot).
_HEAL_OK, _NO_WAY = 1 << 10, 1 << 11
_TK_BIT = 1 << np.arange(C.NUM_TARGET_KINDS)


def _cast_req(mask_useless: bool) -> np.ndarray:
    req = np.where(C.IS_CHAR, _NO_WAY, _TK_BIT[C.TARGET])
    if mask_useless:
        req = np.where(~C.IS_CHAR & (C.OPCODE == C.OP_HEAL), req | _HEAL_OK, req)
    return np.append(req, _NO_WAY)


_CAST_REQ = {False: _cast_req(False), True: _cast_req(True)}
_ACT_REQ = np.append(np.where(C.TRIGGER == C.TR_ACTIVATED, _TK_BIT[C.TARGET], _NO_WAY), _NO_WAY)
_COST_T = np.append(C.COST, _NEVER)
_IS_CHAR_T = np.append(C.IS_CHAR, False)
_ACT_E_T, _ACT_O_T, _ACT_J_T = np.append(C.ACT_E, 0), np.append(C.ACT_O, False), np.append(C.ACT_J, 0)


def _available_bits(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, own: np.ndarray,
                    mask_useless: bool) -> np.ndarray:
    """int[n]: the bits of the target kinds that have a legal target (``targets.available``) and _HEAL_OK."""
    bit = _TK_BIT
    always = bit[C.TK_NONE] | bit[C.TK_SELF] | bit[C.TK_OPP_PLAYER]
    opp_bits = bit[C.TK_OPP_CHAR] | bit[C.TK_ANY_CHAR]
    own_bits = bit[C.TK_OWN_CHAR] | bit[C.TK_ANY_CHAR]
    if mask_useless:  # ALL_* only with something to affect; HEAL only with a damage card to heal
        opp_bits |= bit[C.TK_ALL_OPP]
        own_bits |= bit[C.TK_ALL_OWN]
    else:
        always |= bit[C.TK_ALL_OPP] | bit[C.TK_ALL_OWN] | _HEAL_OK
    avail = (always | np.where((st.fld_card[g, 1 - me] >= 0).any(axis=1), opp_bits, 0)
             | np.where(own.any(axis=1), own_bits, 0) | np.where(st.stk_len[g] > 0, bit[C.TK_STACK], 0))
    if mask_useless:
        avail |= np.where(st.dmg_up[g, me] + st.dmg_down[g, me] > 0, _HEAL_OK, 0)
    return avail


def any_instant(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg, instant: np.ndarray,
                prio: np.ndarray) -> np.ndarray:
    """bool[n]: ``instant_actions`` has at least one legal action (found without building the arrays)."""
    hand = st.hand[g, me]
    fc = st.fld_card[g, me]
    own = fc >= 0
    unt = st.etel_untapped[g, me][:, None]
    blocked = ~_available_bits(st, g, me, own, cfg.mask_useless)[:, None]  # the bits a card may not need
    afford = _COST_T[hand] <= unt
    cast = afford & ((_CAST_REQ[cfg.mask_useless][hand] & blocked) == 0)
    act = (((_ACT_REQ[fc] & blocked) == 0) & (_ACT_E_T[fc] <= unt) & (~_ACT_O_T[fc] | ~st.fld_tap[g, me])
           & (_ACT_J_T[fc] <= st.dmg_up[g, me][:, None]))
    enter = (afford & _IS_CHAR_T[hand]).any(axis=1) & _enter_ok(st, g, me, prio, own)
    return instant & (st.stk_len[g] < STACK_USER_MAX) & (cast.any(axis=1) | act.any(axis=1) | enter)


def may_have_instant(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, prio: np.ndarray) -> np.ndarray:
    """bool[n]: a cheap test that is True wherever :func:`any_instant` can be (a superset).

    An instant action needs an affordable kotodama in hand, an affordable character in hand during
    the seat's own character step with an empty stack (held priority), or a character on the field
    with an activated ability. Rows where none of these holds have no instant action.
    """
    hand = st.hand[g, me]
    unt = st.etel_untapped[g, me][:, None]
    may = (_KOTO_COST[hand] <= unt).any(axis=1) | _ACTIVATED[st.fld_card[g, me]].any(axis=1)
    step = prio & (st.phase[g] == PHASE_CHAR) & (me == st.tp[g]) & (st.stk_len[g] == 0)
    if step.any():
        may |= step & (_CHAR_COST[hand] <= unt).any(axis=1)
    return may
