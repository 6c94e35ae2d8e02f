"""The ninja daifugō career (修行ポイント, 道場, 忍者ランク), kept in one SQLite file on this machine.

* Every game the person finishes at the faithful table's seat 0 earns 修行ポイント by its place
  (:data:`NUMBERS`), written once per game in one transaction (a crash mid-game loses that game only;
  a game already written is never counted twice).
* The 道場 spends held points to raise a ninjutsu one level (level 1 unlocks it; 5 is the most the rules
  give). The levels reached cap what the lobby offers for the loadout (the faithful seat 0's ninjutsu).
* The 忍者ランク follows the points earned in all, never the points held, so spending never lowers it.
* Cosmetics (card backs, table colours) are bought with held points and switched at any time among those
  owned; one of each kind is free and owned from the start.
* A file that is not a career (corrupt) or was written by a newer yuugi (a higher schema version) is
  refused with a message saying so; :meth:`Career.reset` (the page's reset) starts a new one, moving a
  refused file aside (never deleting it). A file of an older schema is upgraded in place, in one
  transaction, keeping everything in it (schema 1 had no cosmetics).

Every number the rules file does not give is in :data:`NUMBERS` (and in docs/rules/ninja_daifugo.md,
"The career in yuugi serve").
"""
from __future__ import annotations

import datetime as _dt
import sqlite3
import threading
from pathlib import Path
from typing import Any, Mapping

from yuugi.envs.ninja_daifugo.actions import JUTSU_JA
from yuugi.envs.ninja_daifugo.config import JUTSU

SCHEMA_VERSION = 2  # 1: points, 道場 levels, games; 2: + cosmetics
APP_ID = 0x79756769  # "yuug": PRAGMA application_id of a career file

# The career's numbers (none is given by the rules file): one table.
NUMBERS: dict[str, Any] = {
    # 修行ポイント earned by a game's place: 1st (大富豪), 2nd (富豪), 3rd (貧民), 4th (大貧民)
    "points_by_place": (30, 20, 10, 5),
    # held points the 道場 asks to reach each level (level 1 unlocks the ninjutsu)
    "level_cost": {1: 40, 2: 60, 3: 100, 4: 160, 5: 250},
    # levels a new career starts with: the table's default loadout (足止め and 手裏剣 at level 1)
    "starting_levels": {"ashidome": 1, "shuriken": 1, "raiton": 0, "henge": 0},
    # 忍者ランク: the points earned in all from which each rank is held
    "ranks": ((0, "見習い"), (100, "下忍"), (300, "中忍"), (700, "上忍"), (1500, "頭領")),
    # cosmetics: kind -> items (name, Japanese name, price in held points, the colours the page draws with);
    # the first of each kind is free and owned (and chosen) from the start
    "cosmetics": {
        "table_colour": (
            ("midori", "緑の羅紗", 0, {"felt": "#18482f", "edge": "#2e6b4a", "ground": "#0d2b1c", "panel": "#143d28"}),
            ("ai", "藍染め", 80, {"felt": "#1b3160", "edge": "#3f63a8", "ground": "#0c1830", "panel": "#15264a"}),
            ("shu", "朱塗り", 150, {"felt": "#6e2417", "edge": "#b0482e", "ground": "#2a0d08", "panel": "#461a12"}),
            ("sumi", "墨", 250, {"felt": "#2a2a2a", "edge": "#6a6a6a", "ground": "#111111", "panel": "#222222"}),
        ),
        "card_back": (
            ("kurenai", "紅", 0, {"back": "#8e2430", "back2": "#b23a48"}),
            ("kon", "紺", 60, {"back": "#1a237e", "back2": "#3f51b5"}),
            ("kin", "金", 150, {"back": "#8a6508", "back2": "#d9ad3c"}),
            ("kage", "影", 250, {"back": "#151515", "back2": "#4a4a4a"}),
        ),
    },
}
COSMETIC_KINDS_JA = {"table_colour": "卓の色 table colour", "card_back": "札の裏 card back"}
MAX_LEVEL = 5


class CareerError(ValueError):
    """A career file refused (corrupt, or newer than this yuugi) or a 道場 request refused: the message says why."""


def default_path() -> Path:
    """``career.sqlite3`` in the user's data directory (platformdirs), e.g. ``~/.local/share/yuugi``."""
    import platformdirs

    return Path(platformdirs.user_data_dir("yuugi", appauthor=False)) / "career.sqlite3"


