"""What a seat observes: the turn, the passes, the 手裏剣 target, the schools, card counts, `known`.

Expected values come from the rules (whose turn it is, who passed, where a 手裏剣 card goes, each
seat's loadout, how many cards a hand holds) and from the observation's documented layout (blocks
by name, seats relative to the observer: self, +1, +2, +3). The last test re-deals the cards a seat
cannot see and checks that its observation does not change.
"""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.ninja_daifugo.cards import BIT, NUM_CARDS, unpack_bits
from yuugi.envs.ninja_daifugo.observation import OFFSETS

from .ninja_helpers import PASS, PICK, SHU, ngame, seat0
from .scenario_helpers import card_index, game, load, pos, step

SCHOOL_COLUMN = {None: 0, "rai": 1, "henge": 2, "bogai": 3}  # the documented order: none, 雷, 変化, 妨害
# The largest hand the rules allow: the dealer's 14 cards (53 dealt to four seats) plus one 手裏剣
# card from each of the three opponents per use, at most 3 uses each (Lv4-5) — 14 + 3 * 3.
LARGEST_HAND = 23


def block(g, st, observer: int, name: str) -> np.ndarray:
    return g.observe(st, observer)[0, OFFSETS[name]]


def one_hot(index: int | None, width: int) -> list[float]:
    v = [0.0] * width
    if index is not None:
        v[index] = 1.0
    return v


# ---- whose turn it is ------------------------------------------------------------------------------
def test_the_seat_to_play_is_seen_relative_to_each_observer():
    g = game()
    st = load(g, [["S5", "H9"], ["S6", "HT"], ["S7", "HJ"], ["S9", "HQ"]], to_play=2)
    # Seat 2 is +2 after seat 0, +1 after seat 1, the observer itself for seat 2, +3 after seat 3.
    for observer, relative in [(0, 2), (1, 1), (2, 0), (3, 3)]:
        assert block(g, st, observer, "to_play").tolist() == one_hot(relative, 4), observer


def test_the_turn_moves_on_after_a_play():
    g = game()
    st = load(g, [["S5", "H9"], ["S6", "HT"], ["S7", "HJ"], ["S9", "HQ"]], to_play=0)
    step(g, st, "S5")  # seat 1 answers next
    assert block(g, st, 0, "to_play").tolist() == one_hot(1, 4)
    assert block(g, st, 1, "to_play").tolist() == one_hot(0, 4)


def test_nobody_is_to_play_once_the_series_is_over():
    g = game(series_games=1)
    # Seats 1 and 3 are out; seat 0 plays its last card: 2nd place, seat 2 is last, the game ends.
    st = load(g, [["HA"], [], ["D3", "D4"], []], to_play=0, finish_positions=[None, 1, None, 2])
    step(g, st, "HA")
    assert bool(st.terminated[0])
    for observer in range(4):
        assert block(g, st, observer, "to_play").tolist() == one_hot(None, 4)


# ---- who passed ------------------------------------------------------------------------------------
HANDS = [["S5", "H9", "C4"], ["S3", "HT", "DJ"], ["S4", "HJ", "DQ"], ["S6", "HQ", "DK"]]


def test_the_seats_that_passed_on_the_field_play_are_seen():
    g = game()
    st = load(g, HANDS, to_play=0)
    assert block(g, st, 0, "passed").tolist() == [0, 0, 0, 0]
    for action in ("S5", "pass", "pass"):  # seat 0 leads; seats 1 and 2 pass; seat 3 to play
        step(g, st, action)
    assert pos(g, st)["to_play"] == 3
    # Seats 1 and 2 passed: +1 and +2 for seat 0, self and +1 for seat 1, +2 and +3 for seat 3.
    assert block(g, st, 0, "passed").tolist() == [0, 1, 1, 0]
    assert block(g, st, 1, "passed").tolist() == [1, 1, 0, 0]
    assert block(g, st, 3, "passed").tolist() == [0, 0, 1, 1]


def test_a_new_play_reopens_the_trick_to_those_who_passed():
    # §8 A1: a seat that passed may answer again when someone else plays, so its pass is forgotten.
    g = game()
    st = load(g, HANDS, to_play=0)
    for action in ("S5", "pass", "pass", "S6"):
        step(g, st, action)
    assert pos(g, st)["to_play"] == 0
    assert block(g, st, 0, "passed").tolist() == [0, 0, 0, 0]


