"""``yuugi uecda client``: one of our CPUs (or a user's policy) plays at a UECda protocol-20070 server.

The message sequence (every integer 32-bit big-endian, every table 8 x 15 of them):

1. send the profile table (protocol 20070, the name); read our player number;
2. each game: read the deal table; when ``[5][1]`` is 1 or 2 (we are 富豪 or 大富豪), send the cards we give;
3. each move: read our hand table; when ``[5][2]`` is 1 it is our move: send the play (all zero = pass) and
   read 9 (accepted) or 8 (rejected, counted as a pass); then read the field table and the end flag
   (0 the game goes on, 1 the game is over and the next deal follows, 2 all games are over).

To decide, the client rebuilds the game as our engine knows it from what it has seen
(:class:`~.view.SeatView`) and asks the policy for an action on that position's observation and
legal mask. A play the server rejects is counted and reported; it does not stop the client.
"""
from __future__ import annotations

import dataclasses
import statistics
from typing import Any, Callable

import numpy as np

from yuugi.envs.ninja_daifugo import actions as A
from yuugi.envs.ninja_daifugo.cards import JOKER

from .connection import Connection, PeerClosed, ProtocolError
from .policies import baseline
from .table import CLASS_NAMES, NUM_PLAYERS, TableError, action_to_play_table, cards_to_table, profile_table, table_suits
from .view import SeatView

ACCEPTED, REJECTED = 9, 8
GO_ON, GAME_OVER, ALL_OVER = 0, 1, 2
MAX_EXCHANGE = 100  # [5][1] values of 100 and above are not exchange counts (the protocol's convention)


@dataclasses.dataclass
class ClientSummary:
    name: str
    player: int = -1
    places: list[int | None] = dataclasses.field(default_factory=list)  # 1..5 per game, None when unknown
    rejected: list[str] = dataclasses.field(default_factory=list)  # our plays the server refused
    fallbacks: int = 0  # moves decided without the policy (a view our engine could not load)
    note: str | None = None  # how the run ended, when not by the server's all-over flag

    @property
    def games(self) -> int:
        return len(self.places)

    def points(self) -> list[int]:
        return [NUM_PLAYERS + 1 - p for p in self.places if p is not None]

    def text(self) -> str:
        pts = self.points()
        mean = f"{statistics.fmean(pts):.3f}" if pts else "n/a"
        classes = {name: sum(1 for p in self.places if p == k + 1) for k, name in enumerate(CLASS_NAMES)}
        lines = [f"{self.name} (player {self.player}): {self.games} game(s), {mean} points per game",
                 "  classes: " + ", ".join(f"{k} {v}" for k, v in classes.items())
                 + (f", unknown {self.places.count(None)}" if None in self.places else "")]
        if self.rejected:
            lines.append(f"  the server rejected {len(self.rejected)} play(s) of ours (counted as passes): "
                         + ", ".join(self.rejected[:5]) + (" ..." if len(self.rejected) > 5 else ""))
        if self.fallbacks:
            lines.append(f"  {self.fallbacks} move(s) decided without the policy (the game seen could not be rebuilt, "
                         f"or the policy chose an illegal move)")
        if self.note:
            lines.append(f"  {self.note}")
        return "\n".join(lines)


