"""The conformance harness every game must pass (after pgx's ``api_test``).

Anyone adding a game runs ``check_game(Game(**rules))``; it plays random legal games and checks the
contract of :class:`~yuugi.envs.core.game.BatchGame`, the game's declared
:class:`~yuugi.envs.core.metadata.GameMetadata` and its PettingZoo face:

============== ==========================================================================================
check           what must hold
============== ==========================================================================================
mask            the legal mask is empty exactly when a game is over, and a game once over stays over
illegal_action  an illegal or out-of-range action raises ``IllegalActionError`` naming the game and the
                action, and leaves the whole batch equal to what it was
batch           game i plays identically alone and at any row of a batch of 1,024 (same seed, same
                actions: same state arrays, masks and observations)
observation     every seat's observation has the declared space's shape and dtype and lies in its bounds
position        ``to_position`` is JSON-safe and survives ``from_position`` unchanged; the loaded game
                then continues exactly as the original (same future seed, same actions)
rewards         every reward lies in ``reward_range``; returns sum to 0 (zero-sum) or to ``utility_sum``
                (constant-sum, episodes that terminate)
termination     every episode ends within ``metadata.max_decisions`` decisions
aec             the raw AEC environment, reset with seed s, shows the core's observations, masks,
                rewards and terminations for the core game it seeds from s, under the same actions
============== ==========================================================================================

A failed check raises a :class:`ConformanceError` (an ``AssertionError``) whose message names the
check, the game (its batch row and seed) and the step; ``error.check`` holds the check's name. A
game without a :class:`~yuugi.envs.core.metadata.GameMetadata` as ``game.metadata`` fails the
``metadata`` check before any other. Usage, in a game's tests::

    from yuugi.envs.conformance import check_game
    check_game(Game(**rules), seeds=range(8), make_env=lambda: raw_env(**rules))

Each check is also a function of its own (``check_mask``, ``check_batch``, ...) for a quick look.

The random player is counter-based like the games' own streams: game i's choice at step t depends
only on its seed and t, never on the batch around it, so every failure replays.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Iterable, NoReturn, Sequence

import gymnasium
import numpy as np

from yuugi.envs.core import rng
from yuugi.envs.faces.aec import BatchAECEnv
from yuugi.envs.core.errors import IllegalActionError
from yuugi.envs.core.game import BatchGame, State
from yuugi.envs.core.metadata import GameMetadata

CHECKS = ("mask", "illegal_action", "batch", "observation", "position", "rewards", "termination", "aec")
DEFAULT_SEEDS = (0, 1, 2, 3)
BATCH_SIZE = 1024
_POLICY_SALT = np.uint64(0xC0FFEE0DDBA11)
_REWARD_TOL = 1e-5

EnvFactory = Callable[[], Any]


class ConformanceError(AssertionError):
    """A game broke its contract; ``check`` names the check, ``game_index``/``seed``/``step`` where."""

    def __init__(self, check: str, problem: str, *, game_index: int | None = None, seed: int | None = None,
                 step: int | None = None) -> None:
        self.check, self.game_index, self.seed, self.step = check, game_index, seed, step
        where = []
        if game_index is not None:
            where.append(f"game {game_index}" + (f" (seed {seed})" if seed is not None else ""))
        if step is not None:
            where.append(f"step {step}")
        super().__init__(f"conformance check '{check}' failed" + (f" at {', '.join(where)}" if where else "")
                         + f": {problem}")


# ---- the random player and the shared trajectory ----------------------------------------------
def choose_actions(mask: np.ndarray, seeds: np.ndarray, step: int) -> np.ndarray:
    """A uniformly random legal action per row, drawn from (the row's seed, ``step``) alone.

    Rows without a legal action get 0. The draw hashes the seed and the step, so game i chooses the
    same action alone or in any batch.
    """
    b, a = mask.shape
    keys = rng.keys_from_seeds(np.asarray(seeds, dtype=np.uint64) ^ _POLICY_SALT)
    u = rng.draw_unit(keys, np.full(b, step, dtype=np.uint64), 1)[:, 0]
    flat = np.flatnonzero(mask)
    counts = np.bincount(flat // a, minlength=b)
    starts = np.cumsum(counts) - counts
    has = counts > 0
    actions = np.zeros(b, dtype=np.int64)
    k = np.minimum((u * counts).astype(np.int64), np.maximum(counts - 1, 0))
    actions[has] = flat[(starts + k)[has]] % a
    return actions


class _Check:
    """One check's view of a shared random trajectory: ``before`` each step, ``after`` it, ``end``."""

    name = ""

    def __init__(self, game: BatchGame, seeds: np.ndarray) -> None:
        self.game, self.seeds = game, seeds

    def fail(self, problem: str, row: int | None = None, step: int | None = None) -> NoReturn:
        seed = int(self.seeds[row]) if row is not None else None
        raise ConformanceError(self.name, problem, game_index=row, seed=seed, step=step)

    def before(self, st: State, mask: np.ndarray, step: int) -> None:
        pass

    def after(self, st: State, live_before: np.ndarray, step: int) -> None:
        pass

    def end(self, st: State, step: int) -> None:
        pass


def _metadata(game: BatchGame) -> GameMetadata:
    meta = getattr(game, "metadata", None)
    if not isinstance(meta, GameMetadata):
        raise ConformanceError("metadata", f"{type(game).__name__}.metadata must be an yuugi.envs.core.metadata."
                               f"GameMetadata, got {type(meta).__name__}")
    if meta.num_players != game.num_players:
        raise ConformanceError("metadata", f"metadata.num_players is {meta.num_players} but the game has "
                               f"{game.num_players} players")
    return meta


def _run(game: BatchGame, seeds: np.ndarray, checks: Sequence[_Check], max_steps: int | None = None) -> State:
    """Play random legal games from ``seeds`` until all are over or ``max_steps`` steps have passed."""
    cap = _metadata(game).max_decisions if max_steps is None else max_steps
    st = game.init(seeds)
    step = 0
    while True:
        mask = game.legal_mask(st)
        for c in checks:
            c.before(st, mask, step)
        if st.done.all() or step >= cap:
            break
        live = ~st.done
        game.step(st, choose_actions(mask, seeds, step), mask=mask)
        for c in checks:
            c.after(st, live, step)
        step += 1
    for c in checks:
        c.end(st, step)
    return st


def _seeds(seeds: Iterable[int]) -> np.ndarray:
    out = np.asarray(list(seeds), dtype=np.uint64)
    if out.ndim != 1 or out.size == 0:
        raise ValueError(f"seeds must be a non-empty sequence of non-negative integers, got {seeds!r}")
    return out


def _default_env(game: BatchGame) -> EnvFactory:
    return lambda: BatchAECEnv(game)


# ---- mask ---------------------------------------------------------------------------------------
class _MaskCheck(_Check):
    name = "mask"

    def __init__(self, game: BatchGame, seeds: np.ndarray) -> None:
        super().__init__(game, seeds)
        self.was_done = np.zeros(len(seeds), dtype=bool)

    def before(self, st: State, mask: np.ndarray, step: int) -> None:
        if mask.shape != (st.batch_size, self.game.num_actions) or mask.dtype != bool:
            self.fail(f"legal_mask gave {mask.dtype}{list(mask.shape)}, expected "
                      f"bool[{st.batch_size}, {self.game.num_actions}]", step=step)
        done = st.done
        back = np.flatnonzero(self.was_done & ~done)
        if back.size:
            self.fail("a finished game became live again", int(back[0]), step)
        bad = np.flatnonzero(mask.any(axis=1) == done)
        if bad.size:
            i = int(bad[0])
            self.fail(f"game over but {int(mask[i].sum())} legal actions (e.g. {int(np.flatnonzero(mask[i])[0])})"
                      if done[i] else "game not over but no legal action", i, step)
        self.was_done = done.copy()


def check_mask(game: BatchGame, seeds: Iterable[int] = DEFAULT_SEEDS, *, max_steps: int | None = None) -> None:
    """The legal mask is empty exactly when a game is over, and a game once over stays over."""
    s = _seeds(seeds)
    _run(game, s, [_MaskCheck(game, s)], max_steps)


# ---- illegal actions ----------------------------------------------------------------------------
class _IllegalActionCheck(_Check):
    name = "illegal_action"

    def before(self, st: State, mask: np.ndarray, step: int) -> None:
        live = np.flatnonzero(~st.done)
        if not live.size:
            return
        legal = choose_actions(mask, self.seeds, step)
        row = int(live[step % live.size])  # one game per step, in turn
        illegal = np.flatnonzero(~mask[row])
        candidates = [self.game.num_actions, -1]  # out of range on both sides
        if illegal.size:
            candidates.append(int(illegal[(step * 7919) % illegal.size]))
        for bad in candidates:
            actions = legal.copy()
            actions[row] = bad
            saved = st.copy()
            try:
                self.game.step(st, actions)
            except IllegalActionError as e:
                if e.game_index != row or e.action != bad:
                    self.fail(f"action {bad} raised IllegalActionError for game {e.game_index}, action "
                              f"{e.action}: {e}", row, step)
                if str(bad) not in str(e):
                    self.fail(f"the IllegalActionError message does not name action {bad}: {e}", row, step)
            else:
                self.fail(f"illegal action {bad} did not raise IllegalActionError", row, step)
            if not st.equals(saved):
                changed = [k for k, v in st.arrays().items() if not np.array_equal(v, saved.arrays()[k])]
                self.fail(f"illegal action {bad} raised but changed the state ({', '.join(changed)})", row, step)


def check_illegal_action(game: BatchGame, seeds: Iterable[int] = DEFAULT_SEEDS, *,
                         max_steps: int | None = None) -> None:
    """An illegal action raises IllegalActionError naming it and its game, and changes nothing."""
    s = _seeds(seeds)
    _run(game, s, [_IllegalActionCheck(game, s)], max_steps)


# ---- observations -------------------------------------------------------------------------------
def observation_space(env: Any, agent: str) -> gymnasium.spaces.Space:
    """The space of the observation proper: the ``"observation"`` entry of a PettingZoo-classic Dict."""
    space = env.observation_space(agent)
    if isinstance(space, gymnasium.spaces.Dict) and "observation" in space.spaces:
        return space["observation"]
    return space


class _ObservationCheck(_Check):
    name = "observation"

    def __init__(self, game: BatchGame, seeds: np.ndarray, make_env: EnvFactory) -> None:
        super().__init__(game, seeds)
        env = make_env()
        self.spaces = [observation_space(env, a) for a in env.possible_agents]
        if len(self.spaces) != game.num_players:
            self.fail(f"the AEC env has {len(self.spaces)} agents, the game {game.num_players} players")

    def before(self, st: State, mask: np.ndarray, step: int) -> None:
        per_seat = []
        for p, space in enumerate(self.spaces):
            obs = self.game.observe(st, p)
            per_seat.append(obs)
            self._conforms(obs, space, p, step)
        mixed = self.game.observe(st, st.to_play.astype(np.int64))
        own = np.stack(per_seat)[st.to_play.astype(np.int64), np.arange(st.batch_size)]
        diff = np.flatnonzero(~_rows_equal(mixed, own))
        if diff.size:
            self.fail("observe(state, to_play) differs from observe(state, seat) for the seat to play",
                      int(diff[0]), step)

    def _conforms(self, obs: np.ndarray, space: gymnasium.spaces.Space, seat: int, step: int) -> None:
        b = obs.shape[0] if obs.ndim else 0
        if isinstance(space, gymnasium.spaces.Box):
            if obs.shape[1:] != space.shape or b != len(self.seeds):
                self.fail(f"seat {seat}: observation shape {obs.shape}, declared ({len(self.seeds)}, "
                          f"*{space.shape})", step=step)
            if obs.dtype != space.dtype:
                self.fail(f"seat {seat}: observation dtype {obs.dtype}, declared {space.dtype}", step=step)
            flat = obs.reshape(b, -1)
            low, high = space.low.reshape(-1), space.high.reshape(-1)
            nan = ~np.isfinite(flat) if flat.dtype.kind == "f" else np.zeros_like(flat, dtype=bool)
            out = nan | (flat < low) | (flat > high)
            if out.any():
                row, k = (int(x[0]) for x in np.nonzero(out))
                self.fail(f"seat {seat}: observation[{k}] = {float(flat[row, k])} outside the declared "
                          f"[{low[k]}, {high[k]}]", row, step)
            return
        for row in range(b):
            if not space.contains(obs[row]):
                self.fail(f"seat {seat}: observation not in the declared space {space}", row, step)


def _rows_equal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a.reshape(a.shape[0], -1) == b.reshape(b.shape[0], -1)).all(axis=1)


