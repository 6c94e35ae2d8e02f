"""変化 (henge, boost) — rules file §2.1, §5.5, §6.2, §8 A27, §9 scenario 12.

The play made this turn counts as k ranks stronger in the current direction (Lv1–2 k=1, Lv3+ k=2;
Lv5 also ignores the lock, cost 1); the next player must beat the boosted rank. Offered only if
some play becomes legal with the boost, excluding the joker single and revolution plays; no PASS
after activation. 8-cut (and revolution, 5, J) use the natural ranks.
"""
from __future__ import annotations

import pytest

from yuugi.envs.core.errors import IllegalActionError

from .ninja_helpers import HENGE, PASS, is_legal, jutsu_legal, load, ngame, points, pos, seat0, step

OTHERS = [["S6", "HT", "CJ"], ["HJ", "CQ", "SA"], ["HQ", "CK", "S2"]]


def single_field(card, owner=3):
    return {"cards": [card], "owner": owner, "kind": "single"}


def test_scenario_12_lv1_single_nine_on_nine():
    """§9-12: 変化 Lv1 on a single 9 vs field 9 ⇒ legal; the next player needs ≥ J."""
    g = ngame(seat0({"henge": 1}))
    hands = [["S9", "C4", "D5"], ["ST", "SJ", "H4"], ["HJ", "CQ", "SA"], ["HQ", "CK", "S2"]]
    st = load(g, hands, to_play=0, field=single_field("H9"), points=[2, 0, 0, 0])
    assert not is_legal(g, st, "S9")  # 9 does not beat 9
    assert jutsu_legal(g, st) == {HENGE}
    step(g, st, HENGE)
    p = pos(g, st)
    assert p["henge_shift"] == 1 and p["points"][0] == 0 and p["uses_left"][0]["henge"] == 0
    assert is_legal(g, st, "S9")
    assert not is_legal(g, st, "C4") and not is_legal(g, st, "D5")  # 5, 6 still below 9
    assert not is_legal(g, st, PASS)  # no pass after 変化
    with pytest.raises(IllegalActionError):
        step(g, st, PASS)
    assert jutsu_legal(g, st) == set()
    step(g, st, "S9")
    p = pos(g, st)
    assert p["to_play"] == 1 and p["henge_shift"] == 0
    assert p["points"][0] == 1  # single +1
    assert not is_legal(g, st, "ST")  # the 9 counts as a 10
    assert is_legal(g, st, "SJ")
    assert is_legal(g, st, PASS)


@pytest.mark.parametrize("level,offered", [(1, False), (2, False), (3, True), (4, True), (5, True)])
def test_shift_by_level_single(level, offered):
    """Lv1–2 shift 1 (9→10 does not beat 10); Lv3+ shift 2 (9→J beats 10; next needs > J)."""
    g = ngame(seat0({"henge": level}))
    hands = [["S9", "C4", "D5"], ["SJ", "SQ", "H4"], ["HJ", "CQ", "SA"], ["HQ", "CK", "S2"]]
    st = load(g, hands, to_play=0, field=single_field("HT"), points=[2, 0, 0, 0])
    assert (HENGE in jutsu_legal(g, st)) == offered
    if not offered:
        return
    step(g, st, HENGE)
    assert pos(g, st)["henge_shift"] == 2
    step(g, st, "S9")
    assert not is_legal(g, st, "SJ")
    assert is_legal(g, st, "SQ")


def test_shift_pair():
    g = ngame(seat0({"henge": 1}))
    hands = [["S9", "D9", "C4"], ["ST", "HT", "SJ", "HJ"], ["CQ", "SA", "S5"], ["HQ", "CK", "S2"]]
    st = load(g, hands, to_play=0, field={"cards": ["H9", "C9"], "owner": 3, "kind": "group"}, points=[2, 0, 0, 0])
    assert not is_legal(g, st, "S9 D9")
    step(g, st, HENGE)
    step(g, st, "S9 D9")
    assert not is_legal(g, st, "ST HT")
    assert is_legal(g, st, "SJ HJ")


@pytest.mark.parametrize("level,offered", [(1, False), (3, True)])
def test_shift_sequence_and_no_eight_cut_from_boost(level, offered):
    """♠5♠6♠7 on ♣4♣5♣6: shift 1 → 6..8 (no), shift 2 → 7..9 (yes). The natural ranks 5..7 hold no
    8, so there is no 8-cut; the next sequence must start above 9."""
    g = ngame(seat0({"henge": level}))
    hands = [["S5", "S6", "S7", "H3"], ["D9", "DT", "DJ", "DQ"], ["CQ", "SA", "H5"], ["HQ", "CK", "S2"]]
    st = load(g, hands, to_play=0, field={"cards": ["C4", "C5", "C6"], "owner": 3, "kind": "sequence"},
              points=[2, 0, 0, 0])
    assert (HENGE in jutsu_legal(g, st)) == offered
    if not offered:
        return
    step(g, st, HENGE)
    step(g, st, "S5 S6 S7")
    p = pos(g, st)
    assert p["field"] is not None and p["to_play"] == 1  # no 8-cut
    assert not is_legal(g, st, "D9 DT DJ")
    assert is_legal(g, st, "DT DJ DQ")


