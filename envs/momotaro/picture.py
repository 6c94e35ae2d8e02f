"""The picture of one game of 鬼ヶ島 from one seat: the oni on the field (power, janken mark, damage),
the oni deck face down, the dice of the last battle, the retainer on auction with the bids (the other
seats' sealed bids face down), and every player's warrior and retainers (damage marked, knocked-out
cards greyed), kibidango, potions and treasure. The seat's own row is at the bottom."""
from __future__ import annotations

from yuugi.envs.pictures import svg as S

from .cards import CARD_JA, COLOUR_JA, MARK_JA, NUM_CARDS, NUM_ONI, ONI_COLOUR, WARRIOR_JA
from .tables import COMBO_CARDS
from .state import (AT_DECK, AT_FIELD, AT_POTION, AT_TREASURE, OUTCOME_NAMES, PHASE_ASSIGN, PHASE_BID, PHASE_COMBO,
                    PHASE_NAMES, PHASE_TAKE, PHASE_YELLOW)

ONI_FILL = ("#f6d5d5", "#d5e2f6", "#d8f0d5", "#cfcfcf", "#f6efc4")
ONI_INK = ("#b71c1c", "#0d47a1", "#1b5e20", "#111111", "#8d6e00")
CARD_FILL = ("#fff4e0", "#f1e7da", "#f3ecd2", "#e3eef8")  # warrior, dog, monkey, pheasant


def _name(p: int, seat: int) -> str:
    return f"P{p} {WARRIOR_JA[p % len(WARRIOR_JA)]}" + (" (あなた)" if p == seat else "")


def _oni(svg: S.Svg, t, st, i: int, o: int, x: float, y: float, w: float = 78, h: float = 104) -> None:
    """An oni card; the one attacked this turn has a gold edge."""
    c = int(ONI_COLOUR[o])
    dmg = int(st.oni_dmg[i, o])
    mark = MARK_JA[int(t.oni_mark[o])]
    S.card(svg, x, y, w, h, corner=COLOUR_JA[c], big=str(int(t.oni_power[o])),
           lines=[x for x in (t.oni_names[o], mark) if x], colour=ONI_INK[c], fill=ONI_FILL[c],
           mark=str(dmg) if dmg else "", stroke=S.GOLD if _attacked(st, i, o) else "#555")


def _player_card(svg: S.Svg, t, st, i: int, p: int, c: int, x: float, y: float, w: float, h: float) -> None:
    kind = 0 if c == 0 else 1 + (c - 1) // 3
    name = CARD_JA[c] if c == 0 else CARD_JA[c][:-1]
    dmg = int(st.card_dmg[i, p, c])
    mark = MARK_JA[int(t.card_mark[c])]
    S.card(svg, x, y, w, h, corner=name, big=str(int(t.card_power[c])), lines=[mark] if mark else [],
           fill=CARD_FILL[kind], faded=bool(st.ko[i, p, c]), mark=str(dmg) if dmg else "",
           stroke=S.GOLD if _fighting(st, i, p, c) else "#555")


def _attacked(st, i: int, o: int) -> bool:
    """Oni o is the one attacked in the battle being fought."""
    return int(st.phase[i]) in (PHASE_COMBO, PHASE_ASSIGN, PHASE_YELLOW) and int(st.target[i]) == o


def _fighting(st, i: int, p: int, c: int) -> bool:
    """Card c of seat p (the attacker, to play) is in the card set fighting the battle being fought."""
    combo = int(st.combo[i])
    return (int(st.phase[i]) in (PHASE_ASSIGN, PHASE_YELLOW) and combo >= 0 and int(st.to_play[i]) == p
            and bool(COMBO_CARDS[combo, c]))


