"""忍法ポイント gains — rules file §2.3 (point table), §1 items 6–7 (cap 6, schools), §2.2 D6,
§5.7-4, §8 A26, A33, §9 scenarios 4 and 13.

Single/pair +1, triple +2, 3-card sequence +2, revolution play (group of 4–5, sequence of 4+) +3;
bonuses: triggered a lock +1, 8-cut +1, ♠3 return +2; school 雷 +1 when the play cleared the field
(8-cut, ♠3 return), school 変化 +1 for any sequence. Then ×2 under D6, then capped at 6.
"""
from __future__ import annotations

import pytest

from .ninja_helpers import PASS, load, ngame, points, pos, seat0, step

OTHERS = [["HK", "CK"], ["DK", "HA"], ["CA", "DA"]]
EXTRA = ["C2", "D2"]  # keeps the player from going out

LEADS = [
    ("S5", 1),
    ("JK", 1),
    ("S5 H5", 1),
    ("S5 JK", 1),
    ("S5 H5 D5", 2),
    ("S5 H5 JK", 2),
    ("S4 S5 S6", 2),
    ("S4 JK(S5) S6", 2),
    ("S5 H5 D5 C5", 3),  # revolution
    ("S5 H5 D5 JK", 3),  # revolution (joker counts toward 4)
    ("S5 H5 D5 C5 JK", 3),  # quintuple
    ("S4 S5 S6 S7", 3),  # sequence revolution
    ("H3 H4 H5 H6 H7", 3),
    ("S4 S5 S6 JK(S7)", 3),
    ("S8", 2),  # 8-cut +1
    ("JK(S8) S9 ST", 3),  # joker standing for the 8 in a sequence: 8-cut
    ("S8 H8", 2),
    ("S8 H8 D8", 3),
    ("S6 S7 S8", 3),  # sequence spanning 8
    ("S8 H8 D8 C8", 4),  # revolution + 8-cut
    ("S6 S7 S8 S9", 4),
]


def _cards_of(play: str) -> list[str]:
    return [("JK" if t.startswith("JK") else t) for t in play.split()]


@pytest.mark.parametrize("play,gain", LEADS, ids=[p for p, _ in LEADS])
def test_point_table_on_a_lead(play, gain):
    g = ngame()
    st = load(g, [_cards_of(play) + EXTRA] + OTHERS, to_play=0)
    step(g, st, play)
    assert points(g, st) == [gain, 0, 0, 0]


@pytest.mark.parametrize("play,gain", LEADS, ids=[p for p, _ in LEADS])
def test_d6_doubles_gains_cap_unchanged(play, gain):
    g = ngame(declarations=(6,))
    st = load(g, [_cards_of(play) + EXTRA] + OTHERS, to_play=0, declaration=6)
    step(g, st, play)
    assert points(g, st) == [min(2 * gain, 6), 0, 0, 0]


ANSWERS = [
    # (field cards, field kind, lock before, play, gain, lock after)
    (["S5"], "single", None, "S7", 2, ["S"]),  # ♠ on ♠ ⇒ lock +1
    (["S5"], "single", None, "H7", 1, None),
    (["S5", "H5"], "group", None, "S9 H9", 2, ["S", "H"]),
    (["S5", "H5"], "group", None, "S9 D9", 1, None),  # 片縛り: no lock
    (["S5", "H5", "D5"], "group", None, "S9 H9 D9", 3, ["S", "H", "D"]),
    (["C4", "C5", "C6"], "sequence", None, "C9 CT CJ", 3, ["C"]),
    (["C4", "C5", "C6"], "sequence", None, "H9 HT HJ", 2, None),
    (["S5"], "single", None, "JK", 1, None),  # a joker play never triggers a lock
    (["S5", "H5"], "group", None, "S9 JK", 1, None),
    (["S5"], "single", ["S"], "S9", 1, ["S"]),  # already locked: nothing newly triggered
    (["S5"], "single", None, "S8", 3, None),  # triggers the ♠-lock (§5.7-2), then 8-cuts (§5.7-6): flushed
    (["S5"], "single", None, "H8", 2, None),
]


