"""Text rendering of one game: the map with chips and troops, hands, cards, dice and battle results.

Each province cell reads ``京 #12 3:1``: name, chip number, Hojo troops : Ashikaga troops.
Links: ``=`` ``|`` ``/`` ``\\`` land borders, ``~`` sea links (diagonal sea links are ``/~`` ``~\\``).
Japanese names are double-width, so rows are padded by display width to keep the map aligned.
"""
from __future__ import annotations

import unicodedata

import numpy as np

from . import cards as C
from .board import ADJ_LAND, ADJ_SEA, NUM_PROVINCES, PROVINCE_NAMES
from .config import NigejozuConfig
from .rules import count_for, winner
from .state import (FACTION_JA, FACTION_NAMES, PHASE_CARD, PHASE_DICE, PHASE_NAMES, PHASE_OVER, PHASE_REROLLED,
                    NigejozuState)

# Map layout: (row, column) of each province on a 3 x 6 grid (west left, east right).
_CELL = {0: (1, 0), 1: (0, 1), 2: (2, 0), 3: (1, 1), 4: (1, 2), 5: (0, 3), 6: (2, 3), 7: (1, 4), 8: (1, 5), 9: (2, 5),
         10: (0, 5)}
_STEP = 18  # display columns per grid column
_CELL_W = 15  # display width of a cell
_CENTRE = 6  # where vertical links leave a cell


