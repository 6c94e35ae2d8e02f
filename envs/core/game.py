"""The batched game interface that every game implements, and the State convention.

A game's state is a dataclass of numpy arrays, each with leading axis B (the batch). The common
members live in :class:`State`; a game subclasses it with its own arrays. Rules are functions of
the whole batch: ``legal_mask``, ``step`` and ``observe`` act on every game at once, or on the
subset selected by an ``active`` mask, and never loop over games.
"""
from __future__ import annotations

import collections
import dataclasses
import functools
from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Generic, Mapping, Self, Sequence, TypeVar

import gymnasium
import numpy as np

from yuugi.envs.core.errors import ActionTypeError, CallError, IllegalActionError, OptionError

S = TypeVar("S", bound="State")
_INT64 = np.dtype(np.int64)  # builtin dtypes are singletons, so ``is`` compares them


@dataclasses.dataclass
class State:
    """Members every game's state carries (all with leading batch axis B).

    ``rewards[i, p]`` is what seat p earned on the last step of game i (zero otherwise);
    ``rng_key``/``rng_counter`` are game i's random stream (see :mod:`yuugi.envs.core.rng`).
    """

    to_play: np.ndarray  # int8[B]: seat to act
    terminated: np.ndarray  # bool[B]
    truncated: np.ndarray  # bool[B]
    rewards: np.ndarray  # float32[B, P]
    rng_key: np.ndarray  # uint64[B]
    rng_counter: np.ndarray  # uint64[B]

    @property
    def batch_size(self) -> int:
        return int(self.to_play.shape[0])

    @property
    def done(self) -> np.ndarray:
        """bool[B]: the game is over (terminated or truncated)."""
        return self.terminated | self.truncated

    def arrays(self) -> dict[str, np.ndarray]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def copy(self) -> Self:
        return type(self)(**{k: v.copy() for k, v in self.arrays().items()})

    def take(self, index: Any) -> Self:
        """A new state holding the games selected by ``index`` (slice, mask or indices)."""
        if isinstance(index, (int, np.integer)):
            index = [int(index)]
        return type(self)(**{k: v[index].copy() for k, v in self.arrays().items()})

    def put(self, index: Any, other: Self) -> None:
        """Overwrite the games selected by ``index`` with the games of ``other`` (in place)."""
        for k, v in self.arrays().items():
            v[index] = getattr(other, k)

    @staticmethod
    def concat(states: list[S]) -> S:
        """One batch holding the games of ``states`` in order (all of one game's State type)."""
        names = [f.name for f in dataclasses.fields(states[0])]
        return type(states[0])(**{k: np.concatenate([getattr(s, k) for s in states]) for k in names})

    def view(self) -> tuple:
        """The arrays as the namedtuple compiled rules receive (``st.hand[i, p]`` inside a kernel).

        Its type is made once per State subclass by :func:`arrays_type`, at the bottom of the game's
        ``state.py``; the arrays are the state's own, so a kernel writes the state in place.
        """
        view = self.__dict__.get("_view")
        if view is None:  # built once per state: a face stepping one game calls kernels thousands of times
            nt = type(self).__dict__["_arrays_type"]
            view = nt(*[getattr(self, name) for name in nt._fields])
            object.__setattr__(self, "_view", view)
        return view

    def __setattr__(self, name: str, value: Any) -> None:
        # an array replaced (not written in place) makes the cached view stale
        self.__dict__.pop("_view", None)
        object.__setattr__(self, name, value)

    def equals(self, other: "State") -> bool:
        """True when every array matches exactly (used for determinism checks)."""
        if type(self) is not type(other):
            return False
        mine, theirs = self.arrays(), other.arrays()
        return all(np.array_equal(v, theirs[k]) for k, v in mine.items())


