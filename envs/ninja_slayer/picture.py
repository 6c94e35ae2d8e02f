"""The picture of one game of Ninja Slayer from one seat: the opponent's side on top (its hand face
down, except the cards it must show), both fields (each character's name, cost, current カラテ/工作力,
damage; tapped characters turned sideways), decks, エテル, damage zones (face up and face down) and
オヒガン, the stack from the top with the アイサツ in progress, and the seat's own hand face up."""
from __future__ import annotations

from yuugi.envs.pictures import svg as S

from . import cards as C
from .config import FIELD_SLOTS
from .sizes import LOSE_AT_DAMAGE
from .state import DECISION_NAMES, END_NAMES, ITEM_NAMES, PHASE_NAMES

FACTION_FILL = ("#f3e6e6", "#e6ecf5", "#f7eadb", "#e9f3e6", "#f3f1ea")  # KURO KASU HIBA TSUK -
KOTO_FILL = "#f5f0ff"
CW, CH = 84, 116  # a card on the field or in hand


def _short(c: int) -> tuple[str, str]:
    parts = C.NAMES_JP[c].split(" ◆ ")
    return parts[0], (parts[1] if len(parts) > 1 else "")


def _card(svg: S.Svg, c: int, x: float, y: float, w: float = CW, h: float = CH, karate: int | None = None,
          kousaku: int | None = None, dmg: int = 0, tapped: bool = False) -> None:
    """A card face up: cost in the corner, the name (two lines), カラテ/工作力 for a character."""
    name, sub = _short(c)
    char = bool(C.IS_CHAR[c])
    k = int(C.KARATE[c]) if karate is None else karate
    w_ = int(C.KOUSAKU[c]) if kousaku is None else kousaku
    lines = [sub] if sub else []
    lines.append(f"K{k} / W{w_}" if char else "コトダマ")
    fill = FACTION_FILL[min(int(C.FACTION[c]), 4)] if char else KOTO_FILL
    size = min(15.0, (w - 8) / max(1.0, S.text_width(name, 1.0)))
    with svg.group(f"rotate(90 {x + w / 2:.1f} {y + h / 2:.1f})" if tapped else None):
        S.card(svg, x, y, w, h, lines=lines, fill=fill, mark=str(dmg) if dmg else "")
        svg.circle(x + 11, y + 11, 9, fill="#37474f")  # the cost
        svg.text(x + 11, y + 15.5, int(C.COST[c]), size=12, fill="white", anchor="middle", bold=True)
        svg.text(x + 24, y + 15, C.CODES[c], size=11, fill="#555")
        svg.text(x + w / 2, y + h * 0.45, name, size=size, fill=S.INK, anchor="middle", bold=True)
    if tapped:
        svg.text(x + w / 2, y + h / 2 + h * 0.5 - 10, "TAPPED", size=10, fill=S.GOLD, anchor="middle")


def _field(svg: S.Svg, st, i: int, p: int, y: float) -> None:
    for s in range(FIELD_SLOTS):
        x = 26 + s * 124 + (124 - CW) / 2 - 4
        c = int(st.fld_card[i, p, s])
        svg.rect(x - 2, y - 2, CW + 4, CH + 4, fill="none", stroke="#2e6b4a", rx=6, dash="4 4")
        if c < 0:
            continue
        k = max(int(C.KARATE[c]) + int(st.fld_kmod[i, p, s]), 0)
        w = max(int(C.KOUSAKU[c]) + int(st.fld_wmod[i, p, s]), 0)
        _card(svg, c, x, y, karate=k, kousaku=w, dmg=int(st.fld_dmg[i, p, s]), tapped=bool(st.fld_tap[i, p, s]))
        flags = " ".join(f for f, on in (("entered", st.fld_entered[i, p, s]), ("redirected", st.fld_redir[i, p, s]),
                                         ("カイゼン", st.fld_kz[i, p, s])) if on)
        svg.text(x + CW / 2, y + CH + 14, f"{s}" + (f" {flags}" if flags else ""), size=10, fill=S.DIM,
                 anchor="middle")


def _zones(svg: S.Svg, st, i: int, p: int, x: float, y: float) -> None:
    deck = int(st.deck_size[i, p] - st.deck_ptr[i, p])
    S.card_back(svg, x, y, 44, 60, fill="#263238")
    svg.text(x + 52, y + 24, f"deck {deck}", size=14)
    svg.text(x + 52, y + 46, f"エテル {int(st.etel_untapped[i, p])}/{int(st.etel_total[i, p])}", size=14)
    up, down = int(st.dmg_up[i, p]), int(st.dmg_down[i, p])
    svg.text(x, y + 82, f"damage {up + down}/{LOSE_AT_DAMAGE}", size=14, fill="#ff8a80", bold=True)
    for k in range(min(up + down, 12)):
        fill = "#e57373" if k < up else "#7a1f2b"
        svg.rect(x + k * 16, y + 90, 13, 20, fill=fill, stroke="#e8d9b0", sw=0.8, rx=2)
    svg.text(x, y + 128, f"(face up {up}, face down {down})", size=11, fill=S.DIM)
    svg.text(x, y + 146, f"オヒガン {int(st.grave[i, p].sum() + st.grave_anon[i, p])}", size=13)


