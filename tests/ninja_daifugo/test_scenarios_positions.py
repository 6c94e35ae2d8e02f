"""Malformed positions raise PositionError naming the bad field; unknown options raise OptionError."""
from __future__ import annotations

import pytest

from envs import make_game
from envs.core.errors import OptionError, PositionError

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
    _bad("lock", p)


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
