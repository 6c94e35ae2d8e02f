"""The picture of one game of ninja daifugō from one seat: that seat's hand face up at the bottom, the
other three hands face down (left, top, right in the order of play), the field in the middle, the
declaration, revolution, 11-back and lock on top, titles, finishing places and the ninja layer."""
from __future__ import annotations

from yuugi.envs.pictures import svg as S

from .actions import JUTSU_JA
from .cards import JOKER, RANK_CHARS, SUIT_SYMBOLS, mask_to_cards
from .config import DECLARATION_TEXT, D_WEAK_JOKER

TITLE_JA = ("", "大富豪", "富豪", "貧民", "大貧民")
PHASE_JA = ("play", "exchange", "shuriken")
SCHOOL_JA = ("", "雷流", "変化流", "妨害流")


def _rank(c: int) -> str:
    r = RANK_CHARS[c // 4]
    return "10" if r == "T" else r


def _cards(svg: S.Svg, x: float, y: float, cards: list[int], width: float, w: float = S.CARD_W,
           h: float = S.CARD_H) -> None:
    step = S.step_for(len(cards), w, width)
    for k, c in enumerate(cards):
        S.playing_card(svg, x + k * step, y, _rank(c) if c != JOKER else "", SUIT_SYMBOLS[c % 4] if c != JOKER else "",
                       w, h, joker=c == JOKER)


def _sorted(cards: list[int], revolution: bool, weak_joker: bool) -> list[int]:
    natural = sorted((c for c in cards if c != JOKER), key=lambda c: (c // 4, c % 4), reverse=False)
    if revolution:
        natural = sorted(natural, key=lambda c: (-(c // 4), c % 4))
    if JOKER in cards:
        return [JOKER] + natural if weak_joker else natural + [JOKER]
    return natural


def _name(p: int, seat: int) -> str:
    return f"P{p}" + (" あなた" if p == seat else "")


def _seat_note(st, i: int, p: int) -> str:
    parts = [TITLE_JA[int(st.titles[i, p])]]
    if st.finish_pos[i, p]:
        parts.append(f"{int(st.finish_pos[i, p])}位")
    if st.skip_pending[i, p]:
        parts.append(f"skip {int(st.skip_pending[i, p])}")
    return " ".join(x for x in parts if x)


def _ninja(st, i: int, p: int) -> str:
    if not st.levels[i, p].any():
        return ""
    jutsu = " ".join(f"{JUTSU_JA[j]}Lv{int(st.levels[i, p, j])}×{int(st.uses_left[i, p, j])}"
                     for j in range(4) if st.levels[i, p, j])
    school = SCHOOL_JA[int(st.school[i, p])] if 0 <= int(st.school[i, p]) < 4 else ""
    return f"忍{int(st.points[i, p])} {jutsu} {school}".strip()


def picture_svg(game, st, i: int = 0, seat: int = 0) -> str:
    svg = S.Svg()
    done = bool(st.terminated[i] or st.truncated[i])
    to_play = int(st.to_play[i])
    rev = bool(st.revolution[i])
    decl = int(st.declaration[i])
    phase = int(st.phase[i])
    right = "series over" if done else f"{_name(to_play, seat)} to play ({PHASE_JA[phase] if phase < 3 else phase})"
    S.banner(svg, f"忍者大富豪  game {int(st.game_index[i]) + 1} of {game.config.series_games}", right)
    x = 12 + S.badge(svg, 12, 42, f"D{decl}: {DECLARATION_TEXT[decl]}", fill="#5d4037") + 6
    if rev:
        x += S.badge(svg, x, 42, "革命 REVOLUTION", fill=S.RED) + 6
    if st.eleven_back[i]:
        x += S.badge(svg, x, 42, "11バック", fill="#6a1b9a") + 6
    if st.lock[i]:
        suits = "".join(SUIT_SYMBOLS[s] for s in range(4) if (int(st.lock[i]) >> s) & 1)
        x += S.badge(svg, x, 42, f"縛り {suits}", fill=S.BLUE) + 6
    if st.henge_shift[i]:
        x += S.badge(svg, x, 42, f"変化 +{int(st.henge_shift[i])}", fill="#8d6e00") + 6
    # the three other seats, in the order of play: left, top, right
    boxes = {1: (20, 200, 230, 340), 2: (262, 44 + 28, 500, 118), 3: (774, 200, 230, 340)}
    for k, (bx, by, bw, bh) in boxes.items():
        p = (seat + k) % 4
        n = len(mask_to_cards(int(st.hands[i, p])))
        S.panel(svg, bx, by, bw, bh, _name(p, seat), active=to_play == p and not done,
                note=_seat_note(st, i, p) + (f"  {n} 枚" if bw > 300 else ""))
        # what this seat knows of that hand (cards it gave in the exchange, ...) is drawn face up
        known = _sorted(mask_to_cards(int(st.known[i, seat, p]) & int(st.hands[i, p])), rev, False)
        if bw > 300:
            kw = min(len(known), 8) * 26 + 14 if known else 0
            S.backs(svg, bx + 12, by + 32, n - len(known), width=bw - 24 - kw)
            if known:
                _cards(svg, bx + bw - kw - 2, by + 34, known, kw - 10, 30, 44)
            svg.text(bx + 12, by + bh - 10, _ninja(st, i, p), size=12, fill=S.DIM, width=bw - 24)
        else:
            S.backs(svg, bx + 12, by + 34, n - len(known), w=36, h=52, width=bw - 24)
            if known:
                svg.text(bx + 12, by + 176, "known", size=12, fill=S.DIM)
                _cards(svg, bx + 12, by + 184, known, bw - 24, 30, 44)
            svg.text(bx + 12, by + 112, f"{n} 枚", size=14)
            svg.text(bx + 12, by + 134, _ninja(st, i, p), size=12, fill=S.DIM, width=bw - 24)
            svg.text(bx + 12, by + 154, f"score {float(st.series_score[i, p]):+.2f}", size=12, fill=S.DIM)
    # the field
    cx, cy, cw, ch = 262, 200, 500, 340
    svg.rect(cx, cy, cw, ch, fill="#18482f", stroke="#2e6b4a", rx=10)
    svg.text(cx + 12, cy + 22, "場 field", size=15, bold=True)
    field = mask_to_cards(int(st.field_cards[i]))
    if st.field_action[i] < 0 or not field:
        svg.text(cx + cw / 2, cy + ch / 2, "(empty)", size=18, fill=S.DIM, anchor="middle")
    else:
        fw, fh = 62, 88
        total = min(len(field) * (fw + 6), cw - 40)
        _cards(svg, cx + (cw - total) / 2, cy + 110, _sorted(field, False, False), cw - 40, fw, fh)
        owner = int(st.field_owner[i])
        svg.text(cx + cw / 2, cy + 230, f"by {_name(owner, seat) if owner >= 0 else '?'}, {int(st.responses[i])} passed",
                 size=14, anchor="middle")
    svg.text(cx + 12, cy + ch - 14, f"捨て札 discard {len(mask_to_cards(int(st.discard[i])))}", size=13, fill=S.DIM)
    removed = len(mask_to_cards(int(st.removed[i])))
    if removed:
        svg.text(cx + cw - 12, cy + ch - 14, f"都落ち {removed} face down", size=13, fill=S.DIM, anchor="end")
    if phase == 1 and not done:
        svg.text(cx + cw / 2, cy + 60, f"exchange: {int(st.picks_left[i])} card(s) to give", size=14, fill=S.GOLD,
                 anchor="middle")
    elif phase == 2 and not done:
        svg.text(cx + cw / 2, cy + 60, f"手裏剣: a card to {_name(int(st.shuriken_target[i]), seat)}", size=14,
                 fill=S.GOLD, anchor="middle")
    # my hand
    hand = _sorted(mask_to_cards(int(st.hands[i, seat])), rev, decl == D_WEAK_JOKER)
    S.panel(svg, 20, 556, 984, 200, _name(seat, seat), active=to_play == seat and not done,
            note=_seat_note(st, i, seat))
    _cards(svg, 34, 590, hand, 956, 62, 88)
    svg.text(34, 706, f"{len(hand)} 枚   score {float(st.series_score[i, seat]):+.2f}", size=14)
    svg.text(34, 730, _ninja(st, i, seat), size=13, fill=S.DIM, width=950)
    if done:
        svg.text(cx + cw / 2, cy + 300, "series over: " + "  ".join(
            f"P{p} {float(st.series_score[i, p]):+.2f}" for p in range(4)), size=15, fill=S.GOLD, anchor="middle")
    return str(svg)
