"""The daifugō screen's data (yuugi.training.serve.daifugo): the seat's view and the public events.

* Over whole 2-game series (deal, tribute, exchange, play), played through the websocket from two seats,
  no card of the view is one the seat cannot see, and the view is the same when every hidden array is
  drawn again (other hands, the deck order, another seat's exchange picks).
* Scenarios from positions: the hand's order (normal, revolution, the weak joker), the lock and the
  revolution events, the points pop-ups, 都落ち, the end of a game with the series score and the next
  declaration, the ninjutsu table (cost, uses, level), the exchange taken as one move of two picks.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.serve.daifugo_positions import SERIES_RULES, exchange, lock_then_revolution
from tests.serve.helpers import new_table
from yuugi.agents.search.resamplers import resampler
from yuugi.envs.ninja_daifugo.cards import card_name, parse_card


def visible_cards(st: Any, seat: int) -> set[str]:
    """Every card ``seat`` may see face up now: its hand, the cards it knows others hold, the field, the
    discard, the played cards, and its own exchange picks."""
    masks = [int(st.hands[0, seat]), int(st.field_cards[0]), int(st.discard[0])]
    masks += [int(st.known[0, seat, p]) for p in range(4)] + [int(st.played[0, p]) for p in range(4)]
    if int(st.to_play[0]) == seat:
        masks.append(int(st.picked[0]))
    seen = 0
    for m in masks:
        seen |= m
    return {card_name(c) for c in range(53) if (seen >> c) & 1}


def view_cards(view: dict[str, Any]) -> set[str]:
    cards = [c["id"] for c in view["hand"]]
    cards += [c["id"] for s in view["seats"] for c in s["known"]]
    cards += [c["id"] for c in (view["field"] or {}).get("cards", [])]
    cards += [c["id"] for c in (view["exchange"] or {}).get("picked", [])]
    cards += [c for p in view["plays"] for c in p["cards"]] + [c for _, c in view["picks"]]
    return set(cards)


def resampled(game: Any, st: Any, seat: int, rng: np.random.Generator) -> Any:
    out = resampler("ninja_daifugo")(game, st, seat, rng)
    out.rng_key[:] = st.rng_key
    out.rng_counter[:] = st.rng_counter
    return out


@pytest.mark.parametrize("seat", [0, 2])
def test_the_view_never_holds_a_hidden_card_over_whole_series(seat: int, make_client: Any) -> None:
    c = make_client(games=["ninja_daifugo"], rules=SERIES_RULES)
    table = new_table(c, "ninja_daifugo", level="random", seat=seat, seed=20 + seat)
    session = c.app.state.tables.get(table)
    rng = np.random.default_rng(seat)
    phases: set[str] = set()
    checked = 0
    with c.websocket_connect(f"/ws/{table}") as ws:
        msg = ws.receive_json()
        while True:
            view = msg["view"]
            assert view_cards(view) <= visible_cards(session.state, seat), "a hidden card in the view"
            assert len(view["hand"]) == int(np.bitwise_count(session.state.hands[0, seat]))
            other = resampled(session.game, session.state, seat, rng)
            assert session.message(other)["view"] == view, "the view changed with the hidden arrays"
            phases.add(view["phase"])
            checked += 1
            if msg["over"]:
                break
            if view["phase"] == "exchange":  # the exchange as the screen sends it: all the picks at once
                picks = [a for a, _ in view["picks"]][: view["exchange"]["picks_left"]]
                ws.send_json({"type": "move", "actions": picks, "turn": msg["turn"]})
            else:
                action = msg["moves"][int(rng.integers(len(msg["moves"])))][0]
                ws.send_json({"type": "move", "action": action, "turn": msg["turn"]})
            msg = ws.receive_json()
            assert msg["type"] == "state", msg
    assert checked > 5
    kinds = {e["kind"] for e in session.events}
    assert {"declaration", "game_over", "points"} <= kinds, kinds
    assert msg["view"]["over"] and msg["view"]["game"] == 2


def position_view(c: Any, position: dict[str, Any], **body: Any) -> tuple[Any, dict[str, Any]]:
    r = c.post("/api/tables", json={"game": "ninja_daifugo", "level": "random", "seat": 0, "seed": 1,
                                    "position": position, **body})
    assert r.status_code == 200, r.text
    session = c.app.state.tables.get(r.json()["id"])
    return session, session.message()


def one_hand(cards: list[str], **extra: Any) -> dict[str, Any]:
    """Seat 0 to lead holding ``cards``; the other 53 - n cards dealt to seats 1-3."""
    rest = [card_name(c) for c in range(53) if card_name(c) not in cards]
    k = len(rest) // 3
    return {"hands": [cards, rest[:k], rest[k:2 * k], rest[2 * k:]], "to_play": 0, **extra}


@pytest.mark.parametrize("extra, order", [
    ({}, ["S3", "H3", "DT", "SA", "C2", "JK"]),  # 3 (weakest) .. 2, the joker at the strong end
    ({"revolution": True}, ["C2", "SA", "DT", "S3", "H3", "JK"]),  # reversed: 3 is strongest; suits ♠♥♦♣
    ({"declaration": 1}, ["JK", "S3", "H3", "DT", "SA", "C2"]),  # D1: the joker is the weakest card
])
def test_the_hand_runs_weak_to_strong(extra: dict[str, Any], order: list[str], make_client: Any) -> None:
    c = make_client(games=["ninja_daifugo"], positions=True)
    _, msg = position_view(c, one_hand(["C2", "JK", "H3", "SA", "S3", "DT"], **extra))
    view = msg["view"]
    assert [x["id"] for x in view["hand"]] == order
    assert view["sort_order"] == ("revolution" if extra.get("revolution") else "normal")
    assert view["joker_weak"] == (extra.get("declaration") == 1)


def test_lock_revolution_and_points_events(make_client: Any) -> None:
    c = make_client(games=["ninja_daifugo"], rules=SERIES_RULES, positions=True)
    session, msg = position_view(c, lock_then_revolution())
    view = msg["view"]
    assert view["lock"] == ["♠"] and not view["revolution"]
    assert view["declaration"] == {"number": 0, "ja": "皆の者、存分に戦え", "en": "no change"}
    assert [e["kind"] for e in msg["events"]] == ["declaration"]
    s7 = next(p["action"] for p in view["plays"] if p["cards"] == ["S7"])
    session.move({"type": "move", "action": s7, "turn": msg["turn"]})
    msg = session.message()
    kinds = [e["kind"] for e in msg["events"]]
    # ♠7: a single, +1 point (§2.3); every other seat must pass, the field clears: no lock left
    assert {"kind": "points", "seat": 0, "gain": 1, "points": 1} in [
        {k: e[k] for k in ("kind", "seat", "gain", "points")} for e in msg["events"] if e["kind"] == "points"]
    assert "revolution" not in kinds and msg["view"]["lock"] == [] and msg["view"]["field"] is None
    nines = next(p["action"] for p in msg["view"]["plays"] if sorted(p["cards"]) == ["C9", "D9", "H9", "S9"])
    session.move({"type": "move", "action": nines, "turn": msg["turn"]})
    msg = session.message()
    new = [e for e in msg["events"] if e["turn"] > 4]
    assert {"kind": "revolution", "on": True} in [{k: e[k] for k in ("kind", "on")} for e in new
                                                   if e["kind"] == "revolution"]
    # a revolution is +3 points (§2.3): 1 + 3 = 4
    assert [e["points"] for e in new if e["kind"] == "points" and e["seat"] == 0] == [4]
    assert msg["view"]["revolution"] and [x["id"] for x in msg["view"]["hand"]] == ["D6", "C4", "H3"]


def test_a_lock_starting_is_an_event(make_client: Any) -> None:
    c = make_client(games=["ninja_daifugo"], positions=True)
    pos = lock_then_revolution()
    pos.update(lock=None, series_score=[0, 0, 0, 0], game_index=0, titles=[None] * 4)
    session, msg = position_view(c, pos)
    s7 = next(p["action"] for p in msg["view"]["plays"] if p["cards"] == ["S7"])
    session.move({"type": "move", "action": s7, "turn": msg["turn"]})
    locks = [e for e in session.events if e["kind"] == "lock"]
    assert [e["suits"] for e in locks] == [["♠"]], "♠7 on ♠6: two plays of ♠ in a row lock ♠"


def test_miyako_ochi_is_an_event(make_client: Any) -> None:
    """Seat 1 was 大富豪; seat 0 goes out first with its last card: seat 1 falls to last (都落ち)."""
    c = make_client(games=["ninja_daifugo"], rules=SERIES_RULES, positions=True)
    pos = one_hand(["C2"], game_index=1, titles=["fugo", "daifugo", "hinmin", "daihinmin"], miyako_candidate=1)
    session, msg = position_view(c, pos)
    assert msg["view"]["seats"][1]["miyako_candidate"]
    session.move({"type": "move", "action": msg["moves"][0][0], "turn": msg["turn"]})
    fell = [e for e in session.events if e["kind"] == "miyako"]
    assert [(e["seat"], e["name"]) for e in fell] == [(1, session.view_names[1])]
    view = session.message()["view"]
    assert view["seats"][1]["place"] == 4 and view["seats"][1]["count"] == 0 and view["removed"] > 0
    assert view["seats"][0]["place"] == 1


def test_the_end_of_a_game_tells_places_series_score_and_the_next_declaration(make_client: Any) -> None:
    """Game 1 of 2 ends when seat 0 plays its last card with one other seat left holding cards."""
    c = make_client(games=["ninja_daifugo"], rules=SERIES_RULES, positions=True)
    rest = [card_name(x) for x in range(53) if card_name(x) not in ("C2", "S3")]
    pos = {"hands": [["C2"], ["S3"], [], []], "to_play": 0, "finish_positions": [None, None, 1, 2],
           "discard": rest}
    session, msg = position_view(c, pos)
    session.move({"type": "move", "action": msg["moves"][0][0], "turn": msg["turn"]})
    over = [e for e in session.events if e["kind"] == "game_over"]
    assert len(over) == 1
    e = over[0]
    # places: seats 2, 3 went out 1st and 2nd, seat 0 3rd, seat 1 last; zero_sum rewards +1 +1/3 -1/3 -1
    assert e["game"] == 1 and e["places"] == [3, 4, 1, 2] and not e["series_over"]
    assert e["titles"] == ["貧民", "大貧民", "大富豪", "富豪"]
    assert e["series_score"] == pytest.approx([-1 / 3, -1.0, 1.0, 1 / 3], abs=1e-4)
    decl = [x for x in session.events if x["kind"] == "declaration"]
    assert decl[-1]["game"] == 2 and decl[-1]["number"] == int(session.state.declaration[0])
    assert session.message()["view"]["game"] == 2


def test_the_ninjutsu_table_shows_cost_uses_and_level(make_client: Any) -> None:
    c = make_client(games=["ninja_daifugo"], positions=True)
    loadout = {"school": "henge", "jutsu": {"raiton": 5, "ashidome": 2}}
    for decl, extra in ((0, 0), (7, 1)):  # D7: every ninjutsu costs one more
        _, msg = position_view(c, one_hand(["C2", "S3"], declaration=decl), loadout=loadout)
        mine = {j["jutsu"]: j for j in msg["view"]["seats"][0]["jutsu"]}
        # raiton: base 4, Lv5 one less, 3 uses; ashidome: base 2, Lv2, 2 uses (rules file §2.1)
        assert (mine["raiton"]["cost"], mine["raiton"]["uses_left"], mine["raiton"]["level"]) == (3 + extra, 3, 5)
        assert (mine["ashidome"]["cost"], mine["ashidome"]["uses_left"], mine["ashidome"]["level"]) == (2 + extra, 2, 2)
        assert msg["view"]["seats"][0]["school"] == "変化流"
        assert [j["jutsu"] for j in msg["view"]["jutsu"]] == ["ashidome", "raiton"]
        assert all(not j["actions"] for j in msg["view"]["jutsu"]), "no points: no ninjutsu can be used"


def test_the_exchange_is_one_move_of_its_picks(make_client: Any) -> None:
    c = make_client(games=["ninja_daifugo"], rules=SERIES_RULES, positions=True)
    session, msg = position_view(c, exchange())
    view = msg["view"]
    assert view["exchange"]["picks_left"] == 2 and view["exchange"]["to"] == session.view_names[3]
    pick = {cid: a for a, cid in view["picks"]}
    turn = msg["turn"]
    for bad in ([pick["S3"], pick["S3"]], [pick["S3"], 2], "S3", [pick["S3"]] * 5, [pick["S3"], 1.5]):
        with pytest.raises(ValueError):
            session.move({"type": "move", "actions": bad, "turn": turn})
    with pytest.raises(ValueError, match="beside"):
        session.move({"type": "move", "actions": [pick["S3"], pick["S4"]], "action": pick["S3"], "turn": turn})
    assert session.turn == turn and int(session.state.hands[0, 0]) == int(session.game.from_position(
        exchange()).hands[0, 0]), "a refused move changes nothing"
    session.move({"type": "move", "actions": [pick["S3"], pick["S4"]], "turn": turn})
    hand = [x["id"] for x in session.message()["view"]["hand"]]
    assert "S3" not in hand and "S4" not in hand
    assert int(session.state.received[0, 3]) >> parse_card("S3") & 1, "the 大貧民 (seat 3) received ♠3"


def test_loadouts_and_positions_are_checked(make_client: Any) -> None:
    c = make_client(games=["ninja_daifugo"])
    post = lambda **b: c.post("/api/tables", json={"game": "ninja_daifugo", "seat": 0, **b})  # noqa: E731
    assert "at most 2" in post(loadout={"jutsu": {"raiton": 1, "henge": 1, "ashidome": 1}}).json()["error"]
    assert "level" in post(loadout={"jutsu": {"raiton": 6}}).json()["error"]
    assert "極意" in post(loadout={"jutsu": {"raiton": 4}, "gokui": True}).json()["error"]
    assert "seat 0" in post(loadout={"jutsu": {"raiton": 1}}, seat=2).json()["error"]
    assert "positions are off" in post(position=exchange()).json()["error"]
    ok = post(loadout={"jutsu": {"raiton": 5}, "school": "rai", "gokui": True})
    assert ok.status_code == 200, ok.text
    session = c.app.state.tables.get(ok.json()["id"])
    assert session.who[1:] == ["ジライヤ (normal)", "お館様 (normal)", "モコ (normal)"]
    assert session.message()["view"]["seats"][0]["points"] == 1, "極意: one point to start with"
    c2 = make_client(games=["ninja_daifugo"], positions=True)
    bad = c2.post("/api/tables", json={"game": "ninja_daifugo", "seat": 0, "position": {"hands": []}})
    assert bad.status_code == 400 and bad.json()["error"]
