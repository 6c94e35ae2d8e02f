"""The golden scenarios of rules file §9 that concern the base rules (1–3, 5–8, 10, 11)."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.core.errors import IllegalActionError
from yuugi.envs.ninja_daifugo import actions as A

from .scenario_helpers import game, label, legal, legal_labels, load, pos, step, strongest


def test_scenario_1_single_spade_lock_then_joker_then_spade3():
    """§9-1: ♠5 → ♠7 ⇒ ♠-lock; ♥9 illegal; ♠J legal. A joker single is legal there and the lock
    persists; afterwards only ♠3 (which matches the lock) can answer it."""
    g = game()
    hands = [["S5", "C4"], ["S7", "D4"], ["H9", "SJ", "JK", "D5"], ["S3", "H3", "S2", "C5"]]
    st = load(g, hands, to_play=0)
    step(g, st, "S5")
    step(g, st, "S7")
    p = pos(g, st)
    assert p["lock"] == ["S"]
    assert p["to_play"] == 2
    assert not legal(g, st, "H9")
    assert legal(g, st, "SJ")
    assert legal(g, st, "JK")
    step(g, st, "JK")
    assert pos(g, st)["lock"] == ["S"]  # the joker never triggers a lock but may be played and the lock continues
    assert pos(g, st)["to_play"] == 3
    # Only ♠3 answers the joker single (not ♥3, not ♠2); pass is possible.
    assert legal_labels(g, st) == {"pass", "S3"}
    step(g, st, "S3")
    p = pos(g, st)
    assert p["field"] is None and p["lock"] is None  # ♠3-return flushes (§5.7-6, A6)
    assert p["to_play"] == 3  # the ♠3 player leads


def test_scenario_2_partial_lock_and_two_suit_lock_with_joker():
    """§9-2: ♠♥5 → ♠♦7 ⇒ no lock (片縛り). ♠♥6 → ♠♥9 ⇒ ♠♥-lock; then ♠+joker pair of 10s legal,
    ♦+joker pair illegal."""
    g = game()
    # Part 1: partial match does not lock.
    st = load(g, [["S5", "H5", "C3"], ["S7", "D7", "C4"], ["H9", "C9", "D3"], ["H4", "D4", "S4"]])
    step(g, st, "S5 H5")
    step(g, st, "S7 D7")
    assert pos(g, st)["lock"] is None
    assert legal(g, st, "H9 C9")  # any stronger pair is fine without a lock
    # Part 2: exact match locks; the joker takes the missing locked suit.
    st = load(g, [["S6", "H6", "C3"], ["S9", "H9", "C4"], ["ST", "DT", "JK", "D3"], ["H4", "D4", "S4"]])
    step(g, st, "S6 H6")
    step(g, st, "S9 H9")
    assert sorted(pos(g, st)["lock"]) == ["H", "S"]
    assert legal(g, st, "ST JK")
    assert not legal(g, st, "DT JK")
    assert not legal(g, st, "ST DT")
    with pytest.raises(IllegalActionError):
        step(g, st, "DT JK")


def test_scenario_3_lock_record_cleared_by_field_clear():
    """§9-3: a trick ends with ♠K on the field; new trick: lead ♠3 ⇒ no lock (the ♠K record was
    cleared); the next player's ♠4 ⇒ ♠-lock."""
    g = game()
    st = load(g, [["SK", "S3", "C9"], ["S4", "H5", "D9"], ["H6", "D6"], ["H7", "D7"]], to_play=0)
    step(g, st, "SK")
    for _ in range(3):
        step(g, st, "pass")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0
    step(g, st, "S3")
    assert pos(g, st)["lock"] is None  # a lead can never trigger a lock
    step(g, st, "S4")
    assert pos(g, st)["lock"] == ["S"]
    assert not legal(g, st, "H6")  # seat 2 holds no ♠ above 4: only pass


