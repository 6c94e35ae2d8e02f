"""Battle resolution (rules §5.2-6, §5.4, §5.5): win, draw, single-card loss, multi-card loss with the
excess discarded, a warrior knocked out, and the damage carried over."""
from __future__ import annotations

import numpy as np

from .helpers import act, battle, find_seed, game, legal_labels, player

FIELD4 = {"R4": 0, "B4": 0, "G4": 0, "X6": 0}


def _setup(n, players, field, target, send, **extra):
    g = game(n)
    pos = battle(n, players, field, phase="choose_cards", target=target, **extra)
    return g, (lambda seed: g.from_position(pos, seed=seed)), (lambda st: act(g, st, f"SEND {send}"))


def _totals(st, oni_base, war_base):
    return oni_base + int(st.dice[0, 0]), war_base + int(st.dice[0, 1])


def test_win_puts_the_difference_on_the_oni_and_it_carries_over() -> None:
    # W + I3 (3 + 3, Dog +1 against red) vs 赤鬼6 with 2 damage (base 4): 7 vs 4.
    field = {"R6": 2, "B4": 0, "G4": 0, "X6": 0}
    g, make, step = _setup(2, [player({"W": 0, "I3": 0}), player()], field, "R6", "W+I3")
    st = find_seed(make, step, lambda s: _totals(s, 4, 7)[1] - _totals(s, 4, 7)[0] in (1, 2, 3))
    oni, war = _totals(st, 4, 7)
    r6 = g.oni_names.index("R6")
    assert st.oni_dmg[0, r6] == 2 + (war - oni)  # the seed: "赤鬼6 with 2 damage has power 4"
    assert st.oni_at[0, r6] == 1  # still on the field, damage stays for the next player
    assert int(st.to_play[0]) == 1
    assert (st.card_dmg[0] == 0).all()


def test_win_that_defeats_the_oni_gives_its_treasure() -> None:
    field = {"R6": 5, "B4": 0, "G4": 0, "X6": 0}  # base 1
    g, make, step = _setup(2, [player({"W": 0, "I3": 0}), player()], field, "R6", "W+I3")
    st = find_seed(make, step, lambda s: int(s.outcome[0]) == 0)
    r6 = g.oni_names.index("R6")
    assert st.oni_at[0, r6] == 2 and st.oni_owner[0, r6] == 0
    assert st.treasure[0].tolist() == [6, 0]  # treasure = printed power (§5.5)


def test_draw_one_damage_each_and_the_player_chooses_the_card() -> None:
    field = {"R6": 0, "B4": 0, "G4": 0, "X6": 0}
    g, make, step = _setup(2, [player({"W": 0, "I3": 0}), player()], field, "R6", "W+I3")
    st = find_seed(make, step, lambda s: int(s.outcome[0]) == 1)
    r6 = g.oni_names.index("R6")
    assert st.oni_dmg[0, r6] == 1
    assert legal_labels(g, st) == {"DAMAGE W", "DAMAGE I3"}  # only the cards that fought
    act(g, st, "DAMAGE I3")
    pos = g.to_position(st)
    assert pos["players"][0]["cards"] == {"W": 0, "I3": 1}
    assert int(st.to_play[0]) == 1


def test_draw_with_one_card_damages_it_automatically() -> None:
    field = {"R4": 0, "B4": 0, "G4": 0, "X6": 0}
    g, make, step = _setup(2, [player({"W": 0, "I2": 0}), player()], field, "R4", "I2")
    st = find_seed(make, step, lambda s: int(s.outcome[0]) == 1)  # 4 + red = 2 + 1 + white
    assert g.to_position(st)["players"][0]["cards"] == {"W": 0, "I2": 1}
    assert int(st.to_play[0]) == 1


def test_single_card_loss_takes_all_the_difference() -> None:
    field = {"R4": 0, "B4": 0, "G4": 0, "X6": 0}
    g, make, step = _setup(2, [player({"W": 0, "I3": 0}), player()], field, "X6", "I3")
    st = find_seed(make, step, lambda s: _totals(s, 6, 3)[0] - _totals(s, 6, 3)[1] in (1, 2))
    oni, war = _totals(st, 6, 3)
    assert g.to_position(st)["players"][0]["cards"] == {"W": 0, "I3": oni - war}
    # ...and a loss of 3 or more knocks I3 out (damage >= its number, §5.4).
    g, make, step = _setup(2, [player({"W": 0, "I3": 0}), player()], field, "X6", "I3")
    st = find_seed(make, step, lambda s: _totals(s, 6, 3)[0] - _totals(s, 6, 3)[1] >= 3)
    pos = g.to_position(st)["players"][0]
    assert pos["cards"] == {"W": 0} and pos["knocked_out"] == ["I3"]


