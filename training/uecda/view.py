"""What one UECda client has seen of the current game, and our game state rebuilt from it.

A client sees its own hand, the state rows of every table (whose move it is, the field empty or not,
revolution, lock, hand counts, classes, seats) and the field table after each move. From those it keeps
the play on the field and who made it, who passed in this trick, every card played, and the order in which
players went out. :meth:`SeatView.position` turns that into a position of the ``rules="uecda"`` preset
seen from this client's seat: the cards it cannot see are dealt to the opponents in the counts the
server reports (the policy observes only its own seat, which shows opponents' hands as counts), so
any policy of ours can be asked for an action on the observation and legal mask of that position.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from yuugi.envs.ninja_daifugo import actions as A
from yuugi.envs.ninja_daifugo.cards import NUM_CARDS, RANK_CHARS, SUIT_CHARS, card_name
from yuugi.envs.ninja_daifugo.tables import ORDER_NORMAL, TRIBUTE_ORDER

from .table import CLASS_NAMES, NUM_PLAYERS, TableState, play_cards, play_table_to_action, table_to_hand

FIELD_KINDS = {A.K_SINGLE: "single", A.K_JSINGLE: "single", A.K_GROUP: "group", A.K_SEQ: "sequence"}
STALEMATE_PASSES = 20  # the rules' 20 passes in a row that end a game: a position holds at most 19
TITLE_OF_CLASS = CLASS_NAMES  # class 0..4 of row 6 -> the preset's title names


class SeatView:
    """The game so far, as player ``me`` saw it. Player numbers are the server's; seats are turn order."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.new_game()

    def new_game(self) -> None:
        self.hand: set[int] = set()
        self.state = TableState()
        self.field_table: np.ndarray | None = None
        self.field_action: int | None = None  # our action index of the play on the field
        self.field_unknown = False  # a play on the field that our action table cannot express
        self.field_owner: int | None = None  # player number
        self.lock_suits: list[int] = []
        self.passed: set[int] = set()  # players who passed in this trick (out of it until the field flows)
        self.responses = 0  # passes since the last play
        self.played: dict[int, set[int]] = {p: set() for p in range(NUM_PLAYERS)}
        self.cleared: set[int] = set()  # cards of earlier field plays (discarded)
        self.counts: list[int] = [0] * NUM_PLAYERS
        self.finish_order: list[int] = []
        # The exchange as this client saw it: the hand dealt, the cards it gave and got (a lower class knows
        # its tribute from its deal and sees the gifts in its first hand table; an upper class cannot tell
        # the tribute it got from its deal).
        self.deal_hand: set[int] = set()
        self.gave: set[int] = set()
        self.got: set[int] = set()
        self._first_hand = False

    # ---- what arrives -------------------------------------------------------------------------
    def see_deal(self, table: np.ndarray) -> TableState:
        """The deal table of a new game."""
        self.new_game()
        state = self.see_hand(table)
        self.deal_hand = set(self.hand)
        self._first_hand = True
        return state

    def see_gifts(self, cards: set[int]) -> None:
        """The cards this client gave in the exchange (as an upper class)."""
        self.gave = set(cards)

    def see_hand(self, table: np.ndarray) -> TableState:
        """A hand table (the deal, or the table before each move)."""
        self.hand = table_to_hand(table)
        self.state = TableState.read(table)
        self.counts = [max(0, int(c)) for c in self.state.hand_counts]
        if self._first_hand and not self.state.exchange:
            self._first_hand = False
            if not self.gave:  # a lower class: its tribute left the hand, the upper class's gifts came in
                self.gave = self._tribute()
                self.got = self.hand - (self.deal_hand - self.gave)
        if self.state.field_empty and self.field_table is not None:
            self._flow()
        return self.state

    def _tribute(self) -> set[int]:
        """The cards this client gave as a lower class (two from the 大貧民, one from the 貧民).

        The cards of the deal no longer in the hand went, but the hand alone cannot tell them all: the
        upper class may give back a card it has just received (the joker, say), which is then in both
        the deal and the hand. Those are the strongest of the deal still in the hand, since the server
        takes the strongest cards (the engine's order: the joker, then 2s, ♠ > ♥ > ♦ > ♣).
        """
        classes = list(self.state.classes)
        count = {3: 1, 4: 2}.get(classes[self.me], 0) if sorted(classes) == list(range(NUM_PLAYERS)) else 0
        left = self.deal_hand - self.hand
        came_back = [int(c) for c in TRIBUTE_ORDER[ORDER_NORMAL] if int(c) in self.deal_hand & self.hand]
        return left | set(came_back[:max(0, count - len(left))])

    def see_field(self, table: np.ndarray, mover: int) -> bool:
        """The field table after ``mover``'s move; True when it shows a new play (else the move was a pass)."""
        cards = table_to_hand_or_none(table)
        if not cards or (self.field_table is not None and np.array_equal(table[:5], self.field_table[:5])):
            # A pass (or a refused play): out of the trick until the field flows, which it does once every
            # player still in has passed; the passes in a row go on counting across the flow.
            self.passed.add(mover)
            self.responses += 1
            still_in = {p for p in range(NUM_PLAYERS) if self.counts[p] > 0}
            if (not cards and self.field_table is not None) or still_in <= self.passed:
                self._flow()
            return False
        if self.field_table is not None:
            self.cleared |= self._field_cards()
        self.field_table = np.array(table, copy=True)
        action = play_table_to_action(table)
        self.field_action = action if action not in (None, A.PASS) else None
        self.field_unknown = self.field_action is None
        self.field_owner = mover
        self.responses = 0
        self.lock_suits = [s for s in range(4) if np.any(table[s, :] != 0)] if self.field_action != A.JOKER_SINGLE \
            else []
        if 0 <= mover < NUM_PLAYERS:
            self.played[mover] |= cards
            self.counts[mover] = max(0, self.counts[mover] - len(cards))
            if self.counts[mover] == 0 and mover not in self.finish_order:
                self.finish_order.append(mover)
        return True

    def _field_cards(self) -> set[int]:
        if self.field_table is None:
            return set()
        return table_to_hand_or_none(self.field_table) or set()

    def _flow(self) -> None:
        self.cleared |= self._field_cards()
        self.field_table, self.field_action, self.field_unknown, self.field_owner = None, None, False, None
        self.passed, self.lock_suits = set(), []

    # ---- what the policy is shown -------------------------------------------------------------
    def seats(self) -> list[int]:
        """The player number at each seat (identity when the server's row is not a permutation)."""
        seats = list(self.state.seats)
        return seats if sorted(seats) == list(range(NUM_PLAYERS)) else list(range(NUM_PLAYERS))

    def place_of(self, player: int) -> int | None:
        """1..5 once ``player``'s place in this game is known from the order of going out."""
        if player in self.finish_order:
            return self.finish_order.index(player) + 1
        left = [p for p in range(NUM_PLAYERS) if p not in self.finish_order]
        if len(left) == 1 and left[0] == player:
            return NUM_PLAYERS
        return None

    def position(self, exchange_gives: int = 0) -> dict[str, Any]:
        """A position of the ``rules="uecda"`` preset seen from this client (see the module doc).

        The engine's players are the server's player numbers and ``seating`` is row 6's seat order.
        ``exchange_gives`` (2 or 1): the exchange, this client to pick the cards it gives.
        """
        players = range(NUM_PLAYERS)
        field_cards = self._field_cards() if self.field_action is not None else set()
        discard = (self.cleared | set().union(*self.played.values())) - field_cards - self.hand
        unknown = sorted(set(range(NUM_CARDS)) - self.hand - field_cards - discard)
        hands: list[list[int]] = [[] for _ in players]
        hands[self.me] = sorted(self.hand)
        for p in players:
            if p != self.me:
                hands[p], unknown = unknown[:self.counts[p]], unknown[self.counts[p]:]
        discard |= set(unknown)  # more unseen cards than the counts say (a view that missed a move)
        finish: list[int | None] = [None] * NUM_PLAYERS
        for place, p in enumerate(self.finish_order):
            finish[p] = place + 1
        for p in players:  # a player with no cards left has gone out (in the order best known)
            if not hands[p] and finish[p] is None and p != self.me:
                finish[p] = max([f for f in finish if f] + [0]) + 1
        pos: dict[str, Any] = {
            "game": "ninja_daifugo",
            "hands": [[card_name(c) for c in h] for h in hands],
            "to_play": self.me,
            "seating": self.seats(),
            "discard": [card_name(c) for c in sorted(discard)],
            "played": [[card_name(c) for c in sorted(self.played[p])] for p in players],
            "finish_positions": finish,
            "revolution": bool(self.state.revolution),
        }
        classes = list(self.state.classes)
        if sorted(classes) == list(players):
            pos["titles"] = [TITLE_OF_CLASS[classes[p]] for p in players]
        if exchange_gives:
            mine = "daifugo" if exchange_gives == 2 else "fugo"
            titles = pos.get("titles")
            if titles is None or titles[self.me] != mine:  # the classes row disagrees: this player gives
                rest = [t for t in TITLE_OF_CLASS if t != mine]
                titles = [mine if p == self.me else rest.pop(0) for p in players]
            pos.update(phase="exchange", titles=titles, picks_left=exchange_gives)
        if self.field_action is not None and not self.state.field_empty:
            a = self.field_action
            field: dict[str, Any] = {"cards": [card_name(c) for c in sorted(play_cards(a))],
                                     "owner": self.field_owner if self.field_owner is not None else self.me,
                                     "kind": FIELD_KINDS[int(A.KIND[a])]}
            if A.KIND[a] == A.K_SEQ and A.HAS_JOKER[a]:
                rank = int(A.LO[a]) + int(A.JOKER_POS[a])
                field["joker_as"] = SUIT_CHARS[int(A.SEQ_SUIT[a])] + RANK_CHARS[rank]
            pos["field"] = field
            if self.state.lock and self.lock_suits:
                pos["lock"] = [SUIT_CHARS[s] for s in self.lock_suits]
        else:
            pos["field"] = None
        pos["passed"] = [p in self.passed for p in players]
        pos["responses"] = min(self.responses, STALEMATE_PASSES - 1)  # a server without the 20-pass rule
        pos.update(self._exchange_keys())
        return pos

    def _exchange_keys(self) -> dict[str, Any]:
        """given / received / known: what this client gave and got, and its gifts still in the taker's hand."""
        if not self.gave and not self.got:
            return {}
        empty: list[list[str]] = [[] for _ in range(NUM_PLAYERS)]
        given, received = [list(x) for x in empty], [list(x) for x in empty]
        given[self.me] = [card_name(c) for c in sorted(self.gave)]
        received[self.me] = [card_name(c) for c in sorted(self.got)]
        keys: dict[str, Any] = {"given": given, "received": received}
        classes = list(self.state.classes)
        taker_class = {0: 4, 1: 3, 3: 1, 4: 0}.get(classes[self.me]) if sorted(classes) == list(range(NUM_PLAYERS)) \
            else None
        if taker_class is not None and self.gave:
            taker = classes.index(taker_class)
            known = [[[] for _ in range(NUM_PLAYERS)] for _ in range(NUM_PLAYERS)]
            # (a card the taker gave back is no longer known to be there)
            known[self.me][taker] = [card_name(c) for c in sorted(self.gave - self.got - self.played[taker])]
            keys["known"] = known
        return keys


def table_to_hand_or_none(table: np.ndarray | None) -> set[int] | None:
    """The cards in a field table (rows 0-4, the joker wherever it stands), None when it holds junk."""
    if table is None:
        return None
    cells = np.asarray(table)[:5]
    cards = {4 * (col - 1) + s for s in range(4) for col in range(1, 14) if cells[s, col] == 1}
    if np.any(cells == 2):
        cards.add(52)
    if np.any((cells != 0) & (cells != 1) & (cells != 2)):
        return None
    return cards


__all__ = ["SeatView", "table_to_hand", "table_to_hand_or_none"]
