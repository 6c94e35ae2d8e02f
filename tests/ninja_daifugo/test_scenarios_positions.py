"""Malformed positions raise PositionError naming the bad field; unknown options raise OptionError."""
from __future__ import annotations

import pytest

from yuugi.envs import make_game
from yuugi.envs.core.errors import OptionError, PositionError
from yuugi.envs.ninja_daifugo.position import from_position

from .scenario_helpers import ALL_CARDS, game, position

BASE_HANDS = [["S3", "H3"], ["D3", "C3"], ["S4", "H4"], ["D4", "C4"]]


def good(**kw):
    return position(BASE_HANDS, **kw)


def test_good_position_loads_and_round_trips():
    g = game()
    st = g.from_position(good())
    p = g.to_position(st, 0)
    assert p["hands"] == BASE_HANDS and p["to_play"] == 0 and p["field"] is None
    st2 = g.from_position(p)
    assert g.to_position(st2, 0) == p


def _bad(field_name, pos_dict, g=None):
    g = g or game()
    with pytest.raises(PositionError) as e:
        g.from_position(pos_dict)
    assert e.value.field == field_name, str(e.value)
    assert field_name in str(e.value)


def test_missing_card():
    p = good()
    p["discard"] = p["discard"][1:]
    _bad("hands", p)


def test_card_twice():
    p = good()
    p["hands"][1] = ["D3", "C3", "S3"]
    _bad("hands[1]", p)


def test_card_listed_twice_in_one_hand():
    p = good()
    p["hands"][2] = ["S4", "S4", "H4"]
    _bad("hands[2]", p)


def test_unknown_card_name():
    p = good()
    p["hands"][0] = ["S3", "X9"]
    _bad("hands[0][1]", p)


def test_required_keys():
    p = good()
    del p["to_play"]
    _bad("to_play", p)
    p = good()
    del p["hands"]
    _bad("hands", p)


def test_bad_to_play():
    _bad("to_play", good(to_play=4))
    _bad("to_play", good(to_play=True))


def test_hands_not_four_seats():
    p = good()
    p["hands"] = p["hands"][:3]
    _bad("hands", p)


def test_unknown_key():
    _bad("colour", good(colour="red"))


def test_field_not_a_play():
    p = position(BASE_HANDS, field={"cards": ["S5", "H6"], "owner": 1, "kind": "group"})
    _bad("field.cards", p)


def test_field_bad_kind():
    p = position(BASE_HANDS, field={"cards": ["S5"], "owner": 1, "kind": "pair"})
    _bad("field.kind", p)


def test_field_bad_owner():
    p = position(BASE_HANDS, field={"cards": ["S5"], "owner": 9, "kind": "single"})
    _bad("field.owner", p)


def test_field_ambiguous_joker_sequence():
    p = position(BASE_HANDS, field={"cards": ["S6", "S7", "JK"], "owner": 1, "kind": "sequence"})
    _bad("field.joker_as", p)


def test_lock_without_field_or_bad_suit():
    _bad("lock", good(lock=["S"]))
    p = position(BASE_HANDS, field={"cards": ["S5"], "owner": 1, "kind": "single"}, lock=["X"])
    _bad("lock[0]", p)


def test_bad_booleans():
    _bad("revolution", good(revolution="yes"))
    _bad("eleven_back", good(eleven_back=1))


def test_declaration_outside_the_pool():
    _bad("declaration", good(declaration=5))  # the game was made with declarations=(0,)
    _bad("declaration", good(declaration=12))


def test_finished_seat_with_cards_and_finished_to_play():
    _bad("hands[0]", good(finish_positions=[1, None, None, None]))
    p = position([[], ["D3", "C3"], ["S4", "H4"], ["D4", "C4"]], to_play=0, finish_positions=[1, None, None, None])
    _bad("to_play", p)


def test_bad_titles():
    g = game(series_games=2)
    _bad("titles[0]", good(titles=["emperor", "fugo", "hinmin", "daihinmin"], game_index=1), g)
    _bad("titles", good(titles=["daifugo", "daifugo", "hinmin", "daihinmin"], game_index=1), g)
    _bad("titles", good(game_index=1), g)


def test_exchange_phase_needs_titles():
    g = game(series_games=2)
    _bad("phase", good(phase="exchange", picks_left=2), g)


def test_not_a_dict():
    with pytest.raises(PositionError) as e:
        game().from_position(["hands"])
    assert e.value.field == "position"


# ---- options -----------------------------------------------------------------------------------------
def test_unknown_option():
    with pytest.raises(OptionError):
        make_game("ninja_daifugo", colour="red")
    with pytest.raises(OptionError):
        make_game("ninja_daifugo", passlockout=True)


