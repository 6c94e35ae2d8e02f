"""Suit lock (縛り) exactly as rules file §1-4, §5.5-4, §5.7-2 and §8 A7–A10 state it."""
from __future__ import annotations

import pytest

from .scenario_helpers import game, legal, legal_labels, load, pos, step


def test_single_lock_requires_exact_suit():
    g = game()
    st = load(g, [["H5", "C3"], ["H7", "C4"], ["H9", "S9", "HJ", "JK", "D3"], ["S3", "S4"]])
    step(g, st, "H5")
    assert pos(g, st)["lock"] is None  # a lead never locks
    step(g, st, "H7")
    assert pos(g, st)["lock"] == ["H"]
    lab = legal_labels(g, st)
    assert lab == {"pass", "H9", "HJ", "JK"}  # ♠9 has the wrong suit; the joker takes ♥


def test_lock_reference_is_only_the_immediately_preceding_play():
    """A10: ♠5 → ♥7 → ♠9: ♠9 does not match ♥7, so no lock."""
    g = game()
    st = load(g, [["S5", "C3"], ["H7", "C4"], ["S9", "D3"], ["SJ", "HJ", "D4"]])
    steps = ["S5", "H7", "S9"]
    for s in steps:
        step(g, st, s)
    assert pos(g, st)["lock"] is None
    assert legal(g, st, "HJ")


def test_pair_partial_match_does_not_lock():
    g = game()
    st = load(g, [["S5", "H5", "C3"], ["S7", "D7", "C4"], ["HT", "CT", "D3"], ["S3", "S4"]])
    step(g, st, "S5 H5")
    step(g, st, "S7 D7")
    assert pos(g, st)["lock"] is None
    assert legal(g, st, "HT CT")


def test_triple_lock():
    g = game()
    st = load(g, [["S5", "H5", "D5", "C3"], ["S7", "H7", "D7", "C4"],
                  ["S9", "H9", "D9", "C9", "HT", "DT", "CT", "D3"], ["S3", "S4"]])
    step(g, st, "S5 H5 D5")
    step(g, st, "S7 H7 D7")
    assert sorted(pos(g, st)["lock"]) == ["D", "H", "S"]
    lab = legal_labels(g, st)
    assert "S9 H9 D9" in lab
    assert "H9 D9 C9" not in lab and "S9 H9 C9" not in lab and "HT DT CT" not in lab


def test_joker_group_never_triggers_a_lock_and_is_no_reference():
    """§5.7-2: neither the previous play nor P may contain a joker."""
    g = game()
    # P contains the joker: ♠♥5 → ♠7+JK: no lock.
    st = load(g, [["S5", "H5", "C3"], ["S7", "JK", "C4"], ["S9", "H9", "D3"], ["DT", "CT", "S4"]])
    step(g, st, "S5 H5")
    step(g, st, "S7 JK")
    assert pos(g, st)["lock"] is None
    # The previous play contains the joker: ♠♥9 after ♠7+JK is no lock either.
    step(g, st, "S9 H9")
    assert pos(g, st)["lock"] is None
    # So a ♦♣ pair may answer it.
    assert legal(g, st, "DT CT")


def test_joker_group_under_a_lock_keeps_the_lock():
    """A9: a joker group is legal under a lock iff its naturals ⊆ lock and the sizes match; the lock continues."""
    g = game()
    st = load(g, [["S5", "H5", "C3"], ["S7", "H7", "C4"], ["S9", "JK", "D3"], ["SJ", "HJ", "DJ", "CJ", "S4"]])
    step(g, st, "S5 H5")
    step(g, st, "S7 H7")
    assert sorted(pos(g, st)["lock"]) == ["H", "S"]
    assert legal(g, st, "S9 JK")
    step(g, st, "S9 JK")
    assert sorted(pos(g, st)["lock"]) == ["H", "S"]
    lab = legal_labels(g, st)
    assert "SJ HJ" in lab
    assert "DJ CJ" not in lab and "SJ DJ" not in lab and "HJ CJ" not in lab


def test_joker_group_with_wrong_natural_suit_under_lock():
    g = game()
    st = load(g, [["C3"], ["C4"], ["D9", "H9", "JK", "D3"], ["S4"]], to_play=2,
              field={"cards": ["S7", "H7"], "owner": 1, "kind": "group"}, lock=["S", "H"])
    lab = legal_labels(g, st)
    assert "H9 JK" in lab
    assert "D9 JK" not in lab
    assert "D9 H9" not in lab


