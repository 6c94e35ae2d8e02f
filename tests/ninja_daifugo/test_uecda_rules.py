"""The UECda competition's standard game (``rules="uecda"``): one scenario per rule that differs
from the ninja game (a position, a move, the outcome the UECda rules require), then the preset's
shape, conformance, the AEC face, and random and heuristic play over it.

Expected values come from the UECda rules as ``docs/rules/ninja_daifugo.md`` ("The UECda game")
states them: 5 players, the owner of the field may play on its own cards and the field flows only
once every player still in has passed, a pass locks the player out of the trick, sequences of 3+,
revolution by a group of 4+ or a sequence of 5+, 8-cut, the ♠3 beats only a lone joker, the lock on
equal suit sets (the joker single resets it), no 都落ち / 11-back / 5-skip, the ♦3 holder leads, the
exchange, 5..1 points, 20 passes in a row end the game.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from yuugi.envs import conformance, make_game, make_raw
from yuugi.envs.core.errors import OptionError, PositionError
from yuugi.envs.ninja_daifugo import actions as A

from .scenario_helpers import ALL_CARDS, act, legal, legal_labels, pos, step, steps, strongest

N = 5
POINTS = (5.0, 4.0, 3.0, 2.0, 1.0)  # 大富豪, 富豪, 平民, 貧民, 大貧民


def uecda(**options: Any):
    opts: dict[str, Any] = {"rules": "uecda", "series_games": 1}
    opts.update(options)
    return make_game("ninja_daifugo", **opts)


def position(hands: list[list[str]], to_play: int = 0, field: dict | None = None, **extra: Any) -> dict:
    """A five-player position; every card not in a hand or on the field is in the discard."""
    used = {c for h in hands for c in h} | set(field["cards"] if field else [])
    pos_: dict[str, Any] = {"hands": [list(h) for h in hands], "to_play": to_play, "field": field,
                            "discard": [c for c in ALL_CARDS if c not in used]}
    pos_.update(extra)
    return pos_


def load(g, hands, to_play=0, field=None, seed=0, **extra):
    return g.from_position(position(hands, to_play, field, **extra), seed=seed)


def single(card: str, owner: int) -> dict:
    return {"cards": [card], "owner": owner, "kind": "single"}


HANDS = [["S4", "S5", "D9"], ["H4", "HK"], ["C4", "CQ"], ["D4", "DQ"], ["H6", "C6"]]


# ---- the preset -----------------------------------------------------------------------------------
def test_preset_is_five_players_one_joker_and_the_daifugo_action_space():
    g = uecda()
    assert g.num_players == 5 and g.num_actions == 2389 == A.NUM_ACTIONS
    assert g.agent_names == tuple(f"player_{p}" for p in range(5))
    st = g.init(np.arange(20))
    assert (np.bitwise_count(np.bitwise_or.reduce(st.hands, axis=1)) == 53).all()  # 52 cards and one joker
    sizes = np.sort(np.bitwise_count(st.hands), axis=1)
    assert (sizes == [10, 10, 11, 11, 11]).all()  # 53 cards dealt to five
    assert g.config.ninja == "off" and g.config.declarations == (0,) and not g.config.miyako_ochi
    assert (st.declaration == 0).all() and (st.levels == 0).all()
    obs = g.observe(st, 0)
    assert obs.shape == (20, g.observation_shape[0]) and g.observation_shape[0] != 901
    env = make_raw("ninja_daifugo", rules="uecda")
    assert len(env.possible_agents) == 5


@pytest.mark.parametrize("options", [{"ninja": "faithful"}, {"declarations": (0, 1)}, {"miyako_ochi": True},
                                     {"pass_lockout": False}, {"rules": "uecda2"}])
def test_preset_refuses_what_it_fixes(options):
    with pytest.raises(OptionError):
        uecda(**options)


def test_uecda_options_belong_to_the_uecda_rules():
    with pytest.raises(OptionError, match="seat_change_every"):
        make_game("ninja_daifugo", seat_change_every=3)
    with pytest.raises(OptionError, match="class_reset_every"):
        make_game("ninja_daifugo", class_reset_every=3)


# ---- the trick ------------------------------------------------------------------------------------
def test_owner_is_asked_again_when_everyone_else_passed_and_may_play_on_its_own_cards():
    g = uecda()
    st = load(g, HANDS, 0)
    steps(g, st, ["S4", "pass", "pass", "pass", "pass"])
    assert int(st.to_play[0]) == 0 and pos(g, st)["field"]["cards"] == ["S4"]
    assert legal(g, st, "S5")  # over its own S4
    step(g, st, "S5")
    assert pos(g, st)["field"]["cards"] == ["S5"] and int(st.to_play[0]) == 0  # the others are out of the trick


def test_field_flows_when_the_owner_passes_too_and_the_owner_leads():
    g = uecda()
    st = load(g, HANDS, 0)
    steps(g, st, ["S4", "pass", "pass", "pass", "pass", "pass"])
    p = pos(g, st)
    assert p["field"] is None and int(st.to_play[0]) == 0 and p["passed"] == [False] * 5


def test_a_pass_locks_the_player_out_of_the_trick():
    g = uecda()
    st = load(g, HANDS, 0)
    steps(g, st, ["S4", "pass"])  # player 1 passes
    step(g, st, "CQ")  # player 2 answers
    order = []
    for _ in range(3):
        order.append(int(st.to_play[0]))
        step(g, st, "pass")
    assert order == [3, 4, 0]  # player 1 is skipped
    assert int(st.to_play[0]) == 2  # everyone else passed: the owner again


def test_flow_after_the_owner_went_out_comes_at_the_pass_of_every_player_still_in():
    g = uecda()
    hands = [["S5"], ["H4", "HK"], ["C4", "CQ"], ["D4", "DQ"], ["H6", "C6"]]
    st = load(g, hands, 0)
    step(g, st, "S5")  # player 0 goes out
    assert pos(g, st)["finish_positions"][0] == 1
    for k in range(3):
        step(g, st, "pass")
        assert pos(g, st)["field"] is not None, f"flowed after {k + 1} passes"
    step(g, st, "pass")  # the (5 - 1)-th pass
    assert pos(g, st)["field"] is None and int(st.to_play[0]) == 1  # the next player after the last to play


def test_a_lead_may_pass_and_the_leader_leads_again_when_everyone_passed():
    g = uecda()
    st = load(g, HANDS, 2)
    assert legal(g, st, "pass")
    steps(g, st, ["pass"] * 5)
    assert int(st.to_play[0]) == 2 and pos(g, st)["responses"] == 5


def test_twenty_passes_in_a_row_end_the_game_with_the_places_left_drawn_at_random():
    g = uecda()
    hands = [[], ["H4", "HK"], ["C4", "CQ"], ["D4", "DQ"], ["H6", "C6"]]
    places = []
    for seed in range(12):
        st = load(g, hands, 1, finish_positions=[1, None, None, None, None], responses=19, seed=seed)
        step(g, st, "pass")
        assert st.terminated[0]
        finish = [int(x) for x in st.finish_pos[0]]
        assert finish[0] == 1 and sorted(finish) == [1, 2, 3, 4, 5]
        assert st.rewards[0].tolist() == [POINTS[f - 1] for f in finish]
        places.append(tuple(finish))
    assert len(set(places)) > 1  # drawn, not fixed


def test_a_play_resets_the_count_of_passes():
    g = uecda()
    st = load(g, HANDS, 1, responses=12)
    step(g, st, "H4")
    assert pos(g, st)["responses"] == 0


# ---- shapes, revolution, 8-cut, ♠3 ------------------------------------------------------------------
def test_sequences_are_three_or_more_of_one_suit():
    g = uecda()
    hands = [["S3", "S4", "S5", "S6", "H7"], ["H4", "HK"], ["C4", "CQ"], ["D4", "DQ"], ["H6", "C6"]]
    st = load(g, hands, 0)
    labels = legal_labels(g, st)
    assert {"S3 S4 S5", "S4 S5 S6", "S3 S4 S5 S6"} <= labels and "S5 S6 H7" not in labels


@pytest.mark.parametrize("play, revolution", [
    ("S3 S4 S5 S6", False),  # a sequence of 4 is no revolution here
    ("S3 S4 S5 S6 S7", True),
    ("S9 H9 D9 C9", True),
    ("S9 H9 D9 C9 JK", True),  # the quintuple
    ("S9 H9 D9", False),
])
def test_revolution_by_a_group_of_four_or_a_sequence_of_five(play, revolution):
    g = uecda()
    hands = [["S3", "S4", "S5", "S6", "S7", "S9", "H9", "D9", "C9", "JK", "SK"],
             ["H4", "HK"], ["C4", "CQ"], ["D4", "DQ"], ["H6", "C6"]]
    st = load(g, hands, 0)
    step(g, st, play)
    assert bool(st.revolution[0]) is revolution


def test_revolution_toggles_back():
    g = uecda()
    hands = [["S9", "H9", "D9", "C9", "S3"], ["S5", "H5", "D5", "C5", "H4"], ["C4", "CQ"], ["D4", "DQ"],
             ["H6", "C6"]]
    st = load(g, hands, 0)
    step(g, st, "S9 H9 D9 C9")
    assert st.revolution[0]
    step(g, st, "S5 H5 D5 C5")  # lower beats higher under revolution, and a second revolution turns it back
    assert not st.revolution[0]


def test_any_play_whose_ranks_contain_an_eight_cuts():
    g = uecda()
    hands = [["S7", "S8", "S9", "D3"], ["H4", "HK"], ["C4", "CQ"], ["D4", "DQ"], ["H6", "C6"]]
    st = load(g, hands, 0, field={"cards": ["S4", "S5", "S6"], "owner": 4, "kind": "sequence"})
    step(g, st, "S7 S8 S9")
    p = pos(g, st)
    assert p["field"] is None and int(st.to_play[0]) == 0


def test_spade_three_beats_only_a_lone_joker_and_clears_the_field():
    g = uecda()
    hands = [["S3", "D5"], ["H4", "HK"], ["C4", "CQ"], ["D4", "DQ"], ["H6", "C6"]]
    st = load(g, hands, 0, field=single("JK", 3))
    assert legal_labels(g, st) == {"pass", "S3"}
    step(g, st, "S3")
    assert pos(g, st)["field"] is None and int(st.to_play[0]) == 0
    st = load(g, hands, 0, field=single("S2", 3))
    assert not legal(g, st, "S3")


# ---- the lock -------------------------------------------------------------------------------------
def test_equal_suit_sets_lock_until_the_field_clears():
    g = uecda()
    hands = [["H7", "S9"], ["H9", "SK"], ["C4", "CQ"], ["D4", "DQ"], ["H6", "C6"]]
    st = load(g, hands, 0, field=single("H5", 4))
    step(g, st, "H7")
    assert pos(g, st)["lock"] == ["H"]
    assert legal(g, st, "H9") and not legal(g, st, "SK")


def test_a_group_with_the_joker_locks_when_its_joker_can_take_the_missing_suit():
    g = uecda()
    hands = [["S9", "JK", "D3"], ["H9", "SK"], ["C4", "CQ"], ["D4", "DQ"], ["H6", "C6"]]
    st = load(g, hands, 0, field={"cards": ["S5", "H5"], "owner": 4, "kind": "group"})
    step(g, st, "S9 JK")
    assert pos(g, st)["lock"] == ["S", "H"]


def test_the_joker_single_is_exempt_from_the_lock_and_resets_it():
    g = uecda()
    hands = [["JK", "D3"], ["S3", "SK"], ["C4", "CQ"], ["D4", "DQ"], ["H6", "C6"]]
    st = load(g, hands, 0, field=single("H9", 4), lock=["H"])
    assert legal(g, st, "JK")
    step(g, st, "JK")
    assert pos(g, st)["lock"] is None
    step(g, st, "S3")  # the ♠3 answers: no ♥ lock any more
    assert pos(g, st)["field"] is None


# ---- what the UECda game does not have ---------------------------------------------------------------
def test_no_eleven_back_and_no_five_skip():
    g = uecda()
    hands = [["SJ", "S5", "D3"], ["H4", "HK"], ["C4", "CQ"], ["D4", "DQ"], ["H6", "C6"]]
    st = load(g, hands, 0)
    step(g, st, "SJ")
    assert not st.eleven_back[0]
    st = load(g, hands, 0)
    step(g, st, "S5")
    assert int(st.to_play[0]) == 1


def test_no_miyako_ochi():
    g = uecda(series_games=2)
    titles = ["hinmin", "daifugo", "fugo", "heimin", "daihinmin"]
    st = load(g, [["S5"], ["H4", "HK"], ["C4", "CQ"], ["D4", "DQ"], ["H6", "C6"]], 0, titles=titles, game_index=1)
    step(g, st, "S5")  # player 0 goes out first, not the 大富豪 (player 1)
    assert st.active[0, 1] and pos(g, st)["hands"][1] == ["H4", "HK"]


@pytest.mark.parametrize("last", ["S2", "JK", "S8"])
def test_any_card_may_finish_a_hand(last):
    g = uecda()
    st = load(g, [[last], ["H4", "HK"], ["C4", "CQ"], ["D4", "DQ"], ["H6", "C6"]], 0)
    step(g, st, last)
    assert pos(g, st)["finish_positions"][0] == 1


# ---- the deal, the exchange, the lead, the points --------------------------------------------------
def test_diamond_three_holder_leads_every_game_and_the_exchange_runs():
    g = uecda(series_games=2, seat_change_every=0)
    hands = [[], [], ["C4"], [], ["D5", "H6"]]
    st = load(g, hands, 2, finish_positions=[1, 2, None, 3, None])
    step(g, st, "C4")  # player 2 goes out 4th: player 4 is 大貧民; game 2 deals
    assert st.rewards[0].tolist() == [5.0, 4.0, 2.0, 3.0, 1.0]
    p = pos(g, st)
    assert p["titles"] == ["daifugo", "fugo", "hinmin", "heimin", "daihinmin"] and p["phase"] == "exchange"
    # The automatic part: 大貧民's two strongest to the 大富豪, 貧民's strongest to the 富豪.
    dealt_4 = set(p["hands"][4]) | set(p["given"][4])
    assert set(p["received"][0]) == strongest(dealt_4, 2)
    dealt_2 = set(p["hands"][2]) | set(p["given"][2])
    assert set(p["received"][1]) == strongest(dealt_2, 1)
    assert int(st.to_play[0]) == 0 and p["picks_left"] == 2
    give = sorted(set(p["hands"][0]) - set(p["received"][0]))[:2]
    steps(g, st, [f"pick {c}" for c in give])
    assert int(st.to_play[0]) == 1
    step(g, st, f"pick {sorted(p['hands'][1])[0]}")
    p = pos(g, st)
    assert p["phase"] == "play"
    assert "D3" in p["hands"][int(st.to_play[0])]


def test_points_are_five_to_one_by_place():
    g = uecda()
    st = load(g, [[], ["HK"], [], [], ["H6", "C6"]], 1, finish_positions=[2, None, 1, 3, None])
    step(g, st, "HK")
    assert st.terminated[0]
    assert st.rewards[0].tolist() == [4.0, 2.0, 5.0, 3.0, 1.0]


def test_class_reset_game_has_no_exchange_and_no_titles():
    g = uecda(series_games=3, class_reset_every=2)
    st = g.init(np.arange(8))
    policy = np.random.default_rng(0)
    seen_phase = {}
    while not st.done.all():
        gi = st.game_index.copy()
        for i in np.flatnonzero(~st.done):
            seen_phase.setdefault((int(i), int(gi[i])), (int(st.phase[i]), st.titles[i].tolist()))
        mask = g.legal_mask(st)
        acts = np.array([policy.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        g.step(st, acts)
    for (i, k), (phase, titles) in seen_phase.items():
        if k in (0, 2):  # games 1 and 3 follow a class reset
            assert phase == 0 and titles == [0] * 5, (i, k)
        else:
            assert phase == 1 and sorted(titles) == [1, 2, 3, 4, 5], (i, k)


def test_seats_change_and_the_turn_follows_the_seating():
    g = uecda(seat_change_every=1)
    st = g.init(np.arange(16))
    assert all(sorted(row) == [0, 1, 2, 3, 4] for row in st.seating.tolist())
    assert any(row != [0, 1, 2, 3, 4] for row in st.seating.tolist())
    fixed = uecda(seat_change_every=0).init(np.arange(4))
    assert (fixed.seating == np.arange(5)).all()
    st = load(g, HANDS, 0, seating=[0, 2, 1, 4, 3])
    step(g, st, "S4")
    assert int(st.to_play[0]) == 2  # the player in the next seat, not player 1
    step(g, st, "pass")
    assert int(st.to_play[0]) == 1


def test_a_position_with_a_bad_seating_or_ninja_game_state_is_refused():
    g = uecda()
    with pytest.raises(PositionError, match="seating"):
        load(g, HANDS, 0, seating=[0, 0, 1, 2, 3])
    with pytest.raises(PositionError, match="miyako"):
        load(g, HANDS, 0, miyako_candidate=1)


def test_positions_show_the_seating_and_round_trip():
    g = uecda(seat_change_every=1)
    st = g.init(np.arange(3))
    for i in range(3):
        p = g.to_position(st, i)
        assert p["seating"] == st.seating[i].tolist()
        again = g.to_position(g.from_position(p), 0)
        assert again == p


# ---- the whole preset -------------------------------------------------------------------------------
def test_preset_conforms():
    rules = {"rules": "uecda", "series_games": 2, "seat_change_every": 1}
    game = make_game("ninja_daifugo", **rules)
    conformance.check_game(game, (0, 1), make_env=lambda: make_raw("ninja_daifugo", **rules), batch_max_steps=120)


def test_pettingzoo_api_test():
    from pettingzoo.test import api_test

    from yuugi.envs import ninja_daifugo_v0
    api_test(ninja_daifugo_v0.raw_env(rules="uecda", series_games=2), num_cycles=300)


def random_games(g, seeds, policy=None, max_steps=20_000):
    """Play every game of the batch to its end (random legal actions unless ``policy``)."""
    st = g.init(np.asarray(seeds))
    rng = np.random.default_rng(1)
    total = np.zeros((len(seeds), N))
    for _ in range(max_steps):
        if st.done.all():
            break
        mask = g.legal_mask(st)
        live = ~st.done
        if policy is None:
            acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        else:
            seats = st.to_play.astype(np.int64)
            acts = policy.act(g.observe(st, seats), mask, rng)
        g.step(st, acts, active=live)
        total[live] += st.rewards[live]  # a finished game keeps its last rewards; count them once
        # Every card is somewhere: hands, field, discard.
        cards = np.bitwise_or.reduce(st.hands, axis=1) | st.field_cards | st.discard
        assert (np.bitwise_count(cards) == 53).all()
    assert st.done.all()
    return st, total


def test_random_play_fuzz():
    g = uecda(series_games=3, seat_change_every=1)
    st, total = random_games(g, range(24))
    assert st.terminated.all()
    assert np.allclose(total.sum(axis=1), 3 * sum(POINTS))
    assert ((total >= 3) & (total <= 15)).all()


@pytest.mark.parametrize("level", ["random", "normal"])
def test_cpus_play_the_preset(level):
    from yuugi.agents.registry import cpu

    g = uecda(series_games=2)
    st, total = random_games(g, range(8), policy=cpu("ninja_daifugo", level, rules="uecda"))
    assert np.allclose(total.sum(axis=1), 2 * sum(POINTS))


def test_the_joker_suit_a_protocol_writes_is_the_one_the_lock_rule_chose():
    from yuugi.envs.ninja_daifugo.uecda import group_joker_suit

    s9_joker = act("S9 JK")
    pair_s5_h5 = act("S5 H5")
    assert group_joker_suit(s9_joker, pair_s5_h5) == 1  # takes ♥: {♠, ♥} like the field, so it locks
    assert group_joker_suit(act("D9 JK"), pair_s5_h5) == 0  # cannot match: the first suit ♦ lacks, ♠
    assert group_joker_suit(s9_joker) == 1  # a lead: the first suit its naturals lack
    assert group_joker_suit(act("H9 JK"), pair_s5_h5, lock=0b0011) == 0  # under the ♠♥ lock: ♠
    assert group_joker_suit(act("S9"), pair_s5_h5) is None