@pytest.mark.parametrize("field,kind,lock,play,gain,lock_after", ANSWERS, ids=[f"{a[0]}-{a[3]}" for a in ANSWERS])
def test_lock_trigger_bonus(field, kind, lock, play, gain, lock_after):
    g = ngame()
    st = load(g, [_cards_of(play) + EXTRA] + OTHERS, to_play=0, lock=lock,
              field={"cards": field, "owner": 3, "kind": kind})
    step(g, st, play)
    assert points(g, st) == [gain, 0, 0, 0]
    lk = pos(g, st)["lock"]
    assert (sorted(lk) if lk else None) == (sorted(lock_after) if lock_after else None)


def test_scenario_4_spade3_return():
    """§9-4: ♠5 → joker single → ♠3 ⇒ flush, no lock, the ♠3 player +1+2 and leads."""
    g = ngame()
    hands = [["S5", "C9"], ["JK", "D9"], ["S3", "H9"], ["S9", "CT"]]
    st = load(g, hands, to_play=0)
    step(g, st, "S5")
    step(g, st, "JK")
    assert pos(g, st)["lock"] is None
    step(g, st, "S3")
    p = pos(g, st)
    assert p["field"] is None
    assert p["lock"] is None
    assert p["to_play"] == 2
    assert p["points"] == [1, 1, 3, 0]


@pytest.mark.parametrize("school,play,field,gain", [
    ("rai", "S8", None, 3),  # 8-cut cleared the field: +1
    ("rai", "S6 S7 S8", None, 4),
    ("rai", "S3", ["JK"], 4),  # ♠3 return: 1 + 2 + 1
    ("rai", "S5", None, 1),
    ("rai", "S4 S5 S6", None, 2),
    ("henge", "S4 S5 S6", None, 3),  # any sequence: +1
    ("henge", "S4 S5 S6 S7", None, 4),
    ("henge", "H3 H4 H5 H6 H7", None, 4),
    ("henge", "S4 JK(S5) S6", None, 3),
    ("henge", "S6 S7 S8", None, 4),  # no 雷 bonus for the 8-cut
    ("henge", "S5 H5", None, 1),
    ("henge", "S5 H5 D5 C5", None, 3),
    ("henge", "S5", None, 1),
    ("bogai", "S8", None, 2),
    ("bogai", "S4 S5 S6", None, 2),
    ("bogai", "S3", ["JK"], 3),
])
def test_school_bonuses_for_plays(school, play, field, gain):
    g = ngame(seat0(school=school))
    f = None if field is None else {"cards": field, "owner": 3, "kind": "single"}
    st = load(g, [_cards_of(play) + EXTRA] + OTHERS, to_play=0, field=f)
    step(g, st, play)
    assert points(g, st) == [gain, 0, 0, 0]


def test_school_rai_no_bonus_for_an_all_pass_clear():
    """A26: only a play that clears the field (8-cut, ♠3 return) counts, not everyone passing."""
    g = ngame(seat0(school="rai"))
    st = load(g, [["S5", "C2"]] + OTHERS, to_play=0)
    step(g, st, "S5")
    assert points(g, st)[0] == 1
    for _ in range(3):
        step(g, st, PASS)
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0
    assert p["points"] == [1, 0, 0, 0]


def test_school_bonus_only_for_its_seat():
    """A school belongs to one seat; the others' plays get the plain table."""
    g = ngame([{"school": "rai"}, {}, {"school": "henge"}, {}])
    hands = [["S8", "C2"], ["H8", "D2"], ["H4", "H5", "H6", "CA"], ["C4", "C5", "C6", "DA"]]
    st = load(g, hands, to_play=1)
    step(g, st, "H8")  # seat 1, no school: 8-cut 1 + 1
    assert points(g, st) == [0, 2, 0, 0]
    st = load(g, hands, to_play=3)
    step(g, st, "C4 C5 C6")  # seat 3, no school: 3-seq 2
    assert points(g, st) == [0, 0, 0, 2]
    st = load(g, hands, to_play=2)
    step(g, st, "H4 H5 H6")  # seat 2, school 変化 (symmetric mode): 2 + 1
    assert points(g, st) == [0, 0, 3, 0]