def arrays_type(state_cls: type[S]) -> type:
    """The namedtuple type of ``state_cls``'s arrays (its dataclass fields, in order), for compiled rules.

    A game's ``state.py`` binds it to a module-level name, ``XArrays = arrays_type(XState)``: numba keys
    its on-disk cache by the argument types, and a namedtuple type is found again by module and name.
    It is a subclass of the plain namedtuple with an instance ``__dict__``, where a batch kernel notes the
    view's argument key once (see ``envs/core/jit.py``): the view is passed on every kernel call.
    """
    names = [f.name for f in dataclasses.fields(state_cls)]
    name = state_cls.__name__.removesuffix("State") + "Arrays"
    fields = collections.namedtuple(name + "Fields", names)  # type: ignore[misc]
    nt = type(name, (fields,), {"__module__": state_cls.__module__, "__doc__": f"The arrays of a {state_cls.__name__}."})
    fields.__module__ = state_cls.__module__
    state_cls._arrays_type = nt  # type: ignore[attr-defined]
    return nt


# Per-episode setup: one mapping for every game of a batch, or one mapping per game (see BatchGame.init).
Setup = Mapping[str, Any] | Sequence[Mapping[str, Any]] | None


class BatchGame(ABC, Generic[S]):
    """One game's rules over a batch of B independent games, generic over its State type ``S``.

    Subclasses set ``name``, ``num_players``, ``num_actions`` and ``observation_shape`` (they may
    depend on the rule options given to the constructor) and implement the abstract methods.
    ``observation_space`` defaults to ``Box(0, 1, observation_shape, float32)``; a game whose
    observations have other bounds or types (card ids as integers, a ``Dict``) overrides it.

    Per-episode setup (what varies between episodes of one rule set, e.g. a deck per seat; the
    player count stays a constructor option): ``init(seeds, setup)`` takes one mapping for the whole
    batch or a list with one mapping per game. The keys a game understands are ``setup_keys``; its
    ``validate_setup`` checks one mapping and raises :class:`OptionError` naming the bad key.
    ``step`` mutates the state in place and returns it; it checks legality first, so an illegal
    action raises :class:`IllegalActionError` before anything changes.

    Every subclass's ``init``, ``observe`` and ``from_position`` are wrapped (``__init_subclass__``)
    so that their arguments are checked here, once for every game, before the game's code runs:
    seeds are a non-empty 1-D sequence of integers 0..2**64-1, a seat is an integer 0..P-1 (one for
    all games or one per game). A bad argument raises :class:`CallError` naming it and its range.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, checked in (("init", _checked_init), ("observe", _checked_observe),
                              ("from_position", _checked_from_position)):
            impl = cls.__dict__.get(name)
            if impl is not None and not getattr(impl, "_arguments_checked", False):
                setattr(cls, name, checked(impl))

    name: ClassVar[str]
    num_players: int
    num_actions: int
    observation_shape: tuple[int, ...]

    setup_keys: ClassVar[tuple[str, ...]] = ()

    @property
    def agent_names(self) -> tuple[str, ...]:
        return tuple(f"player_{p}" for p in range(self.num_players))

    @property
    def observation_space(self) -> gymnasium.spaces.Space:
        """One seat's observation (without the batch axis); every face of the game declares this."""
        return gymnasium.spaces.Box(0.0, 1.0, tuple(self.observation_shape), np.float32)

    def validate_setup(self, setup: Mapping[str, Any]) -> None:
        """Raise :class:`OptionError` naming the first key of ``setup`` this game does not understand
        (games with setup keys extend this to check the values too)."""
        if not isinstance(setup, Mapping):
            raise OptionError(f"setup must be a mapping of {self._setup_choices()}, got {setup!r}")
        for key in setup:
            if key not in self.setup_keys:
                raise OptionError(f"{self.name} has no per-episode setup {key!r}; {self._setup_choices()}")

    def _setup_choices(self) -> str:
        return f"its setup keys: {', '.join(self.setup_keys)}" if self.setup_keys else "it takes no setup"

    # ---- the rules -----------------------------------------------------------------------
    @abstractmethod
    def init(self, seeds: np.ndarray | list[int], setup: Setup = None) -> S:
        """B new games; game i is seeded by ``seeds[i]`` and set up by ``setup`` (one mapping for
        all games, or ``setup[i]``). The checks and the per-game split happen before the game's
        code runs, which gets one validated, non-empty mapping (or no setup argument at all)."""

    @abstractmethod
    def legal_mask(self, state: S) -> np.ndarray:
        """bool[B, A]: legal actions of the seat to play (all False where the game is over)."""

    @abstractmethod
    def _apply(self, state: S, actions: np.ndarray, active: np.ndarray) -> None:
        """Apply legal ``actions`` to the games where ``active`` (already validated)."""

    @abstractmethod
    def observe(self, state: S, seat: int | np.ndarray) -> np.ndarray:
        """[B, *observation_space.shape]: what ``seat`` (one per game, or one for all) may know."""

    def step(
        self, state: S, actions: np.ndarray, active: np.ndarray | None = None, *, check: bool = True,
        mask: np.ndarray | None = None,
    ) -> S:
        """Apply ``actions[i]`` to every game i where ``active[i]`` (default: every live game).

        Rewards of the previous step are cleared in the stepped games. With ``check`` (the
        default) every action is validated against the legal mask first — ``mask`` if the caller
        already computed it for this state, else ``legal_mask(state)``; callers that drew their
        actions from the mask themselves may pass ``check=False``.

        Whatever ``check``, ``actions`` must be integers (:class:`ActionTypeError` otherwise), one
        per game, and ``active`` a bool mask with one entry per game (:class:`CallError`).
        """
        actions = self.action_array(actions)
        if actions.shape[0] != state.batch_size:
            raise CallError(f"expected {state.batch_size} actions (one per game), got {actions.shape[0]}")
        if active is None:
            active = ~state.done
        else:
            active = _checked_active(active, state.batch_size) & ~state.done
        if check:
            self.validate(state, actions, active, mask)
        state.rewards[active] = 0.0
        if active.any():
            self._apply(state, actions, active)
        return state

    #: Threads the compiled batch kernels may use (1: one thread, the default; see envs/core/jit.py).
    threads: int = 1

    def step_fused(self, state: S, actions: np.ndarray, mask_out: np.ndarray, obs_out: np.ndarray, *,
                   reset_seeds: np.ndarray | None = None, rewards_out: np.ndarray | None = None) -> np.ndarray:
        """One call per batch step for the fast faces and the bench; returns bool[B], the games that ended.

        Applies ``actions[i]`` to every live game i without a legality check (the caller drew them from
        the mask), copies the step's rewards into ``rewards_out`` (before any game is replaced), starts a
        new game seeded by ``reset_seeds[i]`` in every row that ended (when ``reset_seeds`` is given), then
        writes the next legal mask into ``mask_out`` and the observation of each game's seat to play into
        ``obs_out``: buffers the caller owns and reuses. Compiled games override this with one kernel call.
        """
        active = ~state.done
        state.rewards[active] = 0.0
        if active.any():
            self._apply(state, actions, active)
        if rewards_out is not None:
            rewards_out[:] = state.rewards
        finished = active & state.done
        if reset_seeds is not None and finished.any():
            state.put(finished, self.init(np.asarray(reset_seeds)[finished]))
        mask_out[:] = self.legal_mask(state)
        obs_out[:] = self.observe(state, state.to_play)
        return finished

    def action_array(self, actions: Any) -> np.ndarray:
        """``actions`` as a flat int64 array; :class:`ActionTypeError` unless they are integers.

        Python ints and numpy integer scalars/arrays pass; bools, floats and strings do not (``int()``
        would turn 3.7 into 3, "3" into 3 and True into 1). The dtype is checked once per call.
        """
        if type(actions) is np.ndarray and actions.dtype is _INT64 and actions.ndim == 1:
            return actions  # the faces' and trainers' call: nothing to check or convert
        if isinstance(actions, (list, tuple)) and any(isinstance(a, (bool, np.bool_)) for a in actions):
            raise ActionTypeError(next(a for a in actions if isinstance(a, (bool, np.bool_))), self.num_actions)
        array = np.asarray(actions)
        if array.dtype.kind not in "iu":
            if array.size == 0 and array.dtype.kind == "f":  # np.asarray([]) is float64: no actions at all
                return array.astype(np.int64).reshape(-1)
            raise ActionTypeError(actions if array.ndim == 0 else array, self.num_actions)
        return array.astype(np.int64, copy=False).reshape(-1)

    def validate(self, state: S, actions: np.ndarray, active: np.ndarray, mask: np.ndarray | None = None) -> None:
        """Raise :class:`IllegalActionError` for the first active game whose action is illegal.

        ``mask`` may pass the legal mask of ``state`` when the caller already has it.
        """
        idx = np.flatnonzero(active)
        if idx.size == 0:
            return
        acts = actions[idx]
        in_range = (acts >= 0) & (acts < self.num_actions)
        if not in_range.all():
            bad = int(np.flatnonzero(~in_range)[0])
            raise IllegalActionError(int(idx[bad]), int(acts[bad]), "out of range",
                                     f"actions are 0..{self.num_actions - 1}")
        if mask is None:
            mask = self.legal_mask(state)
        ok = mask[idx, acts]
        if not ok.all():
            bad = int(np.flatnonzero(~ok)[0])
            raise IllegalActionError(int(idx[bad]), int(acts[bad]), self.action_label(int(acts[bad])))

    # ---- for people and positions --------------------------------------------------------
    @abstractmethod
    def action_label(self, action: int) -> str:
        """A short readable name of an action index."""

    def describe_action(self, action: int) -> dict[str, Any]:
        """A structured description of an action index (games override with more detail)."""
        return {"index": int(action), "label": self.action_label(action)}

    @abstractmethod
    def render_text(self, state: S, index: int = 0, seat: int | None = None) -> str:
        """A readable picture of game ``index``; with ``seat``, only what that seat may see."""

    @abstractmethod
    def to_position(self, state: S, index: int = 0) -> dict[str, Any]:
        """Game ``index`` as a JSON-safe dict."""

    @abstractmethod
    def from_position(self, position: Mapping[str, Any], seed: int = 0) -> S:
        """A batch of one game set up from ``position`` (future chance drawn from ``seed``)."""

    def state_from_positions(self, positions: list[Mapping[str, Any]], seeds: list[int] | None = None) -> S:
        """A batch built from several positions (game i seeded by ``seeds[i]``, default i)."""
        if not positions:
            raise CallError("a batch needs at least one game: state_from_positions() got no positions")
        seeds = seeds if seeds is not None else list(range(len(positions)))
        if len(seeds) != len(positions):
            raise CallError(f"state_from_positions() needs one seed per position: {len(positions)} positions, "
                            f"{len(seeds)} seeds")
        return State.concat([self.from_position(p, s) for p, s in zip(positions, seeds)])


