"""Text rendering of one game: round and lap, the field oni with damage, every player's cards with
damage, kibidango, potions and treasure, and the hiring auction."""
from __future__ import annotations

from .cards import CARD_NAMES, COLOUR_JA, MARK_JA, NUM_CARDS, NUM_ONI, ONI_COLOUR, WARRIOR_JA
from .config import MomotaroConfig
from .rules import rank_keys, rank_rewards
from .state import (AT_DECK, AT_FIELD, AT_POTION, AT_TREASURE, OUTCOME_NAMES, PHASE_BID, PHASE_NAMES, PHASE_TAKE,
                    MomotaroState)

RETAINER_NAMES = CARD_NAMES[1:]


def _oni(cfg: MomotaroConfig, o: int) -> str:
    t = cfg.tables
    mark = MARK_JA[int(t.oni_mark[o])]
    return f"{t.oni_names[o]}({COLOUR_JA[int(ONI_COLOUR[o])]}{int(t.oni_power[o])}{' ' + mark if mark else ''})"


def render_text(cfg: MomotaroConfig, st: MomotaroState, i: int = 0, seat: int | None = None,
                names: list[str] | None = None) -> str:
    """The table as text. With ``seat``, sealed bids of the other seats show only as "bid".

    ``names[p]`` calls seat p (default ``player p``; the auction line then shortens it to ``pP``).
    """
    P = cfg.num_players
    short = names or [f"p{p}" for p in range(P)]
    names = names or [f"player {p}" for p in range(P)]
    rnd, phase = int(st.round[i]), int(st.phase[i])
    done = bool(st.terminated[i] or st.truncated[i])
    lines = []
    if rnd == 0:
        lines.append(f"鬼ヶ島 — hiring, retainer {min(int(st.hire_pos[i]) + 1, 9)} of 9")
    else:
        lap = int(st.slot[i]) // P + 1
        limit = "" if rnd == 3 else f" of {cfg.laps}"
        lines.append(f"鬼ヶ島 — battle round {rnd}{' (final)' if rnd == 3 else ''}, lap {lap}{limit}, "
                     f"start player {names[int(st.start_player[i])]}, turn {int(st.turns[i])}")
        field = [f"{_oni(cfg, o)} dmg {int(st.oni_dmg[i, o])}" for o in range(NUM_ONI) if st.oni_at[i, o] == AT_FIELD]
        lines.append("field: " + ("; ".join(field) if field else "(empty)"))
        in_deck = int((st.oni_at[i] == AT_DECK).sum())
        lines.append(f"oni deck: {in_deck} face down")
    for p in range(P):
        mark = ">" if int(st.to_play[i]) == p and not done else " "
        cards = []
        for c in range(NUM_CARDS):
            if st.hand[i, p, c]:
                name = WARRIOR_JA[p] if c == 0 else CARD_NAMES[c]
                dmg = int(st.card_dmg[i, p, c])
                cards.append(f"{name}" + (f"[-{dmg}]" if dmg else ""))
        ko = [CARD_NAMES[c] for c in range(NUM_CARDS) if st.ko[i, p, c]]
        status = "" if st.alive[i, p] else " ELIMINATED"
        won = [cfg.tables.oni_names[o] + ("(potion)" if st.oni_at[i, o] == AT_POTION else "")
               for o in range(NUM_ONI) if st.oni_owner[i, o] == p and st.oni_at[i, o] in (AT_TREASURE, AT_POTION)]
        lines.append(f"{mark}{names[p]}{status}: {' '.join(cards) or '-'}"
                     + (f"  knocked out: {' '.join(ko)}" if ko else "")
                     + f" | kibidango {int(st.kibi[i, p])}, potions {int(st.potions[i, p])}, "
                       f"treasure {int(st.treasure[i, p])}" + (f" ({' '.join(won)})" if won else ""))
    if rnd == 0 and not done:
        card = RETAINER_NAMES[int(st.hire_deck[i, int(st.hire_pos[i])])]
        shown = []
        for p in range(P):
            if not st.bidders[i, p]:
                continue
            first = int(st.bids[i, p])
            add = int(st.adds[i, p])
            sealed_first = phase == PHASE_BID and seat is not None and seat != p
            sealed_add = phase != PHASE_TAKE and seat is not None and seat != p
            if phase == PHASE_BID:
                text = "-" if first < 0 else ("bid" if sealed_first else str(first))
            else:
                text = f"{first}+" + ("-" if add < 0 else ("bid" if sealed_add else str(add)))
            shown.append(f"{short[p]}:{text}")
        lines.append(f"auction: {card} ({PHASE_NAMES[phase]})  " + "  ".join(shown))
    elif st.dice[i, 0] > 0:
        t = int(st.target[i])
        lines.append(f"last battle: vs {cfg.tables.oni_names[t] if t >= 0 else '?'}, red {int(st.dice[i, 0])} "
                     f"white {int(st.dice[i, 1])} -> {OUTCOME_NAMES[int(st.outcome[i])]}")
    if done:
        keys = rank_keys(st.alive[i:i + 1], st.treasure[i:i + 1], st.hand[i:i + 1], st.kibi[i:i + 1])
        ranks, _ = rank_rewards(keys, cfg.reward_scheme)
        lines.append("game over" + (" (truncated)" if st.truncated[i] else "") + "; ranks "
                     + ", ".join(f"{names[p]}: {int(ranks[0, p])}" for p in range(P)))
    else:
        pending = f", {int(st.pending[i])} damage to assign" if st.pending[i] else ""
        lines.append(f"to play: {names[int(st.to_play[i])]} ({PHASE_NAMES[phase]}{pending})")
    return "\n".join(lines)