def rank_of(earned: int) -> tuple[str, int | None, str | None]:
    """The rank held with ``earned`` points in all, and the next rank's threshold and name (None at the top)."""
    ranks = NUMBERS["ranks"]
    at = max(k for k, (least, _) in enumerate(ranks) if earned >= least)
    nxt = ranks[at + 1] if at + 1 < len(ranks) else (None, None)
    return ranks[at][1], nxt[0], nxt[1]


def cosmetic(kind: str, item: str) -> tuple[str, str, int, dict[str, str]]:
    """The catalogue's entry of ``item`` of ``kind``; CareerError naming what is unknown."""
    catalogue = NUMBERS["cosmetics"]
    if kind not in catalogue:
        raise CareerError(f"unknown kind of cosmetic {kind!r}; kinds: {list(catalogue)}")
    for entry in catalogue[kind]:
        if entry[0] == item:
            return entry
    raise CareerError(f"unknown {kind} {item!r}; {kind}s: {[e[0] for e in catalogue[kind]]}")


def free_cosmetics() -> dict[str, str]:
    """The item of each kind that every career owns (and wears) from the start: the first, priced 0."""
    return {kind: items[0][0] for kind, items in NUMBERS["cosmetics"].items()}


_TABLES = {
    "career": "CREATE TABLE career (id INTEGER PRIMARY KEY CHECK (id = 1), earned INTEGER NOT NULL CHECK (earned >= 0), "
              "spent INTEGER NOT NULL CHECK (spent >= 0 AND spent <= earned))",
    "jutsu": "CREATE TABLE jutsu (name TEXT PRIMARY KEY, level INTEGER NOT NULL CHECK (level BETWEEN 0 AND 5))",
    "games": "CREATE TABLE games (table_id TEXT NOT NULL, game INTEGER NOT NULL, place INTEGER NOT NULL "
             "CHECK (place BETWEEN 1 AND 4), earned INTEGER NOT NULL, at TEXT NOT NULL, PRIMARY KEY (table_id, game))",
    # schema 2: the cosmetics owned, and the one of each kind in use
    "owned": "CREATE TABLE owned (kind TEXT NOT NULL, item TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (kind, item))",
    "chosen": "CREATE TABLE chosen (kind TEXT PRIMARY KEY, item TEXT NOT NULL)",
}
# the tables each schema version has (an older file is checked against its own, then upgraded)
_TABLES_OF = {1: ("career", "jutsu", "games"), 2: tuple(_TABLES)}


