"""The tables of ``yuugi serve``: one game of one person against CPUs, kept in the server's memory.

A :class:`TableSession` holds the game (a batch of one on the same compiled engine as every other
face), the CPU policies of the other seats, the log of the moves as the person's seat saw them, and
the total rewards. :meth:`TableSession.message` is everything the browser receives, and it is built
only from what the person's seat may see: the picture drawn from that seat (hidden cards face down),
the legal moves as (action index, label) pairs when it is that seat's turn, the log, and the scores
once the game is over. :meth:`TableSession.move` checks a move (the turn it was made for, and that the
action is legal now) and answers a refusal with a message, never an exception; then the CPUs play until
the person's next decision or the end.

A ninja daifugō table also sends its seat's *view* (:func:`yuugi.training.serve.daifugo.seat_view`, the
data of the daifugō screen) and the public events of the last moves (points gained, revolution, lock,
都落ち, the end of a game, a new declaration), and takes the exchange's picks as one move of several
actions (``{"type": "move", "actions": [A, B], "turn": T}``), checked as a whole before any is played.
A table may start from a position (``position``: the game's ``from_position`` format).
"""
from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from yuugi.agents.adapters import as_policy
from yuugi.agents.policy import Policy
from yuugi.agents.registry import PERSONAS, SHIPPED_LEVEL_NAMES, cpu
from yuugi.agents.search.dispatch import act
from yuugi.envs import make_game
from yuugi.envs.core.game import BatchGame, State
from yuugi.envs.pictures import picture_svg

MAX_LOG = 400  # log lines kept per table (the oldest are dropped)
MAX_EVENTS_SENT = 40  # the latest events sent with each message (the screen shows those it has not shown)
MAX_ACTIONS_PER_MOVE = 4  # an exchange gives at most 2 cards; more is junk
_GAMES: dict[str, BatchGame] = {}
_GAMES_LOCK = threading.Lock()


class MoveRefused(ValueError):
    """A move the table does not take (stale, illegal, not the person's turn, junk): the message says why."""


def game_for(name: str, rules: Mapping[str, Any]) -> BatchGame:
    """The built game of ``name`` under ``rules``, shared by every table with the same ones."""
    key = name + json.dumps(dict(rules), sort_keys=True, default=str)
    with _GAMES_LOCK:
        if key not in _GAMES:
            _GAMES[key] = make_game(name, **rules)
        return _GAMES[key]


def people_table(game_name: str, game: BatchGame, seat: int, who: list[str]) -> Any:
    """The terminal table of ``yuugi play`` for this game (see :func:`yuugi.training.play.play.table_for`)."""
    from yuugi.training.play.play import table_for

    return table_for(game_name, game, seat, who)


def cpu_name(game_name: str, policy: Any) -> str:
    """A CPU seat's name: its persona where the game has them, else ``CPU <level>``; a policy of the
    user's own by its name, marked as theirs."""
    name = str(getattr(policy, "name", "cpu"))
    if name not in SHIPPED_LEVEL_NAMES:
        return f"{name} (your policy)"
    persona = {lv: persona for persona, lv in PERSONAS.get(game_name, {}).items()}.get(name)
    return persona or f"CPU {name}"


