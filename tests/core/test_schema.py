"""The position schema: each parser accepts exactly its type and range, names the full path of a bad
field, and writes back (``dump``) what it reads."""
from __future__ import annotations

import math

import numpy as np
import pytest

from yuugi.envs.core import schema as S
from yuugi.envs.core.errors import PositionError

SUITS = S.Name(("S", "H", "D", "C"), what="suit")


def fails(spec: S.Spec, value, path: str = "x") -> PositionError:
    with pytest.raises(PositionError) as err:
        spec.parse(value, path)
    assert repr(err.value.field) in str(err.value)
    return err.value


@pytest.mark.parametrize("value", [True, False, np.bool_(True), 1.0, 0.0, "1", None, [1], {}, 11, -1, 2 ** 70,
                                   float("nan")])
def test_int_rejects_other_types_and_out_of_range(value):
    assert fails(S.Int(0, 10), value).field == "x"


@pytest.mark.parametrize("value", [0, 10, np.int8(3), np.uint64(7), np.int64(10)])
def test_int_accepts_python_and_numpy_integers(value):
    out = S.Int(0, 10).parse(value, "x")
    assert out == int(value) and type(out) is int


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 1e39, -1e39, 10 ** 400, True, "1.0", None, [0.5],
                                   np.float64("nan")])
def test_float_is_finite_and_bounded(value):
    fails(S.Float(-5.0, 5.0), value)


def test_float_accepts_ints_and_numpy_floats():
    assert S.Float(-5, 5).parse(np.float32(1 / 3), "x") == pytest.approx(1 / 3)
    assert S.Float(-5, 5).parse(-5, "x") == -5.0


@pytest.mark.parametrize("value", [0, 1, "true", None, [True]])
def test_bool_is_only_true_or_false(value):
    fails(S.Bool(), value)
    assert S.Bool().parse(np.bool_(False), "x") is False


@pytest.mark.parametrize("value", ["SH", "", "s", " S", ["S"], {}, None, 0, True])
def test_names_match_exactly(value):
    """"SH" is not the suit "S" (a substring test would say it is), and a list is not a name."""
    fails(SUITS, value)
    assert SUITS.parse("H", "x") == 1


def test_aliases_ignore_case_and_indices_are_opt_in():
    sides = S.Name(("北条", "足利"), aliases={"hojo": 0, "ashikaga": 1}, indices=True)
    assert sides.parse("HOJO", "x") == 0 and sides.parse(1, "x") == 1 and sides.parse(np.int64(0), "x") == 0
    fails(sides, 2)
    fails(sides, True)  # a boolean is not an index
    fails(SUITS, 0)  # no indices unless asked for


def test_names_may_include_none():
    titles = S.Name((None, "daifugo"))
    assert titles.parse(None, "x") == 0 and titles.dump(0) is None


def test_list_paths_length_and_repeats():
    spec = S.ListOf(S.Int(0, 3), length=4)
    assert fails(spec, [0, 1, 2]).field == "x"
    assert fails(spec, [0, 1, 2, 9], "hands[2]").field == "hands[2][3]"
    assert fails(spec, (0, 1), "y").field == "y"
    assert fails(S.ListOf(SUITS, unique=True), ["S", "S"], "lock").field == "lock"
    assert fails(S.ListOf(SUITS, max_len=1), ["S", "H"]).field == "x"
    fails(spec, "0123")  # a string is not a list


def test_cards_parse_to_a_mask_and_name_the_bad_entry():
    names = ("S3", "H3", "JK")
    cards = S.Cards(lambda n: names.index(n) if n in names else (_ for _ in ()).throw(ValueError(f"no card {n}")),
                    lambda c: names[c])
    assert cards.parse(["JK", "S3"], "hand") == 0b101
    assert cards.dump(0b101) == ["S3", "JK"]
    assert fails(cards, ["S3", "XX"], "players[2].hand").field == "players[2].hand[1]"
    assert fails(cards, ["S3", 7], "hand").field == "hand[1]"
    assert fails(cards, ["S3", "S3"], "hand").field == "hand"  # a repeat names the list
    fails(cards, "S3")


def test_tables_name_the_key_path():
    table = S.Table(SUITS, S.Int(0, 5), complete=True, as_list=True)
    assert table.parse({"S": 1, "H": 2, "D": 3, "C": 4}, "t") == {0: 1, 1: 2, 2: 3, 3: 4}
    assert table.parse([1, 2, 3, 4], "t") == {0: 1, 1: 2, 2: 3, 3: 4}
    assert fails(table, {"S": 1, "H": 2, "D": 3}, "t").field == "t.C"
    assert fails(table, {"S": 1, "H": 2, "D": 3, "C": 4, "X": 0}, "t").field == "t.X"
    assert fails(table, {"S": 1, "H": 2, "D": 3, "C": 9}, "t").field == "t.C"
    assert fails(table, [1, 2, 3, 9], "t").field == "t[3]"
    assert fails(table, [1, 2], "t").field == "t"
    assert fails(table, {("S",): 1}, "t").field == "t.('S',)"  # an unhashable-looking key is just unknown


