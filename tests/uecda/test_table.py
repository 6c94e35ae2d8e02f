"""The 480-byte table codec of UECda protocol 20070: byte layouts written by hand from the protocol
(8 x 15 big-endian int32, rows 0-3 spade/heart/diamond/club, columns 1-13 ranks 3..2, 1 natural,
2 joker), and round trips over every play of our action table."""
from __future__ import annotations

import struct

import numpy as np
import pytest

from yuugi.envs.ninja_daifugo import actions as A
from yuugi.envs.ninja_daifugo.cards import JOKER, parse_card
from yuugi.training.uecda import table as T


def cell_offset(row: int, col: int) -> int:
    """Byte offset of a cell: row-major, 4 bytes each."""
    return 4 * (15 * row + col)


def hand_built(cells: dict[tuple[int, int], int]) -> bytes:
    """480 bytes with the given cells set, every integer big-endian, written without numpy."""
    values = [0] * 120
    for (row, col), v in cells.items():
        values[15 * row + col] = v
    return struct.pack(">120i", *values)


def cards(*names: str) -> set[int]:
    return {parse_card(n) for n in names}


def action_of(names: list[str], kind: int, joker_as: str | None = None) -> int:
    """The unique action of these cards and kind (the joker's stand-in for sequences)."""
    mask = sum(1 << parse_card(n) for n in names)
    hits = [a for a in range(A.NUM_PLAY_ACTIONS) if int(A.CARDS[a]) == mask and A.KIND[a] == kind]
    if joker_as is not None:
        jc = parse_card(joker_as)
        hits = [a for a in hits if A.JOKER_POS[a] >= 0 and 4 * (A.LO[a] + A.JOKER_POS[a]) + A.SEQ_SUIT[a] == jc]
    assert len(hits) == 1, hits
    return hits[0]


# ---- byte layout ---------------------------------------------------------------------------------
def test_a_table_is_480_big_endian_bytes_row_major():
    t = T.empty_table()
    t[2, 7] = 0x01020304
    data = T.to_bytes(t)
    assert len(data) == 480
    assert data[cell_offset(2, 7):cell_offset(2, 7) + 4] == b"\x01\x02\x03\x04"
    assert data.count(0) == 476
    assert np.array_equal(T.from_bytes(data), t)


def test_hand_bytes_match_the_protocol_layout():
    # Spade 3 -> row 0 col 1; heart 10 -> row 1 col 8; diamond 2 -> row 2 col 13; club K -> row 3 col 11;
    # the joker of a hand -> [4][1] = 2.
    hand = cards("S3", "HT", "D2", "CK", "JK")
    expected = hand_built({(0, 1): 1, (1, 8): 1, (2, 13): 1, (3, 11): 1, (4, 1): 2})
    assert T.to_bytes(T.hand_to_table(hand)) == expected
    assert T.table_to_hand(T.from_bytes(expected)) == hand


def test_play_bytes_match_the_protocol_layout():
    # A pair of 7s with the joker as the heart 7: spade 7 natural (row 0, col 5), joker = 2 at (1, 5).
    pair = action_of(["S7", "JK"], A.K_GROUP)
    assert T.to_bytes(T.action_to_play_table(pair)) == hand_built({(0, 5): 1, (1, 5): 2})
    # Diamond 4 5 6 with the joker standing for the diamond 7: 2 at row 2, col 5.
    seq = action_of(["D4", "D5", "D6", "JK"], A.K_SEQ, joker_as="D7")
    assert T.to_bytes(T.action_to_play_table(seq)) == hand_built({(2, 2): 1, (2, 3): 1, (2, 4): 1, (2, 5): 2})
    assert T.play_table_to_action(T.from_bytes(hand_built({(2, 2): 1, (2, 3): 1, (2, 4): 1, (2, 5): 2}))) == seq
    # A pass is the all-zero table.
    assert T.to_bytes(T.action_to_play_table(A.PASS)) == bytes(480)
    assert T.play_table_to_action(T.from_bytes(bytes(480))) == A.PASS


def test_profile_bytes():
    data = T.to_bytes(T.profile_table("yuugi"))
    expected = hand_built({(0, 0): 20070, (1, 0): ord("y"), (1, 1): ord("u"), (1, 2): ord("u"), (1, 3): ord("g"),
                           (1, 4): ord("i")})
    assert data == expected
    assert T.read_profile(T.from_bytes(expected)) == (20070, "yuugi")
    with pytest.raises(T.TableError, match="1..15"):
        T.profile_table("x" * 16)
    with pytest.raises(T.TableError, match="ASCII"):
        T.profile_table("忍者")


def test_state_rows_layout():
    state = T.TableState(exchange=1, give=2, my_turn=True, current=3, field_empty=True, eleven_back=False,
                         revolution=True, lock=True, hand_counts=(11, 11, 11, 10, 10), classes=(2, 0, 4, 1, 3),
                         seats=(4, 3, 2, 1, 0))
    data = T.to_bytes(state.write(T.empty_table()))
    cells = {(5, 0): 1, (5, 1): 2, (5, 2): 1, (5, 3): 3, (5, 4): 1, (5, 6): 1, (5, 7): 1}
    cells.update({(6, k): v for k, v in enumerate((11, 11, 11, 10, 10, 2, 0, 4, 1, 3, 4, 3, 2, 1, 0))})
    assert data == hand_built(cells)
    assert T.TableState.read(T.from_bytes(data)) == state


