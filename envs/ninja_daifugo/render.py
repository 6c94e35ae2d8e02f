"""Text rendering of one game: hands sorted weak→strong (reversed in revolution), field, lock, titles."""
from __future__ import annotations

import numpy as np

from . import actions as A
from .actions import JUTSU_JA
from .cards import JOKER, SUIT_SYMBOLS, card_symbol, mask_to_cards, popcount
from .config import DECLARATION_TEXT, D_WEAK_JOKER
from .state import PHASE_NAMES, TITLE_NAMES, DaifugoState

SEAT_NAMES = ("あなた(0)", "ジライヤ(1)", "お館様(2)", "モコ(3)")
SCHOOL_JA = ("", "雷流", "変化流", "妨害流")
TITLE_JA = {None: "", "daifugo": "大富豪", "fugo": "富豪", "hinmin": "貧民", "daihinmin": "大貧民"}


def sort_hand(cards: list[int], revolution: bool, weak_joker: bool) -> list[int]:
    """Weak → strong; the joker rightmost (leftmost under D1); reversed during revolution (§1.10)."""
    naturals = sorted((c for c in cards if c != JOKER), key=lambda c: (c // 4, c % 4))
    if revolution:
        naturals = sorted(naturals, key=lambda c: (-(c // 4), c % 4))
    if JOKER in cards:
        return [JOKER] + naturals if weak_joker else naturals + [JOKER]
    return naturals


def render_text(st: DaifugoState, i: int = 0, seat: int | None = None) -> str:
    """The table as text. With ``seat``, the other hands show only their sizes."""
    rev = bool(st.revolution[i])
    weak = int(st.declaration[i]) == D_WEAK_JOKER
    lines = [f"game {int(st.game_index[i]) + 1}  declaration D{int(st.declaration[i])}: "
             f"{DECLARATION_TEXT[int(st.declaration[i])]}"]
    flags = []
    if rev:
        flags.append("*** 革命 REVOLUTION ***")
    if st.eleven_back[i]:
        flags.append("11-back")
    if st.lock[i]:
        suits = "".join(SUIT_SYMBOLS[s] for s in range(4) if (int(st.lock[i]) >> s) & 1)
        flags.append(f"[縛り LOCK {suits}]")
    if flags:
        lines.append("  ".join(flags))
    fa = int(st.field_action[i])
    if fa < 0:
        lines.append("field: (empty)")
    else:
        cards = " ".join(card_symbol(c) for c in mask_to_cards(int(st.field_cards[i])))
        lines.append(f"field: {cards}   [{A.action_label(fa)}] by {SEAT_NAMES[int(st.field_owner[i])]}, "
                     f"{int(st.responses[i])} passed")
    for p in range(4):
        title = TITLE_JA[TITLE_NAMES[int(st.titles[i, p])]]
        mark = ">" if int(st.to_play[i]) == p and not (st.terminated[i] or st.truncated[i]) else " "
        status = ""
        if st.finish_pos[i, p]:
            status = f" finished #{int(st.finish_pos[i, p])}"
        if st.skip_pending[i, p]:
            status += f" skips:{int(st.skip_pending[i, p])}"
        ninja = ""
        if st.levels[i, p].any():
            jutsu = ",".join(f"{JUTSU_JA[j]}Lv{int(st.levels[i, p, j])}×{int(st.uses_left[i, p, j])}"
                             for j in range(4) if st.levels[i, p, j])
            school = SCHOOL_JA[int(st.school[i, p])]
            ninja = f" [忍{int(st.points[i, p])} {jutsu}{' ' + school if school else ''}]"
        hand = mask_to_cards(int(st.hands[i, p]))
        if seat is None or seat == p:
            shown = " ".join(card_symbol(c) for c in sort_hand(hand, rev, weak))
        else:
            shown = f"{len(hand)} cards"
        lines.append(f"{mark}{SEAT_NAMES[p]:<10} {title:<4}{status}{ninja}: {shown}")
    phase = PHASE_NAMES[int(st.phase[i])]
    if st.terminated[i] or st.truncated[i]:
        lines.append("series over" + (" (truncated)" if st.truncated[i] else "") +
                     f"; scores {np.round(st.series_score[i], 2).tolist()}")
    else:
        extra = f", {int(st.picks_left[i])} card(s) to give" if phase == "exchange" else ""
        if phase == "shuriken":
            extra = f", throwing a card to {SEAT_NAMES[int(st.shuriken_target[i])]}"
        if st.henge_shift[i]:
            extra += f", 変化 +{int(st.henge_shift[i])}" + (" (lock ignored)" if st.lock_ignored[i] else "")
        lines.append(f"to play: {SEAT_NAMES[int(st.to_play[i])]} ({phase}{extra})")
    lines.append(f"discard: {int(popcount(st.discard[i]))} cards")
    return "\n".join(lines)