# ---- the argument checks every game's init / observe / from_position get (see BatchGame) ----------
_SEED_LIMIT = 2**64


def _checked_seeds(seeds: Any) -> np.ndarray:
    array = np.asarray(seeds)
    if array.ndim != 1:
        raise CallError(f"seeds must be a 1-D sequence of integers 0..2**64-1 (one per game), got shape {array.shape}")
    if array.size == 0:
        raise CallError("a batch needs at least one game: init() got no seeds")
    if array.dtype.kind not in "iu" or (array.dtype.kind == "i" and array.min() < 0):
        raise CallError(f"seeds must be integers 0..2**64-1 (not bool, float or negative), got {array.reshape(-1)[:8].tolist()!r}")
    return array


def _checked_init(impl: Callable[..., State]) -> Callable[..., State]:
    @functools.wraps(impl)
    def init(self: BatchGame, seeds: Any, setup: Setup = None) -> State:
        seeds = _checked_seeds(seeds)
        if setup is None or (isinstance(setup, Mapping) and not setup):
            return impl(self, seeds)  # the common call: games without setup need not take the argument
        if isinstance(setup, Mapping):
            self.validate_setup(setup)
            return impl(self, seeds, setup)
        return _init_per_game(self, impl, seeds, setup)

    init._arguments_checked = True  # type: ignore[attr-defined]
    return init