def width(text: str) -> int:
    """Display columns of ``text`` (East Asian wide characters count 2)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, w: int) -> str:
    return text + " " * max(0, w - width(text))


def _cell(st: NigejozuState, i: int, p: int) -> str:
    h, a = (int(x) for x in st.troops[i, p])
    return _pad(PROVINCE_NAMES[p], 6) + f"#{int(st.chip[i, p]):<2} {h:>2}:{a:<2}"


def render_map(st: NigejozuState, i: int) -> list[str]:
    rows: list[dict[int, str]] = [dict() for _ in range(5)]  # text row -> {column: text}
    for p, (r, c) in _CELL.items():
        rows[2 * r][c * _STEP] = _cell(st, i, p)
    for p in range(NUM_PROVINCES):
        for q in range(p + 1, NUM_PROVINCES):
            if not (ADJ_LAND[p, q] or ADJ_SEA[p, q]):
                continue
            sea = bool(ADJ_SEA[p, q])
            (r1, c1), (r2, c2) = sorted([_CELL[p], _CELL[q]], key=lambda rc: (rc[1], rc[0]))
            if r1 == r2:  # horizontal: fill from the western cell to the eastern one
                start = c1 * _STEP + _CELL_W
                rows[2 * r1][start] = " " + ("~" if sea else "=") * (c2 * _STEP - start - 2) + " "
                continue
            lo, hi = min(r1, r2), max(r1, r2)
            if c1 == c2:  # vertical, through any empty cell in between
                for tr in range(2 * lo + 1, 2 * hi):
                    rows[tr][c1 * _STEP + _CENTRE] = "~" if sea else "|"
                continue
            rising = r2 < r1  # going east, the link climbs
            mark = ("/~" if sea else " /") if rising else ("~\\" if sea else "\\ ")
            rows[2 * lo + 1][c1 * _STEP + _CELL_W] = mark
    out = []
    for segs in rows:
        line, col = "", 0
        for c in sorted(segs):
            line += " " * max(0, c - col) + segs[c]
            col = max(col, c) + width(segs[c])
        out.append(line.rstrip())
    return out


def _side(st: NigejozuState, i: int, k: int, cfg: NigejozuConfig) -> str:
    faces = cfg.faces
    shown = []
    for e in np.flatnonzero(st.held[i, k]):
        name = C.EFFECT_NAMES[e]
        if cfg.card_model == "paired6":
            card = int(np.flatnonzero(faces[:, k] == e)[0])
            name += f"[裏 {C.EFFECT_NAMES[faces[card, 1 - k]]}]"
        if int(st.used[i, k]) == e:
            name = "*" + name
        shown.append(name)
    escape = "  [逃げチップ]" if int(st.escape[i]) == k else ""
    return (f"{FACTION_JA[k]} {FACTION_NAMES[k]:<8} hand {int(st.hand[i, k]):>2}"
            + (f" removed {int(st.removed[i, k])}" if st.removed[i, k] else "")
            + f"  cards: {' '.join(shown) or '-'}{escape}")


def _dice_line(st: NigejozuState, i: int) -> str:
    d = [int(x) for x in st.dice[i]]
    opts = []
    for j in range(3):
        if j and d[j] == d[j - 1]:
            continue
        p = int(st.prov_of[i, sum(d) - d[j]])
        k = min(count_for(d[j]), int(st.hand[i, int(st.to_play[i])]))
        opts.append(f"COUNT_DIE {j}: {k} to {PROVINCE_NAMES[p]} #{sum(d) - d[j]}")
    reroll = " (REROLL available)" if st.phase[i] == PHASE_DICE else " (rerolled)"
    return f"dice {d[0]} {d[1]} {d[2]}{reroll}; " + ", ".join(opts)


def _card_line(st: NigejozuState, i: int, cfg: NigejozuConfig) -> str:
    e = int(st.effect[i])
    text = f"card {C.EFFECT_NAMES[e]} ({C.EFFECT_TEXT[e]})"
    if st.card_step[i] == 1:
        return text + f": choose the destination from {PROVINCE_NAMES[int(st.selected[i])]}"
    if e in (C.TAIKYAKU, C.JOURAKU):
        left = f" of {cfg.taikyaku_n}" if e == C.TAIKYAKU else ""
        return text + f": pick {int(st.picks[i]) + 1}{left}" + (", or DONE" if e == C.JOURAKU and st.picks[i] else "")
    return text + ": choose the province"


def _battle_lines(st: NigejozuState, i: int) -> list[str]:
    lines = ["battle (chip order):"]
    for n in range(2, 13):
        p = int(st.prov_of[i, n])
        (h, a), (rh, ra) = st.troops[i, p], st.reinf[i, p]
        w = int(st.winner_of[i, p])
        who = FACTION_JA[w] if w >= 0 else "nobody (chip set aside)"
        lines.append(f"  #{n:<2} {_pad(PROVINCE_NAMES[p], 6)} {FACTION_JA[0]} {int(h)}+{int(rh)}  "
                     f"{FACTION_JA[1]} {int(a)}+{int(ra)}  -> {who}")
    w = winner(st.view(), i)
    s = st.score[i]
    tie = " (tie: the 逃げチップ decides)" if s[0] == s[1] else ""
    lines.append(f"score {FACTION_JA[0]} {int(s[0])} : {int(s[1])} {FACTION_JA[1]}  winner {FACTION_JA[w]} "
                 f"{FACTION_NAMES[w]}{tie}")
    return lines


def render_text(st: NigejozuState, i: int, cfg: NigejozuConfig) -> str:
    """The whole table of game ``i`` (the game has no hidden information)."""
    lines = ["map: cell = province #chip hojo:ashikaga troops; links = | / \\ land, ~ sea", ""]
    lines += render_map(st, i)
    lines.append("")
    for k in range(2):
        mark = ">" if int(st.to_play[i]) == k and st.phase[i] != PHASE_OVER else " "
        lines.append(mark + _side(st, i, k, cfg))
    phase = int(st.phase[i])
    if phase == PHASE_OVER:
        lines.extend(_battle_lines(st, i))
    else:
        locked = "  cards locked" if (st.hand[i] == 0).any() else ""
        lines.append(f"turn {int(st.turn[i]) + 1}: {FACTION_JA[int(st.to_play[i])]} to play, {PHASE_NAMES[phase]}"
                     f"{locked}")
        if phase in (PHASE_DICE, PHASE_REROLLED):
            lines.append(_dice_line(st, i))
        elif phase == PHASE_CARD:
            lines.append(_card_line(st, i, cfg))
    return "\n".join(lines)
