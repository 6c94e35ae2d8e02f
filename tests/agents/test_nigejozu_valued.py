"""nigejozu's valued policy (agents/heuristics/nigejozu_valued.py, hard's prior): the boards it values are the
ones the rules lead to, seen from the side that moves next, and it always plays legal actions."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.heuristics.nigejozu import _Ctx
from yuugi.agents.heuristics.nigejozu_valued import (CARD_USED, ESCAPE, INPUTS, LOCKED, TO_MOVE, NigejozuValued,
                                                      other_side, turn_features)
from yuugi.agents.mlp import MLPPolicy
from yuugi.agents.win_network import WinEnsemble, WinNetwork
from yuugi.envs import make_game
from yuugi.envs.nigejozu import actions as A
from yuugi.envs.nigejozu.state import PHASE_DICE, PHASE_REROLLED

from .test_nigejozu_heuristic import random_positions

FLAG = INPUTS - 1  # the network's last input: the side to move is the learner


def linear_network(weights: dict[int, float], bias: float = 0.0) -> WinNetwork:
    """A network whose logit is ``bias + sum(w * input[i])`` (one hidden layer passing the inputs through)."""
    w0 = np.zeros((INPUTS, 2 * INPUTS), np.float32)
    w0[np.arange(INPUTS), np.arange(INPUTS)] = 1.0  # ReLU(x) - ReLU(-x) = x
    w0[np.arange(INPUTS), INPUTS + np.arange(INPUTS)] = -1.0
    w1 = np.eye(2 * INPUTS, dtype=np.float32)
    w2 = np.zeros((2 * INPUTS, 1), np.float32)
    for i, w in weights.items():
        w2[i, 0], w2[INPUTS + i, 0] = w, -w
    return WinNetwork([w0, w1, w2], [np.zeros(2 * INPUTS, np.float32), np.zeros(2 * INPUTS, np.float32),
                                     np.array([bias], np.float32)])


def test_both_seats_see_the_same_facts_swapped():
    game = make_game("nigejozu")
    for st in random_positions(game, steps=120, every=10):
        seen_by = [turn_features(game.observe(st, np.full(st.batch_size, seat))) for seat in (0, 1)]
        swapped = other_side(seen_by[0])
        keep = np.ones(seen_by[0].shape[1], bool)
        keep[TO_MOVE] = False  # the one fact that differs: which of them is to act
        np.testing.assert_array_equal(swapped[:, keep], seen_by[1][:, keep])


def _last_placements(game):
    """(state, row) pairs where the mover places its last troops with the opponent's hand empty: the
    battle follows the placement at once."""
    found = []
    for st in random_positions(game, n_games=256, steps=400, every=2, seed=3):
        me = st.to_play
        rows = np.flatnonzero(~st.done & np.isin(st.phase, (PHASE_DICE, PHASE_REROLLED))
                              & (st.hand[np.arange(st.batch_size), 1 - me] == 0)
                              & (st.hand[np.arange(st.batch_size), me] <= 1))
        found += [(st, int(i)) for i in rows]
    return found


def test_a_placement_that_ends_the_game_is_valued_by_the_battle():
    """With both hands empty after it, a placement is worth 1 if the battle then gives this side the game
    and 0 if not, whatever the network says."""
    game = make_game("nigejozu")
    policy = NigejozuValued(linear_network({}, bias=0.0))  # the network says 0.5 everywhere
    cases = _last_placements(game)
    assert len(cases) >= 20
    checked = 0
    for st, i in cases:
        one = st.take([i])
        mask = game.legal_mask(one)
        scores = policy.scores(game.observe(one, one.to_play), mask)
        for action in range(A.COUNT0, A.COUNT0 + 3):
            if not mask[0, action]:
                continue
            after = one.copy()
            game.step(after, np.array([action]))
            assert after.terminated[0]
            won = game.winner(after)[0] == one.to_play[0]
            assert scores[0, action] == float(won)
            checked += 1
    assert checked >= 20


def test_the_side_that_moves_next_is_asked_for_its_chance():
    """After a placement that leaves the opponent troops to place, the network is asked for the opponent's
    chance (the view swapped, the learner flag off) and this side's is the rest; when the opponent's hand is
    empty this side plays on, and the network is asked for its own chance with the flag on."""
    game = make_game("nigejozu")
    policy = NigejozuValued(linear_network({FLAG: 2.0}, bias=-1.0))
    st = random_positions(game, n_games=64, steps=40, every=40)[0]
    obs = game.observe(st, st.to_play)
    f = turn_features(obs[:4])
    own = np.ones((4, 11))
    opp = np.zeros((4, 11))
    p = policy.win_probability(f, own, opp, hs=np.array([5.0, 5.0, 5.0, 5.0]), ho=np.array([3.0, 3.0, 0.0, 0.0]))
    opponent_says = 1.0 / (1.0 + np.exp(1.0))  # flag 0: logit -1
    mine = 1.0 / (1.0 + np.exp(-1.0))  # flag 1: logit +1
    np.testing.assert_allclose(p, [1 - opponent_says, 1 - opponent_says, mine, mine], rtol=1e-6)


def test_emptying_the_hand_first_takes_the_escape_chip_and_locks_the_cards():
    game = make_game("nigejozu")
    esc_opp = ESCAPE.start + 2  # the escape chip held by the view's opponent
    # The network reads the mover's (here the opponent's) view: this side is its "opponent".
    policy = NigejozuValued(linear_network({esc_opp: -3.0, LOCKED.start: 0.0}))
    st = random_positions(game, n_games=8, steps=10, every=10)[0]
    f = turn_features(game.observe(st, st.to_play))[:2]
    f[:, ESCAPE] = [1.0, 0.0, 0.0]  # nobody holds it yet
    p = policy.win_probability(f, np.ones((2, 11)), np.zeros((2, 11)), hs=np.array([0.0, 2.0]), ho=np.array([4.0, 4.0]))
    took = 1.0 - 1.0 / (1.0 + np.exp(3.0))  # the opponent's chance is sigmoid(-3): the chip is this side's
    np.testing.assert_allclose(p, [took, 0.5], rtol=1e-6)
    seen = []
    policy.network = type("Spy", (), {"__call__": lambda self, x: seen.append(x.copy()) or np.full(len(x), 0.5)})()
    policy.win_probability(f, np.ones((2, 11)), np.zeros((2, 11)), hs=np.array([0.0, 2.0]), ho=np.array([4.0, 4.0]))
    assert seen[0][0, LOCKED.start] == 1.0 and seen[0][1, LOCKED.start] == f[1, LOCKED.start]


def test_a_card_turn_spends_the_marker():
    game = make_game("nigejozu")
    policy = NigejozuValued(linear_network({}))
    seen = []
    policy.network = type("Spy", (), {"__call__": lambda self, x: seen.append(x.copy()) or np.full(len(x), 0.5)})()
    for st in random_positions(game, n_games=64, steps=60, every=20):
        mask = game.legal_mask(st)
        rows = np.flatnonzero(~st.done & mask[:, A.ROLL] & mask[:, A.CARD0:A.REROLL].any(axis=1))
        if len(rows):
            obs = game.observe(st, st.to_play)[rows]
            policy._features = turn_features(obs)
            policy._card_played = True
            ctx = _Ctx(obs)
            policy.value(ctx, np.arange(len(rows)), ctx.own, ctx.opp, ctx.hs, ctx.ho)
            # the mover's view: the opponent moves next, so this side's marker is the view's second column
            view = seen[-1]
            moved = ctx.ho > 0
            assert (view[moved, CARD_USED.start + 1] == 1.0).all() and (view[~moved, CARD_USED.start] == 1.0).all()
            return
    pytest.fail("no turn start with a usable card in the sample")


def test_plays_only_legal_actions_with_the_shipped_network():
    game = make_game("nigejozu")
    policy = NigejozuValued()
    rng = np.random.default_rng(0)
    for st in random_positions(game, steps=160, every=8):
        live = ~st.done
        mask = game.legal_mask(st)[live]
        actions = policy.act(game.observe(st, st.to_play)[live], mask, rng)
        assert mask[np.arange(len(actions)), actions].all()


def test_the_level_file_plays_the_valued_choices(tmp_path):
    from yuugi.training.train.value_iteration import write_level

    write_level(tmp_path / "level.npz", {})
    level = MLPPolicy.load(tmp_path / "level.npz", game="nigejozu")
    valued = NigejozuValued()
    game = make_game("nigejozu")
    rng = np.random.default_rng(1)
    compared = 0
    for st in random_positions(game, steps=80, every=8, seed=5):
        live = ~st.done
        obs, mask = game.observe(st, st.to_play)[live], game.legal_mask(st)[live]
        choice = mask.sum(axis=1) > 1
        scores = np.where(mask, valued.scores(obs, mask), -np.inf)
        best = scores.max(axis=1, keepdims=True)
        picked = level.act(obs, mask, rng)
        # the level's choice is one of the valued policy's best (ties aside, the same one)
        assert (scores[np.arange(len(picked)), picked] >= best[:, 0] - 1e-9)[choice].all()
        compared += int(choice.sum())
    assert compared > 100


@pytest.mark.parametrize("argv, says", [(["--games", "10", "--out", "x"], "--games must be at least 40"),
                                        (["--rounds", "0", "--out", "x"], "--rounds must be at least 1"),
                                        ([], "give --out")])
def test_usage_errors_name_the_option(argv, says, capsys):
    from yuugi.training.train.value_iteration import main

    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and says in capsys.readouterr().err


def test_a_round_labels_each_turn_start_with_its_movers_result(tmp_path):
    from yuugi.training.train.value_iteration import main, play_round

    data = play_round(None, first_game=0, games=40, seed_base=7)
    for g in np.unique(data.game):
        rows = data.game == g
        learner = data.learner_moves[rows]
        won = data.mover_won[rows]
        assert learner.any() and (~learner).any()
        # one side won the game: all of its turn starts say so, and none of the other's
        assert len(set(won[learner])) == 1 and len(set(won[~learner])) == 1 and won[learner][0] != won[~learner][0]
    learner_games_won = {int(g) for g in np.unique(data.game[data.learner_moves & data.mover_won])}
    assert len(learner_games_won) == data.learner_won
    assert main(["--rounds", "2", "--games", "40", "--workers", "1", "--hidden", "8", "--epochs", "1",
                 "--out", str(tmp_path)]) == 0
    network = WinNetwork.load(tmp_path / "nigejozu_value.npz")
    assert network.meta["round"] == 1 and network.meta["learner"] == "nigejozu_value_round0.npz"
    assert (tmp_path / "nigejozu_value_curve.csv").read_text().count("\n") == 3
    assert (tmp_path / "nigejozu_value_curve.png").stat().st_size > 1000


def test_an_ensemble_takes_the_mean_of_its_members_log_odds(tmp_path):
    # member logits 2 x flag and 0.5 - flag: with the flag set, 2 and -0.5, whose mean is 0.75
    ensemble = WinEnsemble([linear_network({FLAG: 2.0}), linear_network({FLAG: -1.0}, bias=0.5)], {"why": "test"})
    x = np.zeros((2, INPUTS), np.float32)
    x[0, FLAG] = 1.0
    expected = 1.0 / (1.0 + np.exp(-np.array([0.75, 0.25])))  # flag clear: logits 0 and 0.5
    np.testing.assert_allclose(ensemble(x), expected, rtol=1e-6)
    ensemble.save(tmp_path / "ens.npz")
    loaded = WinNetwork.load(tmp_path / "ens.npz")
    assert isinstance(loaded, WinEnsemble) and len(loaded.members) == 2 and loaded.meta == {"why": "test"}
    np.testing.assert_allclose(loaded(x), expected, rtol=1e-6)
    with pytest.raises(ValueError, match="at least two"):
        WinEnsemble([linear_network({FLAG: 1.0})])


def test_hard_values_boards_by_an_ensemble_written_by_the_command(tmp_path, capsys):
    from yuugi.training.train.value_iteration import main

    assert isinstance(NigejozuValued().network, WinEnsemble)  # the shipped network
    one, two = tmp_path / "one.npz", tmp_path / "two.npz"
    linear_network({FLAG: 2.0}).save(one)
    linear_network({FLAG: -1.0}, bias=0.5).save(two)
    assert main(["--ensemble", str(one), str(two), "--write-network", str(tmp_path / "ens.npz")]) == 0
    loaded = WinNetwork.load(tmp_path / "ens.npz")
    x = np.zeros((1, INPUTS), np.float32)
    x[0, FLAG] = 1.0
    np.testing.assert_allclose(loaded(x), [1.0 / (1.0 + np.exp(-0.75))], rtol=1e-6)
    for argv, says in ((["--ensemble", str(one), "--write-network", "x.npz"], "two or more"),
                       (["--ensemble", str(one), str(tmp_path / "none.npz"), "--write-network", "x.npz"], "no network file"),
                       (["--ensemble", str(one), str(tmp_path / "ens.npz"), "--write-network", "x.npz"], "not ensembles")):
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2 and says in capsys.readouterr().err
