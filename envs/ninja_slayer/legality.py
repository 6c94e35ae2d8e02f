"""Which instant-speed actions (ENTER, CAST, ACTIVATE) a seat may take, for the legal mask."""
from __future__ import annotations

import numpy as np

from . import cards as C
from . import targets
from .config import STACK_USER_MAX
from .state import PHASE_CHAR, NinjaSlayerState


def instant_actions(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg, instant: np.ndarray,
                    prio: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ENTER bool[n,10], CAST bool[n,10,13], ACTIVATE bool[n,6,13]) for seat ``me`` in games ``g``.

    ``instant``: the seat may play instants now (priority or declaration); ``prio``: it holds
    priority (ENTER also needs the turn player's character step and an empty stack).
    """
    n = len(g)
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
    enter = np.zeros((n, hand.shape[1]), bool)
    cast = np.zeros((n, hand.shape[1], targets.NUM_TARGETS), bool)
    act = np.zeros((n, f.shape[1], targets.NUM_TARGETS), bool)
    maybe = np.flatnonzero(afford.any(axis=1) | payable.any(axis=1))  # most seats can pay for nothing
    if len(maybe) == 0:
        return enter, cast, act
    g, me, c, f, afford, payable = g[maybe], me[maybe], c[maybe], f[maybe], afford[maybe], payable[maybe]
    r = np.arange(len(g))
    tt = targets.table(st, g, me, cfg.mask_useless)
    enter[maybe] = afford & C.IS_CHAR[c] & (prio[maybe] & (me == st.tp[g]) & (st.phase[g] == PHASE_CHAR)
                                            & (st.stk_len[g] == 0) & ~own[maybe].all(axis=1))[:, None]
    cast_ok = afford & ~C.IS_CHAR[c]
    if cfg.mask_useless:
        heal = C.OPCODE[c] == C.OP_HEAL
        empty = (st.dmg_up[g, me] + st.dmg_down[g, me] == 0)[:, None]
        cast_ok &= ~(heal & empty)
    cast[maybe] = cast_ok[:, :, None] & tt[r[:, None], C.TARGET[c]]
    act[maybe] = payable[:, :, None] & tt[r[:, None], C.TARGET[f]]
    return enter, cast, act