def test_d6_doubles_school_bonus():
    g = ngame(seat0(school="rai"), declarations=(6,))
    st = load(g, [["S8", "C2"]] + OTHERS, to_play=0, declaration=6)
    step(g, st, "S8")
    assert points(g, st)[0] == 6  # (1 + 1 + 1) × 2


def test_d6_spade3_return():
    g = ngame(declarations=(6,))
    st = load(g, [["S3", "C2"]] + OTHERS, to_play=0, declaration=6,
              field={"cards": ["JK"], "owner": 3, "kind": "single"})
    step(g, st, "S3")
    assert points(g, st)[0] == 6  # (1 + 2) × 2


@pytest.mark.parametrize("start,play,school,decl,expected", [
    (5, "S5 H5 D5", None, 0, 6),  # +2 → 7, capped
    (6, "S5", None, 0, 6),
    (4, "S5 H5 D5 C5", None, 0, 6),
    (5, "S4 S5 S6 S7", "henge", 0, 6),  # §9-13: +3 revolution +1 school ⇒ 6, the rest lost
    (3, "S4 S5 S6", "henge", 0, 6),
    (5, "S5", None, 6, 6),  # D6: +2 → 7, capped at 6
    (3, "S5 H5 D5", None, 6, 6),
    (4, "S5", None, 6, 6),
    (3, "S5", None, 6, 5),
])
def test_cap_at_6_excess_lost(start, play, school, decl, expected):
    g = ngame(seat0(school=school), declarations=(decl,))
    st = load(g, [_cards_of(play) + EXTRA] + OTHERS, to_play=0, points=[start, 1, 2, 3], declaration=decl)
    step(g, st, play)
    assert points(g, st) == [expected, 1, 2, 3]


def test_scenario_13_school_henge_four_card_sequence():
    """§9-13: the human (school 変化) at 5 points plays a 4-card sequence (+3 revolution, +1 school)
    ⇒ 6, the rest is lost — and the excess is really gone afterwards."""
    g = ngame(seat0(school="henge"), ninja="symmetric")
    st = load(g, [["S4", "S5", "S6", "S7", "C2", "D2"]] + OTHERS, to_play=0, points=[5, 0, 0, 0])
    step(g, st, "S4 S5 S6 S7")
    p = pos(g, st)
    assert p["points"][0] == 6
    assert p["revolution"] is True


def test_scenario_13_faithful_mode():
    g = ngame({"jutsu": {"henge": 1}, "school": "henge"}, ninja="faithful")
    st = load(g, [["S4", "S5", "S6", "S7", "C2", "D2"]] + OTHERS, to_play=0, points=[5, 0, 0, 0])
    step(g, st, "S4 S5 S6 S7")
    assert points(g, st)[0] == 6


def test_no_points_for_passing_or_being_skipped():
    g = ngame()
    hands = [["S5", "C2"], ["S6", "D2"], ["S7", "HA"], ["S9", "DA"]]
    st = load(g, hands, to_play=1, field={"cards": ["D3"], "owner": 0, "kind": "single"},
              skip_pending=[0, 0, 1, 0], points=[1, 2, 3, 4])
    step(g, st, PASS)  # seat 1 passes, seat 2 is skipped
    p = pos(g, st)
    assert p["to_play"] == 3
    assert p["points"] == [1, 2, 3, 4]
    step(g, st, PASS)  # trick ends, seat 0 leads
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0
    assert p["points"] == [1, 2, 3, 4]


def test_points_go_to_the_acting_player_only():
    g = ngame()
    hands = [["S5", "C2"], ["S7", "D2"], ["S9", "HA"], ["SJ", "DA"]]
    st = load(g, hands, to_play=0, points=[0, 1, 1, 1])
    step(g, st, "S5")  # +1
    step(g, st, "S7")  # +1 single, +1 lock (♠ on ♠)
    assert points(g, st) == [1, 3, 1, 1]
    assert pos(g, st)["lock"] == ["S"]
    step(g, st, "S9")  # already locked: +1
    assert points(g, st) == [1, 3, 2, 1]