def picture_svg(game, st, i: int = 0, seat: int = 0) -> str:
    cfg = game.config
    t = cfg.tables
    P = cfg.num_players
    svg = S.Svg()
    rnd, phase = int(st.round[i]), int(st.phase[i])
    done = bool(st.terminated[i] or st.truncated[i])
    to_play = int(st.to_play[i])
    if rnd == 0:
        title = f"鬼ヶ島  hiring: retainer {min(int(st.hire_pos[i]) + 1, 9)} of 9"
    else:
        lap = int(st.slot[i]) // P + 1
        title = (f"鬼ヶ島  battle round {rnd}{' (final)' if rnd == 3 else ''}, lap {lap}"
                 f"{'' if rnd == 3 else f' of {cfg.laps}'}, turn {int(st.turns[i])}")
    pending = f": {int(st.pending[i])} damage" if st.pending[i] and not done else ""
    right = "game over" if done else f"P{to_play} to play ({PHASE_NAMES[phase]}{pending})"
    S.banner(svg, title, right)
    # the table: field oni, oni deck, dice or auction
    S.panel(svg, 12, 42, 1000, 150, "鬼 field")
    field = [o for o in range(NUM_ONI) if st.oni_at[i, o] == AT_FIELD]
    for k, o in enumerate(field):
        _oni(svg, t, st, i, o, 24 + k * 88, 72)
    if not field:
        svg.text(30, 124, "(no oni on the field)" if rnd else "(hiring: no oni yet)", size=15, fill=S.DIM)
    in_deck = int((st.oni_at[i] == AT_DECK).sum())
    svg.text(400, 66, "鬼の山 oni deck", size=13, fill=S.DIM)
    S.backs(svg, 400, 76, in_deck, w=40, h=56, width=170, fill="#3b2a5c")
    if rnd == 0 and not done and int(st.hire_pos[i]) < 9:
        retainer = int(st.hire_deck[i, int(st.hire_pos[i])]) + 1
        svg.text(620, 66, "auction", size=13, fill=S.DIM)
        kind = 1 + (retainer - 1) // 3
        S.card(svg, 620, 74, 62, 88, corner=CARD_JA[retainer][:-1], big=str(int(t.card_power[retainer])),
               lines=[MARK_JA[int(t.card_mark[retainer])]], fill=CARD_FILL[kind])
        for p in range(P):
            x, y = 700 + (p % 2) * 150, 74 + (p // 2) * 50
            if not st.bidders[i, p]:
                svg.text(x, y + 20, f"P{p}: out", size=13, fill=S.DIM)
                continue
            first, add = int(st.bids[i, p]), int(st.adds[i, p])
            sealed_first = phase == PHASE_BID and seat != p
            sealed_add = phase != PHASE_TAKE and seat != p
            svg.text(x, y + 20, f"P{p}:", size=14)
            if phase == PHASE_BID:
                shown = [(first, sealed_first)]
            else:
                shown = [(first, False), (add, sealed_add)]
            for k, (v, sealed) in enumerate(shown):
                bx = x + 34 + k * 40
                if v < 0:
                    svg.text(bx + 6, y + 20, "–", size=14, fill=S.DIM)
                elif sealed:
                    S.card_back(svg, bx, y, 28, 38, fill="#3b2a5c")
                else:
                    S.card(svg, bx, y, 28, 38, big=str(v), fill="#fff8dc")
    elif st.dice[i, 0] > 0:
        svg.text(620, 66, "last battle", size=13, fill=S.DIM)
        S.die(svg, 620, 80, int(st.dice[i, 0]), 46, fill="#d32f2f", pip="white")
        S.die(svg, 676, 80, int(st.dice[i, 1]), 46)
        target = int(st.target[i])
        svg.text(740, 100, f"vs {t.oni_names[target]}" if target >= 0 else "", size=15)
        outcome = OUTCOME_NAMES.get(int(st.outcome[i]))
        svg.text(740, 124, f"→ {outcome}" if outcome else "", size=15, fill=S.GOLD)
    # the players, the seat's own row last (at the bottom)
    order = [(seat + k) % P for k in range(1, P)] + [seat]
    rows = 200
    row_h = (H_ := S.H - rows - 8) / P
    for r, p in enumerate(order):
        y = rows + r * row_h
        active = to_play == p and not done
        note = "" if st.alive[i, p] else "ELIMINATED"
        S.panel(svg, 12, y, 1000, row_h - 8, _name(p, seat), active=active, note=note)
        ch = min(84, row_h - 44)
        cw = 54
        x = 24
        for c in range(NUM_CARDS):
            if st.hand[i, p, c] or st.ko[i, p, c]:
                _player_card(svg, t, st, i, p, c, x, y + 28, cw, ch)
                x += cw + 6
        # counters on the right
        kx = 640
        svg.text(kx, y + 44, f"きびだんご {int(st.kibi[i, p])}", size=14)
        S.pips(svg, kx + 110, y + 32, min(int(st.kibi[i, p]), 20), fill="#e9c46a", r=5, per_row=20)
        svg.text(kx, y + 68, f"薬 potions {int(st.potions[i, p])}   宝 treasure {int(st.treasure[i, p])}", size=14)
        won = [o for o in range(NUM_ONI) if st.oni_owner[i, o] == p and st.oni_at[i, o] in (AT_TREASURE, AT_POTION)]
        for k, o in enumerate(won[:12]):
            c = int(ONI_COLOUR[o])
            bx = kx + k * 30
            svg.rect(bx, y + 76, 26, 20, fill=ONI_FILL[c], stroke=ONI_INK[c], rx=3,
                     opacity=0.5 if st.oni_at[i, o] == AT_POTION else None)
            svg.text(bx + 13, y + 91, t.oni_names[o], size=11, fill=ONI_INK[c], anchor="middle")
    del H_
    return str(svg)