def test_under_pass_lockout_the_passes_stay_for_the_whole_trick():
    # With pass_lockout a seat that passed stays out until the trick ends: after seat 3 beats the
    # ♠5, seats 1 and 2 are still out, and the observation must show it (the count alone would not
    # say which seats are out).
    g = game(pass_lockout=True)
    st = load(g, HANDS, to_play=0)
    for action in ("S5", "pass", "pass", "S6"):
        step(g, st, action)
    assert pos(g, st)["to_play"] == 0
    assert block(g, st, 0, "passed").tolist() == [0, 1, 1, 0]
    assert block(g, st, 3, "passed").tolist() == [0, 0, 1, 1]
    step(g, st, "pass")  # seat 0 passes too: nobody is left to answer, seat 3 leads a fresh trick
    assert pos(g, st)["to_play"] == 3 and pos(g, st)["field"] is None
    assert block(g, st, 3, "passed").tolist() == [0, 0, 0, 0]


# ---- the 手裏剣 target --------------------------------------------------------------------------
def test_a_pending_shuriken_target_is_seen_by_every_seat_including_the_target():
    g = ngame(seat0({"shuriken": 3}))  # Lv3+: any active opponent may be the target
    st = load(g, [["S5", "H9", "C4"], ["S6", "HT", "DJ"], ["S7", "HJ", "DQ"], ["S9", "HQ", "DK"]], to_play=0,
              points=[3, 0, 0, 0])
    for observer in range(4):
        assert block(g, st, observer, "shuriken_target").tolist() == one_hot(None, 4)
    step(g, st, SHU(2))  # 手裏剣 on seat 2 (+2 after seat 0): the card to throw is asked next
    assert pos(g, st)["phase"] == "shuriken"
    for observer, relative in [(0, 2), (1, 1), (2, 0), (3, 3)]:
        assert block(g, st, observer, "shuriken_target").tolist() == one_hot(relative, 4), observer
    step(g, st, PICK("H9"))  # thrown: nothing is pending any more
    for observer in range(4):
        assert block(g, st, observer, "shuriken_target").tolist() == one_hot(None, 4)


# ---- the schools -------------------------------------------------------------------------------------
def test_symmetric_mode_shows_each_opponents_school():
    schools = ["rai", "henge", "bogai", None]
    g = ngame([{"school": s} if s else {} for s in schools])
    st = g.init([0])
    for observer in range(4):
        seen = block(g, st, observer, "opponent_schools").reshape(3, 4)
        for d in (1, 2, 3):
            assert seen[d - 1].tolist() == one_hot(SCHOOL_COLUMN[schools[(observer + d) % 4]], 4), (observer, d)
        assert block(g, st, observer, "school").tolist() == one_hot(SCHOOL_COLUMN[schools[observer]], 4)


def test_faithful_mode_shows_the_configurable_seats_school_and_none_for_the_cpus():
    g = ngame({"jutsu": {"ashidome": 1}, "school": "henge"}, ninja="faithful")
    st = g.init([0])
    # Seat 0 (school 変化) is +3 after seat 1, +2 after seat 2, +1 after seat 3; the CPUs have none.
    assert block(g, st, 0, "opponent_schools").reshape(3, 4).tolist() == [one_hot(0, 4)] * 3
    for observer, d in [(1, 3), (2, 2), (3, 1)]:
        seen = block(g, st, observer, "opponent_schools").reshape(3, 4)
        for k in (1, 2, 3):
            want = SCHOOL_COLUMN["henge"] if k == d else SCHOOL_COLUMN[None]
            assert seen[k - 1].tolist() == one_hot(want, 4), (observer, k)


# ---- card counts ---------------------------------------------------------------------------------
def _deck(skip: set[str]) -> list[str]:
    return [c for c in ("S3 H3 D3 C3 S4 H4 D4 C4 S5 H5 D5 C5 S6 H6 D6 C6 S7 H7 D7 C7 S8 H8 D8 C8 S9 H9 D9 C9 "
                        "ST HT DT CT SJ HJ DJ CJ SQ HQ DQ CQ SK HK DK CK SA HA DA CA S2 H2 D2 C2 JK").split()
            if c not in skip]