class UecdaClient:
    """Plays every game the server deals; ``run()`` returns the :class:`ClientSummary`."""

    def __init__(self, conn: Connection, policy: Any, name: str = "yuugi", seed: int = 0,
                 log: Callable[[str], None] | None = None) -> None:
        from yuugi.envs import make_game

        self.conn = conn
        self.policy = policy
        self.name = name
        self.rng = np.random.default_rng(seed)
        self.log = log or (lambda line: None)
        self.game = make_game("ninja_daifugo", rules="uecda")
        self.summary = ClientSummary(name=name)

    # ---- the protocol ---------------------------------------------------------------------------
    def run(self) -> ClientSummary:
        conn = self.conn
        conn.send_table(profile_table(self.name), "profile")
        me = conn.read_int("player number", tuple(range(NUM_PLAYERS)))
        self.summary.player = me
        view = SeatView(me)
        flag = GO_ON
        while flag != ALL_OVER:
            try:
                deal = self._read_table("deal table")
            except PeerClosed as e:
                if self.summary.games == 0:
                    raise
                # Between games a closed connection ends the run (a server that stops without the
                # all-over flag); the games played are summed up as usual.
                self.summary.note = f"{e} after game {self.summary.games}, without the all-over flag"
                return self.summary
            state = view.see_deal(deal)
            classes = list(state.classes)
            if self.summary.places and self.summary.places[-1] is None and sorted(classes) == list(range(NUM_PLAYERS)):
                self.summary.places[-1] = classes[me] + 1  # a place the game did not show (a stalemate's draw)
            if 0 < state.give < MAX_EXCHANGE:
                gifts = self._gifts(view, state.give)
                view.see_gifts(set(gifts))
                conn.send_table(cards_to_table(gifts), "exchange cards")
            flag = self._play_game(view)
            self.summary.places.append(view.place_of(me))
        return self.summary

    def _read_table(self, what: str) -> np.ndarray:
        table = self.conn.read_table(what)
        if np.any(table[:5] < 0) or np.any(table[:5] > 2):
            raise ProtocolError(f"{self.conn.peer} sent a malformed {what}: card cells hold values other "
                                f"than 0, 1, 2 ({sorted(set(int(v) for v in table[:5].ravel()))[:6]})")
        return table

    def _play_game(self, view: SeatView) -> int:
        conn = self.conn
        while True:
            try:
                state = view.see_hand(self._read_table("hand table"))
            except TableError as e:
                raise ProtocolError(f"{conn.peer} sent a malformed hand table: {e}") from None
            mover = state.current
            if state.my_turn:
                action = self._decide(view)
                conn.send_table(action_to_play_table(action, field_suits=self._field_suits(view)), "play")
                reply = conn.read_int("accept/reject reply", (ACCEPTED, REJECTED))
                if reply == REJECTED and action != A.PASS:
                    self.summary.rejected.append(A.action_label(action))
                    self.log(f"the server rejected {A.action_label(action)} (counted as a pass)")
            view.see_field(self._read_table("field table"), mover)
            flag = conn.read_int("end flag", (GO_ON, GAME_OVER, ALL_OVER))
            if flag != GO_ON:
                return flag

    # ---- decisions ------------------------------------------------------------------------------
    @staticmethod
    def _field_suits(view: SeatView) -> int:
        """The suits of the play on the field (a group's joker is sent where it matches them, see table.py)."""
        if view.field_table is None or view.state.field_empty:
            return 0
        return table_suits(view.field_table)

    def _ask_policy(self, position: dict[str, Any]) -> tuple[Any, Any]:
        st = self.game.from_position(position, seed=int(self.rng.integers(2**31)))
        return st, self.game.legal_mask(st)

    def _decide(self, view: SeatView) -> int:
        """Our play for this move: the policy's choice on the rebuilt position."""
        if view.field_unknown:
            return A.PASS  # a UECda play our table cannot express is on the field: nothing of ours can be compared
        try:
            st, mask = self._ask_policy(view.position())
        except ValueError as e:  # PositionError: the view does not make a position (a server we misread)
            self.summary.fallbacks += 1
            self.log(f"could not rebuild the game ({e}); playing the lowest single or passing")
            return self._fallback(view)
        observation = self.game.observe(st, view.me)
        action = int(self._act(st, view.me, observation, mask))
        if not (0 <= action < A.NUM_PLAY_ACTIONS and mask[0, action]):
            self.summary.fallbacks += 1
            self.log(f"the policy chose action {action}, which is not legal here; uecda_default plays instead")
            action = int(baseline().act(observation, mask, self.rng)[0])
        return action

    def _act(self, st: Any, seat: int, observation: np.ndarray, mask: np.ndarray) -> int:
        """The policy's action: from the observation, or by search from the rebuilt game (``expert``; the cards
        it cannot see were dealt at random, and the search resamples them anyway)."""
        from yuugi.agents.search.dispatch import act

        return int(act(self.policy, self.game, st, np.array([seat]), observation, mask, self.rng)[0])

    def _fallback(self, view: SeatView) -> int:
        if not view.state.field_empty:
            return A.PASS
        naturals = sorted(c for c in view.hand if c != JOKER)
        return A.SINGLE0 + (naturals[0] if naturals else JOKER)

    def _gifts(self, view: SeatView, count: int) -> list[int]:
        """The ``count`` cards we give in the exchange: the policy's picks, one at a time."""
        try:
            st, mask = self._ask_policy(view.position(exchange_gives=count))
            seat = view.me
            gifts = []
            for _ in range(count):
                a = int(self._act(st, seat, self.game.observe(st, seat), mask))
                if not (A.PICK0 <= a < A.NUM_ACTIONS and mask[0, a]):
                    raise ValueError(f"the policy chose {a}, not a card to give")
                gifts.append(a - A.PICK0)
                self.game.step(st, np.array([a]))
                mask = self.game.legal_mask(st)
            return gifts
        except ValueError as e:
            self.summary.fallbacks += 1
            self.log(f"exchange without the policy ({e}): giving the lowest cards")
            return sorted(view.hand, key=lambda c: (c == JOKER, c))[:count]


def run_client(host: str, port: int, policy: Any, name: str = "yuugi", timeout: float = 30.0, seed: int = 0,
               log: Callable[[str], None] | None = None) -> ClientSummary:
    """Connect, play until the server says all games are over, and return the summary. A
    :class:`ProtocolError` carries the summary of the games played before it (``error.summary``)."""
    with Connection.connect(host, port, timeout=timeout) as conn:
        client = UecdaClient(conn, policy, name=name, seed=seed, log=log)
        try:
            return client.run()
        except ProtocolError as e:
            e.summary = client.summary  # type: ignore[attr-defined]
            raise


__all__ = ["ClientSummary", "UecdaClient", "run_client"]
