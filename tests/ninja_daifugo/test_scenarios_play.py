"""Card plays: singles, groups, sequences, strength, the joker, revolution, 8-cut, ♠3-return.

Rules file §5.3–§5.7, §6.1 and §8 (A5, A6, A11–A14).
"""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.core.errors import IllegalActionError
from yuugi.envs.ninja_daifugo import actions as A

from .scenario_helpers import JUTSU_INDICES, act, game, legal, legal_labels, load, pos, step



_POOL = ["D3", "D4", "C3", "C4", "H3", "H4", "S3", "S4", "D5", "C5", "H5", "S5", "D6", "C6"]


def sload(g, seat_cards, to_play=0, field=None, **kw):
    """Load a position where ``seat_cards = (seat, cards)`` and the other seats hold filler."""
    seat, cards = seat_cards
    avoid = tuple(field["cards"]) if field else ()
    return load(g, hands_with(seat, cards, avoid), to_play=to_play, field=field, **kw)


def hands_with(seat: int, cards: list[str], avoid: tuple = ()) -> list[list[str]]:
    """``cards`` for ``seat``; each other seat gets two low cards not used elsewhere."""
    free = [c for c in _POOL if c not in cards and c not in avoid]
    hs = []
    for p in range(4):
        if p == seat:
            hs.append(list(cards))
        else:
            hs.append(free[:2])
            free = free[2:]
    return hs


# ---- the action encoding of §6.1 ---------------------------------------------------------------
def test_action_index_formulas_match_the_rules_table():
    # PASS 0; single c: 1 + c; ♠3 = 0, ♦3 = 2, joker 52 (§5.1, §6.1).
    assert act("pass") == 0
    assert act("S3") == 1 and act("D3") == 3 and act("JK") == 53
    assert act("C2") == 1 + 4 * 12 + 3
    # Natural group 54 + 11 r + m with m in itertools order (SH, SD, SC, HD, HC, DC, SHD, SHC, SDC, HDC, SHDC).
    assert act("S5 H5") == 54 + 11 * 2 + 0
    assert act("H9 C9") == 54 + 11 * 6 + 4
    assert act("S7 H7 D7 C7") == 54 + 11 * 4 + 10
    # Joker group 197 + 15 r + m, m = S, H, D, C, then the 11 subsets.
    assert act("D8 JK") == 197 + 15 * 5 + 2
    assert act("S7 H7 D7 JK") == 197 + 15 * 4 + 4 + 6
    assert act("S2 H2 D2 C2 JK") == 197 + 15 * 12 + 14
    # Natural sequence 392 + 66 s + off3[L] + st.
    assert act("S3 S4 S5") == 392
    assert act("D4 D5 D6 D7") == 392 + 66 * 2 + 11 + 1
    # Joker sequence 656 + 418 s + offJ[L] + st L + p; the rules' own examples.
    assert act("JK(S3) S4 S5") == 656
    assert act("S4 S5 JK(S6)") == 661
    assert act("H7 JK(H8) H9") == 656 + 418 * 1 + 0 + 4 * 3 + 1
    assert act("pick D9") == 2336 + 26


# ---- singles and strength ------------------------------------------------------------------------
def test_single_strength_order_normal():
    g = game()
    st = sload(g, (0, ["S2", "SA", "SK", "HQ", "C7"]), field={"cards": ["HK"], "owner": 3, "kind": "single"})
    lab = legal_labels(g, st)
    assert lab == {"pass", "S2", "SA"}  # strictly stronger only: K does not beat K; Q, 7 are weaker


def test_single_strength_order_in_revolution():
    g = game()
    st = sload(g, (0, ["S3", "H5", "S2", "SA", "JK"]), field={"cards": ["H4"], "owner": 3, "kind": "single"},
              revolution=True)
    # In revolution 3 is strongest and 2 weakest; the joker single stays strongest (§1-3, §5.5-3).
    assert legal_labels(g, st) == {"pass", "S3", "JK"}


def test_joker_single_beats_the_strongest_natural():
    g = game()
    for rev, top in ((False, "H2"), (True, "H3")):
        st = sload(g, (0, ["JK", "C9"]), field={"cards": [top], "owner": 2, "kind": "single"}, revolution=rev)
        assert legal(g, st, "JK")
        step(g, st, "JK")
        # The joker is no 8: the field stays; seat 1 is next.
        assert pos(g, st)["field"]["cards"] == ["JK"] and pos(g, st)["to_play"] == 1


