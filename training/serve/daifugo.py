"""The daifugō screen's data: one seat's *view* of a ninja daifugō table, and the events between two views.

The browser's daifugō screen (``static/daifugo.js``) draws only what :func:`seat_view` returns, which is
built on the server from the engine's state and holds nothing the seat may not see: its own hand, the
cards it *knows* another seat holds (cards it gave in the exchange, or a 手裏剣 card thrown face up), the
public table (field, discard count, lock, revolution, 11-back, declaration, titles, places, ninja points,
every seat's jutsu table and school — all public in the rules), its own exchange picks (never another
seat's), and its legal moves. ``tests/serve/test_daifugo_view.py`` checks over whole games that the view
does not change when every hidden array is drawn again.

The view (JSON; every card is ``{"id": "S3", "rank": "3", "suit": "♠", "red": false, "joker": false}``)::

    {"version": 1, "seat": 0, "names": [...], "game": 1, "series_games": 5, "over": false,
     "declaration": {"number": 3, "ja": "縛りはなしじゃ", "en": "no suit lock"},
     "phase": "play" | "exchange" | "shuriken", "to_play": 2, "mine": false,
     "revolution": false, "eleven_back": false, "lock": ["♠"], "henge_shift": 0,
     "field": null | {"cards": [card], "owner": 1, "label": "♠5", "kind": "single", "boosted_low": null},
     "discard": 12, "removed": 0,
     "hand": [card, ...],                  # sorted weak → strong (see sort_order)
     "sort_order": "normal" | "revolution", "joker_weak": false,
     "seats": [{"seat": p, "name": ..., "count": 13, "title": "大富豪" | "", "place": 0, "out": false,
                "points": 2, "skips": 0, "school": "雷流" | "", "miyako_candidate": false,
                "known": [card], "series_score": 0.0,
                "jutsu": [{"jutsu": "raiton", "ja": "雷遁", "level": 1, "uses_left": 2, "cost": 4}]}, ...],
     "exchange": null | {"picks_left": 2, "picked": [card], "to": "モコ", "give": 2},   # the seat's own only
     "shuriken_to": null | "ジライヤ",
     "plays": [{"action": a, "cards": ["S5", "H5"], "label": "♠5 ♥5", "kind": "group"}],  # legal card plays
     "pass": null | a, "picks": [[a, "S3"], ...],
     "jutsu": [{... as in seats, "actions": [[a, "足止め → ジライヤ"], ...]}],   # the seat's own, usable ones
    }

Events (:func:`events_between`) tell the screen what just happened, for its effects: ``points`` (a seat's
ninja points rose: the "+1" pop-ups), ``revolution`` (on or off), ``lock`` (a lock began), ``miyako``
(都落ち struck a seat), ``game_over`` (places and the series score between games) and ``declaration``
(a game was dealt). Each is public.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from yuugi.envs.ninja_daifugo import actions as A
from yuugi.envs.ninja_daifugo.cards import JOKER, RANK_CHARS, SUIT_SYMBOLS, card_name, card_symbol, mask_to_cards
from yuugi.envs.ninja_daifugo.config import D_WEAK_JOKER, DECLARATION_TEXT, JUTSU
from yuugi.envs.ninja_daifugo.ninjutsu import jutsu_cost
from yuugi.envs.ninja_daifugo.render import sort_hand, symbol_label
from yuugi.envs.ninja_daifugo.state import PHASE_EXCHANGE, PHASE_NAMES, PHASE_SHURIKEN, DaifugoState

VIEW_VERSION = 1
SCHOOL_JA = ("", "雷流", "変化流", "妨害流")
KIND_OF = {A.K_SINGLE: "single", A.K_JSINGLE: "single", A.K_GROUP: "group", A.K_SEQ: "sequence"}
# The CPUs of the faithful table sit at seats 1-3 (rules file §2.1): their names and loadouts go together.
FAITHFUL_CPUS = ("ジライヤ", "お館様", "モコ")


def title_ja(place: int, players: int) -> str:
    """The title of a finishing place: 1 大富豪, 2 富豪, the last two 貧民 and 大貧民, any other 平民."""
    if place <= 0:
        return ""
    if place == players:
        return "大貧民"
    if place == players - 1:
        return "貧民"
    return {1: "大富豪", 2: "富豪"}.get(place, "平民")


def card(c: int) -> dict[str, Any]:
    """One card as the screen draws it."""
    if c == JOKER:
        return {"id": "JK", "rank": "JK", "suit": "", "red": False, "joker": True}
    rank = RANK_CHARS[c // 4]
    return {"id": card_name(c), "rank": "10" if rank == "T" else rank, "suit": SUIT_SYMBOLS[c % 4],
            "red": c % 4 in (1, 2), "joker": False}


def declaration(number: int) -> dict[str, Any]:
    """A declaration (お館様の気まぐれ宣言) in Japanese and English."""
    text = DECLARATION_TEXT[number]
    ja, _, en = text.partition(" (")
    return {"number": number, "ja": ja, "en": en.rstrip(")")}


def _partner(st: DaifugoState, p: int) -> int:
    """The seat ``p`` gives to in the exchange: 大富豪 (title 1) to 大貧民 (title n), 富豪 (2) to 貧民 (n - 1)."""
    n = st.titles.shape[1]
    title = int(st.titles[0, p])
    return next((q for q in range(n) if int(st.titles[0, q]) == n + 1 - title), -1)


def _jutsu_table(st: DaifugoState, p: int) -> list[dict[str, Any]]:
    decl = int(st.declaration[0])
    return [{"jutsu": JUTSU[j], "ja": A.JUTSU_JA[j], "level": int(st.levels[0, p, j]),
             "uses_left": int(st.uses_left[0, p, j]), "cost": int(jutsu_cost(j, int(st.levels[0, p, j]), decl))}
            for j in range(st.levels.shape[2]) if st.levels[0, p, j]]


def seat_view(st: DaifugoState, seat: int, names: Sequence[str], legal: np.ndarray, series_games: int
              ) -> dict[str, Any]:
    """What ``seat`` sees of game 0 of ``st`` (see the module doc); ``legal``: the legal actions of the
    seat to play (used only when that is ``seat``)."""
    done = bool(st.terminated[0] or st.truncated[0])
    n = st.hands.shape[1]
    to_play = int(st.to_play[0])
    mine = not done and to_play == seat
    phase = int(st.phase[0])
    rev = bool(st.revolution[0])
    weak = int(st.declaration[0]) == D_WEAK_JOKER
    lock = int(st.lock[0])
    fa = int(st.field_action[0])
    field = None
    if fa >= 0:
        boosted = int(st.field_elo[0]) != int(A.LO[fa]) and A.LO[fa] >= 0
        field = {"cards": [card(c) for c in sort_hand(mask_to_cards(int(st.field_cards[0])), False, False)],
                 "owner": int(st.field_owner[0]), "label": symbol_label(fa), "kind": KIND_OF[int(A.KIND[fa])],
                 "boosted_low": RANK_CHARS[int(st.field_elo[0])] if boosted else None}
    seats = []
    for p in range(n):
        hand = int(st.hands[0, p])
        known = [] if p == seat else sort_hand(mask_to_cards(int(st.known[0, seat, p]) & hand), rev, weak)
        seats.append({
            "seat": p, "name": names[p], "count": len(mask_to_cards(hand)), "title": title_ja(int(st.titles[0, p]), n),
            "place": int(st.finish_pos[0, p]), "out": bool(st.finish_pos[0, p]), "points": int(st.points[0, p]),
            "skips": int(st.skip_pending[0, p]), "school": SCHOOL_JA[int(st.school[0, p])],
            "miyako_candidate": int(st.miyako[0]) == p, "known": [card(c) for c in known],
            "series_score": round(float(st.series_score[0, p]), 4), "jutsu": _jutsu_table(st, p)})
    view: dict[str, Any] = {
        "version": VIEW_VERSION, "seat": seat, "names": list(names), "game": int(st.game_index[0]) + 1,
        "series_games": series_games, "over": done, "declaration": declaration(int(st.declaration[0])),
        "phase": PHASE_NAMES[phase], "to_play": None if done else to_play, "mine": mine,
        "revolution": rev, "eleven_back": bool(st.eleven_back[0]),
        "lock": [SUIT_SYMBOLS[s] for s in range(4) if (lock >> s) & 1], "henge_shift": int(st.henge_shift[0]),
        "field": field, "discard": len(mask_to_cards(int(st.discard[0]))),
        "removed": len(mask_to_cards(int(st.removed[0]))),
        "hand": [card(c) for c in sort_hand(mask_to_cards(int(st.hands[0, seat])), rev, weak)],
        "sort_order": "revolution" if rev else "normal", "joker_weak": weak, "seats": seats,
        "exchange": None, "shuriken_to": None, "plays": [], "pass": None, "picks": [], "jutsu": [],
    }
    if not done and phase == PHASE_EXCHANGE and to_play == seat:
        to = _partner(st, seat)
        picked = mask_to_cards(int(st.picked[0]))
        view["exchange"] = {"picks_left": int(st.picks_left[0]), "picked": [card(c) for c in picked],
                            "to": names[to] if to >= 0 else "", "give": int(st.picks_left[0]) + len(picked)}
    if not done and phase == PHASE_SHURIKEN:
        view["shuriken_to"] = names[int(st.shuriken_target[0])]
    if not mine:
        return view
    actions = [int(a) for a in legal]
    view["plays"] = [{"action": a, "cards": [card_name(c) for c in mask_to_cards(int(A.CARDS[a]))],
                      "label": symbol_label(a), "kind": KIND_OF[int(A.KIND[a])]}
                     for a in actions if A.K_SINGLE <= A.KIND[a] <= A.K_SEQ]
    view["pass"] = A.PASS if A.PASS in actions else None
    view["picks"] = [[a, card_name(int(A.PICK_CARD[a]))] for a in actions if A.KIND[a] == A.K_PICK]
    usable = []
    for row in _jutsu_table(st, seat):
        j = JUTSU.index(row["jutsu"])
        moves = []
        for a in actions:
            if A.KIND[a] == A.K_JUTSU and int(A.JUTSU[a]) == j:
                target = (seat + int(A.TARGET[a])) % n if A.TARGET[a] else None
                moves.append([a, f"{row['ja']} → {names[target]}" if target is not None else row["ja"]])
        usable.append({**row, "actions": moves})
    view["jutsu"] = usable
    return view


def events_between(before: DaifugoState, after: DaifugoState, turn: int, names: Sequence[str]) -> list[dict[str, Any]]:
    """The public events of one move (``turn``: the table's move count after it), for the screen's effects."""
    out: list[dict[str, Any]] = []
    n = after.hands.shape[1]
    new_game = int(after.game_index[0]) != int(before.game_index[0])
    finished = bool(after.terminated[0] or after.truncated[0])
    for p in range(n):
        # a new deal resets the points: only a rise within one game is a gain
        gain = int(after.points[0, p]) - int(before.points[0, p])
        if gain > 0 and not new_game:
            out.append({"kind": "points", "seat": p, "gain": gain, "points": int(after.points[0, p])})
    if not new_game and bool(after.revolution[0]) != bool(before.revolution[0]):
        out.append({"kind": "revolution", "on": bool(after.revolution[0])})
    if not new_game and int(after.lock[0]) and not int(before.lock[0]):
        out.append({"kind": "lock", "suits": [SUIT_SYMBOLS[s] for s in range(4) if (int(after.lock[0]) >> s) & 1]})
    fallen = int(before.miyako[0])
    # 都落ち strikes when the first seat goes out and it is not the last game's 大富豪 (never on a new deal:
    # the first one out always leaves at least two seats playing)
    first_out = int(before.next_pos[0]) == 1 and int(after.next_pos[0]) > 1
    if (not new_game and first_out and fallen >= 0 and not before.finish_pos[0, fallen]
            and int(after.finish_pos[0, fallen]) == int(before.last_pos[0]) and int(before.hands[0, fallen])):
        out.append({"kind": "miyako", "seat": fallen, "name": names[fallen]})
    if new_game or finished:
        places = [int(after.titles[0, p]) for p in range(n)] if new_game else _final_places(after)
        out.append({"kind": "game_over", "game": int(before.game_index[0]) + 1, "places": places,
                    "titles": [title_ja(x, n) for x in places], "series_over": finished,
                    "series_score": [round(float(x), 4) for x in after.series_score[0]]})
    if new_game:
        out.append({"kind": "declaration", "game": int(after.game_index[0]) + 1,
                    **declaration(int(after.declaration[0]))})
    for e in out:
        e["turn"] = turn
    return out


def _final_places(st: DaifugoState) -> list[int]:
    n = st.finish_pos.shape[1]
    places = [int(st.finish_pos[0, p]) for p in range(n)]
    free = [k for k in range(1, n + 1) if k not in places]
    return [x or free.pop(0) for x in places]


def hand_symbols(cards: list[dict[str, Any]]) -> str:
    """``♠3 ♥10 JK``: a list of view cards in the people's notation (for tests and messages)."""
    return " ".join(card_symbol(JOKER) if c["joker"] else c["suit"] + c["rank"] for c in cards)
