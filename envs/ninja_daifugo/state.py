"""The batched state of ninja daifugō (every array has leading axis B; players are 0..n-1).

The player count is a rule (:attr:`~.config.DaifugoConfig.num_players`: 4 in the ninja game, 5 in
the UECda game) and every per-player array has n columns. Players sit around the table in the order
of ``seating`` (the player at each seat, clockwise): the ninja game's players never move, so its
state has no seating array and its view (what the compiled rules receive) carries the fixed order
0..n-1; the UECda game's players change seats, so its state (:class:`SeatedDaifugoState`) keeps one.
"""
from __future__ import annotations

import collections
import dataclasses
from typing import Any

import numpy as np

from yuugi.envs.core.game import State

from .config import DaifugoConfig

NUM_SEATS = 4  # the ninja game's player count (the UECda game's is 5)
PHASE_PLAY, PHASE_EXCHANGE, PHASE_SHURIKEN = 0, 1, 2
PHASE_NAMES = ("play", "exchange", "shuriken")
# Titles earned in the previous game (0 = none yet) are the finishing places 1..n: 大富豪 and 富豪 on
# top; 貧民 and 大貧民 are the last two places (n - 1 and n), so their numbers depend on n.
TITLE_NONE, DAIFUGO, FUGO, HINMIN, DAIHINMIN = 0, 1, 2, 3, 4  # HINMIN, DAIHINMIN: the four-player numbers
TITLE_NAMES = (None, "daifugo", "fugo", "hinmin", "daihinmin")


def title_names(players: int) -> tuple[str | None, ...]:
    """The title of each place, index 0 = none: four players 大富豪 富豪 貧民 大貧民; five add 平民 in the middle."""
    middle = ("heimin",) * (players - 4)
    return (None, "daifugo", "fugo") + middle + ("hinmin", "daihinmin")


@dataclasses.dataclass
class DaifugoState(State):
    # Cards (uint64 bitmasks, bit c = card c).
    hands: np.ndarray  # uint64[B, 4]
    played: np.ndarray  # uint64[B, 4]: cards each seat played face up this game
    known: np.ndarray  # uint64[B, 4, 4]: [observer, holder] cards the observer knows the holder has
    given: np.ndarray  # uint64[B, 4]: cards the seat gave in tribute/exchange this game
    received: np.ndarray  # uint64[B, 4]: cards the seat received in tribute/exchange this game
    discard: np.ndarray  # uint64[B]: public discard (cleared tricks)
    removed: np.ndarray  # uint64[B]: 都落ち hands, face down
    # The field and the trick.
    field_action: np.ndarray  # int16[B]: action index of the play on the field, -1 when empty
    field_cards: np.ndarray  # uint64[B]
    field_class: np.ndarray  # int16[B]: see tables.field_class_of (0 = empty)
    field_owner: np.ndarray  # int8[B]: seat whose play is on the field, -1 when empty
    field_elo: np.ndarray  # int8[B]: effective low/high represented ranks (after 変化)
    field_ehi: np.ndarray  # int8[B]
    responses: np.ndarray  # int8[B]: passes/skips since the field play
    passed: np.ndarray  # bool[B, 4]: passed in this trick (matters with pass_lockout)
    lock: np.ndarray  # int8[B]: locked suit mask, 0 = no lock
    revolution: np.ndarray  # bool[B]
    eleven_back: np.ndarray  # bool[B]
    # Players, game and series.
    declaration: np.ndarray  # int8[B]: 0..9
    active: np.ndarray  # bool[B, 4]: still playing this game
    finish_pos: np.ndarray  # int8[B, 4]: 0 = not yet, else 1..4
    next_pos: np.ndarray  # int8[B]: position the next finisher takes
    last_pos: np.ndarray  # int8[B]: position the next 都落ち player takes
    titles: np.ndarray  # int8[B, 4]: titles from the previous game (TITLE_*)
    miyako: np.ndarray  # int8[B]: 都落ち candidate (previous 大富豪), -1 none
    game_index: np.ndarray  # int8[B]: 0-based game in the series
    series_score: np.ndarray  # float32[B, 4]
    phase: np.ndarray  # int8[B]: PHASE_*
    picks_left: np.ndarray  # int8[B]: cards still to pick in this exchange step
    picked: np.ndarray  # uint64[B]: cards picked so far in this exchange step
    skip_pending: np.ndarray  # int8[B, 4]
    game_steps: np.ndarray  # int32[B]: decisions in this game (truncation guard)
    # The ninja layer (all zero when it is off).
    points: np.ndarray  # int8[B, 4]: ninja points 0..6
    levels: np.ndarray  # int8[B, 4, 4]: [seat, jutsu] level 1..5, 0 = not equipped
    uses_left: np.ndarray  # int8[B, 4, 4]
    school: np.ndarray  # int8[B, 4]: 0 none, 1 雷, 2 変化, 3 妨害
    gokui: np.ndarray  # bool[B, 4]: 極意 (+1 starting point)
    jutsu_used: np.ndarray  # bool[B]: the player to act used a jutsu this turn
    henge_shift: np.ndarray  # int8[B]: 変化 boost (0, 1, 2) for this turn's play
    lock_ignored: np.ndarray  # bool[B]: Lv5 変化: this turn's play ignores the lock
    shuriken_target: np.ndarray  # int8[B]: seat receiving the 手裏剣 card, -1 when none pending


    def view(self) -> tuple:
        """The arrays as the namedtuple the compiled rules receive (:data:`DaifugoArrays`): the state's
        own arrays, then the seating (the fixed order 0..n-1 when the players never move)."""
        view = self.__dict__.get("_view")
        if view is None:  # built once per state, as State.view does
            arrays = [getattr(self, name) for name in _FIELDS]
            view = DaifugoArrays(*arrays, self._seating_for_view())
            object.__setattr__(self, "_view", view)
        return view

    def _seating_for_view(self) -> np.ndarray:
        b, n = self.hands.shape
        return np.tile(np.arange(n, dtype=np.int8), (b, 1))  # writable, like every array of the view