@pytest.mark.parametrize("opts", [
    {"series_games": 0},
    {"series_games": "5"},
    {"declarations": (10,)},
    {"declarations": ()},
    {"declarations": (0, 0)},
    {"pass_lockout": "yes"},
    {"miyako_ochi": 1},
    {"reward_scheme": "winner_takes_all"},
])
def test_bad_option_values(opts):
    with pytest.raises(OptionError):
        make_game("ninja_daifugo", **opts)


def test_all_cards_listed():
    assert len(ALL_CARDS) == 53 and len(set(ALL_CARDS)) == 53


# ---- issue 11: type confusion, unreachable positions and derived checks (each failed before the schema) ----
FIELD_S5 = {"cards": ["S5"], "owner": 1, "kind": "single"}
TITLES = ["daifugo", "fugo", "hinmin", "daihinmin"]


@pytest.mark.parametrize("lock", [[0], [None], ["SH"], [""], ["s"]])
def test_lock_entries_must_be_exact_suit_letters(lock):
    _bad("lock[0]", position(BASE_HANDS, field=FIELD_S5, lock=lock))


@pytest.mark.parametrize("boosted", [5, "45", "", ["4"]])
def test_boosted_low_must_be_a_rank_letter(boosted):
    _bad("field.boosted_low", position(BASE_HANDS, field={**FIELD_S5, "boosted_low": boosted}))


@pytest.mark.parametrize("kind", [["single"], {}, 1])
def test_field_kind_of_the_wrong_type(kind):
    _bad("field.kind", position(BASE_HANDS, field={**FIELD_S5, "kind": kind}))


@pytest.mark.parametrize("score", [float("nan"), float("inf"), -float("inf"), 1e39, "1", True])
def test_series_score_is_finite_and_bounded(score):
    # zero_sum over a series of 5 games: a seat's score stays within 5 * [-1, +1] (rules §5.9)
    _bad("series_score[2]", good(series_score=[0.0, 0.0, score, 0.0]), game(series_games=5))


def test_series_score_within_its_bounds_loads():
    g = game(series_games=5)
    st = g.from_position(good(series_score=[5.0, -5.0, 1 / 3, 0]))
    assert g.to_position(st)["series_score"][:2] == [5.0, -5.0]


@pytest.mark.parametrize("field_name,value", [("game_steps", 0.0), ("responses", False), ("declaration", 0.0),
                                              ("game_index", False), ("skip_pending", [0, 0.0, 0, 0])])
def test_integer_fields_reject_floats_and_booleans(field_name, value):
    where = "skip_pending[1]" if field_name == "skip_pending" else field_name
    _bad(where, good(**{field_name: value}))


def test_terminated_with_nobody_finished_is_unreachable():
    _bad("terminated", good(terminated=True))


def test_terminated_before_the_last_game_of_a_series_is_unreachable():
    p = position([[], [], [], ["D4", "C4"]], terminated=True, finish_positions=[1, 2, 3, 4], titles=TITLES,
                 game_index=1)
    _bad("game_index", p, game(series_games=5))


def _exchange(**kw):
    """Game 2 of a series: the 大富豪 (seat 0) is picking its two gifts for the 大貧民."""
    return good(titles=TITLES, game_index=1, phase="exchange", **kw)


def test_exchange_picks_left_cannot_exceed_the_cards_held():
    p = _exchange(picks_left=2)
    p["hands"][0] = ["S3"]
    p["discard"].append("H3")
    _bad("picks_left", p, game(series_games=2))


def test_exchange_picks_add_up_to_the_gift_count():
    g = game(series_games=2)
    _bad("picks_left", _exchange(picks_left=1), g)  # 大富豪 gives 2: nothing picked yet, so 2 to pick
    st = g.from_position(_exchange(picks_left=1, picked=["S3"]))
    assert int(st.picks_left[0]) == 1 and g.legal_mask(st)[0].sum() == 1  # only H3 is left to pick
    _bad("to_play", _exchange(to_play=2), g)  # the 貧民 never picks


def test_picks_outside_an_exchange_are_rejected():
    _bad("picks_left", good(picks_left=2))
    _bad("picked", good(picked=["S3"]))


@pytest.mark.parametrize("seed", [-1, 2 ** 64, 1.5, True, "3"])
def test_bad_seed_names_the_seed(seed):
    with pytest.raises(ValueError, match="seed"):  # PositionError or the core's CallError, never OverflowError
        game().from_position(good(), seed=seed)
    with pytest.raises(PositionError) as e:  # the loader itself checks too
        from_position(good(), game().config, seed=seed)
    assert e.value.field == "seed"


def test_numpy_integers_are_integers():
    import numpy as np
    g = game()
    st = g.from_position(good(to_play=np.int64(0), responses=np.int8(0)), seed=np.uint64(2 ** 64 - 1))
    assert int(st.to_play[0]) == 0
