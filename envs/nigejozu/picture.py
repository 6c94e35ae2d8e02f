"""The picture of one game of nigejozu (no hidden information): the 11-province map with each
province's chip and both factions' troops, land and sea links, both sides' troops in hand, strategy
cards (the used one marked), the 逃げチップ, this turn's dice and, once the game is over, who took
each chip and the score."""
from __future__ import annotations

import numpy as np

from yuugi.envs.pictures import svg as S

from . import cards as C
from .board import ADJ_LAND, ADJ_SEA, NUM_PROVINCES, PROVINCE_NAMES
from .state import FACTION_JA, FACTION_NAMES, PHASE_CARD, PHASE_DICE, PHASE_NAMES, PHASE_OVER, PHASE_REROLLED

# (row, column) of each province on a 3 x 6 grid, west on the left (as the text map).
CELL = {0: (1, 0), 1: (0, 1), 2: (2, 0), 3: (1, 1), 4: (1, 2), 5: (0, 3), 6: (2, 3), 7: (1, 4), 8: (1, 5), 9: (2, 5),
        10: (0, 5)}
FACTION_FILL = ("#1f5fbf", "#c62828")  # 北条 blue, 足利 red
NODE_W, NODE_H = 138, 92
MAP_X, MAP_Y, COL, ROW = 24, 50, 164, 142


def _centre(p: int) -> tuple[float, float]:
    r, c = CELL[p]
    return MAP_X + c * COL + NODE_W / 2, MAP_Y + r * ROW + NODE_H / 2


def _map(svg: S.Svg, st, i: int) -> None:
    for p in range(NUM_PROVINCES):
        for q in range(p + 1, NUM_PROVINCES):
            if ADJ_LAND[p, q] or ADJ_SEA[p, q]:
                (x1, y1), (x2, y2) = _centre(p), _centre(q)
                if ADJ_SEA[p, q]:
                    svg.line(x1, y1, x2, y2, stroke="#7fb3ff", sw=3, dash="8 6")
                else:
                    svg.line(x1, y1, x2, y2, stroke="#d9c9a3", sw=5)
    over = int(st.phase[i]) == PHASE_OVER
    for p in range(NUM_PROVINCES):
        r, c = CELL[p]
        x, y = MAP_X + c * COL, MAP_Y + r * ROW
        w = int(st.winner_of[i, p]) if over else -1
        svg.rect(x, y, NODE_W, NODE_H, fill="#efe6cf", stroke=FACTION_FILL[w] if w >= 0 else "#6b5b3e",
                 sw=5 if w >= 0 else 1.5, rx=10)
        svg.text(x + 8, y + 22, PROVINCE_NAMES[p], size=17, fill=S.INK, bold=True)
        svg.circle(x + NODE_W - 20, y + 18, 14, fill="#fbfaf5", stroke="#6b5b3e", sw=1.5)
        svg.text(x + NODE_W - 20, y + 23, int(st.chip[i, p]), size=14, fill=S.INK, anchor="middle", bold=True)
        for k in range(2):
            n = int(st.troops[i, p, k])
            extra = int(st.reinf[i, p, k]) if over else 0
            ty = y + 40 + k * 24
            svg.text(x + 8, ty + 12, f"{FACTION_JA[k]} {n}" + (f"+{extra}" if extra else ""), size=13,
                     fill=FACTION_FILL[k], bold=True)
            S.pips(svg, x + 64, ty + 2, min(n, 12), fill=FACTION_FILL[k], r=4, per_row=7, stroke="#fff")


