"""Which instant-speed actions (ENTER, CAST, ACTIVATE) a seat may take, for the legal mask."""
from __future__ import annotations

import numpy as np

from . import cards as C
from . import targets
from .config import STACK_USER_MAX
from .state import PHASE_CHAR, NinjaSlayerState


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


def any_instant(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg, instant: np.ndarray,
                prio: np.ndarray) -> np.ndarray:
    """bool[n]: ``instant_actions`` has at least one legal action (found without building the arrays)."""
    c, f, own, afford, payable = _payable(st, g, me, instant)
    out = np.zeros(len(g), bool)
    maybe = np.flatnonzero(afford.any(axis=1) | payable.any(axis=1))
    if len(maybe) == 0:
        return out
    g, me, c, f, afford, payable = g[maybe], me[maybe], c[maybe], f[maybe], afford[maybe], payable[maybe]
    r = np.arange(len(g))[:, None]
    has = targets.available(st, g, me, cfg.mask_useless)  # [n, kinds]: a legal target exists
    out[maybe] = (((afford & C.IS_CHAR[c]).any(axis=1) & _enter_ok(st, g, me, prio[maybe], own[maybe]))
                  | (_castable(st, g, me, c, afford, cfg) & has[r, C.TARGET[c]]).any(axis=1)
                  | (payable & has[r, C.TARGET[f]]).any(axis=1))
    return out
