"""The Lord's declarations that change the base rules: D0–D5, D8 (11-back), D9 (5-skip).

Rules file §2.2, §5.2-2, §5.4, §5.5, §5.7-7, §8 A20, A22, A32.
"""
from __future__ import annotations


from yuugi.envs.ninja_daifugo import actions as A

from .scenario_helpers import game, legal, legal_labels, load, pos, step, steps


def _seq_or_combo_with_joker(lab: set[str]) -> set[str]:
    return {l for l in lab if "JK" in l and l != "JK"}


# ---- D0 / drawing -----------------------------------------------------------------------------------
def test_d0_plain_game_start():
    g = game(declarations=(0,))
    p = pos(g, g.init([3]))
    assert p["declaration"] == 0 and p["revolution"] is False


def test_declaration_drawn_from_the_pool():
    g = game(declarations=(2, 8))
    seen = {pos(g, g.init([s]))["declaration"] for s in range(30)}
    assert seen == {2, 8}


# ---- D1: the weak joker -----------------------------------------------------------------------------
def test_d1_joker_forms_no_combination():
    g = game(declarations=(1,))
    st = load(g, [["JK", "S5", "H5", "S6", "S7", "C9"], ["D3"], ["D4"], ["H3"]], declaration=1)
    lab = legal_labels(g, st)
    assert "JK" in lab  # it may be led as a single
    assert _seq_or_combo_with_joker(lab) == set()
    assert "S5 H5" in lab and "S5 S6 S7" in lab


def test_d1_weak_joker_is_beaten_by_any_single_even_in_revolution():
    g = game(declarations=(1,))
    for rev in (False, True):
        st = load(g, [["C3"], ["S3", "S2", "H8", "D5"], ["D4"], ["H3"]], to_play=1, declaration=1, revolution=rev,
                  field={"cards": ["JK"], "owner": 0, "kind": "single"})
        assert legal_labels(g, st) == {"pass", "S3", "S2", "H8", "D5"}


def test_d1_weak_joker_cannot_answer_anything():
    g = game(declarations=(1,))
    st = load(g, [["C3"], ["JK", "D5"], ["D4"], ["H3"]], to_play=1, declaration=1,
              field={"cards": ["S3"], "owner": 0, "kind": "single"})
    assert not legal(g, st, "JK")


def test_d1_spade3_on_weak_joker_is_no_return():
    g = game(declarations=(1,))
    st = load(g, [["C3", "C4"], ["S3", "D5"], ["D4", "D6"], ["H3", "H4"]], to_play=1, declaration=1,
              field={"cards": ["JK"], "owner": 0, "kind": "single"})
    step(g, st, "S3")
    p = pos(g, st)
    assert p["field"]["cards"] == ["S3"] and p["to_play"] == 2


# ---- D2: no 8-cut ------------------------------------------------------------------------------------
def test_d2_no_eight_cut():
    g = game(declarations=(2,))
    st = load(g, [["H8", "H6", "H7", "D8", "C9"], ["D3", "D4"], ["C3", "C4"], ["S3", "S4"]], declaration=2)
    step(g, st, "H8")
    p = pos(g, st)
    assert p["field"]["cards"] == ["H8"] and p["to_play"] == 1
    st = load(g, [["H8", "H6", "H7", "D8", "C9"], ["D3", "D4"], ["C3", "C4"], ["S3", "S4"]], declaration=2)
    step(g, st, "H6 H7 H8")
    assert pos(g, st)["field"] is not None and pos(g, st)["to_play"] == 1


# ---- D3: no lock (see also test_scenarios_lock) ------------------------------------------------------
def test_d3_no_lock_on_pairs():
    g = game(declarations=(3,))
    st = load(g, [["S5", "H5", "C3"], ["S7", "H7", "C4"], ["D9", "C9", "D3"], ["S4", "H4"]], declaration=3)
    steps(g, st, ["S5 H5", "S7 H7"])
    assert pos(g, st)["lock"] is None
    assert legal(g, st, "D9 C9")