def _init_per_game(game: BatchGame, impl: Callable[..., State], seeds: np.ndarray, setups: Any) -> State:
    """One setup per game: the games sharing a setup start together, then go back to their rows.

    Each game's stream comes from its own seed alone, so starting a game in a smaller batch
    changes nothing about it.
    """
    if isinstance(setups, (str, bytes)) or not isinstance(setups, Sequence) or len(setups) != len(seeds):
        raise CallError(f"setup must be one mapping for every game or a list of {len(seeds)} mappings "
                        f"(one per game), got {setups!r:.200}")
    groups: dict[str, list[int]] = {}
    for i, one in enumerate(setups):
        if one is not None:
            game.validate_setup(one)
        groups.setdefault(repr(sorted(one.items())) if one else "", []).append(i)
    parts, order = [], []
    for rows in groups.values():
        one = setups[rows[0]]
        parts.append(impl(game, seeds[rows], one) if one else impl(game, seeds[rows]))
        order.extend(rows)
    batch = State.concat(parts)
    return batch.take(np.argsort(np.asarray(order), kind="stable"))


def _check_seat(game: BatchGame, state: State, seat: Any) -> None:
    players = game.num_players
    if type(seat) is int:  # the AEC face's call: one seat, checked without numpy
        if not 0 <= seat < players:
            raise CallError(f"seat {seat} is out of range: seats are 0..{players - 1}")
        return
    array = np.asarray(seat)
    if array.dtype.kind not in "iu":
        raise CallError(f"seat must be an integer 0..{players - 1} (or an integer array, one per game), got {seat!r}")
    if array.ndim == 0:
        if not 0 <= int(array) < players:
            raise CallError(f"seat {int(array)} is out of range: seats are 0..{players - 1}")
        return
    if array.shape != (state.batch_size,):
        raise CallError(f"seat must be one integer or one per game (shape ({state.batch_size},)), got shape {array.shape}")
    if array.min() < 0 or array.max() >= players:
        game_index = int(np.flatnonzero((array < 0) | (array >= players))[0])
        raise CallError(f"seat {int(array[game_index])} (game {game_index}) is out of range: seats are 0..{players - 1}")


def _checked_observe(impl: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    @functools.wraps(impl)
    def observe(self: BatchGame, state: State, seat: Any) -> np.ndarray:
        if type(seat) is not int or not 0 <= seat < self.num_players:  # one int seat in range: nothing to do
            _check_seat(self, state, seat)
        return impl(self, state, seat)

    observe._arguments_checked = True  # type: ignore[attr-defined]
    return observe


def _checked_from_position(impl: Callable[..., State]) -> Callable[..., State]:
    @functools.wraps(impl)
    def from_position(self: BatchGame, position: Mapping[str, Any], seed: int = 0) -> State:
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < _SEED_LIMIT:
            raise CallError(f"seed must be an integer 0..2**64-1, got {seed!r}")
        return impl(self, position, int(seed))

    from_position._arguments_checked = True  # type: ignore[attr-defined]
    return from_position


def _checked_active(active: Any, batch_size: int) -> np.ndarray:
    array = np.asarray(active)
    if array.dtype != np.bool_ or array.shape != (batch_size,):
        raise CallError(f"active must be a bool mask with one entry per game (shape ({batch_size},)), "
                        f"got dtype {array.dtype} and shape {array.shape}")
    return array
