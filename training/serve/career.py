"""The ninja daifugō career (修行ポイント, 道場, 忍者ランク), kept in one SQLite file on this machine.

* Every game the person finishes at the faithful table's seat 0 earns 修行ポイント by its place
  (:data:`NUMBERS`), written once per game in one transaction (a crash mid-game loses that game only;
  a game already written is never counted twice).
* The 道場 spends held points to raise a ninjutsu one level (level 1 unlocks it; 5 is the most the rules
  give). The levels reached cap what the lobby offers for the loadout (the faithful seat 0's ninjutsu).
* The 忍者ランク follows the points earned in all, never the points held, so spending never lowers it.
* A file that is not a career (corrupt) or was written by a newer yuugi (a higher schema version) is
  refused with a message saying so; :meth:`Career.reset` (the page's reset) starts a new one, moving a
  refused file aside (never deleting it).

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

SCHEMA_VERSION = 1
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
}
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


_TABLES = {
    "career": "CREATE TABLE career (id INTEGER PRIMARY KEY CHECK (id = 1), earned INTEGER NOT NULL CHECK (earned >= 0), "
              "spent INTEGER NOT NULL CHECK (spent >= 0 AND spent <= earned))",
    "jutsu": "CREATE TABLE jutsu (name TEXT PRIMARY KEY, level INTEGER NOT NULL CHECK (level BETWEEN 0 AND 5))",
    "games": "CREATE TABLE games (table_id TEXT NOT NULL, game INTEGER NOT NULL, place INTEGER NOT NULL "
             "CHECK (place BETWEEN 1 AND 4), earned INTEGER NOT NULL, at TEXT NOT NULL, PRIMARY KEY (table_id, game))",
}


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
        if ok != "ok" or version != SCHEMA_VERSION or not set(_TABLES) <= tables or rows != 1:
            conn.close()
            raise CareerError(f"{self.path} is a damaged career file (integrity: {ok}; schema {version}; tables "
                              f"{sorted(tables)}); reset the career (the file is moved aside, not deleted)")

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

    def close(self) -> None:
        self._conn.close()

    # ---- reading -----------------------------------------------------------------------------------
    def levels(self) -> dict[str, int]:
        """The level each ninjutsu has reached (0: not unlocked)."""
        with self._lock:
            return {name: int(level) for name, level in self._conn.execute("SELECT name, level FROM jutsu")}

    def state(self) -> dict[str, Any]:
        """Everything the 道場 shows (JSON)."""
        with self._lock:
            earned, spent = self._conn.execute("SELECT earned, spent FROM career WHERE id = 1").fetchone()
            levels = self.levels()
            games = self._conn.execute("SELECT count(*) FROM games").fetchone()[0]
        rank, next_at, next_rank = rank_of(int(earned))
        return {"enabled": True, "path": str(self.path), "earned": int(earned), "spent": int(spent),
                "held": int(earned) - int(spent), "rank": rank, "next_rank": next_rank, "next_rank_at": next_at,
                "games": int(games), "levels": levels,
                "next_cost": {n: (NUMBERS["level_cost"][lv + 1] if lv < MAX_LEVEL else None) for n, lv in levels.items()},
                "points_by_place": list(NUMBERS["points_by_place"]), "ja": dict(zip(JUTSU, JUTSU_JA))}

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
                (table_id, int(game), place, points, _dt.datetime.now(_dt.timezone.utc).isoformat())).rowcount
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


class _transaction:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on an error) on an autocommit connection: all or nothing."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        self.conn.execute("ROLLBACK" if kind else "COMMIT")