class Career:
    """One career file. ``Career(path)`` opens it (creating a new career when the file does not exist or is
    empty) or raises :class:`CareerError`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()  # one connection, used by the server's worker threads one at a time
        self._conn = self._open()

    # ---- the file ----------------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            if fresh:
                self._create(conn)
                return conn
            self._check(conn)
        except sqlite3.DatabaseError as e:
            raise CareerError(f"{self.path} is not a yuugi career file or is damaged ({e}); reset the career "
                              "(the file is moved aside, not deleted)") from None
        return conn

    def _check(self, conn: sqlite3.Connection) -> None:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if app_id != APP_ID:
            conn.close()
            raise CareerError(f"{self.path} is not a yuugi career file (application id {app_id:#x}); reset the "
                              "career (the file is moved aside, not deleted) or choose another file")
        if version > SCHEMA_VERSION:
            conn.close()
            raise CareerError(f"{self.path} was written by a newer yuugi (career schema {version}, this yuugi reads "
                              f"up to {SCHEMA_VERSION}): upgrade yuugi, or reset the career (the file is moved aside)")
        ok = conn.execute("PRAGMA quick_check").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        rows = conn.execute("SELECT count(*) FROM career").fetchone()[0] if "career" in tables else 0
        if ok != "ok" or version not in _TABLES_OF or not set(_TABLES_OF[version]) <= tables or rows != 1:
            conn.close()
            raise CareerError(f"{self.path} is a damaged career file (integrity: {ok}; schema {version}; tables "
                              f"{sorted(tables)}); reset the career (the file is moved aside, not deleted)")
        if version < SCHEMA_VERSION:
            try:
                self._upgrade(conn)
            except sqlite3.Error as e:
                conn.close()
                raise CareerError(f"{self.path} (career schema {version}) could not be upgraded to schema "
                                  f"{SCHEMA_VERSION} ({e}); the file is left as it was") from None

    @staticmethod
    def _upgrade(conn: sqlite3.Connection) -> None:
        """Bring an older career file up to SCHEMA_VERSION in place, in one transaction: all of it or none
        (the file stays as it was if anything fails), keeping its points, levels and games."""
        with _transaction(conn):
            version = conn.execute("PRAGMA user_version").fetchone()[0]  # again, inside the transaction
            if version < 2:  # 1 -> 2: the cosmetics, the free ones owned and worn
                conn.execute(_TABLES["owned"])
                conn.execute(_TABLES["chosen"])
                Career._seed_cosmetics(conn)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @staticmethod
    def _create(conn: sqlite3.Connection) -> None:
        with _transaction(conn):
            for sql in _TABLES.values():
                conn.execute(sql)
            Career._seed(conn)
            conn.execute(f"PRAGMA application_id = {APP_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @staticmethod
    def _seed(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO career (id, earned, spent) VALUES (1, 0, 0)")
        conn.executemany("INSERT INTO jutsu (name, level) VALUES (?, ?)",
                         [(name, int(NUMBERS["starting_levels"][name])) for name in JUTSU])
        Career._seed_cosmetics(conn)

    @staticmethod
    def _seed_cosmetics(conn: sqlite3.Connection) -> None:
        free = free_cosmetics()
        conn.executemany("INSERT INTO owned (kind, item, at) VALUES (?, ?, ?)",
                         [(kind, item, _now()) for kind, item in free.items()])
        conn.executemany("INSERT INTO chosen (kind, item) VALUES (?, ?)", list(free.items()))

    def close(self) -> None:
        self._conn.close()

    # ---- reading -----------------------------------------------------------------------------------
    def levels(self) -> dict[str, int]:
        """The level each ninjutsu has reached (0: not unlocked)."""
        with self._lock:
            return {name: int(level) for name, level in self._conn.execute("SELECT name, level FROM jutsu")}

    def cosmetics(self) -> dict[str, Any]:
        """The catalogue with what is owned, and the item of each kind in use (JSON)."""
        with self._lock:
            owned = set(self._conn.execute("SELECT kind, item FROM owned").fetchall())
            chosen = dict(self._conn.execute("SELECT kind, item FROM chosen").fetchall())
        catalogue = {kind: [{"item": item, "ja": ja, "price": int(price), "colours": dict(colours),
                             "owned": (kind, item) in owned} for item, ja, price, colours in items]
                     for kind, items in NUMBERS["cosmetics"].items()}
        in_use = {}
        for kind, free in free_cosmetics().items():  # an item no longer in the catalogue: the free one
            pick = chosen.get(kind, free)
            in_use[kind] = pick if any(e["item"] == pick and e["owned"] for e in catalogue[kind]) else free
        return {"catalogue": catalogue, "chosen": in_use, "kinds_ja": dict(COSMETIC_KINDS_JA)}

    def state(self) -> dict[str, Any]:
        """Everything the 道場 shows (JSON)."""
        with self._lock:
            earned, spent = self._conn.execute("SELECT earned, spent FROM career WHERE id = 1").fetchone()
            levels = self.levels()
            games = self._conn.execute("SELECT count(*) FROM games").fetchone()[0]
            cosmetics = self.cosmetics()
        rank, next_at, next_rank = rank_of(int(earned))
        return {"enabled": True, "path": str(self.path), "earned": int(earned), "spent": int(spent),
                "held": int(earned) - int(spent), "rank": rank, "next_rank": next_rank, "next_rank_at": next_at,
                "games": int(games), "levels": levels,
                "next_cost": {n: (NUMBERS["level_cost"][lv + 1] if lv < MAX_LEVEL else None) for n, lv in levels.items()},
                "points_by_place": list(NUMBERS["points_by_place"]), "ja": dict(zip(JUTSU, JUTSU_JA)),
                "cosmetics": cosmetics}

    # ---- writing (each a single transaction) -------------------------------------------------------
    def record_game(self, table_id: str, game: int, place: int) -> int:
        """Write one finished game's result; returns the points it earned (0 when that game was written
        already: a result is counted once)."""
        if place not in (1, 2, 3, 4):
            raise CareerError(f"a game's place is 1..4, got {place!r}")
        points = int(NUMBERS["points_by_place"][place - 1])
        with self._lock, _transaction(self._conn):
            written = self._conn.execute(
                "INSERT OR IGNORE INTO games (table_id, game, place, earned, at) VALUES (?, ?, ?, ?, ?)",
                (table_id, int(game), place, points, _now())).rowcount
            if not written:
                return 0
            self._conn.execute("UPDATE career SET earned = earned + ? WHERE id = 1", (points,))
        return points

    def level_up(self, jutsu: str) -> dict[str, Any]:
        """The 道場: raise ``jutsu`` one level, paying the level's cost from the held points."""
        if jutsu not in JUTSU:
            raise CareerError(f"unknown ninjutsu {jutsu!r}; ninjutsu: {list(JUTSU)}")
        with self._lock, _transaction(self._conn):
            level = self._conn.execute("SELECT level FROM jutsu WHERE name = ?", (jutsu,)).fetchone()[0]
            if level >= MAX_LEVEL:
                raise CareerError(f"{jutsu} is at level {MAX_LEVEL}, the highest")
            cost = int(NUMBERS["level_cost"][level + 1])
            earned, spent = self._conn.execute("SELECT earned, spent FROM career WHERE id = 1").fetchone()
            if earned - spent < cost:
                raise CareerError(f"{jutsu} level {level + 1} costs {cost} 修行ポイント; you hold {earned - spent}")
            self._conn.execute("UPDATE jutsu SET level = level + 1 WHERE name = ?", (jutsu,))
            self._conn.execute("UPDATE career SET spent = spent + ? WHERE id = 1", (cost,))
        return self.state()

    def buy(self, kind: str, item: str) -> dict[str, Any]:
        """Buy a cosmetic with held points (the rank, which follows the points earned, stays)."""
        _, _, price, _ = cosmetic(kind, item)
        with self._lock, _transaction(self._conn):
            if self._conn.execute("SELECT 1 FROM owned WHERE kind = ? AND item = ?", (kind, item)).fetchone():
                raise CareerError(f"you own the {kind} {item!r} already: choose it instead")
            earned, spent = self._conn.execute("SELECT earned, spent FROM career WHERE id = 1").fetchone()
            if earned - spent < price:
                raise CareerError(f"the {kind} {item!r} costs {price} 修行ポイント; you hold {earned - spent}")
            self._conn.execute("INSERT INTO owned (kind, item, at) VALUES (?, ?, ?)", (kind, item, _now()))
            self._conn.execute("UPDATE career SET spent = spent + ? WHERE id = 1", (price,))
        return self.state()

    def choose(self, kind: str, item: str) -> dict[str, Any]:
        """Wear an owned cosmetic (any time, free of charge)."""
        cosmetic(kind, item)
        with self._lock, _transaction(self._conn):
            if not self._conn.execute("SELECT 1 FROM owned WHERE kind = ? AND item = ?", (kind, item)).fetchone():
                raise CareerError(f"you do not own the {kind} {item!r}: buy it in the 道場 first")
            self._conn.execute("INSERT OR REPLACE INTO chosen (kind, item) VALUES (?, ?)", (kind, item))
        return self.state()

    def check_loadout(self, loadout: Mapping[str, Any]) -> None:
        """A loadout may use each ninjutsu up to the level the career has reached."""
        jutsu = loadout.get("jutsu", {}) if isinstance(loadout, Mapping) else {}
        levels = self.levels()
        if not isinstance(jutsu, Mapping):
            return  # the rules' own check names the mistake
        for name, level in jutsu.items():
            if name in levels and isinstance(level, int) and level > levels[name]:
                reached = f"level {levels[name]}" if levels[name] else "not unlocked"
                raise CareerError(f"{name} is {reached} in your career: raise it in the 道場 first")

    @classmethod
    def reset(cls, path: str | Path) -> "Career":
        """A new career at ``path``; the old file, if any, is moved aside to ``path.old-<time>`` (kept)."""
        path = Path(path)
        if path.exists():
            stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            path.rename(path.with_name(f"{path.name}.old-{stamp}"))
        return cls(path)


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat()


class _transaction:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on an error) on an autocommit connection: all or nothing."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        self.conn.execute("ROLLBACK" if kind else "COMMIT")
