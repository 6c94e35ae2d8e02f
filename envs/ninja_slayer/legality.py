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
    hand = st.hand[g, me].astype(np.int64)
    held = hand >= 0
    c = np.maximum(hand, 0)
    f = np.maximum(st.fld_card[g, me], 0).astype(np.int64)
    own = st.fld_card[g, me] >= 0
    # Most seats have nothing to pay with: no untapped エテル, no 0-cost card, no activated ability.
    maybe = instant & ((st.etel_untapped[g, me] > 0) | (held & (C.COST[c] == 0)).any(axis=1)
                       | (own & (C.TRIGGER[f] == C.TR_ACTIVATED)).any(axis=1))
    if not maybe.all():
        enter = np.zeros((n, hand.shape[1]), bool)
        cast = np.zeros((n, hand.shape[1], tt.shape[2]), bool)
        act = np.zeros((n, f.shape[1], tt.shape[2]), bool)
        if maybe.any():
            e, c_, a = instant_actions(st, g[maybe], me[maybe], cfg, tt[maybe], instant[maybe], prio[maybe])
            enter[maybe], cast[maybe], act[maybe] = e, c_, a
        return enter, cast, act
    r = np.arange(n)
    unt = st.etel_untapped[g, me][:, None]
    room = (st.stk_len[g] < STACK_USER_MAX)[:, None]
    afford = held & (C.COST[c] <= unt) & room & instant[:, None]
    enter = afford & C.IS_CHAR[c] & (prio & (me == st.tp[g]) & (st.phase[g] == PHASE_CHAR)
                                     & (st.stk_len[g] == 0) & ~own.all(axis=1))[:, None]
    cast_ok = afford & ~C.IS_CHAR[c]
    if cfg.mask_useless:
        heal = C.OPCODE[c] == C.OP_HEAL
        empty = (st.dmg_up[g, me] + st.dmg_down[g, me] == 0)[:, None]
        cast_ok &= ~(heal & empty)
    cast = cast_ok[:, :, None] & tt[r[:, None], C.TARGET[c]]
    act = (own & (C.TRIGGER[f] == C.TR_ACTIVATED) & (C.ACT_E[f] <= unt) & (~C.ACT_O[f] | ~st.fld_tap[g, me])
           & (C.ACT_J[f] <= st.dmg_up[g, me][:, None]) & room & instant[:, None])
    act = act[:, :, None] & tt[r[:, None], C.TARGET[f]]
    return enter, cast, act
