"""The PettingZoo face, options, decks, positions, observations, determinism and batch invariance."""
from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from yuugi.envs import ninja_slayer_v0
from yuugi.envs.core.errors import IllegalActionError, OptionError, PositionError
from yuugi.envs.core.sampling import random_legal
from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer import decks as D
from yuugi.envs.ninja_slayer.observation import offsets
from tests.ninja_slayer.helpers import char, game, load, seat, table

pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:.*ignoring unknown reset option:UserWarning"),
]


def test_api_test_passes():
    api_test(ninja_slayer_v0.raw_env(), num_cycles=300)


def test_api_test_passes_with_options():
    api_test(ninja_slayer_v0.raw_env(decks=("sealed", "D2"), priority_windows="compact", auto_pass_forced=False,
                                     ukemi_nullifies="event", deckout_rule="draw_from_empty"), num_cycles=200)


def test_seed_test_passes():
    seed_test(ninja_slayer_v0.env, num_cycles=200)


def test_spaces():
    env = ninja_slayer_v0.raw_env()
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.action_space("player_0").n == 293
    assert env.observation_space("player_1")["observation"].shape == (offsets(8)[1],)


def test_full_game_through_the_wrapped_env_ends_with_opposite_rewards():
    env = ninja_slayer_v0.env()
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(max_iter=20_000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("options, words", [
    ({"deckout_rule": "never"}, ["deckout_rule", "reach_zero"]),
    ({"priority_windows": "some"}, ["priority_windows", "compact"]),
    ({"max_turns": 0}, ["max_turns"]),
    ({"summoning_sickness": 1}, ["summoning_sickness"]),
    ({"sr_rate": 2}, ["sr_rate"]),
    ({"decks": ("D9", "D1")}, ["D1", "sealed"]),
    ({"decks": ["C01"] * 50}, ["pair"]),
    ({"colour": "red"}, ["unknown", "colour"]),
])
def test_bad_options_name_the_problem_and_the_choices(options, words):
    with pytest.raises(OptionError) as e:
        game(**options)
    for w in words:
        assert w in str(e.value)


@pytest.mark.parametrize("deck, rule", [
    (["C01"] * 49, "deck-size"),
    (["C01"] * 5 + ["C02"] * 45, "4-copy"),
    ([c for c in ("C07", "C16", "C25", "C22", "C14") for _ in range(4)]
     + ["C01", "C02", "C03", "C04", "C05", "C06", "C08", "C09"] * 3 + ["C10"] * 4 + ["C11"] * 2, "ウケミ cap"),
    (["X99"] * 50, "unknown card"),
])
def test_explicit_deck_lists_are_validated_against_the_constructed_rules(deck, rule):
    with pytest.raises(OptionError, match=rule):
        game(decks=(deck, "D1"))


def test_constructed_decks_obey_the_rules_and_sealed_decks_follow_the_slots():
    for name, ids in D.CONSTRUCTED.items():
        assert D.validate_constructed(ids, name) == ids
    g = game(decks="sealed")
    st = g.init(np.arange(500))
    assert (st.deck_size == 40).all()
    decks = np.sort(st.deck[:, :, :40], axis=2)
    rar = C.RARITY[decks]
    assert ((rar == 0).sum(axis=2) == 25).all() and ((rar == 1).sum(axis=2) == 10).all()
    assert (((rar == 2) | (rar == 3)).sum(axis=2) == 5).all()
    assert 0.15 < (rar == 3).sum() / (5 * 1000) < 0.25  # sr_rate 0.2 per rare slot


def test_explicit_list_and_per_seat_decks():
    lst = list(D.CONSTRUCTED["D3"])
    g = game(decks=("D1", [C.CODES[i] for i in lst]))
    st = g.init(np.arange(4))
    assert (np.sort(st.deck[:, 1], axis=1) == np.sort(lst)).all()
    assert (np.sort(st.deck[:, 0], axis=1) == np.sort(D.CONSTRUCTED["D1"])).all()
    st2 = g.init_with_decks(np.arange(4), ("sealed", "D2"))
    assert (st2.deck_size[:, 0] == 40).all()


def test_illegal_actions_raise_and_leave_the_state_untouched():
    g = game()
    st = g.init(np.arange(8))
    before = st.copy()
    mask = g.legal_mask(st)
    bad = np.argmin(mask, axis=1)
    with pytest.raises(IllegalActionError):
        g.step(st, bad)
    assert st.equals(before)
    env = ninja_slayer_v0.raw_env()
    env.reset(seed=1)
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)


