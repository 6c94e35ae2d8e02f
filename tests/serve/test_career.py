"""The daifugō career file (yuugi.training.serve.career): a round trip through SQLite, the 道場, the rank,
each game written once, and the files it refuses (corrupt, not a career, newer schema) with a message."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.serve.daifugo_positions import SERIES_RULES
from yuugi.training.serve.career import NUMBERS, SCHEMA_VERSION, Career, CareerError, default_path, rank_of


def test_a_new_career_round_trips_through_the_file(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "career.sqlite3"
    c = Career(path)
    first = c.state()
    assert first["earned"] == first["held"] == first["games"] == 0
    assert first["levels"] == NUMBERS["starting_levels"] and first["rank"] == NUMBERS["ranks"][0][1]
    assert c.record_game("t1", 1, 1) == NUMBERS["points_by_place"][0]
    assert c.record_game("t1", 2, 4) == NUMBERS["points_by_place"][3]
    c.close()
    again = Career(path).state()  # everything came back from the file
    earned = NUMBERS["points_by_place"][0] + NUMBERS["points_by_place"][3]
    assert (again["earned"], again["held"], again["spent"], again["games"]) == (earned, earned, 0, 2)


def test_a_game_is_written_once(tmp_path: Path) -> None:
    c = Career(tmp_path / "c.sqlite3")
    assert c.record_game("t", 1, 2) == NUMBERS["points_by_place"][1]
    assert c.record_game("t", 1, 2) == 0, "the same game of the same table counts once"
    assert c.state()["earned"] == NUMBERS["points_by_place"][1] and c.state()["games"] == 1
    with pytest.raises(CareerError, match="place"):
        c.record_game("t", 2, 5)


def test_the_dojo_spends_held_points_and_the_rank_follows_the_points_earned(tmp_path: Path) -> None:
    c = Career(tmp_path / "c.sqlite3")
    with pytest.raises(CareerError, match="costs"):
        c.level_up("raiton")  # nothing held yet
    games = 0
    while c.state()["earned"] < NUMBERS["ranks"][1][0]:  # earn up to the second rank
        c.record_game("t", games, 1)
        games += 1
    before = c.state()
    assert before["rank"] == NUMBERS["ranks"][1][1]
    after = c.level_up("raiton")  # raiton: not unlocked (0) -> level 1
    assert after["levels"]["raiton"] == 1
    assert after["held"] == before["held"] - NUMBERS["level_cost"][1]
    assert after["earned"] == before["earned"] and after["rank"] == before["rank"], "spending never lowers the rank"
    with pytest.raises(CareerError, match="unknown ninjutsu"):
        c.level_up("katon")
    c.check_loadout({"jutsu": {"raiton": 1, "ashidome": 1}})
    with pytest.raises(CareerError, match="道場"):
        c.check_loadout({"jutsu": {"raiton": 2}})
    with pytest.raises(CareerError, match="not unlocked"):
        c.check_loadout({"jutsu": {"henge": 1}})


def test_levels_stop_at_five(tmp_path: Path) -> None:
    c = Career(tmp_path / "c.sqlite3")
    needed = sum(NUMBERS["level_cost"][lv] for lv in range(2, 6))  # ashidome starts at level 1
    k = 0
    while c.state()["held"] < needed:
        c.record_game("t", k, 1)
        k += 1
    for _ in range(4):
        c.level_up("ashidome")
    assert c.state()["levels"]["ashidome"] == 5 and c.state()["next_cost"]["ashidome"] is None
    with pytest.raises(CareerError, match="highest"):
        c.level_up("ashidome")


def test_ranks_by_points_earned() -> None:
    ranks = NUMBERS["ranks"]
    assert rank_of(0)[0] == ranks[0][1]
    assert rank_of(ranks[1][0] - 1)[0] == ranks[0][1] and rank_of(ranks[1][0])[0] == ranks[1][1]
    assert rank_of(10**9) == (ranks[-1][1], None, None)


@pytest.mark.parametrize("content, message", [
    (b"this is not a database at all, just some text" * 40, "not a yuugi career file or is damaged"),
    (b"SQLite format 3\x00" + b"\xff" * 2000, "not a yuugi career file or is damaged"),
], ids=["text", "sqlite-header-then-junk"])
def test_a_corrupt_file_is_refused(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "c.sqlite3"
    path.write_bytes(content)
    with pytest.raises(CareerError, match=message):
        Career(path)
    assert path.read_bytes() == content, "a refused file is left as it was"


def test_another_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(CareerError, match="not a yuugi career file"):
        Career(path)


def test_a_newer_schema_is_refused_and_a_damaged_one_too(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    Career(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(CareerError, match=f"newer yuugi \\(career schema {SCHEMA_VERSION + 1}"):
        Career(path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    conn.execute("DROP TABLE games")
    conn.commit()
    conn.close()
    with pytest.raises(CareerError, match="damaged"):
        Career(path)


def test_reset_moves_the_old_file_aside(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    path.write_bytes(b"garbage" * 100)
    fresh = Career.reset(path)
    assert fresh.state()["earned"] == 0
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("c.sqlite3.old-")]
    assert len(kept) == 1 and kept[0].read_bytes() == b"garbage" * 100


def test_the_default_file_is_in_the_user_data_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "yuugi" / "career.sqlite3"


# ---- cosmetics (schema 2) -------------------------------------------------------------------------
def price(kind: str, item: str) -> int:
    return next(e[2] for e in NUMBERS["cosmetics"][kind] if e[0] == item)


def earn(c: Career, points: int) -> None:
    """Win games (1st place) until ``points`` are earned in all."""
    k = c.state()["games"]
    while c.state()["earned"] < points:
        c.record_game("earn", k, 1)
        k += 1


def test_the_catalogue_has_one_free_item_of_each_kind_worn_from_the_start(tmp_path: Path) -> None:
    looks = Career(tmp_path / "c.sqlite3").state()["cosmetics"]
    assert set(looks["catalogue"]) == {"table_colour", "card_back"}
    for kind, items in looks["catalogue"].items():
        assert 3 <= len(items) <= 4
        free = [x for x in items if x["price"] == 0]
        assert len(free) == 1 and free[0]["owned"] and looks["chosen"][kind] == free[0]["item"]
        assert all(not x["owned"] and x["price"] > 0 for x in items if x["price"])


def test_buying_spends_held_points_never_the_rank_and_switching_is_free(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    c = Career(path)
    earn(c, NUMBERS["ranks"][1][0])  # the second rank
    before = c.state()
    assert before["rank"] == NUMBERS["ranks"][1][1]
    after = c.buy("table_colour", "ai")
    assert after["held"] == before["held"] - price("table_colour", "ai")
    assert after["spent"] == before["spent"] + price("table_colour", "ai")
    assert after["earned"] == before["earned"] and after["rank"] == before["rank"], "spending never lowers the rank"
    owned = {x["item"] for x in after["cosmetics"]["catalogue"]["table_colour"] if x["owned"]}
    assert owned == {"midori", "ai"}
    assert after["cosmetics"]["chosen"]["table_colour"] == "midori", "buying does not switch"
    switched = c.choose("table_colour", "ai")
    assert switched["cosmetics"]["chosen"]["table_colour"] == "ai" and switched["held"] == after["held"]
    assert c.choose("table_colour", "midori")["cosmetics"]["chosen"]["table_colour"] == "midori", "back, any time"
    c.choose("table_colour", "ai")
    c.close()
    again = Career(path).state()  # owned and worn came back from the file
    assert again["cosmetics"]["chosen"] == {"table_colour": "ai", "card_back": "kurenai"}
    assert again["held"] == after["held"]


def test_buying_short_of_points_changes_nothing(tmp_path: Path) -> None:
    c = Career(tmp_path / "c.sqlite3")
    earn(c, price("card_back", "kage") - NUMBERS["points_by_place"][0])  # some points, not enough
    before = c.state()
    assert before["held"] < price("card_back", "kage")
    with pytest.raises(CareerError, match=f"costs {price('card_back', 'kage')} 修行ポイント; you hold {before['held']}"):
        c.buy("card_back", "kage")
    assert c.state() == before


@pytest.mark.parametrize("kind, item, message", [
    ("card_back", "tartan", "unknown card_back 'tartan'"),
    ("table_colour", "kon", "unknown table_colour 'kon'"),  # a card back asked for as a table colour
    ("hat", "kasa", "unknown kind of cosmetic 'hat'"),
    ("card_back", "kurenai", "own the card_back 'kurenai' already"),  # the free one
])
def test_unknown_or_owned_items_are_refused(tmp_path: Path, kind: str, item: str, message: str) -> None:
    c = Career(tmp_path / "c.sqlite3")
    earn(c, 1000)
    before = c.state()
    with pytest.raises(CareerError, match=message):
        c.buy(kind, item)
    assert c.state() == before


def test_an_item_bought_twice_and_one_not_owned_are_refused(tmp_path: Path) -> None:
    c = Career(tmp_path / "c.sqlite3")
    earn(c, 1000)
    with pytest.raises(CareerError, match="do not own the card_back 'kin'"):
        c.choose("card_back", "kin")
    c.buy("card_back", "kin")
    held = c.state()["held"]
    with pytest.raises(CareerError, match="already"):
        c.buy("card_back", "kin")
    assert c.state()["held"] == held, "refused: nothing paid twice"
    with pytest.raises(CareerError, match="unknown card_back"):
        c.choose("card_back", "tartan")


def test_the_rules_doc_lists_the_cosmetics_and_their_prices() -> None:
    """docs/rules/ninja_daifugo.md's cosmetics table is the catalogue's (the numbers are ours: one table)."""
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "ninja_daifugo.md").read_text(encoding="utf-8")
    listed = {}
    for name, ja, cost in re.findall(r"\| `(\w+)` (\S+) \([^)]*\) \| (free|\d+) \|", doc):
        listed[name] = (ja, 0 if cost == "free" else int(cost))
    catalogue = {item: (ja, p) for items in NUMBERS["cosmetics"].values() for item, ja, p, _ in items}
    assert listed == catalogue


# the schema a version-1 yuugi wrote (before the cosmetics), spelled out as it was
V1_TABLES = (
    "CREATE TABLE career (id INTEGER PRIMARY KEY CHECK (id = 1), earned INTEGER NOT NULL CHECK (earned >= 0), "
    "spent INTEGER NOT NULL CHECK (spent >= 0 AND spent <= earned))",
    "CREATE TABLE jutsu (name TEXT PRIMARY KEY, level INTEGER NOT NULL CHECK (level BETWEEN 0 AND 5))",
    "CREATE TABLE games (table_id TEXT NOT NULL, game INTEGER NOT NULL, place INTEGER NOT NULL "
    "CHECK (place BETWEEN 1 AND 4), earned INTEGER NOT NULL, at TEXT NOT NULL, PRIMARY KEY (table_id, game))",
)


def version_1_file(path: Path) -> None:
    """A career of schema 1: 190 points earned (three 1sts, five 2nds), 40 spent unlocking 雷遁."""
    conn = sqlite3.connect(path)
    for sql in V1_TABLES:
        conn.execute(sql)
    conn.execute("INSERT INTO career VALUES (1, 190, 40)")
    conn.executemany("INSERT INTO jutsu VALUES (?, ?)", [("ashidome", 1), ("shuriken", 1), ("raiton", 1), ("henge", 0)])
    conn.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?)",
                     [("old", k, 1 if k < 3 else 2, 30 if k < 3 else 20, "2026-01-01") for k in range(8)])
    conn.execute("PRAGMA application_id = 2037737321")  # "yuug"
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()


def test_a_version_1_file_is_upgraded_in_place_with_its_data(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    version_1_file(path)
    c = Career(path)
    s = c.state()
    assert (s["earned"], s["spent"], s["held"], s["games"]) == (190, 40, 150, 8)
    assert s["levels"] == {"ashidome": 1, "shuriken": 1, "raiton": 1, "henge": 0}
    assert s["rank"] == "下忍"  # 190 earned: 下忍 from 100 (docs/rules/ninja_daifugo.md)
    assert s["cosmetics"]["chosen"] == {"table_colour": "midori", "card_back": "kurenai"}
    assert c.record_game("old", 7, 1) == 0, "a game written under schema 1 still counts once"
    assert c.buy("table_colour", "ai")["held"] == 150 - price("table_colour", "ai")
    c.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    conn.close()
    assert Career(path).state()["cosmetics"]["chosen"]["table_colour"] == "midori"


def test_an_upgrade_that_fails_leaves_the_version_1_file_as_it_was(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.sqlite3"
    version_1_file(path)

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO owned (kind, item, at) VALUES ('card_back', 'kurenai', 'now')")
        raise sqlite3.OperationalError("disk I/O error (simulated, halfway through the upgrade)")

    monkeypatch.setattr(Career, "_seed_cosmetics", staticmethod(broken))
    with pytest.raises(CareerError, match="could not be upgraded to schema 2.*left as it was"):
        Career(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"career", "jutsu", "games"}, "one transaction: no half-made cosmetics tables"
    conn.close()
    monkeypatch.undo()
    assert Career(path).state()["held"] == 150, "the next start upgrades it"


def test_a_file_newer_than_schema_2_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    Career(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 3")
    conn.commit()
    conn.close()
    content = path.read_bytes()
    with pytest.raises(CareerError, match="newer yuugi \\(career schema 3, this yuugi reads up to 2\\)"):
        Career(path)
    assert path.read_bytes() == content


# ---- through the server --------------------------------------------------------------------------
def finished_series(c: Any) -> dict[str, Any]:
    """A 1-game table from a position where seat 0 plays its last card and the game ends."""
    from yuugi.envs.ninja_daifugo.cards import card_name

    rest = [card_name(x) for x in range(53) if card_name(x) not in ("C2", "S3")]
    pos = {"hands": [["C2"], ["S3"], [], []], "to_play": 0, "finish_positions": [None, None, 1, 2],
           "discard": rest, "game_index": 1, "titles": ["daifugo", "fugo", "hinmin", "daihinmin"]}
    r = c.post("/api/tables", json={"game": "ninja_daifugo", "level": "random", "seat": 0, "position": pos})
    assert r.status_code == 200, r.text
    session = c.app.state.tables.get(r.json()["id"])
    msg = session.message()
    session.move({"type": "move", "action": msg["moves"][0][0], "turn": msg["turn"]})
    return session.message()


def test_the_server_writes_each_game_and_the_dojo_works(tmp_path: Path, make_client: Any) -> None:
    path = tmp_path / "career.sqlite3"
    c = make_client(games=["ninja_daifugo"], rules=SERIES_RULES, positions=True, career=path)
    assert c.get("/api/career").json()["earned"] == 0
    end = finished_series(c)
    assert end["over"]
    over = [e for e in end["events"] if e["kind"] == "game_over"][-1]
    # seats 2 and 3 went out 1st and 2nd, seat 0 3rd
    assert over["places"][0] == 3 and over["career"]["earned"] == NUMBERS["points_by_place"][2]
    on_file = Career(path).state()
    assert on_file["earned"] == NUMBERS["points_by_place"][2] and on_file["games"] == 1
    assert "costs" in c.post("/api/career/level_up", json={"jutsu": "henge"}).json()["error"]
    assert c.post("/api/career/level_up", json=["x"]).status_code == 400
    assert "not unlocked" in c.post("/api/tables", json={"game": "ninja_daifugo", "seat": 0,
                                                         "loadout": {"jutsu": {"henge": 1}}}).json()["error"]
    assert c.get("/api/games").json()["games"][0]["daifugo"]["max_levels"]["henge"] == 0
    # the cosmetics: refused with the message while short of points, bought once earned, worn on request
    held = c.get("/api/career").json()["held"]
    refused = c.post("/api/career/buy", json={"kind": "card_back", "item": "kon"})
    assert refused.status_code == 400 and f"you hold {held}" in refused.json()["error"]
    assert "send {\"kind\": NAME, \"item\": NAME}" in c.post("/api/career/buy", json={"kind": "card_back"}).json()["error"]
    assert "do not own" in c.post("/api/career/choose", json={"kind": "card_back", "item": "kon"}).json()["error"]
    seeded = Career(path)
    earn(seeded, 200)
    seeded.close()
    bought = c.post("/api/career/buy", json={"kind": "card_back", "item": "kon"}).json()
    assert bought["held"] == Career(path).state()["earned"] - price("card_back", "kon")
    worn = c.post("/api/career/choose", json={"kind": "card_back", "item": "kon"}).json()
    assert worn["cosmetics"]["chosen"]["card_back"] == "kon"
    assert c.get("/api/career").json()["cosmetics"]["chosen"]["card_back"] == "kon"
    assert c.post("/api/career/reset", json={}).status_code == 400, "a reset needs confirming"
    assert c.post("/api/career/reset", json={"confirm": True}).json()["earned"] == 0


def test_a_refused_file_leaves_the_tables_playable_and_the_reset_recovers(tmp_path: Path, make_client: Any) -> None:
    path = tmp_path / "career.sqlite3"
    Career(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.commit()
    conn.close()
    c = make_client(games=["ninja_daifugo"], rules=SERIES_RULES, positions=True, career=path)
    state = c.get("/api/career").json()
    assert not state["enabled"] and "newer yuugi" in state["error"]
    assert finished_series(c)["over"], "the tables play on without a career"
    assert "newer yuugi" in c.post("/api/career/level_up", json={"jutsu": "raiton"}).json()["error"]
    assert "newer yuugi" in c.post("/api/career/buy", json={"kind": "card_back", "item": "kon"}).json()["error"]
    fresh = c.post("/api/career/reset", json={"confirm": True}).json()
    assert fresh["enabled"] and fresh["earned"] == 0
    assert len(list(tmp_path.glob("career.sqlite3.old-*"))) == 1


@pytest.mark.parametrize("flags, expected", [([], "default"), (["--career", "my.sqlite3"], "my.sqlite3"),
                                             (["--no-career"], None)])
def test_yuugi_serve_passes_the_career_file_it_is_told(monkeypatch, flags, expected):
    import importlib

    told = {}
    monkeypatch.setattr("yuugi.training.serve.app.serve", lambda **kw: told.update(kw))
    cli = importlib.import_module("yuugi.training.cli.main")
    assert cli.main(["serve", *flags]) == 0
    assert told["career"] == expected
