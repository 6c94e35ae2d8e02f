"""``yuugi uecda server``: five UECda clients play over protocol 20070, refereed by our rules engine.

The engine is ``make_game("ninja_daifugo", rules="uecda")``: its players 0..4 are the clients in the
order they connected (their player numbers), it deals, runs the tribute, shuffles the seats and resets
the classes; this module only carries its decisions over the wire:

* each game: every client gets its deal table (``[5][0] = 1``; the 大富豪 and 富豪 after the automatic
  tribute with ``[5][1]`` = 2 / 1, and they answer with the cards they give; the others before it);
* each move: every client gets its hand table with the state rows; the mover answers with its play;
  the server answers it 9 (accepted) or 8 (rejected: played as a pass); then every client gets the
  field table and the end flag (0 go on, 1 game over, 2 all games over).

Rulings (docs/uecda.md): a bad exchange answer is replaced by the giver's strongest cards; a rejected or
malformed play is a pass (UECda lets a leader pass too; under rules where a leader may not, the
baseline leads for it); the field table after an accepted play shows the play as the engine read it
(a group's joker where it matched the field), even when it cut the field (8-cut, spade 3), and is
empty after the field flowed.

Every read and write has a timeout. A client that disconnects, stalls past it, or sends
``max_malformed`` malformed tables has *faulted*: with ``on_fault="replace"`` the built-in
``uecda_default`` plays its seat from then on, with ``"forfeit"`` the seat passes whenever it may (and
leads its lowest single). Either way the run goes on. Each series of games (classes reset at its start)
is saved as a yuugi replay.
"""
from __future__ import annotations

import dataclasses
import socket
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from yuugi.envs.ninja_daifugo import actions as A
from yuugi.envs.ninja_daifugo.state import PHASE_EXCHANGE
from yuugi.envs.ninja_daifugo.tables import ORDER_NORMAL, TRIBUTE_ORDER

from .connection import Connection, ProtocolError
from .standings import PlayerRecord, format_standings
from .table import (NUM_PLAYERS, PROTOCOL_VERSION, TableError, TableState, action_to_play_table, empty_table,
                    hand_to_table, play_table_to_action, read_profile, table_suits, table_to_hand)

ACCEPTED, REJECTED = 9, 8
GO_ON, GAME_OVER, ALL_OVER = 0, 1, 2
FAULT_MODES = ("replace", "forfeit")
MAX_SERIES = 100  # games per engine series (the int8 counters of the engine)
# The cards a seat gives when its answer is missing or wrong: its strongest, in the engine's own tribute order
# (the joker, then 2s down to 3s, ♠ ♥ ♦ ♣ within a rank), which the clients' views count on too.
_TRIBUTE_ORDER = [int(c) for c in TRIBUTE_ORDER[ORDER_NORMAL]]


@dataclasses.dataclass
class ServerConfig:
    games: int = 100
    host: str = "127.0.0.1"
    port: int = 42485
    on_fault: str = "replace"
    timeout: float = 10.0  # seconds for each message from or to a client
    wait: float | None = None  # seconds to wait for five clients (None: as long as it takes)
    seed: int = 0
    replay_dir: str | None = "runs/uecda_server"
    max_malformed: int = 3
    seat_change_every: int | None = None  # the engine's defaults when None
    class_reset_every: int | None = None

    def rules(self, series_games: int) -> dict[str, Any]:
        rules: dict[str, Any] = {"rules": "uecda", "series_games": series_games}
        if self.seat_change_every is not None:
            rules["seat_change_every"] = self.seat_change_every
        if self.class_reset_every is not None:
            rules["class_reset_every"] = self.class_reset_every
        return rules


@dataclasses.dataclass
class Client:
    record: PlayerRecord
    conn: Connection | None
    malformed: int = 0