def test_boost_capped_at_two():
    """Effective rank = min(r + k, 12): an A boosted by 2 counts as a 2, beating an A; then no
    natural single (not even a 2) beats it — only the joker."""
    g = ngame(seat0({"henge": 3}))
    hands = [["SA", "C4"], ["H2", "JK", "C5"], ["CQ", "S5", "H5"], ["HQ", "CK", "S2"]]
    st = load(g, hands, to_play=0, field=single_field("HA"), points=[2, 0, 0, 0])
    step(g, st, HENGE)
    step(g, st, "SA")
    assert not is_legal(g, st, "H2")
    assert is_legal(g, st, "JK")


@pytest.mark.parametrize("level,pts,offered", [(4, 6, False), (5, 0, False), (5, 1, True)])
def test_lv5_ignores_the_lock_cost_1(level, pts, offered):
    g = ngame(seat0({"henge": level}))
    hands = [["H9", "C4", "D5"], ["SJ", "SQ", "HK"], ["CQ", "SA", "H5"], ["HQ", "CK", "S2"]]
    st = load(g, hands, to_play=0, field=single_field("ST"), lock=["S"], points=[pts, 0, 0, 0])
    assert (HENGE in jutsu_legal(g, st)) == offered
    if not offered:
        return
    step(g, st, HENGE)
    p = pos(g, st)
    assert p["lock_ignored"] is True and p["henge_shift"] == 2 and p["points"][0] == 0
    assert is_legal(g, st, "H9")  # ♥ under a ♠-lock, boosted 9 → J
    step(g, st, "H9")
    p = pos(g, st)
    assert p["lock"] == ["S"]  # §5.7-2: the lock stays
    assert p["points"][0] == 1
    assert not is_legal(g, st, "SJ")  # J does not beat the boosted J
    assert is_legal(g, st, "SQ")
    assert not is_legal(g, st, "HK")  # still ♠-locked for the next player


@pytest.mark.parametrize("level", [3, 4])
def test_below_lv5_the_lock_holds(level):
    g = ngame(seat0({"henge": level}))
    hands = [["S9", "H9", "C4"], ["SJ", "SQ", "HK"], ["CQ", "SA", "H5"], ["HQ", "CK", "S2"]]
    st = load(g, hands, to_play=0, field=single_field("ST"), lock=["S"], points=[2, 0, 0, 0])
    step(g, st, HENGE)
    assert pos(g, st)["lock_ignored"] is False
    assert is_legal(g, st, "S9")
    assert not is_legal(g, st, "H9")


def test_reverse_direction_and_natural_eight_cut():
    """In revolution the boost goes down: a 9 boosted by 1 counts as an 8 (beats 9) but is no
    8-cut; the next player needs < 8 (an 8 does not beat it, a 7 does)."""
    g = ngame(seat0({"henge": 1}))
    hands = [["S9", "CK", "DA"], ["D8", "S7", "HQ"], ["CQ", "SA", "H5"], ["HK", "C2", "S2"]]
    st = load(g, hands, to_play=0, field=single_field("H9"), revolution=True, points=[2, 0, 0, 0])
    assert not is_legal(g, st, "S9")
    step(g, st, HENGE)
    step(g, st, "S9")
    p = pos(g, st)
    assert p["field"] is not None and p["to_play"] == 1
    assert p["points"][0] == 1  # single +1, no 8-cut bonus
    assert not is_legal(g, st, "D8")
    assert is_legal(g, st, "S7")


def test_boosted_seven_is_not_an_eight_cut():
    g = ngame(seat0({"henge": 1}))
    hands = [["S7", "C4", "D5"], ["D8", "S9", "H4"], ["CQ", "SA", "H5"], ["HQ", "CK", "S2"]]
    st = load(g, hands, to_play=0, field=single_field("H7"), points=[2, 0, 0, 0])
    step(g, st, HENGE)
    step(g, st, "S7")
    p = pos(g, st)
    assert p["field"] is not None and p["to_play"] == 1
    assert p["points"][0] == 1  # +1 single only
    assert not is_legal(g, st, "D8")  # the 7 counts as an 8
    assert is_legal(g, st, "S9")