def _side(svg: S.Svg, game, st, i: int, k: int, x: float, y: float, w: float, h: float, active: bool) -> None:
    cfg = game.config
    note = "逃げチップ" if int(st.escape[i]) == k else ""
    S.panel(svg, x, y, w, h, f"{FACTION_JA[k]} {FACTION_NAMES[k]}", active=active, note=note)
    hand = int(st.hand[i, k])
    svg.text(x + 12, y + 44, f"hand {hand}" + (f"   removed {int(st.removed[i, k])}" if st.removed[i, k] else ""),
             size=14)
    S.pips(svg, x + 130, y + 33, min(hand, 36), fill=FACTION_FILL[k], r=5, per_row=24, stroke="#fff")
    effects = list(np.flatnonzero(st.held[i, k]))
    cw = min(74.0, (w - 24) / max(1, len(effects)) - 6)
    for n, e in enumerate(effects):
        lines = []
        if cfg.card_model == "paired6":
            rows = np.flatnonzero(cfg.faces[:, k] == e)
            if len(rows):
                lines = [f"裏 {C.EFFECT_NAMES[int(cfg.faces[int(rows[0]), 1 - k])]}"]
        used = int(st.used[i, k]) == e
        S.card(svg, x + 12 + n * (cw + 6), y + 66, cw, 80, corner="used" if used else "", big=C.EFFECT_NAMES[e],
               lines=lines, colour=FACTION_FILL[k], faded=used)


def picture_svg(game, st, i: int = 0, seat: int = 0) -> str:
    svg = S.Svg()
    phase = int(st.phase[i])
    to_play = int(st.to_play[i])
    over = phase == PHASE_OVER
    right = "game over" if over else f"{FACTION_JA[to_play]} to play ({PHASE_NAMES[phase]})"
    S.banner(svg, f"逃げ上手の若君  turn {int(st.turn[i]) + 1}   (you: {FACTION_JA[seat]})", right)
    svg.rect(12, 40, 1000, 462, fill="#2c6e8f", rx=10, opacity=0.35)
    _map(svg, st, i)
    svg.line(820, 489, 850, 489, stroke="#d9c9a3", sw=5)
    svg.text(856, 494, "land", size=12, fill=S.DIM)
    svg.line(910, 489, 950, 489, stroke="#7fb3ff", sw=3, dash="8 6")
    svg.text(956, 494, "sea", size=12, fill=S.DIM)
    for k in range(2):
        _side(svg, game, st, i, k, 12 + k * 506, 510, 494, 160, active=to_play == k and not over)
    # the turn: dice, the card being resolved, or the result
    svg.rect(12, 678, 1000, 82, fill=S.PANEL, rx=8)
    if over:
        s = st.score[i]
        svg.text(28, 712, f"score {FACTION_JA[0]} {int(s[0])} : {int(s[1])} {FACTION_JA[1]}", size=20, bold=True)
        w = 0 if s[0] > s[1] else 1 if s[1] > s[0] else int(st.escape[i])
        tie = " (tie: the 逃げチップ decides)" if s[0] == s[1] else ""
        svg.text(28, 742, f"winner {FACTION_JA[w] if w >= 0 else '?'}{tie}", size=16, fill=S.GOLD)
    elif phase in (PHASE_DICE, PHASE_REROLLED):
        for j in range(3):
            S.die(svg, 28 + j * 56, 694, int(st.dice[i, j]), 48)
        d = [int(x) for x in st.dice[i]]
        svg.text(210, 716, f"sum {sum(d)}" + ("   (reroll available)" if phase == PHASE_DICE else "   (rerolled)"),
                 size=16)
        options = []
        for j in range(3):
            if j and d[j] == d[j - 1]:
                continue
            chip = sum(d) - d[j]
            p = int(st.prov_of[i, chip]) if 2 <= chip <= 12 else -1
            options.append(f"count {d[j]} → #{chip} {PROVINCE_NAMES[p] if p >= 0 else '?'}")
        svg.text(210, 742, "a count die places troops on the chip of the other two: " + " · ".join(options), size=13,
                 fill=S.DIM, width=790)
    elif phase == PHASE_CARD:
        e = int(st.effect[i])
        svg.text(28, 712, f"card {C.EFFECT_NAMES[e]}", size=18, bold=True)
        svg.text(28, 740, C.EFFECT_TEXT[e], size=13, fill=S.DIM, width=700)
        if st.selected[i] >= 0:
            svg.text(996, 712, f"from {PROVINCE_NAMES[int(st.selected[i])]}", size=15, anchor="end", fill=S.GOLD)
    else:
        svg.text(28, 726, "roll the dice or play a strategy card", size=16, fill=S.DIM)
    return str(svg)
