"""Text rendering of one game: hands sorted weak→strong (reversed in revolution), field, lock, titles.

One card notation for people everywhere (hands, the field, plays): ``♠3`` … ``♥10`` … ``JK``
(:func:`~.cards.card_symbol`); a joker standing for a card in a sequence reads ``JK(♠7)``.
"""
from __future__ import annotations

import unicodedata

from . import actions as A
from .actions import JUTSU_JA
from .cards import JOKER, SUIT_SYMBOLS, card_symbol, mask_to_cards, popcount
from .config import DECLARATION_TEXT, D_WEAK_JOKER
from .state import PHASE_NAMES, DaifugoState, title_names

SEAT_NAMES = ("あなた(0)", "ジライヤ(1)", "お館様(2)", "モコ(3)")
SCHOOL_JA = ("", "雷流", "変化流", "妨害流")
TITLE_JA = {None: "", "daifugo": "大富豪", "fugo": "富豪", "heimin": "平民", "hinmin": "貧民", "daihinmin": "大貧民"}


def symbol_label(a: int) -> str:
    """An action in the people's notation: ``pass``, ``♠9 ♦9``, ``♠5 ♠6 JK(♠7)``, ``足止め ashidome +1``,
    ``pick ♣3``."""
    k = int(A.KIND[a])
    if k == A.K_PASS:
        return "pass"
    if k == A.K_JUTSU:
        j = int(A.JUTSU[a])
        return f"{JUTSU_JA[j]} {A.JUTSU_NAMES[j]}" + (f" +{int(A.TARGET[a])}" if A.TARGET[a] else "")
    if k == A.K_PICK:
        return "pick " + card_symbol(int(A.PICK_CARD[a]))
    names = [card_symbol(c) for c in mask_to_cards(int(A.CARDS[a])) if c != JOKER]
    if A.HAS_JOKER[a]:
        if k == A.K_SEQ:
            stands_for = 4 * (int(A.LO[a]) + int(A.JOKER_POS[a])) + int(A.SEQ_SUIT[a])
            names.insert(int(A.JOKER_POS[a]), f"JK({card_symbol(stands_for)})")
        else:
            names.append("JK")
    return " ".join(names)


def _pad(text: str, columns: int) -> str:
    """``text`` padded to ``columns`` display columns (kana and kanji take two)."""
    used = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, columns - used)


def sort_hand(cards: list[int], revolution: bool, weak_joker: bool) -> list[int]:
    """Weak → strong; the joker rightmost (leftmost under D1); reversed during revolution (§1.10)."""
    naturals = sorted((c for c in cards if c != JOKER), key=lambda c: (c // 4, c % 4))
    if revolution:
        naturals = sorted(naturals, key=lambda c: (-(c // 4), c % 4))
    if JOKER in cards:
        return [JOKER] + naturals if weak_joker else naturals + [JOKER]
    return naturals


def render_text(st: DaifugoState, i: int = 0, seat: int | None = None, names: tuple[str, ...] | list[str] | None = None
                ) -> str:
    """The table as text. With ``seat``, the other hands show only their sizes; ``names[p]`` calls seat p."""
    players = st.hands.shape[1]  # 4, or 5 under rules="uecda"
    titles = title_names(players)
    if names is None:
        names = SEAT_NAMES if players == len(SEAT_NAMES) else [f"player {p}" for p in range(players)]
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
        lines.append(f"field: {symbol_label(fa)}   by {names[int(st.field_owner[i])]}, "
                     f"{int(st.responses[i])} passed")
    for p in range(players):
        title = TITLE_JA[titles[int(st.titles[i, p])]]
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
        lines.append(f"{mark}{_pad(names[p], 12)} {_pad(title, 6)}{status}{ninja}: {shown}")
    phase = PHASE_NAMES[int(st.phase[i])]
    if st.terminated[i] or st.truncated[i]:
        lines.append("series over" + (" (truncated)" if st.truncated[i] else "") +
                     "; scores " + " ".join(f"{float(x):+.2f}" for x in st.series_score[i]))
    else:
        extra = f", {int(st.picks_left[i])} card(s) to give" if phase == "exchange" else ""
        if phase == "shuriken":
            extra = f", throwing a card to {names[int(st.shuriken_target[i])]}"
        if st.henge_shift[i]:
            extra += f", 変化 +{int(st.henge_shift[i])}" + (" (lock ignored)" if st.lock_ignored[i] else "")
        lines.append(f"to play: {names[int(st.to_play[i])]} ({phase}{extra})")
    lines.append(f"discard: {int(popcount(st.discard[i]))} cards")
    return "\n".join(lines)
