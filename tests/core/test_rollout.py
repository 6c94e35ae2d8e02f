"""The shared play loop (yuugi.envs.faces.rollout): per-seat policies, in-place stepping, replacement."""
import numpy as np
import pytest

from yuugi.envs import make_game
from yuugi.envs.core.errors import IllegalActionError
from yuugi.envs.faces.rollout import play_round, policy_table, rollout


class FirstLegal:
    def act(self, observation, mask, rng):
        return mask.argmax(axis=1)


class LastLegal:
    def act(self, observation, mask, rng):
        return mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)


def play_alone(game, seed, seat_rules):
    """One game played by hand, decision by decision (the rule per seat), for comparison."""
    st = game.init([seed])
    total = np.zeros(game.num_players)
    while not st.done[0]:
        mask = game.legal_mask(st)[0]
        legal = np.flatnonzero(mask)
        action = legal[0] if seat_rules[int(st.to_play[0])] == "first" else legal[-1]
        game.step(st, np.array([action]))
        total += st.rewards[0]
    return st, total


def test_each_seat_is_played_by_its_policy_and_games_match_playing_alone():
    game = make_game("nigejozu")
    seeds = np.arange(6)
    seat_policy = np.zeros((6, game.num_players), dtype=np.int64)
    seat_policy[:, 1::2] = 1  # odd seats play the last legal action, even seats the first
    st = game.init(seeds)
    total = np.zeros((6, game.num_players))

    def add(rows, finished):
        total[rows] += st.rewards[rows]

    rollout(game, st, [FirstLegal(), LastLegal()], policy_table(seat_policy), np.random.default_rng(0),
            after_round=add)
    assert st.done.all()
    rules = ["first" if s % 2 == 0 else "last" for s in range(game.num_players)]
    for i in range(6):
        alone, alone_total = play_alone(game, i, rules)
        assert alone.equals(st.take(i))
        np.testing.assert_allclose(total[i], alone_total)


def test_a_round_where_every_game_acts_copies_no_state(monkeypatch):
    game = make_game("ninja_daifugo")
    st = game.init(np.arange(8))
    before = st.copy()
    state_type = type(st)

    def no_take(self, index):
        raise AssertionError("the rollout copied games out of the batch")

    monkeypatch.setattr(state_type, "take", no_take)
    play_round(game, st, [FirstLegal()], lambda rows, seats: np.zeros(rows.size, np.int64),
               np.random.default_rng(0), np.arange(8))
    monkeypatch.undo()
    assert not st.equals(before)  # every game moved, in place


def test_finished_games_are_replaced_and_the_callback_stops_the_loop():
    game = make_game("nigejozu")
    st = game.init(np.arange(4))
    seen = {"rounds": 0, "finished": 0, "replaced": []}

    def tally(rows, finished):
        seen["rounds"] += 1
        seen["finished"] += finished.size
        return seen["finished"] >= 6

    def fresh(finished):
        seen["replaced"].append(finished.copy())
        return game.init(100 + np.arange(finished.size))

    rollout(game, st, [FirstLegal()], lambda rows, seats: np.zeros(rows.size, np.int64),
            np.random.default_rng(0), replace=fresh, after_round=tally)
    assert seen["finished"] >= 6  # it ran past the first four games: they were replaced
    assert sum(r.size for r in seen["replaced"]) == seen["finished"]
    assert not st.done.any()  # the last finished games were replaced before it returned


def test_an_illegal_policy_action_names_the_game_and_changes_nothing():
    game = make_game("nigejozu")
    st = game.init(np.arange(3))
    before = st.copy()

    class IllegalInGameTwo:
        def act(self, observation, mask, rng):
            actions = mask.argmax(axis=1)
            actions[2] = int(np.flatnonzero(~mask[2])[0])
            return actions

    with pytest.raises(IllegalActionError, match="game 2"):
        rollout(game, st, [IllegalInGameTwo()], lambda rows, seats: np.zeros(rows.size, np.int64),
                np.random.default_rng(0))
    assert st.equals(before)


class SearchSpy:
    """A search policy: decides from copies of its games' states (first legal action), and records them."""

    def __init__(self):
        self.calls = []

    def act_state(self, game, state, seats, rng):
        self.calls.append((state.to_play.copy(), np.asarray(seats).copy()))
        return game.legal_mask(state).argmax(axis=1)

    def act(self, observation, mask, rng):
        raise AssertionError("a search policy is given states, not observations")


def test_a_search_policy_gets_its_games_states_and_plays_like_the_observation_policy():
    game = make_game("nigejozu")
    seeds = np.arange(5)
    spy = SearchSpy()
    searched, plain = game.init(seeds), game.init(seeds)
    seat_policy = np.zeros((5, game.num_players), dtype=np.int64)
    rollout(game, searched, [spy], policy_table(seat_policy), np.random.default_rng(0))
    rollout(game, plain, [FirstLegal()], policy_table(seat_policy), np.random.default_rng(0))
    assert searched.equals(plain)  # the same first-legal choices, whether from states or observations
    assert spy.calls and all((to_play == seats).all() for to_play, seats in spy.calls)
    # the spy was handed copies: what it recorded are the seats to play at that round, not the final state
    assert any(len(seats) == 5 for _, seats in spy.calls)
