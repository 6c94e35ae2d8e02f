"""ninja_slayer's win network and ``hard``'s lookahead (agents/search/slayer_value.py, agents/lookahead.py):
the value reads the observation without its history and deep stack, values a position as each seat's
chance to win from its own view (zero-sum), rollouts stop where the next turn begins, and ``hard`` is
the shipped network looking a turn ahead."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.mlp import MLPPolicy
from yuugi.agents.policy import random_legal
from yuugi.agents.registry import cpu
from yuugi.agents.search.slayer_value import (INPUTS, NUM_FEATURES, VALUE_WEIGHTS, SlayerWinValue, ValuedTurnEnd,
                                              network_inputs, value_features)
from yuugi.agents.win_network import WinNetwork
from yuugi.envs import make_game
from yuugi.envs.core.errors import OptionError
from yuugi.envs.ninja_slayer import observation as O
from yuugi.envs.ninja_slayer.config import STACK_MAX

MY_TURN_TO_ACT = 3  # the scalars block: turn/60, my turn, I went first, I am to act, ...


def linear_network(weights: dict[int, float], bias: float = 0.0) -> WinNetwork:
    """A ReLU network whose logit is ``bias + Σ w·input`` (ReLU(x) − ReLU(−x) = x), over INPUTS inputs."""
    n = len(weights)
    w0 = np.zeros((INPUTS, 2 * n), np.float32)
    w2 = np.zeros((2 * n, 1), np.float32)
    for j, (column, w) in enumerate(weights.items()):
        w0[column, j], w0[column, n + j] = 1.0, -1.0
        w2[j, 0], w2[n + j, 0] = w, -w
    return WinNetwork([w0, np.eye(2 * n, dtype=np.float32), w2],
                      [np.zeros(2 * n, np.float32), np.zeros(2 * n, np.float32), np.array([bias], np.float32)])


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


@pytest.mark.parametrize("history", [1, 8, 32])
def test_the_features_are_the_observation_without_its_history_and_the_stack_above_the_fourth_item(history):
    blocks, width = O.offsets(history)
    observation = np.arange(width, dtype=np.float32)[None, :]  # each column holds its own index
    stack = blocks["stack"]
    item = (stack.stop - stack.start) // STACK_MAX
    left_out = set(range(blocks["history"].start, blocks["history"].stop)) | set(range(stack.start + 4 * item, stack.stop))
    expected = [c for c in range(width) if c not in left_out]  # in the observation's order
    assert value_features(observation)[0].astype(int).tolist() == expected
    assert NUM_FEATURES == len(expected) and INPUTS == NUM_FEATURES + 1


def test_the_value_refuses_an_observation_of_card_ids():
    game = make_game("ninja_slayer", observation="card_ids")
    observation = game.observe(game.init([0]), 0)
    with pytest.raises(OptionError, match="full observation"):
        value_features(observation)


def test_the_inputs_end_with_the_learner_flag():
    game = make_game("ninja_slayer")
    st = game.init(np.arange(3))
    observation = game.observe(st, 0)
    x = network_inputs(observation, np.array([True, False, True]))
    assert x.shape == (3, INPUTS) and x[:, -1].tolist() == [1.0, 0.0, 1.0]
    assert np.array_equal(x[:, :-1], value_features(observation))


def positions_in_play(games: int, steps: int, seed: int):
    """(game, state): the games still going after ``steps`` random legal moves."""
    game = make_game("ninja_slayer")
    rng = np.random.default_rng(seed)
    st = game.init(np.arange(games))
    for _ in range(steps):
        game.step(st, random_legal(game.legal_mask(st), rng), ~st.done)
    return game, st.take(np.flatnonzero(~st.done))


def test_a_position_is_worth_each_seats_win_probability_from_its_own_view_zero_sum():
    game, st = positions_in_play(32, 25, seed=4)
    # logit = 2 x "I am to act": the seat to act reads 2 (P = σ(2)), the other 0 (P = 1/2).
    value = SlayerWinValue(linear_network({MY_TURN_TO_ACT: 2.0}))(game, st)
    to_act = st.to_play.astype(np.int64)
    expected_for_seat0 = np.where(to_act == 0, sigmoid(2.0) - 0.5, 0.5 - sigmoid(2.0))
    np.testing.assert_allclose(value[:, 0], expected_for_seat0, rtol=1e-6)
    np.testing.assert_allclose(value[:, 1], -value[:, 0])
    # the learner flag is 1 for both seats: a network reading only it values every position level
    np.testing.assert_allclose(SlayerWinValue(linear_network({INPUTS - 1: 3.0}))(game, st), 0.0, atol=1e-12)


def test_several_networks_value_a_position_together_by_their_mean_log_odds():
    game, st = positions_in_play(16, 20, seed=5)
    # logits 1 and 3 for "I am to act": together 2, as one network with logit 2 would value it
    together = SlayerWinValue([linear_network({MY_TURN_TO_ACT: 1.0}), linear_network({MY_TURN_TO_ACT: 3.0})])
    np.testing.assert_allclose(together(game, st), SlayerWinValue(linear_network({MY_TURN_TO_ACT: 2.0}))(game, st),
                               rtol=1e-6)


def test_the_expert_values_with_both_shipped_networks_and_hard_with_the_first():
    from yuugi.agents.search.game_search import HORIZONS
    from yuugi.agents.win_network import WinEnsemble

    expert = HORIZONS["ninja_slayer"].for_game(make_game("ninja_slayer"))
    members = expert._win_value.network.members
    assert isinstance(expert._win_value.network, WinEnsemble) and len(members) == 2
    assert [m.meta["command"].split("--seed ")[1].split()[0] for m in members] == ["70", "71"]
    assert "ninja_slayer_value.npz + ninja_slayer_value_2.npz together" in HORIZONS["ninja_slayer"].describe()
    hard = cpu("ninja_slayer", "hard").horizon_for(make_game("ninja_slayer"))
    assert not isinstance(hard._win_value.network, WinEnsemble)
    assert hard._win_value.network.meta["command"] == members[0].meta["command"]


def test_a_network_for_other_inputs_is_refused():
    with pytest.raises(ValueError, match=f"reads {INPUTS} inputs"):
        SlayerWinValue(WinNetwork([np.zeros((10, 1), np.float32)], [np.zeros(1, np.float32)]))


@pytest.mark.parametrize("turns", [1, 2])
def test_rollouts_stop_where_the_turn_after_the_given_number_begins(turns):
    game = make_game("ninja_slayer")
    rng = np.random.default_rng(6)
    origin = game.init(np.arange(24))
    for _ in range(9):
        game.step(origin, random_legal(game.legal_mask(origin), rng), ~origin.done)
    horizon = ValuedTurnEnd(turns)
    now = origin.copy()
    stopped = np.zeros(now.batch_size, bool)
    for _ in range(3000):
        over = now.done | horizon(origin, now)
        newly = over & ~stopped & ~now.done
        # turns alternate between the seats: the turn reached belongs to the seat whose turn is `turns` on
        assert (now.turn[newly] == origin.turn[newly] + turns).all()
        assert (now.tp[newly] == (origin.tp[newly] + turns) % 2).all()
        stopped |= over
        if over.all():
            break
        game.step(now, random_legal(game.legal_mask(now), rng), ~over)
    assert stopped.all()
    assert "end of this turn" in ValuedTurnEnd(1).describe() and "2 turns ahead" in ValuedTurnEnd(2).describe()


def test_the_horizon_values_only_once_bound_to_its_game():
    game = make_game("ninja_slayer")
    st = game.init(np.arange(2))
    with pytest.raises(RuntimeError, match="for_game"):
        ValuedTurnEnd(1, network=linear_network({0: 1.0})).value(st)
    bound = ValuedTurnEnd(1, network=linear_network({MY_TURN_TO_ACT: 1.0})).for_game(game)
    assert bound.value(st).shape == (2, 2)
    with pytest.raises(ValueError, match="positive integer"):
        ValuedTurnEnd(0)


def test_hard_is_the_shipped_network_looking_a_turn_ahead():
    hard = cpu("ninja_slayer", "hard")
    assert hard.name == "hard" and isinstance(hard.guide_spec, MLPPolicy) and hard.rollout_spec is hard.guide_spec
    assert hard.think_ms is None and hard.rounds == 1 and isinstance(hard.horizon, ValuedTurnEnd)
    assert hard.horizon.turns == 1
    game = make_game("ninja_slayer", decks="sealed")
    rng = np.random.default_rng(0)
    st = game.init(np.arange(6))
    for _ in range(40):  # every decision it takes is legal, in both seats
        live = np.flatnonzero(~st.done)
        if live.size == 0:
            break
        sub = st.take(live)
        actions = np.zeros(st.batch_size, np.int64)
        actions[live] = hard.act_state(game, sub, sub.to_play.astype(np.int64), rng)
        assert game.legal_mask(sub)[np.arange(live.size), actions[live]].all()
        game.step(st, actions, ~st.done)


@pytest.mark.parametrize("file", ["ninja_slayer_value.npz", "ninja_slayer_value_2.npz"])
def test_the_shipped_value_networks_read_the_features_and_record_their_command(file):
    network = WinNetwork.load(VALUE_WEIGHTS.with_name(file))
    assert network.inputs == INPUTS
    assert network.meta["command"].startswith("python -m yuugi.training.train.slayer_value ")
    assert 0.0 < network.meta["held_out_loss"] < np.log(2)  # better than a coin on games it never saw


def test_training_games_label_each_kept_view_with_that_seats_result():
    from yuugi.training.train.slayer_value import play_family

    data = play_family("sealed", games=6, seed_base=7, keep=0.2)
    flag = data.inputs[:, -1]
    assert set(np.unique(flag)) == {0.0, 1.0}
    for g in np.unique(data.game):
        rows = data.game == g
        network_seat, normal_seat = data.won[rows & (flag == 1)], data.won[rows & (flag == 0)]
        # every view of a game is labelled with its seat's one result, and the two seats never both won
        assert network_seat.size == normal_seat.size > 0
        assert len(set(network_seat)) == 1 and len(set(normal_seat)) == 1
        assert not (network_seat[0] and normal_seat[0])
    assert set(np.unique(data.game)) <= set(range(7, 13))  # seeds 7 + g of games g = 0..5


def test_the_training_command_writes_the_network_and_its_curve(tmp_path):
    from yuugi.training.train.slayer_value import main

    assert main(["--games", "4", "--keep", "0.2", "--epochs", "2", "--hidden", "8", "--workers", "1",
                 "--out", str(tmp_path)]) == 0
    network = WinNetwork.load(tmp_path / "ninja_slayer_value.npz")
    assert network.inputs == INPUTS and network.meta["games_per_family"] == 4 and len(network.meta["curve"]) == 2
    assert (tmp_path / "ninja_slayer_value_curve.csv").read_text().count("\n") == 3
    assert (tmp_path / "ninja_slayer_value_curve.png").stat().st_size > 1000


@pytest.mark.parametrize("argv, says", [(["--games", "0", "--out", "x"], "--games must be between"),
                                        (["--keep", "0", "--out", "x"], "--keep must be a share"),
                                        (["--epochs", "0", "--out", "x"], "--epochs must be at least 1")])
def test_training_usage_errors_name_the_option(argv, says, capsys):
    from yuugi.training.train.slayer_value import main

    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and says in capsys.readouterr().err
