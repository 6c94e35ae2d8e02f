"""The UECda protocol 20070 table: 8 x 15 signed 32-bit integers, big-endian, row-major (480 bytes).

Every message of the protocol but the player number and the accept/reject/end flags is one table.

* Rows 0-3 are the suits spade, heart, diamond, club; columns 1-13 the ranks 3, 4, ..., K, A, 2.
  A cell holds 1 for a natural card and 2 for the joker. In a hand the joker is cell ``[4][1]``; in a
  play it stands at the suit and rank it replaces. Columns 0 and 14 exist only for a joker standing
  for an imaginary rank below 3 or above 2 at the end of a sequence, which our action table cannot
  express (:func:`play_to_action` gives None for it).
* Row 5 is the state (:class:`TableState`), row 6 the players (hand counts, classes, seats).
* The first message a client sends is the profile: ``[0][0] = 20070`` and its name in row 1, one
  character code per column.

Cards are ours (``envs/ninja_daifugo/cards.py``): ``c = 4 * rank + suit``, rank 0..12 = 3..2, suit
0..3 = spade, heart, diamond, club, joker 52. Plays are our action indices (``actions.py``).

Rulings this codec makes (the protocol leaves them open; docs/uecda.md lists them):

* a single joker is sent at ``[0][14]`` (the rank above 2); any lone 2 anywhere in rows 0-4 is read as it;
* our action table does not say which suit a group's joker takes; it is sent where the rules engine
  reads it (:func:`group_joker_suit`): the field's one missing suit when the group's naturals are the
  field play's suits but one (so the group matches the field, and locks or follows the lock), else
  the lowest suit the group lacks; the quintuple's joker (four of a rank and the joker) has no suit
  left and goes in row 4 at that rank;
* rows 5-7 of a submission are ignored (a client may echo the state rows back).
"""
from __future__ import annotations

import dataclasses
from typing import Iterable

import numpy as np

from yuugi.envs.ninja_daifugo import actions as A
from yuugi.envs.ninja_daifugo.cards import JOKER, NUM_CARDS

PROTOCOL_VERSION = 20070
ROWS, COLUMNS = 8, 15
TABLE_BYTES = ROWS * COLUMNS * 4
NUM_PLAYERS = 5
MAX_NAME = 15
WIRE_DTYPE = np.dtype(">i4")  # network byte order
NATURAL, JOKER_MARK = 1, 2
HAND_JOKER_CELL = (4, 1)
SINGLE_JOKER_CELL = (0, 14)
STATE_ROW, PLAYERS_ROW = 5, 6
# The classes of a game, best first: their index is the class number of row 6 (points = 5 - class).
CLASS_NAMES = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")


class TableError(ValueError):
    """A table that is not a message of protocol 20070 (wrong size, values, or cards)."""


# ---- bytes <-> arrays ------------------------------------------------------------------------------
def empty_table() -> np.ndarray:
    return np.zeros((ROWS, COLUMNS), dtype=np.int32)


def to_bytes(table: np.ndarray) -> bytes:
    """The 480 bytes of ``table`` (int[8, 15]) in network byte order."""
    t = np.asarray(table)
    if t.shape != (ROWS, COLUMNS):
        raise TableError(f"a table is {ROWS}x{COLUMNS} integers, got shape {t.shape}")
    if t.size and (t.min() < -2**31 or t.max() >= 2**31):
        raise TableError("table values must fit 32-bit signed integers")
    return t.astype(WIRE_DTYPE).tobytes()


def from_bytes(data: bytes) -> np.ndarray:
    """int32[8, 15] from exactly 480 bytes."""
    if len(data) != TABLE_BYTES:
        raise TableError(f"a table is {TABLE_BYTES} bytes, got {len(data)}")
    return np.frombuffer(data, dtype=WIRE_DTYPE).reshape(ROWS, COLUMNS).astype(np.int32)


# ---- cards <-> tables --------------------------------------------------------------------------
def _cell(card: int) -> tuple[int, int]:
    return card % 4, card // 4 + 1


def hand_to_table(cards: Iterable[int]) -> np.ndarray:
    """A hand: 1 at each natural card's cell, the joker as 2 at ``[4][1]`` (state rows left zero)."""
    t = empty_table()
    for c in cards:
        c = int(c)
        if not 0 <= c < NUM_CARDS:
            raise TableError(f"card index {c} out of range 0..{NUM_CARDS - 1}")
        if c == JOKER:
            t[HAND_JOKER_CELL] = JOKER_MARK
        else:
            t[_cell(c)] = NATURAL
    return t


def table_to_hand(table: np.ndarray) -> set[int]:
    """The cards of a hand table (rows 0-4; the joker is any 2 there, normally ``[4][1]``)."""
    t = _checked(table)
    cards = {4 * (col - 1) + s for s in range(4) for col in range(1, 14) if t[s, col] == NATURAL}
    bad = [(r, c) for r in range(5) for c in range(COLUMNS)
           if t[r, c] not in (0, NATURAL, JOKER_MARK) or (t[r, c] == NATURAL and (r == 4 or c in (0, 14)))]
    if bad:
        raise TableError(f"hand table: cell(s) {bad[:4]} hold values that are no card")
    jokers = int((t[:5] == JOKER_MARK).sum())
    if jokers > 1:
        raise TableError(f"hand table: {jokers} jokers (the deck has one)")
    if jokers:
        cards.add(JOKER)
    return cards


