"""Bad rule options raise OptionError naming the option and its valid choices — never TypeError or a
numpy error, and never accepted silently (issue 11, "Options")."""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from yuugi.envs import available_games, make_game
from yuugi.envs.core.errors import OptionError
from yuugi.envs.core.options import check_bool, check_choice, check_float, check_int, check_int_tuple
from yuugi.envs.nigejozu.cards import DEFAULT_PAIRING


# ---- the cases of the issue ---------------------------------------------------------------------
def test_game_name_that_is_not_a_string():
    with pytest.raises(OptionError, match="unknown game") as err:
        make_game(["nigejozu"])  # type: ignore[arg-type]
    assert "nigejozu" in str(err.value) and "available" in str(err.value)


@pytest.mark.parametrize("opts, named", [
    ({"declarations": 5}, "declarations"),
    ({"reward_scheme": ["zero_sum"]}, "reward_scheme"),
    ({"series_games": True}, "series_games"),
    ({"declarations": [True]}, "declarations"),
    ({"declarations": [1.0]}, "declarations"),
    ({"declarations": {0: 1}}, "declarations"),
    ({"max_game_steps": 10**12}, "max_game_steps"),
    ({"max_game_steps": 2**31}, "max_game_steps"),  # beyond the int32 step counter
    ({"ninja": ["off"]}, "ninja"),
    ({"pass_lockout": 1}, "pass_lockout"),
])
def test_daifugo_option_values_from_the_issue(opts, named):
    with pytest.raises(OptionError, match=named):
        make_game("ninja_daifugo", **opts)


def test_reward_scheme_error_lists_the_choices():
    with pytest.raises(OptionError) as err:
        make_game("ninja_daifugo", reward_scheme=["zero_sum"])
    assert "'zero_sum'" in str(err.value) and "'uecda'" in str(err.value)


def test_max_game_steps_is_bounded_and_the_bound_is_usable():
    from yuugi.envs.ninja_daifugo.config import MAX_GAME_STEPS
    assert MAX_GAME_STEPS <= np.iinfo(np.int32).max  # the state's game_steps counter is int32
    make_game("ninja_daifugo", max_game_steps=MAX_GAME_STEPS)
    with pytest.raises(OptionError, match=f"max_game_steps must be an integer 10..{MAX_GAME_STEPS}"):
        make_game("ninja_daifugo", max_game_steps=MAX_GAME_STEPS + 1)


@pytest.mark.parametrize("declarations", [(6,), (7,), (0, 6), [6, 7]])
def test_ninja_only_declarations_need_the_ninja_layer(declarations):
    with pytest.raises(OptionError, match="ninja") as err:
        make_game("ninja_daifugo", ninja="off", declarations=declarations)
    assert "(0, 1, 2, 3, 4, 5, 8, 9)" in str(err.value)  # the declarations that are allowed
    make_game("ninja_daifugo", ninja="faithful", declarations=declarations)  # fine with ninja on


def test_declarations_are_canonical_python_ints():
    cfg = make_game("ninja_daifugo", declarations=np.array([0, 8], dtype=np.int16)).config
    assert cfg.declarations == (0, 8) and all(type(d) is int for d in cfg.declarations)


def test_single12_with_a_face_pairing_is_refused():
    with pytest.raises(OptionError, match="face_pairing") as err:
        make_game("nigejozu", card_model="single12", face_pairing=DEFAULT_PAIRING)
    assert "paired6" in str(err.value)
    # Each alone is fine.
    assert make_game("nigejozu", card_model="single12").config.num_cards == 12
    assert make_game("nigejozu", face_pairing=DEFAULT_PAIRING).config.face_pairing == DEFAULT_PAIRING


@pytest.mark.parametrize("game, opts, named", [
    ("nigejozu", {"reward_scheme": ["win_loss"]}, "reward_scheme"),
    ("nigejozu", {"card_model": {"single12": 1}}, "card_model"),
    ("nigejozu", {"troops_per_player": 15.0}, "troops_per_player"),
    ("nigejozu", {"taikyaku_n": True}, "taikyaku_n"),
    ("momotaro", {"reward_scheme": ["winner"]}, "reward_scheme"),
    ("momotaro", {"green_mark": ["paper"]}, "green_mark"),
    ("momotaro", {"num_players": 2.0}, "num_players"),
    ("momotaro", {"laps_per_round": {4: 2, 7: 1}}, "laps_per_round"),
    ("momotaro", {"laps_per_round": {4: 2.5}}, "laps_per_round"),
    ("momotaro", {"colored_values": [4, 5, 6.5]}, "colored_values"),
    ("momotaro", {"public_hands": np.array([True])}, "public_hands"),
])
def test_other_games_option_values(game, opts, named):
    with pytest.raises(OptionError, match=named):
        make_game(game, **opts)