def test_joker_single_answered_only_by_spade3_even_in_revolution():
    g = game()
    for rev in (False, True):
        st = sload(g, (0, ["S3", "H3", "S2", "C8"]), field={"cards": ["JK"], "owner": 2, "kind": "single"},
                  revolution=rev)
        assert legal_labels(g, st) == {"pass", "S3"}


def test_spade3_return_flushes_and_returner_leads():
    g = game()
    st = sload(g, (1, ["S3", "D9"]), to_play=1, field={"cards": ["JK"], "owner": 0, "kind": "single"})
    step(g, st, "S3")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 1
    assert "JK" in p["discard"] and "S3" in p["discard"]
    assert "pass" not in legal_labels(g, st)  # the leader may not pass (A5)


def test_spade3_on_a_natural_single_is_just_a_weak_single():
    g = game()
    st = sload(g, (0, ["S3", "D9"]), field={"cards": ["H4"], "owner": 2, "kind": "single"})
    assert not legal(g, st, "S3")  # 3 is the weakest rank in the normal order


def test_lead_may_not_pass_and_may_play_any_formable_play():
    g = game()
    st = sload(g, (0, ["S3", "H3", "S4", "S5", "JK"]))
    lab = legal_labels(g, st)
    assert "pass" not in lab
    expected = {"S3", "H3", "S4", "S5", "JK", "S3 H3", "S3 JK", "H3 JK", "S4 JK", "S5 JK", "S3 H3 JK",
                "S3 S4 S5", "JK(S3) S4 S5", "S3 JK(S4) S5", "S3 S4 JK(S5)", "S4 S5 JK(S6)",
                "S3 S4 S5 JK(S6)"}
    # The only 4-card sequence is 3 4 5 + joker as 6 (no joker below 3).
    assert lab == expected


def test_jutsu_indices_are_always_masked():
    g = game()
    st = sload(g, (0, ["S3", "H3", "S4", "S5", "JK"]))
    m = g.legal_mask(st)[0]
    assert not m[list(JUTSU_INDICES)].any()
    assert not m[2336:].any()  # no PICK_CARD outside the exchange
    st = sload(g, (0, ["S3", "HA"]), field={"cards": ["H4"], "owner": 2, "kind": "single"})
    assert not g.legal_mask(st)[0][list(JUTSU_INDICES)].any()
    with pytest.raises(IllegalActionError):
        step(g, st, 2334)


# ---- groups --------------------------------------------------------------------------------------
def test_groups_same_size_and_stronger_rank():
    g = game()
    st = sload(g, (0, ["S6", "H6", "D6", "S9", "H9", "SA", "JK", "C4", "D4"]),
              field={"cards": ["S5", "H5"], "owner": 2, "kind": "group"})
    lab = legal_labels(g, st)
    pairs = {l for l in lab if l != "pass"}
    # Every pair stronger than 5 that the hand can form, with or without the joker; no triples, no 4s.
    assert pairs == {"S6 H6", "S6 D6", "H6 D6", "S9 H9", "S6 JK", "H6 JK", "D6 JK", "S9 JK", "H9 JK", "SA JK"}
    assert "pass" in lab


def test_group_equal_rank_does_not_beat():
    g = game()
    st = sload(g, (0, ["D5", "C5", "C9"]), field={"cards": ["S5", "H5"], "owner": 2, "kind": "group"})
    assert not legal(g, st, "D5 C5")


def test_group_in_revolution_needs_lower_rank():
    g = game()
    st = sload(g, (0, ["S4", "H4", "S9", "H9"]), field={"cards": ["S7", "H7"], "owner": 2, "kind": "group"},
              revolution=True)
    assert legal(g, st, "S4 H4")
    assert not legal(g, st, "S9 H9")


