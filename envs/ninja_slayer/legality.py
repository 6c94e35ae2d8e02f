"""Which instant-speed actions (ENTER, CAST, ACTIVATE) a seat may take, for the legal mask."""
from __future__ import annotations

import numpy as np

from . import cards as C
from .config import STACK_USER_MAX
from .state import PHASE_CHAR, NinjaSlayerState


def instant_actions(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg, tt: np.ndarray, instant: np.ndarray,
                    prio: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ENTER bool[n,10], CAST bool[n,10,13], ACTIVATE bool[n,6,13]) for seat ``me`` in games ``g``.

    ``instant``: the seat may play instants now (priority or declaration); ``prio``: it holds
    priority (ENTER also needs the turn player's character step and an empty stack).
    """
    n = len(g)
    r = np.arange(n)
    hand = st.hand[g, me].astype(np.int64)
    held = hand >= 0
    c = np.maximum(hand, 0)
    unt = st.etel_untapped[g, me][:, None]
    room = (st.stk_len[g] < STACK_USER_MAX)[:, None]
    afford = held & (C.COST[c] <= unt) & room & instant[:, None]
    own = st.fld_card[g, me] >= 0
    enter = afford & C.IS_CHAR[c] & (prio & (me == st.tp[g]) & (st.phase[g] == PHASE_CHAR)
                                     & (st.stk_len[g] == 0) & ~own.all(axis=1))[:, None]
    cast_ok = afford & ~C.IS_CHAR[c]
    if cfg.mask_useless:
        heal = C.OPCODE[c] == C.OP_HEAL
        empty = (st.dmg_up[g, me] + st.dmg_down[g, me] == 0)[:, None]
        cast_ok &= ~(heal & empty)
    cast = cast_ok[:, :, None] & tt[r[:, None], C.TARGET[c]]
    f = np.maximum(st.fld_card[g, me], 0).astype(np.int64)
    act = (own & (C.TRIGGER[f] == C.TR_ACTIVATED) & (C.ACT_E[f] <= unt) & (~C.ACT_O[f] | ~st.fld_tap[g, me])
           & (C.ACT_J[f] <= st.dmg_up[g, me][:, None]) & room & instant[:, None])
    act = act[:, :, None] & tt[r[:, None], C.TARGET[f]]
    return enter, cast, act
