"""Text rendering of one game: both fields (tapped state, damage), エテル, damage zones, the stack
from the top, my hand, the last item that resolved and the question being asked.

Characters read ``C04 サビヤリ K3/W1 dmg1 [T]``: code, name, current カラテ/工作力, damage marked,
``[T]`` tapped, ``*`` entered this turn, ``R`` redirected this turn, ``Z`` カイゼン granted.
With ``seat``, the other seat's hand is shown as a count (its known cards by name).
"""
from __future__ import annotations

from . import actions as A
from . import cards as C
from .config import FIELD_SLOTS, NinjaSlayerConfig
from .batch import Compiled
from .state import DECISION_NAMES, END_NAMES, ITEM_NAMES, PHASE_NAMES, NinjaSlayerState
from .zones import karate, kousaku

import numpy as np


def card_name(c: int) -> str:
    return f"{C.CODES[c]} {C.NAMES_JP[c].split(' ◆ ')[0]}"


def _field_line(st: NinjaSlayerState, i: int, p: int) -> list[str]:
    k, w = karate(st)[i, p], kousaku(st)[i, p]
    out = []
    for s in range(FIELD_SLOTS):
        c = int(st.fld_card[i, p, s])
        if c < 0:
            continue
        flags = ("[T]" if st.fld_tap[i, p, s] else "") + ("*" if st.fld_entered[i, p, s] else "") + \
                ("R" if st.fld_redir[i, p, s] else "") + ("Z" if st.fld_kz[i, p, s] else "")
        dmg = f" dmg{int(st.fld_dmg[i, p, s])}" if st.fld_dmg[i, p, s] else ""
        out.append(f"  {s}: {card_name(c)} K{int(k[s])}/W{int(w[s])}{dmg} {flags}".rstrip())
    return out or ["  (no characters)"]


def render_text(st: NinjaSlayerState, i: int, cfg: NinjaSlayerConfig, seat: int | None = None) -> str:
    tp = int(st.tp[i])
    lines = [f"ninja_slayer  turn {int(st.turn[i])}  turn player: player_{tp}  step: {PHASE_NAMES[int(st.phase[i])]}"]
    for p in (1 - (seat if seat is not None else 0), seat if seat is not None else 0):
        deck = int(st.deck_size[i, p] - st.deck_ptr[i, p])
        lines.append(f"player_{p}{' (you)' if seat == p else ''}: deck {deck}  hand "
                     f"{int((st.hand[i, p] >= 0).sum())}  "
                     f"エテル {int(st.etel_untapped[i, p])}/{int(st.etel_total[i, p])}"
                     f"  damage {int(st.dmg_up[i, p])}+{int(st.dmg_down[i, p])} face-down  オヒガン "
                     f"{int(st.grave[i, p].sum() + st.grave_anon[i, p])}")
        lines += _field_line(st, i, p)
    if st.att_slot[i] >= 0:
        tgt = "the player" if st.tgt_slot[i] < 0 else f"slot {int(st.tgt_slot[i])}"
        lines.append(f"アイサツ: player_{tp} slot {int(st.att_slot[i])} -> {tgt}")
    n = int(st.stk_len[i])
    lines.append(f"stack ({n}, top first):" if n else "stack: empty")
    for j in range(n - 1, -1, -1):
        c = int(st.stk_card[i, j])
        tgt = "" if st.stk_tgt_slot[i, j] < 0 else \
            f" -> p{int(st.stk_tgt_player[i, j])} slot {int(st.stk_tgt_slot[i, j])}"
        op = C.OPCODE_NAMES[int(st.stk_op[i, j])]
        lines.append(f"  [{j}] {ITEM_NAMES[int(st.stk_kind[i, j])]} {card_name(c)} by player_{int(st.stk_ctrl[i, j])}"
                     f" {op} {int(st.stk_arg[i, j])}{tgt}")
    if st.last_resolved[i] >= 0:
        lines.append(f"last resolved: {card_name(int(st.last_resolved[i]))}")
    for p in range(2):
        if seat is not None and p != seat:
            known = [card_name(int(c)) for c, k in zip(st.hand[i, p], st.hand_known[i, p]) if c >= 0 and k]
            lines.append(f"player_{p} hand: {int((st.hand[i, p] >= 0).sum())} cards"
                         + (f" (known: {', '.join(known)})" if known else ""))
            continue
        cards = [f"{h}:{card_name(int(c))}({int(C.COST[c])})" for h, c in enumerate(st.hand[i, p]) if c >= 0]
        lines.append(f"player_{p} hand: " + (" ".join(cards) if cards else "(empty)"))
    if st.done[i]:
        w = int(st.winner[i])
        result = "draw" if w < 0 else f"player_{w} wins"
        lines.append(f"game over: {result} ({END_NAMES[int(st.end_reason[i])] or 'truncated'})")
    else:
        who = int(st.to_play[i])
        legal = np.flatnonzero(Compiled(cfg).legal_mask(st.take(i))[0])
        shown = ", ".join(A.action_label(a) for a in legal[:8]) + (" ..." if len(legal) > 8 else "")
        lines.append(f"question: {DECISION_NAMES[int(st.decision[i])]} for player_{who} ({len(legal)} legal: {shown})")
    return "\n".join(lines)