def check_observation(game: BatchGame, seeds: Iterable[int] = DEFAULT_SEEDS, *, make_env: EnvFactory | None = None,
                      max_steps: int | None = None) -> None:
    """Every seat's observation has the AEC observation space's shape and dtype and lies in its bounds."""
    s = _seeds(seeds)
    _run(game, s, [_ObservationCheck(game, s, make_env or _default_env(game))], max_steps)


# ---- rewards ------------------------------------------------------------------------------------
class _RewardCheck(_Check):
    name = "rewards"

    def __init__(self, game: BatchGame, seeds: np.ndarray) -> None:
        super().__init__(game, seeds)
        self.meta = _metadata(game)
        self.returns = np.zeros((len(seeds), game.num_players), dtype=np.float64)
        self.closed = np.zeros(len(seeds), dtype=bool)

    def after(self, st: State, live_before: np.ndarray, step: int) -> None:
        r = st.rewards.astype(np.float64)
        lo, hi = self.meta.reward_range
        out = np.flatnonzero(live_before & ((r < lo - _REWARD_TOL) | (r > hi + _REWARD_TOL)).any(axis=1))
        if out.size:
            i = int(out[0])
            self.fail(f"rewards {r[i].tolist()} outside the declared reward_range {self.meta.reward_range}", i, step)
        self.returns[live_before] += r[live_before]
        ended = np.flatnonzero(live_before & st.done)
        for i in ended:
            self._episode(st, int(i), step)

    def _episode(self, st: State, i: int, step: int) -> None:
        total = float(self.returns[i].sum())
        want = self.meta.utility_sum
        if self.meta.utility == "zero_sum" or (self.meta.utility == "constant_sum" and bool(st.terminated[i])):
            if abs(total - float(want)) > _REWARD_TOL * max(1.0, abs(float(want))) * self.game.num_players:
                self.fail(f"returns {self.returns[i].tolist()} sum to {total}, but the game declares "
                          f"{self.meta.utility} with sum {want}", i, step)