def test_multi_card_loss_one_card_takes_it_all_and_the_excess_is_lost() -> None:
    """The seed's example: oni 10 vs 6 with I1 + I3, damage 4: knock out I1 only, the rest is lost."""
    field = {"R4": 0, "B4": 0, "G4": 0, "X6": 0}
    g, make, step = _setup(2, [player({"W": 0, "I1": 0, "I3": 0}), player()], field, "X6", "I1+I3")
    st = find_seed(make, step, lambda s: _totals(s, 6, 4) == (10, 6))
    assert int(st.pending[0]) == 4
    assert legal_labels(g, st) == {"DAMAGE I1", "DAMAGE I3"}
    alt = st.copy()
    act(g, st, "DAMAGE I1")
    me = g.to_position(st)["players"][0]
    assert me["cards"] == {"W": 0, "I3": 0}  # I3 untouched: damage cannot be split
    assert me["knocked_out"] == ["I1"]
    assert int(st.card_dmg[0, 0, 1]) == 1  # capped at its number: the excess 3 is discarded
    act(g, alt, "DAMAGE I3")
    me = g.to_position(alt)["players"][0]
    assert me["cards"] == {"W": 0, "I1": 0} and me["knocked_out"] == ["I3"]


def test_multi_card_loss_below_power_leaves_the_damage() -> None:
    field = {"R4": 0, "B4": 0, "G4": 0, "X6": 0}
    g, make, step = _setup(2, [player({"W": 0, "I1": 0, "I3": 0}), player()], field, "X6", "I1+I3")
    st = find_seed(make, step, lambda s: _totals(s, 6, 4)[0] - _totals(s, 6, 4)[1] == 2)
    act(g, st, "DAMAGE I3")
    assert g.to_position(st)["players"][0]["cards"] == {"W": 0, "I1": 0, "I3": 2}


def test_warrior_knocked_out_eliminates_the_player() -> None:
    field = {"R4": 0, "B4": 0, "G4": 0, "X6": 0}
    g, make, step = _setup(3, [player({"W": 1, "I3": 0}), player(), player()], field, "X6", "W")
    st = find_seed(make, step, lambda s: _totals(s, 6, 2)[0] - _totals(s, 6, 2)[1] >= 2)
    pos = g.to_position(st)
    assert pos["players"][0]["knocked_out"] == ["W"]
    assert pos["players"][0]["cards"] == {"I3": 0}  # retainers stay, frozen (§5.3)
    assert not st.alive[0, 0] and not st.terminated[0]
    # Seat 0 takes no more turns: after seats 1 and 2, seat 1 plays again (seat 0's slot is skipped).
    assert int(st.to_play[0]) == 1
    rng = np.random.default_rng(0)
    for _ in range(60):
        if st.done[0]:
            break
        assert int(st.to_play[0]) != 0
        g.step(st, np.array([rng.choice(np.flatnonzero(g.legal_mask(st)[0]))]))


def test_damage_reduces_the_power_of_player_cards() -> None:
    """§11 #10: a damaged card fights with printed − damage (W 3 with 1 damage -> 2)."""
    field = {"R4": 0, "B4": 0, "G4": 0, "X6": 0}
    g, make, step = _setup(2, [player({"W": 1}), player()], field, "X6", "W")
    for seed in range(10):
        st = make(seed)
        step(st)
        oni, war = _totals(st, 6, 2)
        assert int(st.outcome[0]) == (0 if war > oni else 1 if war == oni else 2)
    g = game(2, damage_reduces_power=False)
    pos = battle(2, [player({"W": 1}), player()], field, phase="choose_cards", target="X6")
    for seed in range(10):
        st = g.from_position(pos, seed=seed)
        act(g, st, "SEND W")
        oni, war = _totals(st, 6, 3)
        assert int(st.outcome[0]) == (0 if war > oni else 1 if war == oni else 2)


def test_damage_never_exceeds_power_and_heals_stay_non_negative() -> None:
    field = {"R4": 0, "B4": 0, "G4": 0, "X6": 0}
    g, make, step = _setup(2, [player({"W": 0, "I1": 0}), player()], field, "X6", "I1")
    for seed in range(30):
        st = make(seed)
        step(st)
        assert (st.card_dmg >= 0).all() and (st.card_dmg[0, 0] <= np.array([3, 1, 2, 3, 1, 2, 3, 1, 2, 3])).all()