def cards_to_table(cards: Iterable[int]) -> np.ndarray:
    """Cards to give in the exchange: natural cards as 1, the joker at ``[4][1]`` as in a hand."""
    return hand_to_table(cards)


def _checked(table: np.ndarray) -> np.ndarray:
    t = np.asarray(table)
    if t.shape != (ROWS, COLUMNS):
        raise TableError(f"a table is {ROWS}x{COLUMNS} integers, got shape {t.shape}")
    return t


# ---- plays <-> tables --------------------------------------------------------------------------
def action_to_play_table(action: int, field_suits: int = 0) -> np.ndarray:
    """The submission table of our play ``action`` (0 = pass: all zero).

    ``field_suits`` (a suit bitmask, bit s = suit s: the suits of the play on the field, which are the
    locked suits under a lock) chooses the suit a group's joker stands for, as the rules engine reads
    it: the one suit that makes the group's suits equal the field's when one is missing, else the
    lowest suit the group lacks.
    """
    a = int(action)
    if not 0 <= a < A.NUM_PLAY_ACTIONS:
        raise TableError(f"action {a} is not a play (plays are 0..{A.NUM_PLAY_ACTIONS - 1})")
    t = empty_table()
    kind = int(A.KIND[a])
    if kind == A.K_PASS:
        return t
    for c in range(JOKER):
        if (int(A.CARDS[a]) >> c) & 1:
            t[_cell(c)] = NATURAL
    if not A.HAS_JOKER[a]:
        return t
    if kind == A.K_JSINGLE:
        t[SINGLE_JOKER_CELL] = JOKER_MARK
    elif kind == A.K_SEQ:
        rank = int(A.LO[a]) + int(A.JOKER_POS[a])
        t[int(A.SEQ_SUIT[a]), rank + 1] = JOKER_MARK
    else:  # a group: the joker takes a suit the naturals lack
        rank = int(A.LO[a])
        suit = group_joker_suit(int(A.NS[a]), field_suits)
        t[suit if suit >= 0 else 4, rank + 1] = JOKER_MARK  # row 4: the quintuple's joker has no suit left
    return t


def group_joker_suit(naturals: int, field_suits: int = 0) -> int:
    """The suit (0..3) a group's joker stands for, -1 when the naturals hold all four (the quintuple):
    the field's one missing suit when the naturals are the field's suits but one, else the lowest lacking."""
    missing = field_suits & ~naturals
    if field_suits and not naturals & ~field_suits and missing and not missing & (missing - 1):
        return missing.bit_length() - 1
    lacking = [s for s in range(4) if not (naturals >> s) & 1]
    return lacking[0] if lacking else -1


def table_suits(table: np.ndarray) -> int:
    """The suit bitmask of the cards in a play table (the joker counted in the suit row it stands in)."""
    t = _checked(table)
    return sum(1 << s for s in range(4) if np.any(t[s] != 0))


def play_table_to_action(table: np.ndarray) -> int | None:
    """Our action index for a submitted play table, or None when it is no play we can express.

    None covers malformed plays (values other than 0/1/2, two jokers, cards that form no single,
    group or sequence) and UECda plays outside our action table (a sequence whose joker stands for
    an imaginary rank, columns 0/14). Whether the play is legal now is the rules' business.
    """
    t = _checked(table)
    cells = t[:5]
    if np.any((cells != 0) & (cells != NATURAL) & (cells != JOKER_MARK)):
        return None
    if np.any(cells[4] == NATURAL) or np.any(cells[:4, 0] == NATURAL) or np.any(cells[:4, 14] == NATURAL):
        return None
    naturals = [(int(s), int(col) - 1) for s, col in zip(*np.nonzero(cells[:4] == NATURAL))]  # (suit, rank)
    jokers = [(int(r), int(col)) for r, col in zip(*np.nonzero(cells == JOKER_MARK))]
    if len(jokers) > 1:
        return None
    if not jokers:
        return _natural_play(naturals)
    if not naturals:
        return A.SINGLE0 + JOKER
    return _joker_play(naturals, jokers[0])


def _natural_play(naturals: list[tuple[int, int]]) -> int | None:
    n = len(naturals)
    if n == 0:
        return A.PASS
    suits = sorted({s for s, _ in naturals})
    ranks = sorted({r for _, r in naturals})
    if n == 1:
        s, r = naturals[0]
        return A.SINGLE0 + 4 * r + s
    if len(ranks) == 1:  # a group of 2-4
        return A.NAT_GROUP0 + 11 * ranks[0] + A.SUBSETS11.index(tuple(suits))
    if len(suits) == 1 and n >= 3 and ranks == list(range(ranks[0], ranks[0] + n)):
        return A.NAT_SEQ0 + 66 * suits[0] + A.OFF3[n] + ranks[0]
    return None