def check_rewards(game: BatchGame, seeds: Iterable[int] = DEFAULT_SEEDS, *, max_steps: int | None = None) -> None:
    """Rewards lie in ``reward_range``; returns sum to the declared constant where the game declares one."""
    s = _seeds(seeds)
    _run(game, s, [_RewardCheck(game, s)], max_steps)


# ---- termination --------------------------------------------------------------------------------
class _TerminationCheck(_Check):
    name = "termination"

    def __init__(self, game: BatchGame, seeds: np.ndarray) -> None:
        super().__init__(game, seeds)
        self.limit = _metadata(game).max_decisions
        self.decisions = np.zeros(len(seeds), dtype=np.int64)

    def after(self, st: State, live_before: np.ndarray, step: int) -> None:
        self.decisions += live_before
        over = np.flatnonzero(self.decisions > self.limit)
        if over.size:
            self.fail(f"{int(self.decisions[over[0]])} decisions and not over; metadata.max_decisions is "
                      f"{self.limit}", int(over[0]), step)

    def end(self, st: State, step: int) -> None:
        live = np.flatnonzero(~st.done)
        if live.size:
            self.fail(f"still not over after {int(self.decisions[live[0]])} decisions; metadata.max_decisions "
                      f"is {self.limit}", int(live[0]), step)