def test_per_key_ranges():
    table = S.Table(SUITS, lambda k: S.Int(0, k))
    assert table.parse({"D": 2}, "dmg") == {2: 2}
    assert fails(table, {"H": 2}, "dmg").field == "dmg.H"


def test_records_defaults_required_and_unknown_keys():
    rec = S.Record({"a": S.Int(0, 3), "b": S.Bool().or_default(False),
                    "c": S.seat_list(S.Int(0, 1), 2, 0), "d": S.Nullable(S.Int(0, 3), none=-1).or_default(-1)})
    assert rec.parse({"a": 1}, "") == {"a": 1, "b": False, "c": [0, 0], "d": -1}
    assert rec.parse({"a": 1, "c": None, "d": None}, "")["c"] == [0, 0]
    assert fails(rec, {"b": True}, "").field == "a"
    assert fails(rec, {"a": 1, "zz": 0}, "").field == "zz"
    assert fails(rec, {"a": 1, "b": None}, "").field == "b"  # null is the default only where it says so
    assert fails(rec, ["a"], "").field == "position"
    nested = S.Record({"field": S.Nullable(S.Record({"low": SUITS}))})
    assert fails(nested, {"field": {"low": 5}}, "").field == "field.low"
    assert fails(nested, {"field": {"low": "S", "x": 1}}, "").field == "field.x"
    assert fails(S.Record({"p": S.ListOf(rec)}), {"p": [{"a": 1}, {"a": 1, "c": [0, 2]}]}, "").field == "p[1].c[1]"


def test_const():
    game = S.Const("nigejozu").or_default("nigejozu")
    assert S.Record({"game": game}).parse({}, "") == {"game": "nigejozu"}
    assert fails(game, "momotaro").field == "x"
    fails(game, ["nigejozu"])


@pytest.mark.parametrize("seed", [-1, 2 ** 64, 1.5, True, "3", None])
def test_seeds_are_integers_below_two_to_the_64(seed):
    with pytest.raises(PositionError) as err:
        S.check_seed(seed)
    assert err.value.field == "seed"


def test_seed_extremes_give_keys():
    assert S.check_seed(0).shape == (1,) and S.check_seed(np.uint64(2 ** 64 - 1)).dtype == np.uint64


def test_dump_is_the_way_back():
    rec = S.Record({
        "suits": S.ListOf(SUITS), "score": S.Float(-1, 1), "flag": S.Bool(), "owner": S.Nullable(S.Int(0, 3), none=-1),
        "table": S.Table(SUITS, S.Int(0, 9)), "pairs": S.Table(SUITS, S.ListOf(S.Int(0, 9)), as_list=True, writes_list=True),
    })
    pos = {"suits": ["C", "S"], "score": 0.5, "flag": True, "owner": None, "table": {"H": 3},
           "pairs": [[1, 2], [], [0], [9, 9]]}
    assert rec.dump(rec.parse(pos, "")) == pos


class _Row:
    def __init__(self) -> None:
        self.hand = np.zeros((2, 4), dtype=np.int8)
        self.owner = np.full(2, -1, dtype=np.int8)
        self.troops = np.zeros((2, 4, 2), dtype=np.int8)


def test_store_and_read_copy_the_fields_that_are_one_array():
    rec = S.Record({
        "hand": S.ListOf(S.Int(0, 9), length=4).into("hand"),
        "owner": S.Nullable(S.Int(0, 3), none=-1).or_default(-1).into("owner"),
        "troops": S.Table(SUITS, S.ListOf(S.Int(0, 9), length=2)).or_default({}).into("troops"),
        "note": S.Str().or_default(None),
    })
    state = _Row()
    S.store(rec, rec.parse({"hand": [1, 2, 3, 4], "troops": {"D": [5, 6]}}, ""), state, row=1)
    assert state.hand[1].tolist() == [1, 2, 3, 4] and state.owner[1] == -1 and state.troops[1, 2].tolist() == [5, 6]
    assert state.hand[0].tolist() == [0, 0, 0, 0]
    out = S.read(rec, state, 1)
    assert out["hand"] == [1, 2, 3, 4] and out["owner"] is None and out["troops"]["D"] == [5, 6] and "note" not in out