def _joker_play(naturals: list[tuple[int, int]], joker: tuple[int, int]) -> int | None:
    jrow, jcol = joker
    suits = sorted({s for s, _ in naturals})
    ranks = sorted({r for _, r in naturals})
    n = len(naturals) + 1
    if len(ranks) == 1 and (jcol - 1 == ranks[0]):
        # A group: the joker at the group's rank, in a suit the naturals lack (row 4: the quintuple).
        if (jrow < 4 and jrow in suits) or (jrow == 4 and len(suits) != 4):
            return None
        return A.JOKER_GROUP0 + 15 * ranks[0] + A.SUBSETS15.index(tuple(suits))
    if len(suits) != 1 or jrow != suits[0] or n < 3:
        return None
    if jcol in (0, 14):
        return None  # a joker standing for an imaginary rank: a UECda play outside our table
    span = sorted(ranks + [jcol - 1])
    if len(set(span)) != n or span != list(range(span[0], span[0] + n)):
        return None
    start = span[0]
    position = jcol - 1 - start
    return A.JOKER_SEQ0 + 418 * suits[0] + A.OFFJ[n] + start * n + position


def play_cards(action: int) -> set[int]:
    """Our card indices a play takes from the hand."""
    return {c for c in range(NUM_CARDS) if (int(A.CARDS[int(action)]) >> c) & 1}


# ---- the state rows ----------------------------------------------------------------------------
@dataclasses.dataclass
class TableState:
    """Rows 5 and 6 of a server table.

    ``exchange``: [5][0], 1 in the deal table (the card-exchange phase); ``give``: [5][1], cards this
    client must give (2, 1 or 0); ``my_turn``: [5][2]; ``current``: [5][3], the player to move;
    ``field_empty``: [5][4]; ``eleven_back``: [5][5]; ``revolution``: [5][6]; ``lock``: [5][7];
    ``hand_counts``/``classes``: [6][0..4]/[6][5..9] by player number (class 0 大富豪 .. 4 大貧民);
    ``seats``: [6][10..14], the player number at each seat.
    """

    exchange: int = 0
    give: int = 0
    my_turn: bool = False
    current: int = 0
    field_empty: bool = True
    eleven_back: bool = False
    revolution: bool = False
    lock: bool = False
    hand_counts: tuple[int, ...] = (0,) * NUM_PLAYERS
    classes: tuple[int, ...] = (0,) * NUM_PLAYERS
    seats: tuple[int, ...] = tuple(range(NUM_PLAYERS))

    def write(self, table: np.ndarray) -> np.ndarray:
        """Writes rows 5 and 6 into ``table`` (in place) and returns it."""
        row = table[STATE_ROW]
        row[:8] = (self.exchange, self.give, int(self.my_turn), self.current, int(self.field_empty),
                   int(self.eleven_back), int(self.revolution), int(self.lock))
        for name, values, at in (("hand_counts", self.hand_counts, 0), ("classes", self.classes, 5),
                                 ("seats", self.seats, 10)):
            if len(values) != NUM_PLAYERS:
                raise TableError(f"{name} has one entry per player ({NUM_PLAYERS}), got {len(values)}")
            table[PLAYERS_ROW, at:at + NUM_PLAYERS] = values
        return table

    @classmethod
    def read(cls, table: np.ndarray) -> "TableState":
        t = _checked(table)
        r5, r6 = [int(x) for x in t[STATE_ROW]], [int(x) for x in t[PLAYERS_ROW]]
        return cls(exchange=r5[0], give=r5[1], my_turn=r5[2] == 1, current=r5[3], field_empty=r5[4] == 1,
                   eleven_back=r5[5] == 1, revolution=r5[6] == 1, lock=r5[7] == 1,
                   hand_counts=tuple(r6[0:5]), classes=tuple(r6[5:10]), seats=tuple(r6[10:15]))


# ---- the profile -------------------------------------------------------------------------------
def profile_table(name: str) -> np.ndarray:
    """The first message of a client: protocol version 20070 and its name (1-15 printable ASCII characters)."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        raise TableError(f"a client name has 1..{MAX_NAME} characters, got {name!r}")
    if not all(32 < ord(ch) < 127 for ch in name):
        raise TableError(f"a client name is printable ASCII without spaces, got {name!r}")
    t = empty_table()
    t[0, 0] = PROTOCOL_VERSION
    t[1, :len(name)] = [ord(ch) for ch in name]
    return t


def read_profile(table: np.ndarray) -> tuple[int, str]:
    """(protocol version, name) of a profile table; unprintable codes read as '?'."""
    t = _checked(table)
    chars = []
    for code in t[1]:
        code = int(code)
        if code == 0:
            break
        chars.append(chr(code) if 32 < code < 127 else "?")
    return int(t[0, 0]), "".join(chars)