class UecdaServer:
    """Accepts five clients on ``config.host:config.port`` and referees ``config.games`` games."""

    def __init__(self, config: ServerConfig, log: Callable[[str], None] = print) -> None:
        if config.on_fault not in FAULT_MODES:
            raise ValueError(f"on_fault must be one of {FAULT_MODES}, got {config.on_fault!r}")
        if config.games < 1:
            raise ValueError(f"games must be at least 1, got {config.games}")
        self.config = config
        self.log = log
        self.listener = socket.create_server((config.host, config.port))
        self.port = self.listener.getsockname()[1]
        self.clients: list[Client] = []
        self.replays: list[Path] = []
        from yuugi.training.uecda.policies import baseline

        self.baseline = baseline()
        self.rng = np.random.default_rng(config.seed)

    # ---- connecting ------------------------------------------------------------------------------
    def accept_clients(self) -> None:
        """Five clients, numbered in the order their profiles arrive (a bad profile is turned away)."""
        deadline = None if self.config.wait is None else time.monotonic() + self.config.wait
        while len(self.clients) < NUM_PLAYERS:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise ProtocolError(f"only {len(self.clients)} of {NUM_PLAYERS} clients connected within "
                                    f"{self.config.wait:g} s")
            self.listener.settimeout(left)
            try:
                sock, address = self.listener.accept()
            except socket.timeout:
                continue
            conn = Connection(sock, self.config.timeout, peer=f"client at {address[0]}:{address[1]}")
            try:
                version, name = read_profile(conn.read_table("profile"))
                if version != PROTOCOL_VERSION:
                    raise ProtocolError(f"{conn.peer} speaks protocol {version}, not {PROTOCOL_VERSION}")
                number = len(self.clients)
                conn.send_int(number, "player number")
            except ProtocolError as e:
                self.log(f"turned away: {e}")
                conn.close()
                continue
            conn.peer = f"player {number} ({name or 'no name'})"
            self.clients.append(Client(PlayerRecord(number, name or f"player{number}"), conn))
            self.log(f"player {number}: {name!r} from {address[0]}:{address[1]}")

    # ---- the run -----------------------------------------------------------------------------------
    def run(self) -> list[PlayerRecord]:
        """Accept the clients, play every game, close; returns each player's record."""
        from yuugi.envs import make_game
        from yuugi.envs.faces.replay import Recorder, save

        try:
            self.accept_clients()
            played = 0
            reset_every = self.config.class_reset_every or MAX_SERIES
            while played < self.config.games:
                chunk = min(self.config.games - played, MAX_SERIES // reset_every * reset_every)
                rules = self.config.rules(chunk)
                seed = int(self.rng.integers(2**63 - 1))
                rec = Recorder("ninja_daifugo", seed, rules=rules, game=make_game("ninja_daifugo", **rules))
                first = played + 1
                for _ in range(chunk):
                    played += 1
                    self._play_game(rec, last=played == self.config.games)
                self._save_replay(rec, save, first, played)
                self.log(f"games {first}-{played} of {self.config.games} played")
        finally:
            for client in self.clients:
                if client.conn is not None:
                    client.conn.close()
            self.listener.close()
        return [c.record for c in self.clients]

    def _save_replay(self, rec: Any, save: Callable[..., None], first: int, last: int) -> None:
        if self.config.replay_dir is None:
            return
        folder = Path(self.config.replay_dir)
        folder.mkdir(parents=True, exist_ok=True)
        record = rec.record()
        record["players"] = [{"name": c.record.name, "policy": "uecda client" if c.record.fault is None else
                              ("uecda_default" if self.config.on_fault == "replace" else "forfeit")}
                             for c in self.clients]
        path = folder / f"uecda_games_{first:06d}-{last:06d}.json"
        save(record, path)
        self.replays.append(path)

    # ---- one game ----------------------------------------------------------------------------------
    def _play_game(self, rec: Any, last: bool) -> None:
        st, game = rec.state, rec.game
        self._deal(rec)
        field_table = empty_table()
        index = int(st.game_index[0])
        while True:
            mover = int(st.to_play[0])
            for p in range(NUM_PLAYERS):
                self._send(p, self._hand_table(st, p, mover), "hand table")
            mask = game.legal_mask(st)[0]
            action = self._move(st, game, mover, mask)
            # The table shown is the engine's reading of the play (a group's joker where it matched the field).
            table = action_to_play_table(action, table_suits(field_table)) if action != A.PASS else empty_table()
            rec.step(action)
            over = bool(st.terminated[0] or st.truncated[0]) or int(st.game_index[0]) != index
            field_empty = int(st.field_action[0]) < 0
            shown = table if action != A.PASS else (field_table if not field_empty else empty_table())
            field_table = empty_table() if field_empty else shown
            flag = GO_ON if not over else (ALL_OVER if last else GAME_OVER)
            for p in range(NUM_PLAYERS):
                self._send(p, shown, "field table")
                self._send_int(p, flag, "end flag")
            if over:
                self._score(st)
                return

    def _score(self, st: Any) -> None:
        points = [int(round(float(st.rewards[0, p]))) for p in range(NUM_PLAYERS)]
        if sorted(points) != list(range(1, NUM_PLAYERS + 1)):  # a truncated game pays nothing: not scored
            self.log(f"a game ended without places (rewards {points}); it is not scored")
            return
        for p, client in enumerate(self.clients):
            client.record.points.append(points[p])

    def _deal(self, rec: Any) -> None:
        """Deal tables; the 大富豪 and the 富豪 answer with their gifts (engine PICK actions)."""
        st, game = rec.state, rec.game
        exchange = int(st.phase[0]) == PHASE_EXCHANGE
        giver_first = int(st.to_play[0]) if exchange else -1
        gives = [0] * NUM_PLAYERS
        if exchange:
            gives[giver_first] = int(st.picks_left[0])
            fugo = [p for p in range(NUM_PLAYERS) if int(st.titles[0, p]) == 2]
            if fugo:
                gives[fugo[0]] = 1
        for p in range(NUM_PLAYERS):
            hand = int(st.hands[0, p]) | (int(st.given[0, p]) if exchange and not gives[p] else 0)
            table = hand_to_table(c for c in range(53) if (hand >> c) & 1)
            TableState(exchange=1, give=gives[p], current=int(st.to_play[0]), field_empty=True,
                       hand_counts=self._counts(st), classes=self._classes(st), seats=self._seats(st)).write(table)
            self._send(p, table, "deal table")
        while int(st.phase[0]) == PHASE_EXCHANGE and not (st.terminated[0] or st.truncated[0]):
            giver = int(st.to_play[0])
            if self.clients[giver].conn is None and self.config.on_fault == "replace":
                rec.step(self._baseline_action(st, game, giver, game.legal_mask(st)[0]))
                continue
            for card in self._gifts(st, giver, int(st.picks_left[0])):
                rec.step(A.PICK0 + card)

    def _gifts(self, st: Any, giver: int, count: int) -> list[int]:
        """The cards ``giver`` answers with; its strongest when the answer is not ``count`` of its cards
        (or when its seat forfeits)."""
        hand = {c for c in range(53) if (int(st.hands[0, giver]) >> c) & 1}
        strongest = [c for c in _TRIBUTE_ORDER if c in hand][:count]
        table = self._read(giver, "exchange cards")
        if table is None:
            return strongest
        try:
            cards = table_to_hand(table)
        except TableError:
            cards = set()
        if len(cards) != count or not cards <= hand:
            self.log(f"player {giver}: exchange answer {sorted(cards)} is not {count} card(s) of its hand; "
                     f"it gives its strongest")
            return strongest
        return sorted(cards)

    def _baseline_action(self, st: Any, game: Any, player: int, mask: np.ndarray) -> int:
        return int(self.baseline.act(game.observe(st, player), mask[None], self.rng)[0])

    def _move(self, st: Any, game: Any, mover: int, mask: np.ndarray) -> int:
        """The mover's action (a legal one): its play when the game accepts it, else a pass (a rejected
        leader cannot pass: the baseline leads for it); a faulted seat's stand-in move."""
        table = self._read(mover, "play") if self.clients[mover].conn is not None else None
        if table is None:  # a faulted seat (perhaps just now)
            return self._stand_in(st, game, mover, mask)
        action = play_table_to_action(table)
        if action is None and np.any((table[:5] < 0) | (table[:5] > 2)):
            self._malformed(mover)
        accepted = action is not None and bool(mask[action])
        self._send_int(mover, ACCEPTED if accepted and action != A.PASS else REJECTED, "accept/reject reply")
        if accepted:
            return int(action)
        return A.PASS if mask[A.PASS] else self._baseline_action(st, game, mover, mask)

    def _stand_in(self, st: Any, game: Any, mover: int, mask: np.ndarray) -> int:
        """The move of a faulted seat: the baseline's (replace), or a pass / the lowest single (forfeit)."""
        if self.config.on_fault == "forfeit":
            if mask[A.PASS]:
                return A.PASS
            singles = mask & np.isin(A.KIND, (A.K_SINGLE, A.K_JSINGLE))
            mask = singles if singles.any() else mask
        return self._baseline_action(st, game, mover, mask)

    # ---- the state rows ----------------------------------------------------------------------------
    @staticmethod
    def _counts(st: Any) -> tuple[int, ...]:
        return tuple(int(st.hands[0, p]).bit_count() for p in range(NUM_PLAYERS))

    @staticmethod
    def _classes(st: Any) -> tuple[int, ...]:
        titles = [int(t) for t in st.titles[0]]
        return tuple(t - 1 for t in titles) if all(titles) else (2,) * NUM_PLAYERS  # no classes yet: all 平民

    @staticmethod
    def _seats(st: Any) -> tuple[int, ...]:
        seating = getattr(st, "seating", None)
        return tuple(int(p) for p in seating[0]) if seating is not None else tuple(range(NUM_PLAYERS))

    def _hand_table(self, st: Any, player: int, mover: int) -> np.ndarray:
        hand = int(st.hands[0, player])
        table = hand_to_table(c for c in range(53) if (hand >> c) & 1)
        TableState(exchange=0, give=0, my_turn=player == mover, current=mover,
                   field_empty=int(st.field_action[0]) < 0, eleven_back=bool(st.eleven_back[0]),
                   revolution=bool(st.revolution[0]), lock=int(st.lock[0]) != 0, hand_counts=self._counts(st),
                   classes=self._classes(st), seats=self._seats(st)).write(table)
        return table

    # ---- talking to clients; a failure is a fault, never the end of the run ------------------------------
    def _fault(self, p: int, reason: str) -> None:
        client = self.clients[p]
        if client.conn is None:
            return
        client.conn.close()
        client.conn = None
        mode = "uecda_default plays its seat" if self.config.on_fault == "replace" else "its seat forfeits"
        client.record.fault = f"{self.config.on_fault}d: {reason}"
        self.log(f"player {p} faulted ({reason}); {mode} from now on")

    def _malformed(self, p: int) -> None:
        client = self.clients[p]
        client.malformed += 1
        if client.malformed >= self.config.max_malformed:
            self._fault(p, f"{client.malformed} malformed tables")

    def _send(self, p: int, table: np.ndarray, what: str) -> None:
        self._deliver(p, lambda conn: conn.send_table(table, what))

    def _send_int(self, p: int, value: int, what: str) -> None:
        self._deliver(p, lambda conn: conn.send_int(value, what))

    def _deliver(self, p: int, send: Callable[[Any], None]) -> None:
        """Send to player ``p`` unless its seat has no connection; a failed send faults the seat."""
        conn = self.clients[p].conn
        if conn is None:
            return
        try:
            send(conn)
        except ProtocolError as e:
            self._fault(p, str(e))

    def _read(self, p: int, what: str) -> np.ndarray | None:
        conn = self.clients[p].conn
        if conn is None:
            return None
        try:
            return conn.read_table(what)
        except ProtocolError as e:
            self._fault(p, str(e))
            return None


def run_server(config: ServerConfig, log: Callable[[str], None] = print) -> list[PlayerRecord]:
    """Serve one run and print the standings."""
    server = UecdaServer(config, log)
    log(f"UECda server (protocol {PROTOCOL_VERSION}) on {config.host}:{server.port}: waiting for "
        f"{NUM_PLAYERS} clients, then {config.games} game(s)")
    records = server.run()
    log(format_standings(records))
    if server.replays:
        log(f"replays: {', '.join(str(p) for p in server.replays)}")
    return records