def test_triple_with_joker_and_quintuple():
    g = game()
    # A triple with a joker answers a triple; the 5-card group (4 + joker) answers a 5-card group.
    st = sload(g, (0, ["S9", "H9", "JK", "C3"]), field={"cards": ["S6", "H6", "D6"], "owner": 2, "kind": "group"})
    assert legal(g, st, "S9 H9 JK")
    st = sload(g, (0, ["SK", "HK", "DK", "CK", "JK", "C3"]))
    assert legal(g, st, "SK HK DK CK JK")
    step(g, st, "SK HK DK CK JK")
    assert pos(g, st)["revolution"] is True  # a 5-card group is a revolution (A13)


def test_joker_group_of_five_is_answered_only_by_a_stronger_five():
    g = game(declarations=(0,))
    st = sload(g, (1, ["S2", "H2", "D2", "C2", "C9"]), to_play=1,
              field={"cards": ["S6", "H6", "D6", "C6", "JK"], "owner": 0, "kind": "group"})
    # Nobody else holds a joker: four 2s are a 4-card group, the wrong size.
    assert legal_labels(g, st) == {"pass"}


# ---- sequences -----------------------------------------------------------------------------------
def test_sequence_must_match_length_and_be_above():
    g = game()
    st = sload(g, (0, ["H7", "H8", "H9", "HT", "H5", "H6", "C3"]),
              field={"cards": ["S4", "S5", "S6"], "owner": 2, "kind": "sequence"})
    lab = legal_labels(g, st)
    seqs = {l for l in lab if l != "pass"}
    # Length 3 strictly above 6: 7-8-9, 8-9-T; 5-6-7 and 6-7-8 overlap; 4-card runs are the wrong length.
    assert seqs == {"H7 H8 H9", "H8 H9 HT"}


def test_sequence_in_revolution_must_be_entirely_below():
    g = game()
    st = sload(g, (0, ["H3", "H4", "H5", "H6", "H7"]),
              field={"cards": ["S7", "S8", "S9"], "owner": 2, "kind": "sequence"}, revolution=True)
    seqs = {l for l in legal_labels(g, st) if l != "pass"}
    assert seqs == {"H3 H4 H5", "H4 H5 H6"}  # H5 H6 H7 overlaps the field's 7


def test_joker_in_any_position_of_a_sequence():
    g = game()
    st = sload(g, (0, ["D9", "DJ", "DQ", "JK", "C3"]))
    seqs = {l for l in legal_labels(g, st) if " " in l and "JK(" in l}
    assert seqs == {
        "D9 JK(DT) DJ",  # middle
        "JK(DT) DJ DQ",  # start
        "DJ DQ JK(DK)",  # end
        "D9 JK(DT) DJ DQ",  # 4 with joker (a revolution)
    }


def test_joker_sequence_on_field_is_compared_by_represented_ranks():
    g = game()
    # Field: ♠4 ♠5 + joker as ♠6 (ranks 4..6). A 6-7-8 overlaps, a 7-8-9 does not.
    st = sload(g, (0, ["H6", "H7", "H8", "H9", "C3"]),
              field={"cards": ["S4", "S5", "JK"], "owner": 2, "kind": "sequence", "joker_as": "S6"})
    assert not legal(g, st, "H6 H7 H8")
    assert legal(g, st, "H7 H8 H9")
    # Same cards with the joker as ♠3 (ranks 3..5): 6-7-8 is above.
    st = sload(g, (0, ["H6", "H7", "H8", "H9", "C3"]),
              field={"cards": ["S4", "S5", "JK"], "owner": 2, "kind": "sequence", "joker_as": "S3"})
    assert legal(g, st, "H6 H7 H8")


def test_sequence_cannot_answer_a_group_or_single():
    g = game()
    st = sload(g, (0, ["H7", "H8", "H9", "C3"]), field={"cards": ["S5", "H5", "D5"], "owner": 2, "kind": "group"})
    assert not legal(g, st, "H7 H8 H9")
    # ♥7 ♥9 is no play at all (not a group, not a run): no action index holds exactly those cards.
    assert not (A.CARDS[: A.NUM_PLAY_ACTIONS] == np.uint64((1 << act("H7")-1) | (1 << act("H9")-1))).any()


def test_mixed_suit_runs_are_not_sequences():
    mask_cards = (1 << (4 * 4 + 0)) | (1 << (4 * 5 + 1)) | (1 << (4 * 6 + 0))  # ♠7 ♥8 ♠9
    assert not (A.CARDS[: A.NUM_PLAY_ACTIONS] == np.uint64(mask_cards)).any()


