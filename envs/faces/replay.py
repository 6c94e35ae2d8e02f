"""Replays of any game: a game recorded as (game, rule options, seed, setup, actions).

A game of the core is a function of its seed: ``init([seed])`` deals, and every later chance event
comes from the game's own stream, so the seed, the rule options, the per-episode setup (if the game
was not started by plain ``init``) and the list of integer actions determine every state. A record
is a JSON-safe dict::

    {"format": "yuugi-replay", "version": 1, "game": "nigejozu", "rules": {...}, "seed": 123,
     "setup": null | {"decks": [...]}, "position": null | {...}, "actions": [3, 0, 17, ...]}

An optional ``players`` field says who sat where: one ``{"name": ..., "policy": ...}`` per seat
(``yuugi play`` writes ``{"name": "you", "policy": "person"}`` and, for a CPU, its name at the table and
its level, e.g. ``{"name": "ジライヤ", "policy": "normal"}``); records without it replay as before.

``setup`` is what the game's ``init(seeds, setup)`` takes (ninja_slayer's ``{"decks": ...}``);
``position`` a starting position (``from_position(position, seed)``) instead of a deal. ``seed`` is
always the *game* seed, the one ``init`` got; :class:`AECRecorder` records it for an AEC env too.

* :class:`Recorder` steps a batch of one game and keeps the record as it goes;
* :class:`AECRecorder` wraps an AEC env (the raw one or the wrapped one) and records what it plays;
* :func:`replay` yields ``(state, action)`` for every move and ``(final_state, None)`` at the end,
  checking each action; a record whose action is illegal raises :class:`ReplayError` naming the step;
* :func:`to_arrays` turns records into per-seat numpy arrays for offline RL.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, Mapping

import numpy as np

from yuugi.envs.core.errors import IllegalActionError, OptionError
from yuugi.envs.core.game import BatchGame, State

FORMAT = "yuugi-replay"
VERSION = 1
_SEED_LIMIT = 2**64
_FIELDS = ("format", "version", "game", "rules", "seed", "setup", "position", "actions")


class ReplayError(ValueError):
    """A record that cannot be replayed: a bad file or field, or an action the game refuses."""


# ---- building records ---------------------------------------------------------------------------
def make_record(game: str, seed: int, actions: list[int], rules: Mapping[str, Any] | None = None,
                setup: Mapping[str, Any] | None = None, position: Mapping[str, Any] | None = None,
                players: list[Mapping[str, str]] | None = None) -> dict[str, Any]:
    """A record (checked for its form, not replayed) of ``actions`` played from ``seed``; ``players``:
    who sat in each seat (``{"name", "policy"}`` each), kept so that a replay names them as they played."""
    record = {"format": FORMAT, "version": VERSION, "game": game, "rules": _json_safe(dict(rules or {}), "rules"),
              "seed": int(seed), "setup": _json_safe(dict(setup), "setup") if setup is not None else None,
              "position": _json_safe(dict(position), "position") if position is not None else None,
              "actions": [int(a) for a in actions]}
    if players is not None:
        record["players"] = _json_safe([dict(p) for p in players], "players")
    return check_record(record)


def _json_safe(value: Any, field: str) -> Any:
    """``value`` as plain JSON types (tuples become lists); :class:`ReplayError` if it cannot be."""
    try:
        return json.loads(json.dumps(value, default=_numpy_scalar))
    except (TypeError, ValueError) as e:
        raise ReplayError(f"record field {field!r} is not JSON-safe: {e}") from None


def _numpy_scalar(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} {value!r} is not a JSON value")


def start(game: BatchGame, seed: int, setup: Mapping[str, Any] | None = None,
          position: Mapping[str, Any] | None = None) -> State:
    """The batch of one game a record starts from."""
    if position is not None:
        if setup:
            raise ReplayError("a record starts from a position or from a setup, not both")
        return game.from_position(position, seed=int(seed))
    seeds = np.array([int(seed)], dtype=np.uint64)
    if not setup:
        return game.init(seeds)
    try:
        return game.init(seeds, setup)
    except OptionError as e:
        raise ReplayError(f"the record's setup: {e}") from None


class Recorder:
    """Plays a batch of one game and records it: ``rec.step(a)`` ... ``rec.record()``.

    ``game`` is built from ``game_name`` and ``rules`` unless given (then ``rules`` must be the options
    it was built with, since the record names them).
    """

    def __init__(self, game_name: str, seed: int, rules: Mapping[str, Any] | None = None,
                 setup: Mapping[str, Any] | None = None, position: Mapping[str, Any] | None = None,
                 game: BatchGame | None = None) -> None:
        self.game = game if game is not None else _game(game_name, dict(rules or {}))
        self.game_name, self.seed, self.rules = game_name, int(seed), dict(rules or {})
        self.setup, self.position = setup, position
        self.state = start(self.game, self.seed, setup, position)
        self.actions: list[int] = []

    def step(self, action: int) -> State:
        """Apply ``action`` (checked: an illegal one raises ``IllegalActionError`` and is not recorded)."""
        self.game.step(self.state, self.game.action_array([action]))
        self.actions.append(int(action))
        return self.state

    def undo_to(self, moves: int) -> None:
        """Forget every action after the first ``moves`` and replay to there (for an undo)."""
        self.actions = self.actions[:moves]
        self.state = final_state(self.record(), game=self.game)

    def record(self) -> dict[str, Any]:
        return make_record(self.game_name, self.seed, self.actions, self.rules, self.setup, self.position)


class AECRecorder:
    """Wraps an AEC env of this project (raw or wrapped): ``reset``/``step`` pass through and are recorded.

    The env derives its game seed from ``reset(seed=s)``; a reset without a seed gets one drawn here
    (from ``np.random``'s entropy), so every recorded game has a seed to replay from. ``record()`` gives
    the game played since the last reset.
    """

    def __init__(self, env: Any, game_name: str | None = None, rules: Mapping[str, Any] | None = None) -> None:
        self.env = env
        self.raw = env.unwrapped
        self.game_name = game_name or self.raw.game.name
        self.rules = dict(rules or {})
        self._seeds = np.random.default_rng()
        self.seed: int | None = None
        self.position: Mapping[str, Any] | None = None
        self.actions: list[int] = []

    def __getattr__(self, name: str) -> Any:  # observe, last, agent_iter, agents, ...: the env's own
        return getattr(self.env, name)

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        if seed is None:
            seed = int(self._seeds.integers(0, 2**63 - 1))
        self.env.reset(seed=seed, options=options)
        self.seed = aec_game_seed(seed)
        self.position = dict(options or {}).get("position")
        self.actions = []

    def step(self, action: Any) -> None:
        done = self.raw.state_batch is not None and bool(self.raw.state_batch.done[0])
        self.env.step(action)
        if not done and action is not None:  # a dead agent's None step is no move of the game
            self.actions.append(int(action))

    def record(self) -> dict[str, Any]:
        if self.seed is None:
            raise ReplayError("nothing to record: call reset() first")
        return make_record(self.game_name, self.seed, self.actions, self.rules, position=self.position)


def aec_game_seed(reset_seed: int) -> int:
    """The game seed :class:`~yuugi.envs.faces.aec.BatchAECEnv` draws from ``reset(seed=reset_seed)``."""
    return int(np.random.default_rng(int(reset_seed)).integers(0, 2**63 - 1))


# ---- reading and checking records -----------------------------------------------------------------
def save(record: Mapping[str, Any], path: str | Path) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(check_record(dict(record)), f, ensure_ascii=False)
        f.write("\n")


def load(path: str | Path) -> dict[str, Any]:
    """The record in ``path``; :class:`ReplayError` (one line, naming the file) if it is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ReplayError(f"{path}: is a folder, not a replay file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ReplayError(f"{path}: not a replay file ({' '.join(str(e).split())})") from None
    try:
        return check_record(record)
    except ReplayError as e:
        raise ReplayError(f"{path}: {e}") from None


def check_record(record: Any) -> dict[str, Any]:
    """``record`` if it has the form of a replay record; :class:`ReplayError` naming the bad field."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ReplayError(f"not a replay record: a JSON object with \"format\": \"{FORMAT}\" is expected")
    if record.get("version") != VERSION:
        raise ReplayError(f"replay format version {record.get('version')!r} is not supported (this reads {VERSION})")
    missing = [k for k in _FIELDS if k not in record]
    if missing:
        raise ReplayError(f"replay record lacks field(s) {missing}")
    if not isinstance(record["game"], str):
        raise ReplayError(f"field 'game' must be a game name, got {record['game']!r}")
    seed = record["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < _SEED_LIMIT:
        raise ReplayError(f"field 'seed' must be an integer 0..2**64-1, got {seed!r}")
    for name in ("rules", "setup", "position"):
        if record[name] is not None and not isinstance(record[name], dict):
            raise ReplayError(f"field {name!r} must be an object{'' if name == 'rules' else ' or null'}, "
                              f"got {record[name]!r}")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise ReplayError(f"field 'actions' must be a list of integers, got {type(actions).__name__}")
    for k, a in enumerate(actions):
        if isinstance(a, bool) or not isinstance(a, int):
            raise ReplayError(f"field 'actions': step {k} holds {a!r}, not an integer action")
    players = record.get("players")
    if players is not None:
        if not isinstance(players, list) or not all(
                isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("policy"), str)
                for p in players):
            raise ReplayError("field 'players' must be a list with one {\"name\": ..., \"policy\": ...} per seat, "
                              f"got {players!r}")
    return record


def _game(name: str, rules: dict[str, Any]) -> BatchGame:
    from yuugi.envs import make_game  # the registry imports this package's modules

    return make_game(name, **rules)


def game_of(record: Mapping[str, Any]) -> BatchGame:
    """The game a record was played in, built by name with its rule options."""
    return _game(record["game"], dict(record["rules"]))


# ---- replaying ------------------------------------------------------------------------------------
def replay(record: Mapping[str, Any], game: BatchGame | None = None) -> Iterator[tuple[State, int | None]]:
    """``(state, action)`` before each recorded move (the state is a copy of the game as it stood), then
    ``(final_state, None)``. ``game`` overrides building the game by name (it must have the record's
    rules). An illegal action, or an action after the game ended, raises :class:`ReplayError` naming the
    step; nothing is yielded for it.
    """
    record = check_record(dict(record))
    game = game if game is not None else game_of(record)
    if game.name != record["game"]:
        raise ReplayError(f"the record is a game of {record['game']!r}, not {game.name!r}")
    st = start(game, record["seed"], record["setup"], record["position"])
    actions = record["actions"]
    for k, action in enumerate(actions):
        if st.done[0]:
            raise ReplayError(f"step {k} (move {k + 1}): the game was already over, yet the record holds "
                              f"{len(actions) - k} more action(s)")
        before = st.copy()
        try:
            game.step(st, np.array([action], dtype=np.int64))
        except IllegalActionError as e:
            label = game.action_label(action) if 0 <= action < game.num_actions else "out of range"
            reason = str(e).split(": ", 1)[1] if ": " in str(e) else "not legal here"
            raise ReplayError(f"step {k} (move {k + 1}): action {action} ({label}) is illegal for "
                              f"{game.agent_names[int(before.to_play[0])]}: {reason}; the record was altered or "
                              "made under other rules") from None
        yield before, action
    yield st, None


def final_state(record: Mapping[str, Any], game: BatchGame | None = None) -> State:
    """The state after every move of ``record``."""
    for st, action in replay(record, game):
        if action is None:
            return st
    raise AssertionError("replay always ends with the final state")  # pragma: no cover


# ---- offline-RL arrays ----------------------------------------------------------------------------
def to_arrays(records: list[Mapping[str, Any]], game: BatchGame | None = None) -> list[dict[str, np.ndarray]]:
    """Per seat, every decision that seat made in ``records`` (replayed), as arrays.

    Element p of the list holds, for seat p's N decisions in record order: ``observations``
    float32[N, *obs] (what p saw), ``masks`` bool[N, A], ``actions`` int64[N], ``rewards`` float32[N]
    (everything p earned from that decision until its next one: the end-of-game reward goes to p's
    last decision; anything earned before p's first decision is dropped), ``dones`` bool[N] (p's last
    decision of a game that ended), ``episodes`` int64[N] (index into ``records``) and ``steps``
    int64[N] (the move number in the record). All records must be of one game and rule set.
    """
    if not records:
        raise ReplayError("to_arrays() needs at least one record")
    first = check_record(dict(records[0]))
    game = game if game is not None else game_of(first)
    players = game.num_players
    cols: list[dict[str, list[Any]]] = [{k: [] for k in ("observations", "masks", "actions", "rewards", "dones",
                                                          "episodes", "steps")} for _ in range(players)]
    for e, record in enumerate(records):
        if (record.get("game"), record.get("rules")) != (first["game"], first["rules"]):
            raise ReplayError(f"record {e} is of {record.get('game')!r} with rules {record.get('rules')!r}; "
                              f"record 0 is of {first['game']!r} with rules {first['rules']!r}")
        last: list[int | None] = [None] * players  # index of each seat's latest decision in this record
        for move, (st, action) in enumerate(replay(record, game)):
            for p in range(players):  # the reward of the move just made goes to each seat's latest decision
                if last[p] is not None:
                    cols[p]["rewards"][last[p]] += float(st.rewards[0, p])
            if action is None:
                if st.done[0]:
                    for p in range(players):
                        if last[p] is not None:
                            cols[p]["dones"][last[p]] = True
                break
            p = int(st.to_play[0])
            c = cols[p]
            c["observations"].append(game.observe(st, p)[0])
            c["masks"].append(game.legal_mask(st)[0])
            c["actions"].append(action)
            c["rewards"].append(0.0)
            c["dones"].append(False)
            c["episodes"].append(e)
            c["steps"].append(move)
            last[p] = len(c["actions"]) - 1
    dtypes = {"observations": np.float32, "masks": bool, "actions": np.int64, "rewards": np.float32, "dones": bool,
              "episodes": np.int64, "steps": np.int64}
    out = []
    for c in cols:
        seat = {}
        for k, dt in dtypes.items():
            if k == "observations" and not c[k]:
                seat[k] = np.zeros((0, *game.observation_shape), np.float32)
            elif k == "masks" and not c[k]:
                seat[k] = np.zeros((0, game.num_actions), bool)
            else:
                seat[k] = np.asarray(c[k], dtype=dt)
        out.append(seat)
    return out