def picture_svg(game, st, i: int = 0, seat: int = 0) -> str:
    svg = S.Svg()
    opp = 1 - seat
    done = bool(st.done[i])
    who = int(st.to_play[i])
    tp = int(st.tp[i])
    if done:
        w = int(st.winner[i])
        right = ("draw" if w < 0 else f"P{w} wins") + f" ({END_NAMES[int(st.end_reason[i])] or 'truncated'})"
    else:
        right = f"P{who}{' (you)' if who == seat else ''}: {DECISION_NAMES[int(st.decision[i])]}"
    S.banner(svg, f"ニンジャスレイヤーTCG  turn {int(st.turn[i])}  turn player P{tp}  step: "
                  f"{PHASE_NAMES[int(st.phase[i])]}", right)
    # the opponent: hand (face down unless known), field, zones
    S.panel(svg, 12, 40, 1000, 262, f"P{opp}", active=who == opp and not done,
            note="turn player" if tp == opp else "")
    hand = [(int(c), bool(k)) for c, k in zip(st.hand[i, opp], st.hand_known[i, opp]) if c >= 0]
    svg.text(110, 60, f"hand {len(hand)}", size=13, fill=S.DIM)
    for n, (c, known) in enumerate(hand):
        hx = 170 + n * 40
        if known:
            S.card(svg, hx, 46, 36, 24, big=_short(c)[0][:3], fill="#fff8dc")
        else:
            S.card_back(svg, hx, 46, 36, 24)
    _field(svg, st, i, opp, 82)
    _zones(svg, st, i, opp, 790, 76)
    recent = [f"P{int(st.hist_player[i, k])} {game.action_label(int(st.hist_action[i, k]))}"
              + (f" ({_short(int(st.hist_card[i, k]))[0]})" if st.hist_card[i, k] >= 0 else "")
              for k in range(st.hist_action.shape[1]) if st.hist_action[i, k] >= 0][:6]
    if recent:
        svg.text(24, 240, "recent (newest first)", size=12, fill=S.DIM)
        svg.text(24, 260, " · ".join(recent[:3]), size=13, width=750)
        svg.text(24, 280, " · ".join(recent[3:]), size=13, fill=S.DIM, width=750)
    # the middle: the attack and the stack, top first
    svg.rect(12, 308, 1000, 118, fill="#18482f", stroke="#2e6b4a", rx=8)
    if st.att_slot[i] >= 0:
        tgt = "the player" if st.tgt_slot[i] < 0 else f"slot {int(st.tgt_slot[i])}"
        svg.text(24, 330, f"アイサツ: P{tp} slot {int(st.att_slot[i])} → {tgt}", size=15, fill=S.GOLD, bold=True)
    n = int(st.stk_len[i])
    svg.text(24, 352, f"stack ({n}, top first)" if n else "stack: empty", size=14, bold=True)
    for r, j in enumerate(range(n - 1, -1, -1)):
        if r >= 4:
            svg.text(24 + 240 * r, 392, f"… {n - 4} more", size=13, fill=S.DIM)
            break
        c = int(st.stk_card[i, j])
        x = 24 + 240 * r
        svg.rect(x, 356, 230, 64, fill="#fbfaf5" if r == 0 else "#e9e6dc", stroke=S.GOLD if r == 0 else "#555", rx=5,
                 sw=2 if r == 0 else 1)
        name, _ = _short(c) if c >= 0 else ("?", "")
        svg.text(x + 8, 372, f"{ITEM_NAMES[int(st.stk_kind[i, j])]} · P{int(st.stk_ctrl[i, j])}"
                 + (" · top" if r == 0 else ""), size=12, fill="#555")
        svg.text(x + 8, 392, name, size=14, fill=S.INK, bold=True, width=214)
        tgt = "" if st.stk_tgt_slot[i, j] < 0 else f" → P{int(st.stk_tgt_player[i, j])} slot {int(st.stk_tgt_slot[i, j])}"
        svg.text(x + 8, 411, f"{C.OPCODE_NAMES[int(st.stk_op[i, j])]} {int(st.stk_arg[i, j])}{tgt}", size=12,
                 fill=S.INK, width=214)
    svg.text(1000, 348, "● cost   K カラテ / W 工作力   red: damage", size=11, fill=S.DIM, anchor="end")
    if st.last_resolved[i] >= 0:
        svg.text(1000, 330, f"last resolved: {_short(int(st.last_resolved[i]))[0]}", size=13, fill=S.DIM,
                 anchor="end")
    # the seat: field, zones, hand face up
    S.panel(svg, 12, 432, 1000, 330, f"P{seat} (you)", active=who == seat and not done,
            note="turn player" if tp == seat else "")
    _field(svg, st, i, seat, 462)
    _zones(svg, st, i, seat, 790, 456)
    mine = [int(c) for c in st.hand[i, seat] if c >= 0]
    svg.text(24, 616, f"hand {len(mine)}", size=13, fill=S.DIM)
    step = S.step_for(len(mine), CW, 740)
    for n, c in enumerate(mine):
        _card(svg, c, 96 + n * step, 642)
    return str(svg)