def check_termination(game: BatchGame, seeds: Iterable[int] = DEFAULT_SEEDS) -> None:
    """Every episode ends (terminated or truncated) within ``metadata.max_decisions`` decisions."""
    s = _seeds(seeds)
    _run(game, s, [_TerminationCheck(game, s)], _metadata(game).max_decisions + 1)


# ---- positions ----------------------------------------------------------------------------------
class _PositionCheck(_Check):
    """Round trips at every ``every``-th step; continuation races from ``starts`` points per game.

    The race starts are a uniform sample (reservoir sampling) of each game's round-trip points, so
    late phases (a series' later deals, the battle) are raced as often as the opening.
    """

    name = "position"

    def __init__(self, game: BatchGame, seeds: np.ndarray, every: int, starts: int, continuation: bool) -> None:
        super().__init__(game, seeds)
        self.every, self.starts, self.continuation = every, starts, continuation
        # per game: [(original game with the loaded game's random stream, loaded game, step)]
        self.slots: list[list[tuple[State, State, int]]] = [[] for _ in seeds]
        self.seen = np.zeros(len(seeds), dtype=np.int64)
        self.pickers = [np.random.default_rng(int(x)) for x in seeds]

    def before(self, st: State, mask: np.ndarray, step: int) -> None:
        if step % self.every:
            return
        for i in np.flatnonzero(~st.done):
            i = int(i)
            pos = self.game.to_position(st, i)
            loaded = self._round_trip(pos, i, step)
            if not self.continuation or self.starts < 1:
                continue
            self.seen[i] += 1
            slot = len(self.slots[i]) if len(self.slots[i]) < self.starts else \
                int(self.pickers[i].integers(self.seen[i]))
            if slot < self.starts:
                origin = st.take(i)
                origin.rng_key[:] = loaded.rng_key  # the same future chance for both
                origin.rng_counter[:] = loaded.rng_counter
                entry = (origin, loaded, step)
                if slot == len(self.slots[i]):
                    self.slots[i].append(entry)
                else:
                    self.slots[i][slot] = entry

    def _round_trip(self, pos: Any, i: int, step: int) -> State:
        try:
            text = json.dumps(pos, allow_nan=False)
        except (TypeError, ValueError) as e:
            self.fail(f"to_position is not JSON-safe: {e}", i, step)
        if json.loads(text) != pos:
            self.fail("to_position changes through JSON (tuples or non-string keys?)", i, step)
        try:
            loaded = self.game.from_position(pos, seed=(int(self.seeds[i]) + 1) % 2**63)
        except Exception as e:  # noqa: BLE001 - any refusal of its own output is the failure reported
            self.fail(f"from_position rejects what to_position wrote: {type(e).__name__}: {e}", i, step)
        again = self.game.to_position(loaded, 0)
        if again != pos:
            keys = sorted(k for k in set(pos) | set(again) if pos.get(k) != again.get(k)) \
                if isinstance(pos, dict) and isinstance(again, dict) else []
            self.fail(f"to_position(from_position(p)) != p (fields {keys})", i, step)
        return loaded

    def end(self, st: State, step: int) -> None:
        entries = [(i, e) for i, slots in enumerate(self.slots) for e in slots]
        if not entries:
            return
        self.where = [(i, e[2]) for i, e in entries]  # (row, step) of each race
        a, b = State.concat([e[0] for _, e in entries]), State.concat([e[1] for _, e in entries])
        keys = np.array([(int(self.seeds[i]) + 7 * s) % 2**64 for i, s in self.where], dtype=np.uint64)
        cap = _metadata(self.game).max_decisions
        for t in range(cap + 1):
            ma, mb = self.game.legal_mask(a), self.game.legal_mask(b)
            self._same(a, b, ma, mb, t)
            if a.done.all():
                return
            acts = choose_actions(ma, keys, t)
            self.game.step(a, acts, mask=ma)
            self.game.step(b, acts, mask=mb)

    def _same(self, a: State, b: State, ma: np.ndarray, mb: np.ndarray, t: int) -> None:
        def report(problem: str, k: int) -> NoReturn:
            row, step = self.where[k]
            when = "at once" if t == 0 else f"{t} steps later"
            self.fail(f"the game loaded from its position at step {step} {problem} {when} "
                      "(the position loses something the game depends on)", row, step + t)

        for name, x, y in (("terminated", a.terminated, b.terminated), ("truncated", a.truncated, b.truncated),
                           ("to_play", a.to_play, b.to_play)):
            diff = np.flatnonzero(x != y)
            if diff.size:
                report(f"differs in {name}", int(diff[0]))
        if t:
            diff = np.flatnonzero(~_rows_equal(a.rewards, b.rewards))
            if diff.size:
                report("gets other rewards", int(diff[0]))
        diff = np.flatnonzero(~_rows_equal(ma, mb))
        if diff.size:
            report("has another legal mask", int(diff[0]))
        for p in range(self.game.num_players):
            diff = np.flatnonzero(~_rows_equal(self.game.observe(a, p), self.game.observe(b, p)))
            if diff.size:
                report(f"shows seat {p} another observation", int(diff[0]))
        if t % self.every == 0:  # positions are the slowest view; the arrays above are compared every step
            for k in range(a.batch_size):
                if not a.done[k] and self.game.to_position(a, k) != self.game.to_position(b, k):
                    report("has another position", k)