def test_joker_single_under_a_single_lock_and_spade3_return():
    """A8: joker single legal under a lock if it beats the field, the lock continues; ♠3 matches a ♠-lock."""
    g = game()
    st = load(g, [["C3", "C4"], ["D4", "D5"], ["JK", "H6"], ["S3", "H3", "D6"]], to_play=2,
              field={"cards": ["S7"], "owner": 1, "kind": "single"}, lock=["S"])
    step(g, st, "JK")
    assert pos(g, st)["lock"] == ["S"]
    assert legal_labels(g, st) == {"pass", "S3"}
    step(g, st, "S3")
    p = pos(g, st)
    assert p["field"] is None and p["lock"] is None and p["to_play"] == 3


def test_joker_single_does_not_trigger_a_lock_with_spade_field():
    g = game()
    st = load(g, [["S5", "C3"], ["JK", "C4"], ["H6", "D3"], ["H7", "S4"]])
    step(g, st, "S5")
    step(g, st, "JK")
    assert pos(g, st)["lock"] is None


def test_sequence_lock():
    g = game()
    st = load(g, [["S3", "S4", "S5", "C3"], ["S9", "ST", "SJ", "C4"],
                  ["SQ", "SK", "SA", "HQ", "HK", "HA", "JK", "D3"], ["D4", "D5"]])
    step(g, st, "S3 S4 S5")
    step(g, st, "S9 ST SJ")
    assert pos(g, st)["lock"] == ["S"]
    lab = legal_labels(g, st)
    assert "SQ SK SA" in lab
    assert "SQ JK(SK) SA" in lab  # a joker inside takes the suit ♠
    assert "HQ HK HA" not in lab
    assert "HQ HK JK(HA)" not in lab


def test_sequences_of_different_suits_do_not_lock():
    g = game()
    st = load(g, [["S3", "S4", "S5", "C3"], ["H9", "HT", "HJ", "C4"], ["DQ", "DK", "DA", "D3"], ["D4", "D5"]])
    step(g, st, "S3 S4 S5")
    step(g, st, "H9 HT HJ")
    assert pos(g, st)["lock"] is None
    assert legal(g, st, "DQ DK DA")


def test_lock_persists_through_passes_and_is_cleared_by_the_flush():
    g = game()
    st = load(g, [["S5", "SA", "HK"], ["S7", "C4"], ["D3", "D4"], ["H3", "H4"]])
    step(g, st, "S5")
    step(g, st, "S7")
    assert pos(g, st)["lock"] == ["S"]
    step(g, st, "pass")  # seat 2
    step(g, st, "pass")  # seat 3
    assert pos(g, st)["lock"] == ["S"]
    assert pos(g, st)["to_play"] == 0
    lab = legal_labels(g, st)
    assert lab == {"pass", "SA"}  # ♥K beats 7 but is the wrong suit
    step(g, st, "pass")  # seat 0: every other seat has answered seat 1's ♠7
    p = pos(g, st)
    assert p["field"] is None and p["lock"] is None and p["to_play"] == 1
    step(g, st, "C4")
    assert pos(g, st)["lock"] is None


def test_lock_from_position_blocks_other_suits_and_sizes():
    g = game()
    st = load(g, [["C3"], ["C4"], ["D9", "H9", "HJ", "D3"], ["S4"]], to_play=2,
              field={"cards": ["H7"], "owner": 1, "kind": "single"}, lock=["H"])
    assert legal_labels(g, st) == {"pass", "H9", "HJ"}


@pytest.mark.parametrize("declaration", [3])
def test_no_lock_declaration(declaration):
    g = game(declarations=(declaration,))
    st = load(g, [["S5", "C3"], ["S7", "C4"], ["H9", "D3"], ["H7", "S4"]], declaration=declaration)
    step(g, st, "S5")
    step(g, st, "S7")
    assert pos(g, st)["lock"] is None
    assert legal(g, st, "H9")


def test_joker_sequence_never_locks_and_is_no_lock_reference():
    """§5.7-2 with sequences, where the natural suits of both plays are equal ({♠})."""
    g = game()
    # The previous play holds the joker: ♠3 ♠4 JK(♠5) → ♠9 ♠T ♠J: no lock.
    st = load(g, [["S3", "S4", "JK", "C3"], ["S9", "ST", "SJ", "C4"], ["HQ", "HK", "HA", "D3"], ["D4", "D5"]])
    step(g, st, "S3 S4 JK(S5)")
    step(g, st, "S9 ST SJ")
    assert pos(g, st)["lock"] is None
    assert legal(g, st, "HQ HK HA")
    # P holds the joker: ♠3 ♠4 ♠5 → ♠9 JK(♠T) ♠J: no lock.
    st = load(g, [["S3", "S4", "S5", "C3"], ["S9", "JK", "SJ", "C4"], ["HQ", "HK", "HA", "D3"], ["D4", "D6"]])
    step(g, st, "S3 S4 S5")
    step(g, st, "S9 JK(ST) SJ")
    assert pos(g, st)["lock"] is None
    assert legal(g, st, "HQ HK HA")