def _play(g, st, seed, steps):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if st.done.all():
            break
        m = g.legal_mask(st)
        g.step(st, random_legal(m, rng), mask=m)
    return st


def test_determinism_and_batch_invariance():
    g = game(decks="any")
    seeds = np.arange(40, dtype=np.uint64) * np.uint64(7919)
    batch = g.init(seeds)
    alone = [g.init(seeds[i:i + 1]) for i in (0, 17, 39)]
    actions_rng = np.random.default_rng(5)
    for _ in range(400):
        m = g.legal_mask(batch)
        a = random_legal(m, actions_rng)
        for k, i in enumerate((0, 17, 39)):
            if not alone[k].done[0]:
                g.step(alone[k], a[i:i + 1])
        g.step(batch, a, mask=m)
    for k, i in enumerate((0, 17, 39)):
        assert batch.take(i).equals(alone[k])
    again = _play(g, g.init(seeds), 5, 50)
    assert again.equals(_play(g, g.init(seeds), 5, 50))


def test_observations_are_in_bounds_and_hide_the_opponents_hand_and_deck_order():
    g = game()
    st = _play(g, g.init(np.arange(64)), 2, 60)
    for seat_ in (0, 1):
        o = g.observe(st, seat_)
        assert o.dtype == np.float32 and o.min() >= 0 and o.max() <= 1
    # Changing the opponent's unknown hand cards and the order of both decks changes nothing seen.
    other = st.copy()
    for i in range(st.batch_size):
        for p in range(2):
            ptr, size = int(other.deck_ptr[i, p]), int(other.deck_size[i, p])
            other.deck[i, p, ptr:size] = other.deck[i, p, ptr:size][::-1]
    seat_ = 0
    unknown = (other.hand[:, 1] >= 0) & ~other.hand_known[:, 1]
    other.hand[:, 1] = np.where(unknown, C.card_index("K16"), other.hand[:, 1])
    assert np.array_equal(g.observe(st, seat_), g.observe(other, seat_))
    assert not np.array_equal(g.observe(st, 1), g.observe(other, 1))


def test_positions_round_trip_and_continue_identically():
    g = game(decks="any")
    st = _play(g, g.init(np.arange(30)), 9, 80)
    for i in range(30):
        pos = g.to_position(st, i)
        json.dumps(pos)
        loaded = g.from_position(json.loads(json.dumps(pos)), seed=1)
        assert g.to_position(loaded, 0) == pos
        assert np.array_equal(g.legal_mask(loaded)[0], g.legal_mask(st)[i])
        assert np.array_equal(g.observe(loaded, 0)[0], g.observe(st.take(i), 0)[0])
        a = _play(g, loaded, i, 30)
        b = _play(g, g.from_position(pos, seed=1), i, 30)
        assert a.equals(b)


@pytest.mark.parametrize("mutate, field", [
    (lambda p: p.update(phase="lunch"), "phase"),
    (lambda p: p["players"][0].update(hand=["C99"]), "players[0].hand[0]"),
    (lambda p: p["players"][1]["field"].append({"card": "K01"}), "players[1].field[1].card"),
    (lambda p: p["players"][0].update(etel_untapped=5), "players[0].etel_untapped"),
    (lambda p: p.update(stack=[{"kind": "kotodama", "card": "K01", "controller": 0, "op": "DMG_CHAR", "arg": 2,
                                "target_kind": "OPP_CHAR", "target": {"player": 1, "slot": 4}}]), "stack[0].target"),
    (lambda p: p.update(decision="interrupt"), "attack"),
    (lambda p: p.update(colour=1), "colour"),
])
def test_bad_positions_name_the_field(mutate, field):
    pos = table(seat(field=[char("C01")]), seat(field=[char("C09")]))
    load(pos)  # the base position loads
    mutate(pos)
    with pytest.raises(PositionError) as e:
        load(pos)
    assert e.value.field == field


def test_reset_with_a_position():
    pos = table(seat(field=[char("C04")]), seat(field=[char("C09")]))
    env = ninja_slayer_v0.raw_env(render_mode="ansi")
    env.reset(options={"position": pos})
    assert env.agent_selection == "player_0"
    text = env.render()
    assert "C04" in text and "declare" in text