def check_position(game: BatchGame, seeds: Iterable[int] = DEFAULT_SEEDS, *, every: int = 5, starts: int = 3,
                   continuation: bool = True, max_steps: int | None = None) -> None:
    """Positions are JSON-safe and round-trip; a loaded game continues exactly as the original.

    Every ``every``-th step each live game is saved and reloaded; at its first ``starts`` such
    points the original and the loaded game (given the same future random stream) then play the
    same actions to the end and must agree on masks, observations, rewards and positions.
    ``continuation=False`` skips that race, for a game whose positions leave hidden chance (a deck
    order) to be redrawn on loading.
    """
    s = _seeds(seeds)
    _run(game, s, [_PositionCheck(game, s, every, starts, continuation)], max_steps)


# ---- batch independence -------------------------------------------------------------------------
def check_batch(game: BatchGame, seed: int = 0, *, batch_size: int = BATCH_SIZE, rows: Sequence[int] | None = None,
                max_steps: int | None = None) -> None:
    """Game i is identical alone and at row i of a batch of ``batch_size`` (seeds ``seed + i``).

    ``rows`` (default: 0, 1, the middle and the last row) are each played alone next to the batch;
    after every step their state arrays, masks and observations must match the batch's row.
    """
    seeds = np.arange(seed, seed + batch_size, dtype=np.uint64)
    rows = [0, 1, batch_size // 2, batch_size - 1] if rows is None else list(rows)
    rows = sorted({r % batch_size for r in rows})
    cap = _metadata(game).max_decisions if max_steps is None else max_steps
    batch = game.init(seeds)
    alone = [game.init(seeds[r:r + 1]) for r in rows]

    def fail(problem: str, r: int, step: int) -> NoReturn:
        raise ConformanceError("batch", f"{problem} alone and at row {r} of a batch of {batch_size}",
                               game_index=r, seed=int(seeds[r]), step=step)

    for step in range(cap + 1):
        mask = game.legal_mask(batch)
        obs = game.observe(batch, batch.to_play.astype(np.int64))
        arrays = batch.arrays()
        for r, st in zip(rows, alone):
            names = [k for k, v in st.arrays().items() if not np.array_equal(v[0], arrays[k][r])]
            if names:
                fail(f"the state differs ({', '.join(names)})", r, step)
            if not np.array_equal(game.legal_mask(st)[0], mask[r]):
                fail("the legal mask differs", r, step)
            if not np.array_equal(game.observe(st, st.to_play.astype(np.int64))[0], obs[r]):
                fail("the observation of the seat to play differs", r, step)
        if batch.done.all():
            return
        actions = choose_actions(mask, seeds, step)
        game.step(batch, actions, mask=mask)
        for r, st in zip(rows, alone):
            game.step(st, actions[r:r + 1])


# ---- the AEC face -------------------------------------------------------------------------------
def aec_game_seed(reset_seed: int) -> int:
    """The core seed of the game that ``BatchAECEnv.reset(seed=reset_seed)`` starts."""
    return int(np.random.default_rng(reset_seed).integers(0, 2**63 - 1))


def check_aec(game: BatchGame, seeds: Iterable[int] = (0, 1), *, make_env: EnvFactory | None = None,
              max_steps: int | None = None) -> None:
    """The raw AEC env reset with seed s equals the core game seeded by ``aec_game_seed(s)``.

    Both get the same actions; at every step the agent to act, every agent's observation, the
    action mask of the agent to act, the step's rewards and the terminations and truncations agree.
    """
    make_env = make_env or _default_env(game)
    cap = _metadata(game).max_decisions if max_steps is None else max_steps
    for row, seed in enumerate(_seeds(seeds)):
        env = make_env()
        env.reset(seed=int(seed))
        core_seed = np.array([aec_game_seed(int(seed))], dtype=np.uint64)
        st = game.init(core_seed)
        agents = list(env.possible_agents)

        def fail(problem: str, step: int) -> NoReturn:
            raise ConformanceError("aec", f"AEC env and core differ: {problem}", game_index=row, seed=int(seed),
                                   step=step)

        for step in range(cap + 1):
            mask = game.legal_mask(st)
            done = bool(st.done[0])
            if not done and env.agent_selection != agents[int(st.to_play[0])]:
                fail(f"agent to act {env.agent_selection!r}, core seat {int(st.to_play[0])}", step)
            for p, agent in enumerate(agents):
                ob = env.observe(agent)
                ob = ob["observation"] if isinstance(ob, dict) else ob
                if not np.array_equal(np.asarray(ob), game.observe(st, p)[0]):
                    fail(f"observation of {agent!r}", step)
                if step:
                    want = float(st.rewards[0, p])
                    if env.rewards.get(agent, 0.0) != want:
                        fail(f"reward of {agent!r}: AEC {env.rewards.get(agent)}, core {want}", step)
                if env.terminations.get(agent, False) != bool(st.terminated[0]) or \
                        env.truncations.get(agent, False) != bool(st.truncated[0]):
                    fail(f"termination/truncation of {agent!r}", step)
            if done:
                break
            aec_mask = env.observe(env.agent_selection)["action_mask"]
            if not np.array_equal(np.asarray(aec_mask).astype(bool), mask[0]):
                fail("action mask of the agent to act", step)
            action = choose_actions(mask, core_seed, step)
            env.step(int(action[0]))
            game.step(st, action)


# ---- everything ---------------------------------------------------------------------------------
def check_game(game: BatchGame, seeds: Iterable[int] = DEFAULT_SEEDS, *, make_env: EnvFactory | None = None,
               batch_size: int = BATCH_SIZE, batch_rows: Sequence[int] | None = None,
               batch_max_steps: int | None = None, aec_seeds: Iterable[int] = (0, 1), position_every: int = 5,
               position_starts: int = 3, continuation: bool = True, skip: Iterable[str] = ()) -> None:
    """Run every check of :data:`CHECKS` (except those in ``skip``) on ``game``.

    ``make_env`` builds the game's raw AEC environment (default: ``BatchAECEnv(game)``). The
    trajectory checks share one batch of games seeded by ``seeds``; the batch check plays
    ``batch_size`` games (``batch_max_steps`` bounds its length); the AEC check plays one game per
    ``aec_seeds`` entry. Raises :class:`ConformanceError` at the first broken promise.
    """
    skip = set(skip)
    unknown = skip - set(CHECKS)
    if unknown:
        raise ValueError(f"unknown checks {sorted(unknown)}; the checks are {list(CHECKS)}")
    meta = _metadata(game)
    make_env = make_env or _default_env(game)
    s = _seeds(seeds)
    shared: list[_Check] = []
    if "mask" not in skip:
        shared.append(_MaskCheck(game, s))
    if "observation" not in skip:
        shared.append(_ObservationCheck(game, s, make_env))
    if "rewards" not in skip:
        shared.append(_RewardCheck(game, s))
    if "termination" not in skip:
        shared.append(_TerminationCheck(game, s))
    if "position" not in skip:
        shared.append(_PositionCheck(game, s, position_every, position_starts, continuation))
    if "illegal_action" not in skip:
        shared.append(_IllegalActionCheck(game, s))  # last: it steps and restores the state
    if shared:
        _run(game, s, shared, meta.max_decisions + 1)
    if "batch" not in skip:
        check_batch(game, int(s[0]), batch_size=batch_size, rows=batch_rows, max_steps=batch_max_steps)
    if "aec" not in skip:
        check_aec(game, aec_seeds, make_env=make_env)