# ---- D4: no sequences -------------------------------------------------------------------------------
def test_d4_no_sequences():
    g = game(declarations=(4,))
    st = load(g, [["S3", "S4", "S5", "S6", "JK", "H3"], ["D3"], ["D4"], ["H4"]], declaration=4)
    m = g.legal_mask(st)[0]
    assert not (m[:A.NUM_PLAY_ACTIONS] & (A.KIND[:A.NUM_PLAY_ACTIONS] == A.K_SEQ)).any()
    lab = legal_labels(g, st)
    assert "S3 H3" in lab and "S3 H3 JK" in lab and "JK" in lab


# ---- D5: revolution from the start ---------------------------------------------------------------------
def test_d5_starts_in_revolution_and_a_revolution_reverts():
    g = game(declarations=(5,))
    st = g.init([11])
    p = pos(g, st)
    assert p["declaration"] == 5 and p["revolution"] is True
    g = game(declarations=(5,))
    st = load(g, [["S9", "H9", "D9", "C9", "CK"], ["D3", "D4"], ["C3", "C4"], ["S3", "S4"]], declaration=5,
              revolution=True)
    step(g, st, "S9 H9 D9 C9")
    assert pos(g, st)["revolution"] is False


# ---- D8: 11-back ---------------------------------------------------------------------------------------
def test_d8_jack_reverses_until_the_field_clears():
    g = game(declarations=(8,))
    st = load(g, [["HJ", "C4", "CA"], ["ST", "SQ", "D3"], ["C3", "C5"], ["S3", "S4"]], declaration=8,
              field={"cards": ["D9"], "owner": 3, "kind": "single"}, to_play=0)
    step(g, st, "HJ")
    p = pos(g, st)
    assert p["eleven_back"] is True and p["revolution"] is False
    # Now weaker ranks beat: ♠10 yes, ♠Q no.
    assert legal(g, st, "ST") and not legal(g, st, "SQ")
    steps(g, st, ["pass", "pass", "pass"])
    p = pos(g, st)
    assert p["field"] is None and p["eleven_back"] is False and p["to_play"] == 0
    step(g, st, "C4")
    assert legal(g, st, "SQ")  # the normal order is back


def test_d8_xor_with_revolution():
    g = game(declarations=(8,))
    st = load(g, [["HJ", "C4"], ["ST", "SQ", "D3"], ["C3", "C5"], ["S3", "S4"]], declaration=8, revolution=True,
              field={"cards": ["DK"], "owner": 3, "kind": "single"}, to_play=0)
    step(g, st, "HJ")
    p = pos(g, st)
    assert p["eleven_back"] is True and p["revolution"] is True
    assert legal(g, st, "SQ") and not legal(g, st, "ST")  # revolution XOR 11-back = normal order


def test_d8_joker_as_jack_in_a_sequence_and_no_11back_on_a_flush():
    g = game(declarations=(8,))
    st = load(g, [["S9", "ST", "JK", "C4"], ["D3", "D4"], ["C3", "C5"], ["S3", "S4"]], declaration=8)
    step(g, st, "S9 ST JK(SJ)")
    assert pos(g, st)["eleven_back"] is True
    # A play that represents both 8 and J flushes: no 11-back.
    st = load(g, [["S8", "S9", "ST", "SJ", "C4"], ["D3", "D4"], ["C3", "C5"], ["S6", "S4"]], declaration=8)
    step(g, st, "S8 S9 ST SJ")
    p = pos(g, st)
    assert p["field"] is None and p["eleven_back"] is False
    assert p["revolution"] is True  # a 4-card sequence is still a revolution


def test_d8_jack_group_with_joker():
    g = game(declarations=(8,))
    st = load(g, [["SJ", "JK", "C4"], ["D3", "D4"], ["C3", "C5"], ["S3", "S4"]], declaration=8)
    step(g, st, "SJ JK")
    assert pos(g, st)["eleven_back"] is True


def test_no_11back_without_d8():
    g = game()
    st = load(g, [["HJ", "C4"], ["ST", "SQ", "D3"], ["C3", "C5"], ["S3", "S4"]],
              field={"cards": ["D9"], "owner": 3, "kind": "single"})
    step(g, st, "HJ")
    assert pos(g, st)["eleven_back"] is False
    assert legal(g, st, "SQ") and not legal(g, st, "ST")