def test_boosted_eight_is_still_an_eight_cut():
    g = ngame(seat0({"henge": 1}))
    hands = [["S8", "C4", "D5"], ["D9", "S9", "H4"], ["CQ", "SA", "H5"], ["HQ", "CK", "S2"]]
    st = load(g, hands, to_play=0, field=single_field("H7"), points=[2, 0, 0, 0])
    assert HENGE in jutsu_legal(g, st)
    step(g, st, HENGE)
    step(g, st, "S8")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0  # 8-cut: the player leads
    assert p["points"][0] == 2  # single +1, 8-cut +1


@pytest.mark.parametrize("hand,offered", [(["JK", "S4", "D5"], False), (["JK", "S9", "C4"], True)])
def test_not_with_the_joker_single(hand, offered):
    g = ngame(seat0({"henge": 1}))
    hands = [hand] + OTHERS
    st = load(g, hands, to_play=0, field=single_field("H9"), points=[2, 0, 0, 0])
    assert is_legal(g, st, "JK")  # legal without 変化
    assert (HENGE in jutsu_legal(g, st)) == offered
    if offered:
        step(g, st, HENGE)
        assert not is_legal(g, st, "JK")
        assert is_legal(g, st, "S9")


def test_not_against_a_joker_single_field():
    """§5.5-3: on a strong joker single only ♠3 is legal, not even with 変化."""
    g = ngame(seat0({"henge": 3}))
    hands = [["D2", "HA", "C4"]] + OTHERS
    st = load(g, hands, to_play=0, field=single_field("JK"), points=[2, 0, 0, 0])
    assert HENGE not in jutsu_legal(g, st)


REV_CASES = {
    # In revolution, four 7s boosted by 2 would count as 5s and beat four 6s — but it is a revolution play.
    "quad": dict(hand=["S7", "H7", "D7", "C7", "S4"], revolution=True,
                 field={"cards": ["S6", "H6", "D6", "C6"], "owner": 3, "kind": "group"}),
    "joker_quad": dict(hand=["S7", "H7", "D7", "JK", "S4"], revolution=True,
                       field={"cards": ["S6", "H6", "D6", "C6"], "owner": 3, "kind": "group"}),
    # ♠5..♠8 boosted by 2 would be 7..T and beat ♥3..♥6 — but a 4-card sequence is a revolution play.
    "seq4": dict(hand=["S5", "S6", "S7", "S8", "C4"], revolution=False,
                 field={"cards": ["H3", "H4", "H5", "H6"], "owner": 3, "kind": "sequence"}),
}


@pytest.mark.parametrize("case", sorted(REV_CASES))
def test_not_with_revolution_plays(case):
    c = REV_CASES[case]
    g = ngame(seat0({"henge": 3}))
    others = [["D5", "DT", "CJ"], ["DJ", "CQ", "DA"], ["D9", "CK", "S2"]]
    st = load(g, [c["hand"]] + others, to_play=0, field=c["field"], revolution=c["revolution"],
              points=[6, 0, 0, 0])
    assert HENGE not in jutsu_legal(g, st)


@pytest.mark.parametrize("level,offered", [(1, False), (3, True)])
def test_reverse_direction_triple_control(level, offered):
    """Control for the revolution-play exclusion: three 7s (no revolution) in revolution vs three 6s:
    shift 1 → 6 (does not beat 6), shift 2 → 5 (beats 6)."""
    g = ngame(seat0({"henge": level}))
    hands = [["S7", "H7", "D7", "S4"], ["S5", "HT", "CJ"], ["HJ", "CQ", "SA"], ["S9", "CK", "S2"]]
    st = load(g, hands, to_play=0, field={"cards": ["S6", "H6", "D6"], "owner": 3, "kind": "group"},
              revolution=True, points=[6, 0, 0, 0])
    assert (HENGE in jutsu_legal(g, st)) == offered
    if offered:
        step(g, st, HENGE)
        assert is_legal(g, st, "S7 H7 D7")
        step(g, st, "S7 H7 D7")
        assert pos(g, st)["revolution"] is True
        assert points(g, st)[0] == 6 - 2 + 2


def test_not_offered_when_no_play_becomes_legal():
    g = ngame(seat0({"henge": 5}))
    hands = [["S4", "C5", "D6"]] + OTHERS
    st = load(g, hands, to_play=0, field=single_field("HK"), points=[6, 0, 0, 0])
    assert HENGE not in jutsu_legal(g, st)


@pytest.mark.parametrize("hand,offered", [(["JK"], False), (["JK", "S3"], True), (["D7"], True)])
def test_on_a_lead_offered_exactly_with_a_non_joker_card(hand, offered):
    """On an empty field any non-joker single is a legal boosted lead; the joker single does not count."""
    g = ngame(seat0({"henge": 1}))
    hands = [hand, ["SJ", "SQ", "H4"], ["HJ", "CQ", "SA"], ["HQ", "CK", "S2"]]
    st = load(g, hands, to_play=0, points=[2, 0, 0, 0])
    assert (HENGE in jutsu_legal(g, st)) == offered