def test_scenario_5_spade3_illegal_under_heart_lock_on_joker():
    """§9-5: under a ♥-lock with a joker-single on the field, ♠3 is illegal (A7)."""
    g = game()
    st = load(g, [["S3", "C4"], ["H5", "D5"], ["H6", "D6"], ["H7", "D7"]], to_play=0,
              field={"cards": ["JK"], "owner": 3, "kind": "single"}, lock=["H"])
    assert not legal(g, st, "S3")
    assert legal_labels(g, st) == {"pass"}
    # Control: with no lock the same ♠3 is the return.
    st = load(g, [["S3", "C4"], ["H5", "D5"], ["H6", "D6"], ["H7", "D7"]], to_play=0,
              field={"cards": ["JK"], "owner": 3, "kind": "single"})
    assert legal(g, st, "S3")


def test_scenario_6_revolution_counter_revolution_and_8cut():
    """§9-6: 7♠7♥7♦+joker ⇒ revolution; later (as a lead) ♣4♣5♣6♣7 ⇒ 革命返し and no 8-cut;
    ♦6♦7♦8 ⇒ 8-cut, revolution state unchanged."""
    g = game()
    st = load(g, [["S7", "H7", "D7", "JK", "C4", "C5", "C6", "C7", "S9"], ["H3", "D3"], ["H4", "D4"], ["S5", "H5"]])
    step(g, st, "S7 H7 D7 JK")
    assert pos(g, st)["revolution"] is True
    assert pos(g, st)["field"] is not None  # a 7 group is no 8-cut
    for _ in range(3):
        step(g, st, "pass")
    p = pos(g, st)
    assert p["field"] is None and p["revolution"] is True  # revolution persists across a field clear
    assert p["to_play"] == 0
    step(g, st, "C4 C5 C6 C7")
    p = pos(g, st)
    assert p["revolution"] is False  # 革命返し
    assert p["field"] is not None and p["field"]["owner"] == 0  # no 8 in 4..7: no 8-cut
    assert p["to_play"] == 1
    # ♦6♦7♦8 as a lead, in revolution and in the normal order: 8-cut, revolution unchanged.
    for rev in (True, False):
        st = load(g, [["D6", "D7", "D8", "C3"], ["H3", "S3"], ["H4", "S4"], ["S5", "H5"]], revolution=rev)
        step(g, st, "D6 D7 D8")
        p = pos(g, st)
        assert p["field"] is None
        assert p["revolution"] is rev
        assert p["to_play"] == 0


def test_scenario_7_sequence_must_not_overlap():
    """§9-7: ♦4♦5♦6 on the field; ♣6♣7♣8 illegal (overlap); ♣7♣8♣9 legal (and 8-cut)."""
    g = game()
    st = load(g, [["C6", "C7", "C8", "C9", "H3"], ["H4", "S4"], ["H5", "S5"], ["S6", "H6"]], to_play=0,
              field={"cards": ["D4", "D5", "D6"], "owner": 3, "kind": "sequence"})
    assert not legal(g, st, "C6 C7 C8")
    assert legal(g, st, "C7 C8 C9")
    step(g, st, "C7 C8 C9")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0  # 8-cut: the player leads again