# ---- D9: 5-skip --------------------------------------------------------------------------------------
def test_d9_five_skips_the_next_player_as_a_response():
    g = game(declarations=(9,))
    st = load(g, [["H5", "CK"], ["SA", "D3"], ["S6", "D4"], ["S7", "H4"]], declaration=9)
    step(g, st, "H5")
    p = pos(g, st)
    assert p["to_play"] == 2  # seat 1 skipped
    assert p["skip_pending"] == [0, 0, 0, 0]
    assert p["responses"] == 1  # the skip counts as a response
    steps(g, st, ["pass", "pass"])  # seats 2 and 3
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0


def test_d9_skip_even_when_the_play_flushes():
    """§5.7-7: D9 applies even when P flushed: seat 1 keeps a pending skip for its next turn."""
    g = game(declarations=(9,))
    st = load(g, [["S5", "S6", "S7", "S8", "H9", "CK"], ["SA", "D3"], ["S9", "D4"], ["ST", "H4"]], declaration=9)
    step(g, st, "S5 S6 S7 S8")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0 and p["revolution"] is True
    assert p["skip_pending"] == [0, 1, 0, 0]
    step(g, st, "CK")
    p = pos(g, st)
    assert p["to_play"] == 2 and p["responses"] == 1 and p["skip_pending"] == [0, 0, 0, 0]


def test_d9_skip_on_a_would_be_lead_passes_the_lead():
    """A22: a skipped player who should lead hands the lead to the next active player."""
    g = game(declarations=(9,))
    st = load(g, [["S5", "S6", "S7", "S8"], ["SA", "D3"], ["S9", "D4"], ["ST", "H4"]], declaration=9)
    step(g, st, "S5 S6 S7 S8")  # seat 0 goes out with an 8-cut; seat 1 would lead but is skipped
    p = pos(g, st)
    assert p["finish_positions"][0] == 1
    assert p["field"] is None and p["to_play"] == 2
    assert p["skip_pending"] == [0, 0, 0, 0]


def test_d9_joker_group_of_fives_and_sequence_through_five():
    g = game(declarations=(9,))
    st = load(g, [["S5", "JK", "CK"], ["SA", "D3"], ["S9", "D4"], ["ST", "H4"]], declaration=9)
    step(g, st, "S5 JK")
    assert pos(g, st)["to_play"] == 2
    st = load(g, [["S4", "S6", "JK", "CK"], ["SA", "D3"], ["S9", "D4"], ["ST", "H4"]], declaration=9)
    step(g, st, "S4 JK(S5) S6")
    assert pos(g, st)["to_play"] == 2


def test_no_skip_without_d9():
    g = game()
    st = load(g, [["H5", "CK"], ["SA", "D3"], ["S6", "D4"], ["S7", "H4"]])
    step(g, st, "H5")
    assert pos(g, st)["to_play"] == 1


def test_d9_skip_with_two_active_players_ends_the_trick():
    """The skip counts as a response: with two active seats it ends the trick at once."""
    g = game(declarations=(9,))
    st = load(g, [["H5", "CK"], [], ["SA", "D4"], []], declaration=9, finish_positions=[None, 1, None, 2])
    step(g, st, "H5")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0 and p["skip_pending"] == [0, 0, 0, 0]


def test_d9_skips_stack():
    """A23: pending skips stack; each of the skipped player's turns consumes one."""
    g = game(declarations=(9,))
    st = load(g, [["S5", "S6", "S7", "S8", "H5", "CK", "C3"], ["SA", "D3", "DA"], ["S9", "D4"], ["ST", "H4"]],
              declaration=9)
    step(g, st, "S5 S6 S7 S8")  # revolution + 8-cut; seat 1 gets a pending skip; seat 0 leads again
    step(g, st, "H5")  # a second pending skip; the first one is consumed at once
    p = pos(g, st)
    assert p["to_play"] == 2 and p["skip_pending"] == [0, 1, 0, 0] and p["responses"] == 1
    steps(g, st, ["pass", "pass"])
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0
    step(g, st, "CK")
    p = pos(g, st)
    assert p["to_play"] == 2 and p["skip_pending"] == [0, 0, 0, 0]