# ---- revolution ----------------------------------------------------------------------------------
@pytest.mark.parametrize("play, revolution", [
    ("S9 H9 D9 C9", True),  # 4-card natural group
    ("S9 H9 D9 JK", True),  # 3 + joker
    ("S9 H9 D9", False),  # triple
    ("H3 H4 H5 H6", True),  # 4-card sequence
    ("H3 H4 JK(H5) H6", True),  # 4-card sequence with the joker
    ("H3 H4 H5", False),  # 3-card sequence
    ("H3 H4 H5 H6 H7", True),  # 5-card sequence
])
def test_revolution_on_4_plus_group_or_sequence(play, revolution):
    g = game()
    st = sload(g, (0, ["S9", "H9", "D9", "C9", "JK", "H3", "H4", "H5", "H6", "H7", "CK"]))
    step(g, st, play)
    assert pos(g, st)["revolution"] is revolution


def test_counter_revolution_and_revolution_persists():
    g = game()
    st = sload(g, (0, ["S9", "H9", "D9", "C9", "CK"]), revolution=True)
    step(g, st, "S9 H9 D9 C9")
    assert pos(g, st)["revolution"] is False  # 革命返し
    st = load(g, [["S9", "H9", "D9", "C9", "CK"], ["H3", "H4"], ["D3", "D4"], ["C3", "C4"]])
    step(g, st, "S9 H9 D9 C9")
    assert pos(g, st)["revolution"] is True
    for _ in range(3):
        step(g, st, "pass")
    assert pos(g, st)["field"] is None and pos(g, st)["revolution"] is True
    # The next lead is judged in the reversed order: after ♣K, a responder's ♦4 is stronger.
    step(g, st, "CK")
    assert pos(g, st)["to_play"] == 1
    assert legal(g, st, "H3")


def test_revolution_that_is_also_an_8_cut():
    g = game()
    st = sload(g, (0, ["D5", "D6", "D7", "D8", "CK"]))
    step(g, st, "D5 D6 D7 D8")
    p = pos(g, st)
    assert p["revolution"] is True and p["field"] is None and p["to_play"] == 0


# ---- 8-cut -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("play, cut", [
    ("H8", True),
    ("H8 D8", True),
    ("D8 JK", True),  # a joker group of 8s
    ("H6 H7 H8", True),
    ("H7 H8 H9", True),
    ("H8 H9 HT", True),
    ("H6 H7 JK(H8)", True),  # the joker standing for 8
    ("H9 HT HJ", False),
    ("JK", False),  # the joker single is no 8
    ("H5 H6 H7", False),
])
def test_eight_cut(play, cut):
    g = game()
    st = sload(g, (0, ["H5", "H6", "H7", "H8", "H9", "HT", "HJ", "D8", "JK", "CK"]))
    step(g, st, play)
    p = pos(g, st)
    if cut:
        assert p["field"] is None and p["to_play"] == 0
        assert p["lock"] is None
    else:
        assert p["field"] is not None and p["to_play"] == 1


def test_eight_cut_as_a_response_clears_the_lock_and_the_cutter_leads():
    g = game()
    st = load(g, [["C4", "CK"], ["H8", "D3"], ["S3", "S4"], ["H3", "H4"]], to_play=1,
              field={"cards": ["H6"], "owner": 0, "kind": "single"}, lock=["H"])
    step(g, st, "H8")
    p = pos(g, st)
    assert p["field"] is None and p["lock"] is None and p["to_play"] == 1


def test_eight_cut_in_revolution_keeps_revolution():
    g = game()
    st = load(g, [["C4", "CK"], ["H8", "D3"], ["S3", "S4"], ["H3", "H4"]], to_play=1,
              field={"cards": ["H9"], "owner": 0, "kind": "single"}, revolution=True)
    step(g, st, "H8")
    p = pos(g, st)
    assert p["field"] is None and p["revolution"] is True and p["to_play"] == 1


def test_cannot_play_cards_not_held():
    g = game()
    st = sload(g, (0, ["S3", "H3"]))
    assert not legal(g, st, "D3")
    with pytest.raises(IllegalActionError):
        step(g, st, "D3")
    assert pos(g, st)["hands"][0] == ["S3", "H3"]  # untouched