@pytest.mark.parametrize("size", [16, 17, 18, LARGEST_HAND])
def test_hand_counts_are_divided_by_the_largest_hand_and_never_saturate(size):
    mine = ["S3", "H3"]
    big = _deck(set(mine))[:size]
    g = game()
    st = load(g, [mine, big, ["SA"], ["HA"]], to_play=0)
    counts = block(g, st, 0, "hand_counts")
    assert counts.tolist() == pytest.approx([2 / LARGEST_HAND, size / LARGEST_HAND, 1 / LARGEST_HAND,
                                             1 / LARGEST_HAND], abs=1e-7)
    assert block(g, st, 2, "hand_counts")[3] == pytest.approx(size / LARGEST_HAND, abs=1e-7)  # seat 1 is +3 of 2


def test_a_hand_of_the_largest_size_is_reached_in_play_and_observed_as_one():
    # Seat 0 holds 14 cards and only passes; seats 1-3 have 手裏剣 Lv5 (3 uses, cost 2) and 6 points,
    # and each throws one card at seat 0 on each of its three turns, then beats the field with a
    # higher single (D3: no lock; no 8, so no 8-cut). 14 + 9 = 23 cards.
    lv5 = {"jutsu": {"shuriken": 5}}
    g = ngame([{}, lv5, lv5, lv5], declarations=(3,))
    hands = [["C4", "C5", "C6", "C7", "C8", "C9", "CT", "CJ", "CQ", "CK", "CA", "C2", "D3", "D4"],
             ["S4", "S7", "SJ", "H4", "H5", "H6", "D5", "D6"],
             ["S5", "S9", "SQ", "H7", "H8", "H9", "D7", "D8"],
             ["S6", "ST", "SK", "HT", "HJ", "HQ", "D9", "DT"]]
    st = load(g, hands, to_play=1, field={"cards": ["C3"], "owner": 0, "kind": "single"}, points=[0, 6, 6, 6],
              declaration=3)
    plays = {1: ["S4", "S7", "SJ"], 2: ["S5", "S9", "SQ"], 3: ["S6", "ST", "SK"]}
    throws = {1: ["H4", "H5", "H6"], 2: ["H7", "H8", "H9"], 3: ["HT", "HJ", "HQ"]}
    for turn in range(3):
        for seat in (1, 2, 3):
            assert pos(g, st)["to_play"] == seat
            step(g, st, SHU(4 - seat))  # seat 0 is +3 after seat 1, +2 after seat 2, +1 after seat 3
            step(g, st, PICK(throws[seat][turn]))
            step(g, st, plays[seat][turn])
        step(g, st, PASS)  # seat 0 answers nothing
    assert len(pos(g, st)["hands"][0]) == LARGEST_HAND
    assert block(g, st, 0, "hand_counts")[0] == pytest.approx(1.0)
    assert block(g, st, 1, "hand_counts")[3] == pytest.approx(1.0)
    assert g.observe(st, 0).max() <= 1.0


# ---- 都落ち: the removed count and `known` ---------------------------------------------------------
def test_miyako_ochi_count_is_divided_by_the_largest_hand_and_clears_what_was_known_of_that_hand():
    # Game 2 of a series; seat 1 was 大富豪 and holds 18 cards, two of which (♠2 ♥2) seat 2 gave it in
    # tribute and so knows about. Seat 0 goes out first: seat 1 falls (都落ち), its 18 cards leave
    # the game face down, and nobody may go on "knowing" a card to be in seat 1's hand.
    seat1 = ["S2", "H2"] + _deck({"S2", "H2", "S9", "H6", "D6", "C6", "H4", "D4", "C4"})[:16]
    g = game(series_games=3)
    st = load(g, [["S9"], seat1, ["H6", "D6", "C6"], ["H4", "D4", "C4"]], to_play=0, game_index=1,
              titles=["fugo", "daifugo", "hinmin", "daihinmin"], miyako_candidate=1,
              known=[[[], [], [], []], [[], [], [], []], [[], ["S2", "H2"], [], []], [[], [], [], []]],
              given=[[], [], ["S2", "H2"], []], received=[[], ["S2", "H2"], [], []])
    # Seat 1 is +3 after seat 2: the third block of seat 2's "known in opponent hands".
    known_by_2 = block(g, st, 2, "known_in_opponent_hands").reshape(3, 53)
    assert sorted(np.flatnonzero(known_by_2[2]).tolist()) == sorted([card_index("S2"), card_index("H2")])
    assert block(g, st, 2, "removed_count")[0] == 0.0
    step(g, st, "S9")
    p = pos(g, st)
    assert p["finish_positions"][1] == 4 and len(p["removed"]) == 18
    assert all(p["known"][o][1] == [] for o in range(4))
    assert not block(g, st, 2, "known_in_opponent_hands").any()
    for observer in range(4):
        assert block(g, st, observer, "removed_count")[0] == pytest.approx(18 / LARGEST_HAND, abs=1e-7)
        assert block(g, st, observer, "hand_counts")[(1 - observer) % 4] == 0.0