@dataclass
class TableSession:
    """One table: ``game_name`` under ``rules``, the person at ``seat``, CPUs elsewhere."""

    game_name: str
    seat: int = 0
    level: str = "normal"
    opponent: Any = None  # a policy (or anything as_policy accepts) for every CPU seat; None: the level's CPU
    seed: int | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    position: Any = None  # a position to start from (the game's from_position format); None: a deal from seed
    # called with (session, event) when a game of the series ends (daifugō); what it returns is added to the
    # event as "career" (the career records the person's place there)
    on_game_over: Callable[["TableSession", dict[str, Any]], Any] = None  # type: ignore[assignment]
    table_id: str = field(default_factory=lambda: secrets.token_urlsafe(9))

    def __post_init__(self) -> None:
        self.game = game_for(self.game_name, self.rules)
        players = self.game.num_players
        if not isinstance(self.seat, int) or not 0 <= self.seat < players:
            raise ValueError(f"seat must be 0..{players - 1} ({self.game_name} has {players} players), got {self.seat!r}")
        if self.opponent is None:
            shared: Policy = cpu(self.game_name, self.level, **self.rules)
        else:
            shared = as_policy(self.opponent, game=self.game_name, **self.rules)
        self.policies: list[Policy | None] = [None if p == self.seat else shared for p in range(players)]
        self.who = ["you" if p == self.seat else cpu_name(self.game_name, pol) for p, pol in enumerate(self.policies)]
        self.daifugo = self.game_name == "ninja_daifugo"
        if self.daifugo and self.game.config.ninja == "faithful" and self.opponent is None:
            from .daifugo import FAITHFUL_CPUS

            # the faithful table's seats 1-3 carry the loadouts of ジライヤ, お館様 and モコ: they are named so
            self.who = [w if p == self.seat or p == 0 else f"{FAITHFUL_CPUS[p - 1]} ({self.level})"
                        for p, w in enumerate(self.who)]
        self.table = people_table(self.game_name, self.game, self.seat, self.who)
        self.view_names = ["あなた" if p == self.seat else w for p, w in enumerate(self.who)]  # the daifugō screen's
        if self.seed is None:
            self.seed = int(np.random.default_rng().integers(0, 2**31))
        self.cpu_rng = np.random.default_rng(self.seed)
        if self.position is None:
            self.state: State = self.game.init(np.array([self.seed]))
        else:
            self.state = self.game.from_position(self.position, seed=self.seed)
        self.turn = 0  # moves played so far (every seat's): a move is made for one turn only
        self.totals = np.zeros(players, dtype=np.float64)
        self.log: list[str] = []
        self.events: list[dict[str, Any]] = []  # public events of the moves (daifugō), numbered by "id"
        if self.daifugo:
            from .daifugo import declaration

            self._event({"kind": "declaration", "game": int(self.state.game_index[0]) + 1, "turn": 0,
                         **declaration(int(self.state.declaration[0]))})
        self.lock = threading.Lock()
        self.advance()

    def _event(self, event: dict[str, Any]) -> None:
        self.events.append({"id": len(self.events) + 1, **event})

    # ---- playing -----------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return bool(self.state.done[0])

    def legal(self) -> np.ndarray:
        """The legal actions of the seat to play (empty once the game is over)."""
        return np.flatnonzero(self.game.legal_mask(self.state)[0])

    def narrate(self, before: State, action: int, after: State) -> list[str]:
        """The log lines of ``action`` as the person's seat saw it."""
        return [str(line) for line in self.table.narrate(before, int(action), after)]

    def _play(self, action: int) -> None:
        before = self.state.copy()
        self.game.step(self.state, np.array([action]))
        self.turn += 1
        self.totals += self.state.rewards[0]
        self.log.extend(self.narrate(before, action, self.state))
        del self.log[:-MAX_LOG]
        if self.daifugo:
            from .daifugo import events_between

            for event in events_between(before, self.state, self.turn, self.view_names):  # type: ignore[arg-type]
                if event["kind"] == "game_over" and self.on_game_over is not None:
                    event["career"] = self.on_game_over(self, event)
                self._event(event)

    def advance(self) -> None:
        """The CPUs play until it is the person's turn or the game is over."""
        while not self.over and int(self.state.to_play[0]) != self.seat:
            p = int(self.state.to_play[0])
            mask = self.game.legal_mask(self.state)
            # a search level (expert, ninja_slayer's hard) reads a copy of the state, the others the observation
            action = int(act(self.policies[p], self.game, self.state.copy(), np.array([p]),  # type: ignore[arg-type]
                             self.game.observe(self.state, p), mask, self.cpu_rng)[0])
            self._play(action)

    def check(self, data: Any) -> list[int]:
        """The actions of a move message ``{"type": "move", "action": A, "turn": T}`` (or ``"actions": [A, B]``:
        several of the person's decisions in a row, such as the exchange's picks); MoveRefused otherwise."""
        if not isinstance(data, dict) or data.get("type") != "move":
            raise MoveRefused('not a move: send {"type": "move", "action": A, "turn": T}')
        turn = data.get("turn")
        if "actions" in data:
            actions = data.get("actions")
            if (not isinstance(actions, list) or not 1 <= len(actions) <= MAX_ACTIONS_PER_MOVE
                    or "action" in data):
                raise MoveRefused(f"actions must be a list of 1..{MAX_ACTIONS_PER_MOVE} integer actions (and no "
                                  "'action' beside it)")
        else:
            actions = [data.get("action")]
        if any(type(a) is not int for a in actions) or type(turn) is not int:
            raise MoveRefused("a move needs integer actions and the integer turn it was made for")
        self._check_turn(turn)
        if len(actions) == 1:
            action = actions[0]
            if action not in {int(a) for a in self.legal()}:
                raise MoveRefused(f"action {action} is not a legal move now")
            return actions
        trial = self.state.copy()  # the whole list is checked before any of it is played
        for k, action in enumerate(actions):
            if int(trial.to_play[0]) != self.seat or bool(trial.done[0]):
                raise MoveRefused(f"action {action} (number {k + 1} of the move) would not be yours to make")
            if not (0 <= action < self.game.num_actions and self.game.legal_mask(trial)[0, action]):
                raise MoveRefused(f"action {action} (number {k + 1} of the move) is not a legal move then")
            self.game.step(trial, np.array([action]))
        return actions

    def _check_turn(self, turn: int) -> None:
        if self.over:
            raise MoveRefused("the game is over: no more moves")
        if turn != self.turn:
            raise MoveRefused(f"stale move: it was made for turn {turn}, the table is at turn {self.turn}")
        if int(self.state.to_play[0]) != self.seat:
            raise MoveRefused("it is not your turn")

    def move(self, data: Any) -> None:
        """Play the person's move ``data`` (see :meth:`check`), then the CPUs' answers."""
        with self.lock:
            for action in self.check(data):
                self._play(action)
            self.advance()

    # ---- what the browser receives ------------------------------------------------------------------
    def moves(self, state: State | None = None) -> list[list[Any]]:
        """The person's legal moves as [action index, label] pairs (none when it is not their turn)."""
        st = self.state if state is None else state
        if bool(st.done[0]) or int(st.to_play[0]) != self.seat:
            return []
        legal = np.flatnonzero(self.game.legal_mask(st)[0])
        return [[int(a), str(self.table.choice(st, int(a)))] for a in legal]

    def message(self, state: State | None = None) -> dict[str, Any]:
        """Everything the browser is sent about this table, from the person's seat only (``state``: another
        state to build it from instead, which the tests use to show hidden arrays change nothing)."""
        st = self.state if state is None else state
        over = bool(st.done[0])
        msg: dict[str, Any] = {
            "type": "state", "table": self.table_id, "game": self.game_name, "seat": self.seat,
            "names": list(self.table.names), "who": list(self.who), "turn": self.turn, "over": over,
            "to_play": None if over else int(st.to_play[0]),
            "svg": picture_svg(self.game, st, 0, self.seat),
            "moves": self.moves(st), "log": list(self.log), "scores": None, "final": [],
        }
        if over:
            msg["scores"] = [round(float(x), 4) for x in self.totals]
            msg["final"] = [str(line) for line in self.table.final(st)]
        if self.daifugo:
            from .daifugo import seat_view

            legal = np.flatnonzero(self.game.legal_mask(st)[0]) if not over and int(st.to_play[0]) == self.seat else []
            msg["view"] = seat_view(st, self.seat, self.view_names, np.asarray(legal, dtype=np.int64),  # type: ignore[arg-type]
                                    self.game.config.series_games)  # type: ignore[attr-defined]
            msg["events"] = self.events[-MAX_EVENTS_SENT:]
        return msg


class Tables:
    """The tables a server keeps, by id."""

    def __init__(self) -> None:
        self._tables: dict[str, TableSession] = {}
        self._lock = threading.Lock()

    def add(self, session: TableSession) -> TableSession:
        with self._lock:
            self._tables[session.table_id] = session
        return session

    def get(self, table_id: str) -> TableSession | None:
        with self._lock:
            return self._tables.get(table_id)

    def __len__(self) -> int:
        return len(self._tables)