@dataclasses.dataclass
class SeatedDaifugoState(DaifugoState):
    """The state of a game whose players change seats (the UECda game)."""

    seating: np.ndarray  # int8[B, n]: the player at each seat, clockwise (UECda's table row 6, columns 10..14)

    def _seating_for_view(self) -> np.ndarray:
        return self.seating


def empty_state(batch: int, cfg: DaifugoConfig | None = None) -> DaifugoState:
    """``batch`` games with every array allocated and zeroed (no cards dealt).

    The per-player arrays have ``cfg.num_players`` columns (4 without ``cfg``); a game with seat
    changes gets a :class:`SeatedDaifugoState`, its players in seat order.
    """
    n = NUM_SEATS if cfg is None else cfg.num_players
    common = _empty_arrays(batch, n)
    if cfg is not None and cfg.uecda:
        seating = np.tile(np.arange(n, dtype=np.int8), (batch, 1))
        return SeatedDaifugoState(**common, seating=seating)
    return DaifugoState(**common)


def _empty_arrays(batch: int, n: int) -> dict[str, Any]:
    b = batch
    z = lambda shape, dt: np.zeros((b, *shape), dtype=dt)  # noqa: E731
    return dict(
        to_play=z((), np.int8), terminated=z((), bool), truncated=z((), bool),
        rewards=z((n,), np.float32), rng_key=z((), np.uint64), rng_counter=z((), np.uint64),
        hands=z((n,), np.uint64), played=z((n,), np.uint64),
        known=z((n, n), np.uint64), given=z((n,), np.uint64),
        received=z((n,), np.uint64), discard=z((), np.uint64), removed=z((), np.uint64),
        field_action=np.full(b, -1, np.int16), field_cards=z((), np.uint64), field_class=z((), np.int16),
        field_owner=np.full(b, -1, np.int8), field_elo=np.full(b, -1, np.int8), field_ehi=np.full(b, -1, np.int8),
        responses=z((), np.int8), passed=z((n,), bool), lock=z((), np.int8), revolution=z((), bool),
        eleven_back=z((), bool), declaration=z((), np.int8), active=np.ones((b, n), bool),
        finish_pos=z((n,), np.int8), next_pos=np.ones(b, np.int8), last_pos=np.full(b, n, np.int8),
        titles=z((n,), np.int8), miyako=np.full(b, -1, np.int8), game_index=z((), np.int8),
        series_score=z((n,), np.float32), phase=z((), np.int8), picks_left=z((), np.int8),
        picked=z((), np.uint64), skip_pending=z((n,), np.int8), game_steps=z((), np.int32),
        points=z((n,), np.int8), levels=z((n, 4), np.int8), uses_left=z((n, 4), np.int8),
        school=z((n,), np.int8), gokui=z((n,), bool), jutsu_used=z((), bool),
        henge_shift=z((), np.int8), lock_ignored=z((), bool), shuriken_target=np.full(b, -1, np.int8),
    )


# The namedtuple of a state's arrays that the compiled rules receive (``state.view()``): every array of
# DaifugoState, then ``seating``. Made as ``yuugi.envs.core.game.arrays_type`` makes one (a subclass of
# the plain namedtuple, with an instance ``__dict__`` where a batch kernel notes the view's argument
# key), with the one more field; numba finds the type again by its module and name (its disk cache).
_FIELDS = tuple(f.name for f in dataclasses.fields(DaifugoState))
_ArraysFields = collections.namedtuple("DaifugoArraysFields", _FIELDS + ("seating",))  # type: ignore[misc]
_ArraysFields.__module__ = __name__
DaifugoArrays = type("DaifugoArrays", (_ArraysFields,), {"__module__": __name__,
                                                         "__doc__": "The arrays of a DaifugoState, and the seating."})