def test_wrong_sizes_are_table_errors():
    with pytest.raises(T.TableError, match="480 bytes"):
        T.from_bytes(bytes(479))
    with pytest.raises(T.TableError, match="8x15"):
        T.to_bytes(np.zeros((8, 14), np.int32))


# ---- round trips ---------------------------------------------------------------------------------
def test_every_play_round_trips():
    for a in range(A.NUM_PLAY_ACTIONS):
        table = T.action_to_play_table(a)
        assert T.play_table_to_action(T.from_bytes(T.to_bytes(table))) == a, A.action_label(a)
        # The table holds exactly the play's cards: naturals as 1, one 2 when it has the joker.
        naturals = {4 * (col - 1) + s for s, col in zip(*np.nonzero(table[:4] == 1))}
        assert naturals | ({JOKER} if (table == 2).any() else set()) == T.play_cards(a)


def test_group_joker_takes_the_field_suit_it_completes():
    # The joker of a group stands where the rules engine reads it: the field play's one suit the group
    # lacks (so a heart 7 + joker answers a spade-heart pair as spade-heart), else the lowest suit lacked.
    h7_joker = action_of(["H7", "JK"], A.K_GROUP)
    spade_heart, heart_diamond = 0b0011, 0b0110
    assert T.action_to_play_table(h7_joker, field_suits=spade_heart)[0, 5] == 2
    assert T.action_to_play_table(h7_joker, field_suits=heart_diamond)[2, 5] == 2
    assert T.action_to_play_table(h7_joker)[0, 5] == 2  # no field: the lowest suit lacked (spade)
    assert T.action_to_play_table(h7_joker, field_suits=0b1100)[0, 5] == 2  # hearts not among the field's
    for a in np.flatnonzero((A.KIND == A.K_GROUP) & A.HAS_JOKER):
        for field in range(16):
            t = T.action_to_play_table(int(a), field_suits=field)
            assert T.play_table_to_action(t) == a
            suits = T.table_suits(t)
            naturals = int(A.NS[a])
            completes = (field & ~naturals) and not naturals & ~field and bin(field & ~naturals).count("1") == 1
            if completes:
                assert suits == field
            elif naturals != 0b1111:
                lowest = next(s for s in range(4) if not (naturals >> s) & 1)
                assert suits == naturals | (1 << lowest)


def test_joker_single_cell_and_any_lone_joker():
    assert T.action_to_play_table(A.JOKER_SINGLE)[0, 14] == 2
    for cell in ((0, 0), (3, 7), (4, 1)):
        t = T.empty_table()
        t[cell] = 2
        assert T.play_table_to_action(t) == A.JOKER_SINGLE


def test_quintuple_uses_row_four():
    five = action_of(["S9", "H9", "D9", "C9", "JK"], A.K_GROUP)
    t = T.action_to_play_table(five)
    assert t[4, 7] == 2 and (t[:4, 7] == 1).all()
    assert T.play_table_to_action(t) == five


@pytest.mark.parametrize("cells", [
    {(0, 1): 1, (1, 2): 1},  # two ranks, two suits
    {(0, 1): 1, (0, 2): 1},  # a two-card "sequence"
    {(0, 1): 1, (0, 3): 1, (0, 4): 1},  # a sequence with a gap
    {(0, 1): 3},  # a value no card has
    {(0, 1): 2, (1, 1): 2},  # two jokers
    {(0, 0): 1},  # a natural card at an imaginary rank
    {(4, 3): 1},  # a natural card in row 4
    {(0, 5): 1, (0, 5 + 1): 1, (1, 7): 2},  # the joker of a sequence in another suit
    {(0, 5): 1, (1, 5): 1, (0, 6): 2},  # the joker of a group at another rank
])
def test_malformed_plays_are_none(cells):
    t = T.empty_table()
    for cell, v in cells.items():
        t[cell] = v
    assert T.play_table_to_action(t) is None


def test_imaginary_joker_rank_is_a_uecda_play_we_cannot_express():
    # Spade A 2 + joker standing above 2 (column 14): a UECda sequence outside our table.
    t = T.empty_table()
    t[0, 12], t[0, 13], t[0, 14] = 1, 1, 2
    assert T.play_table_to_action(t) is None
    t = T.empty_table()
    t[0, 0], t[0, 1], t[0, 2] = 2, 1, 1  # joker below 3
    assert T.play_table_to_action(t) is None


def test_state_rows_are_ignored_in_a_submission():
    a = action_of(["H5", "D5"], A.K_GROUP)
    t = T.action_to_play_table(a)
    T.TableState(my_turn=True, current=2, hand_counts=(3, 4, 5, 6, 7)).write(t)
    assert T.play_table_to_action(t) == a


def test_hand_table_rejects_junk():
    t = T.empty_table()
    t[0, 1] = 5
    with pytest.raises(T.TableError, match="no card"):
        T.table_to_hand(t)
    t = T.empty_table()
    t[4, 1], t[0, 14] = 2, 2
    with pytest.raises(T.TableError, match="2 jokers"):
        T.table_to_hand(t)