# ---- no leak -------------------------------------------------------------------------------------
_CARD_FIELDS = ("hands", "played", "known", "given", "received", "discard", "removed", "field_cards", "picked")


def _remap(masks: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """Card c of every mask becomes card perm[c]."""
    bits = unpack_bits(masks)
    out = np.zeros(masks.shape, dtype=np.uint64)
    for c in np.flatnonzero(bits.reshape(-1, NUM_CARDS).any(axis=0)):
        out |= np.where(bits[..., c], BIT[perm[c]], np.uint64(0))
    return out


def _seen_by(st, i: int, observer: int) -> int:
    """Every card ``observer`` can see or knows the place of, in game ``i``."""
    seen = int(st.hands[i, observer]) | int(np.bitwise_or.reduce(st.known[i, observer]))
    seen |= int(st.given[i, observer]) | int(st.received[i, observer])
    seen |= int(np.bitwise_or.reduce(st.played[i])) | int(st.discard[i]) | int(st.field_cards[i])
    if st.to_play[i] == observer:
        seen |= int(st.picked[i])
    return seen


def _redeal(st, observer: int, rng: np.random.Generator):
    """A copy where the cards ``observer`` cannot see are swapped among their hidden places at random."""
    out = st.copy()
    for i in range(st.batch_size):
        hidden = [c for c in range(NUM_CARDS) if not (_seen_by(st, i, observer) >> c) & 1]
        perm = np.arange(NUM_CARDS)
        perm[hidden] = rng.permutation(hidden)
        for name in _CARD_FIELDS:
            getattr(out, name)[i] = _remap(getattr(st, name)[i], perm)
    return out


RULE_SETS = [
    {"ninja": "symmetric", "series_games": 3, "declarations": tuple(range(10)),
     "loadouts": [{"jutsu": {"shuriken": 3, "ashidome": 3}, "school": s} for s in ("rai", "henge", "bogai", None)]},
    {"ninja": "symmetric", "series_games": 2, "pass_lockout": True, "declarations": tuple(range(10)),
     "loadouts": {"jutsu": {"shuriken": 5, "ashidome": 5}, "school": "bogai", "gokui": True}},
    {"series_games": 3},
]


@pytest.mark.parametrize("options", RULE_SETS)
def test_no_observation_changes_when_the_unseen_cards_are_dealt_otherwise(options):
    g = ngame(**options) if "loadouts" in options else game(declarations=tuple(range(10)), ninja="faithful",
                                                            **options)
    rng = np.random.default_rng(5)
    st = g.init(np.arange(32))
    covered = {"passed": 0, "shuriken_target": 0, "removed_count": 0, "hidden_opponent_cards": 0}
    for t in range(360):
        if t % 12 == 0:
            for observer in range(4):
                obs = g.observe(st, observer)
                redealt = _redeal(st, observer, rng)
                assert np.array_equal(g.observe(redealt, observer), obs), (t, observer)
                for name in ("passed", "shuriken_target", "removed_count"):
                    covered[name] += int(obs[:, OFFSETS[name]].any(axis=1).sum())
                covered["hidden_opponent_cards"] += int((redealt.hands != st.hands).any())
        mask = g.legal_mask(st)
        live = mask.any(axis=1)
        u = rng.random(mask.shape)
        g.step(st, np.where(live, np.where(mask, u, -1.0).argmax(axis=1), 0))
        done = np.flatnonzero(st.done)
        if done.size:
            st.put(done, g.init(rng.integers(1 << 30, size=done.size)))
    # The property was tried where it matters: passes, pending throws, 都落ち, and re-deals that moved cards.
    assert covered["passed"] and covered["hidden_opponent_cards"], covered
    if options.get("ninja") == "symmetric":
        assert covered["shuriken_target"], covered
    if options.get("series_games", 1) > 1 and options.get("miyako_ochi", True):
        assert covered["removed_count"], covered