def test_numpy_integers_are_integers():
    g = make_game("momotaro", num_players=np.int64(3), colored_values=np.array([2, 4, 6]))
    assert g.num_players == 3 and type(g.config.num_players) is int
    assert g.config.colored_values == (2, 4, 6)
    assert make_game("nigejozu", troops_per_player=np.int8(12)).config.troops_per_player == 12


# ---- a fuzz of hostile values: OptionError or a game that works ----------------------------------
HOSTILE = [None, True, False, 0, -1, 1.5, math.nan, math.inf, 10**12, 2**64, "", "x", ["x"], [], [1.0], [True],
           {}, {0: 1}, {"jutsu": {"henge": [1]}}, {"jutsu": {"x": 1}}, {"school": ["rai"]}, [{}] * 4, [{}, 1, {}, {}],
           (1, 2, 3), np.array([1, 2]), np.float64(2.0), np.bool_(True), object()]


def _option_names(game_name: str) -> list[str]:
    config = make_game(game_name).config
    return [f.name for f in dataclasses.fields(type(config)) if f.init]


@pytest.mark.parametrize("game_name", available_games())
def test_every_option_takes_every_hostile_value_cleanly(game_name):
    for name in _option_names(game_name):
        for value in HOSTILE:
            try:
                game = make_game(game_name, **{name: value})
            except OptionError as err:
                assert name in str(err), f"{name}={value!r}: the error does not name the option: {err}"
                continue
            # Accepted: it must then be a working game.
            state = game.init([0, 1])
            assert game.legal_mask(state).any(axis=1).all(), f"{name}={value!r}"
            game.observe(state, state.to_play.astype(np.int64))


# ---- the generic checks --------------------------------------------------------------------------
def test_check_int():
    assert check_int("n", np.int16(3), 1, 5) == 3
    for bad in (True, 3.0, "3", None, 0, 6):
        with pytest.raises(OptionError, match=r"n must be an integer 1\.\.5"):
            check_int("n", bad, 1, 5)
    assert check_int("n", 10**9, 1) == 10**9  # no upper bound
    with pytest.raises(OptionError, match=">= 1"):
        check_int("n", 0, 1)


def test_check_bool():
    assert check_bool("b", np.bool_(True)) is True
    for bad in (1, 0, "yes", None):
        with pytest.raises(OptionError, match="b must be True or False"):
            check_bool("b", bad)


def test_check_choice_matches_kind_and_value():
    assert check_choice("c", "a", ("a", "b")) == "a"
    assert check_choice("c", None, (None, "rai")) is None
    assert check_choice("c", np.int64(2), (2, 3, 4)) == 2
    for bad, choices in ((["a"], ("a", "b")), (True, (0, 1)), (1.0, (1, 2)), ("c", ("a", "b")), ({}, ("a",))):
        with pytest.raises(OptionError, match="c must be one of"):
            check_choice("c", bad, choices)


def test_check_int_tuple():
    assert check_int_tuple("t", [3, 1], 0, 9) == (3, 1)
    assert check_int_tuple("t", np.array([2]), 0, 9) == (2,)
    for bad in (5, "12", {1: 2}, [True], [1.0], [10], [], np.array([[1]])):
        with pytest.raises(OptionError, match="t must"):
            check_int_tuple("t", bad, 0, 9)
    with pytest.raises(OptionError, match="repeat"):
        check_int_tuple("t", (1, 1), 0, 9, unique=True)
    with pytest.raises(OptionError, match="1..2 integers"):
        check_int_tuple("t", (1, 2, 3), 0, 9, max_len=2)


def test_check_float():
    assert check_float("f", 1, 0.0, 2.0) == 1.0
    for bad in (math.nan, math.inf, -math.inf, True, "1", None, 3.0, 10**400):
        with pytest.raises(OptionError, match=r"f must be a finite number in \[0.0, 2.0\]"):
            check_float("f", bad, 0.0, 2.0)