def test_scenario_8_no_wraparound_joker_only_inside_3_to_2():
    """§9-8: ♠K♠A♠2 legal; ♠A♠2♠3 illegal (no wrap); joker + ♠A♠2 with the joker above 2 illegal
    (joker as ♠K is legal)."""
    g = game()
    st = load(g, [["SK", "SA", "S2", "S3", "JK"], ["H4", "D4"], ["H5", "D5"], ["H6", "D6"]])
    lab = legal_labels(g, st)
    assert "SK SA S2" in lab
    assert "JK(SK) SA S2" in lab
    # No legal sequence uses ♠A ♠2 ♠3 together (wrap-around), and none puts the joker above 2.
    m = np.flatnonzero(g.legal_mask(st)[0])
    sa_s2 = (1 << 44) | (1 << 48)
    for i in m:
        if A.KIND[i] != A.K_SEQ:
            continue
        cards = int(A.CARDS[i])
        assert not (cards & sa_s2 == sa_s2 and cards & 1), label(i)  # ♠A ♠2 ♠3 together
        assert int(A.HI[i]) <= 12 and int(A.LO[i]) >= 0
    seqs_a2j = [label(i) for i in m if A.KIND[i] == A.K_SEQ and int(A.CARDS[i]) == sa_s2 | (1 << 52)]
    assert seqs_a2j == ["JK(SK) SA S2"]
    # Joker below 3 is also impossible: with ♠3 ♠4 + joker only "S3 S4 JK(S5)".
    st = load(g, [["S3", "S4", "JK"], ["H4", "D4"], ["H5", "D5"], ["H6", "D6"]])
    m = np.flatnonzero(g.legal_mask(st)[0])
    assert sorted(label(i) for i in m if A.KIND[i] == A.K_SEQ) == ["S3 S4 JK(S5)"]


def test_scenario_10_miyako_ochi():
    """§9-10: g ≥ 2, previous 大富豪 = seat 1; seat 3 goes out first ⇒ seat 1 eliminated as 4th
    instantly (its hand removed face down; the others continue)."""
    g = game(series_games=3)
    titles = ["fugo", "daifugo", "hinmin", "daihinmin"]
    st = load(g, [["H4", "D4", "C4"], ["S2", "H2", "JK"], ["H6", "D6", "C6"], ["S9"]], to_play=3,
              game_index=1, titles=titles, miyako_candidate=1)
    step(g, st, "S9")
    p = pos(g, st)
    assert p["finish_positions"] == [None, 4, None, 1]
    assert p["hands"][1] == []
    assert sorted(p["removed"]) == sorted(["S2", "H2", "JK"])
    assert not p["terminated"]
    # Seat 3's ♠9 stays on the field (A15); the next active seat after 3 is seat 0.
    assert p["field"] is not None and p["field"]["owner"] == 3
    assert p["to_play"] == 0


def test_scenario_11_weak_joker_declaration():
    """§9-11 (D1): the weak joker may be led; any single beats it; tribute never takes it."""
    g = game(declarations=(1,))
    st = load(g, [["JK", "C9"], ["S3", "D4"], ["H5", "D5"], ["H6", "D6"]], declaration=1)
    assert legal(g, st, "JK")
    step(g, st, "JK")
    assert legal(g, st, "S3")  # even the weakest natural single beats the weak joker
    assert legal(g, st, "D4")
    step(g, st, "S3")
    p = pos(g, st)
    assert p["field"] is not None and p["field"]["owner"] == 1  # no ♠3-return under D1 (A20)
    assert p["to_play"] == 2
    # Tribute: over several deals, the 大貧民's tribute never contains the weak joker.
    g2 = game(series_games=2, declarations=(1,))
    seen_joker_with_daihinmin = False
    for seed in range(40):
        st = load(g2, [[], [], ["S9"], ["H4"]], to_play=2, declaration=1,
                  finish_positions=[1, 2, None, None], seed=seed)
        step(g2, st, "S9")
        p = pos(g2, st)
        assert p["declaration"] == 1 and p["phase"] == "exchange"
        dealt = set(p["hands"][3]) | set(p["given"][3])
        if "JK" in dealt:
            seen_joker_with_daihinmin = True
        assert "JK" not in p["given"][3]
        assert set(p["given"][3]) == strongest(dealt, 2, declaration=1)
        dealt2 = set(p["hands"][2]) | set(p["given"][2])
        assert "JK" not in p["given"][2]
        assert set(p["given"][2]) == strongest(dealt2, 1, declaration=1)
    assert seen_joker_with_daihinmin  # the check above was exercised
