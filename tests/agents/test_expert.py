"""The expert (determinized Monte-Carlo search): what it may know, its interface, and its strength."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from yuugi.agents.expert import ExpertPolicy
from yuugi.agents.heuristics.ninja_daifugo import DaifugoHeuristic
from yuugi.agents.policy import random_legal
from yuugi.agents.registry import hard_weights, heuristic
from yuugi.agents.search.candidates import preferred_actions
from yuugi.agents.search.daifugo_rollout import SparseDaifugoHeuristic
from yuugi.agents.search.dispatch import act
from yuugi.agents.search.guides import candidates as guide_candidates
from yuugi.agents.search.guides import hard_for
from yuugi.agents.search.resamplers import resampler
from yuugi.envs import make_game
from yuugi.envs.core.errors import OptionError
from yuugi.envs.ninja_daifugo import actions as A
from yuugi.envs.ninja_daifugo.cards import BIT, parse_card
from tests.ninja_daifugo.invariants import check_invariants

GAMES = ("ninja_daifugo", "nigejozu", "momotaro")


def mid_game(game_name: str, n: int, steps: int, seed: int = 0):
    """Live positions after ``steps`` decisions of the heuristic at every seat."""
    game = make_game(game_name)
    policy = heuristic(game_name)
    rng = np.random.default_rng(seed)
    st = game.init(np.arange(seed, seed + n))
    for _ in range(steps):
        seats = st.to_play.astype(np.int64)
        game.step(st, policy.act(game.observe(st, seats), game.legal_mask(st), rng))
    return game, st.take(np.flatnonzero(~st.done))


def small_expert(game_name: str, **kw) -> ExpertPolicy:
    return ExpertPolicy(game_name, heuristic(game_name), think_ms=None, rounds=1, samples=4, top_n=3, **kw)


class TrueWorld:
    """A resampler that keeps the true state: an expert built on it sees the hidden information."""

    def __call__(self, game, state, seat, rng):
        return state.copy()


# nigejozu searches from normal's candidates here: hard's softmax is peaked enough that its pruning
# leaves one candidate in most of these positions, and a search without a second candidate cannot show
# what it reads.
@pytest.mark.parametrize("game_name,steps,guide", [("ninja_daifugo", 30, None), ("nigejozu", 12, "normal"),
                                                   ("momotaro", 120, None)])
def test_the_decision_depends_only_on_what_the_seat_may_know(game_name, steps, guide):
    game, st = mid_game(game_name, 24, steps)
    seats = st.to_play.astype(np.int64)
    worlds = [resampler(game_name)(game, st, seats, np.random.default_rng(100 + w)) for w in range(3)]
    honest = [small_expert(game_name, guide=guide).act_state(game, w, seats, np.random.default_rng(7)) for w in worlds]
    for other in honest[1:]:
        np.testing.assert_array_equal(honest[0], other)
    # The test has teeth: an expert that reads the true hidden state decides differently across these worlds.
    cheat = small_expert(game_name, guide=guide)
    cheat.resample = TrueWorld()
    seen = [cheat.act_state(game, w, seats, np.random.default_rng(7)) for w in worlds]
    assert any((seen[0] != other).any() for other in seen[1:])


def test_momotaro_searches_the_last_battle_round_only():
    """Before round 3 the expert plays its guide's (hard's) move without a rollout; in round 3 it searches."""
    for steps, searched in ((40, False), (120, True)):
        game, st = mid_game("momotaro", 24, steps, seed=4)
        assert ((st.round >= 3) == searched).all()  # the positions are where the test means them to be
        seats = st.to_play.astype(np.int64)
        rng = np.random.default_rng(0)
        expert = small_expert("momotaro", guide="hard")
        actions = expert.act_state(game, st, seats, rng)
        hard_move = hard_for(game).act(game.observe(st, seats), game.legal_mask(st), rng)
        if searched:
            assert expert.stats["searched"] > 0 and expert.stats["rollouts"] > 0
        else:
            assert expert.stats["searched"] == 0 and expert.stats["rollouts"] == 0
            np.testing.assert_array_equal(actions, hard_move)


def test_it_plays_legal_moves_in_batches_and_reports_its_speed():
    game, st = mid_game("ninja_daifugo", 40, 20, seed=3)
    expert = ExpertPolicy("ninja_daifugo", heuristic("ninja_daifugo"), think_ms=5.0, samples=2, top_n=3)
    actions = expert.act_state(game, st, st.to_play, np.random.default_rng(0))
    assert game.legal_mask(st)[np.arange(st.batch_size), actions].all()
    assert expert.stats["decisions"] == st.batch_size and expert.stats["rollouts"] > 0
    assert expert.rollouts_per_second > 0


def test_observation_only_calls_and_wrong_seats_are_refused_with_the_way_out():
    game, st = mid_game("nigejozu", 4, 5)
    expert = small_expert("nigejozu")
    with pytest.raises(TypeError, match="act_state"):
        expert.act(game.observe(st, st.to_play.astype(np.int64)), game.legal_mask(st), np.random.default_rng(0))
    with pytest.raises(ValueError, match="not to play"):
        expert.act_state(game, st, 1 - st.to_play.astype(np.int64), np.random.default_rng(0))
    for bad in ({"samples": 0}, {"top_n": 1.5}, {"top_n": 1}, {"think_ms": -1}, {"confidence": -0.5}):
        with pytest.raises(ValueError):
            ExpertPolicy("nigejozu", heuristic("nigejozu"), **bad)
    with pytest.raises(OptionError, match="nigejozu"):
        ExpertPolicy("no_such_game", heuristic("nigejozu"))  # no resampler: refused, naming the games with one


def test_dispatch_gives_each_kind_of_policy_what_it_reads():
    game, st = mid_game("nigejozu", 6, 8)
    seats = st.to_play.astype(np.int64)
    obs, mask = game.observe(st, seats), game.legal_mask(st)
    normal = heuristic("nigejozu")
    np.testing.assert_array_equal(act(normal, game, st, seats, obs, mask, np.random.default_rng(1)),
                                  normal.act(obs, mask, np.random.default_rng(1)))
    expert = small_expert("nigejozu")
    np.testing.assert_array_equal(act(expert, game, st, seats, obs, mask, np.random.default_rng(1)),
                                  small_expert("nigejozu").act_state(game, st, seats, np.random.default_rng(1)))


def test_candidates_are_distinct_legal_actions_led_by_the_heuristic_choice():
    game, st = mid_game("ninja_daifugo", 50, 25, seed=5)
    seats = st.to_play.astype(np.int64)
    obs, mask = game.observe(st, seats), game.legal_mask(st)

    class Zero:
        def random(self, shape):
            return np.zeros(shape)

    cands = preferred_actions(DaifugoHeuristic(), obs, mask, 4, Zero())
    np.testing.assert_array_equal(cands[:, 0], DaifugoHeuristic().act(obs, mask, Zero()))
    for row, legal in zip(cands, mask):
        listed = row[row >= 0]
        assert len(set(listed.tolist())) == len(listed) == min(4, legal.sum())
        assert legal[listed].all()


@pytest.mark.parametrize("options", [{}, {"ninja": "off"}])
def test_the_sparse_daifugo_heuristic_is_the_heuristic(options):
    class Zero:  # no tie-breaking noise: both then take the first best action
        def random(self, shape):
            return np.zeros(shape)

    game = make_game("ninja_daifugo", **options)
    st = game.init(np.arange(200))
    rng = np.random.default_rng(0)
    compared = 0
    for _ in range(300):
        live = np.flatnonzero(~st.done)
        sub = st.take(live)
        mask, obs = game.legal_mask(sub), game.observe(sub, sub.to_play.astype(np.int64))
        reference = DaifugoHeuristic().act(obs, mask, Zero())
        np.testing.assert_array_equal(SparseDaifugoHeuristic().act(obs, mask, Zero()), reference)
        compared += live.size
        actions = np.zeros(st.batch_size, dtype=np.int64)
        # Some random moves reach the positions the heuristic avoids (revolutions, jutsu, exchanges).
        actions[live] = np.where(rng.random(live.size) < 0.3, random_legal(mask, rng), reference)
        game.step(st, actions)
    assert compared > 20_000


def test_expert_plays_without_torch():
    code = ("import sys; sys.modules['torch'] = None\n"
            "import numpy as np\n"
            "from yuugi.agents.expert import ExpertPolicy\n"
            "from yuugi.agents.registry import heuristic\n"
            "from yuugi.envs import make_game\n"
            "for name in ('ninja_daifugo', 'nigejozu', 'momotaro'):\n"
            "    g = make_game(name); st = g.init(np.arange(2))\n"
            "    e = ExpertPolicy(name, heuristic(name), think_ms=None, samples=2, top_n=2)\n"
            "    e.act_state(g, st, st.to_play, np.random.default_rng(0))\n"
            "assert 'torch' not in [m for m in sys.modules if sys.modules[m] is not None]\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_search_finds_the_eight_cut_finish_the_heuristic_misses():
    # Leading with ♠8 and ♥3 left: the 8 clears the field (8-cut), the seat leads again and goes out
    # first with the 3, whatever the others hold. The heuristic sheds the weak 3 first (its rule:
    # weakest cards first), after which the others may beat it and the 8 may never get its turn.
    game = make_game("ninja_daifugo", ninja="off", series_games=1, declarations=(0,))
    st = game.init(np.arange(16))
    seats = st.to_play.astype(np.int64)
    eight, three = parse_card("S8"), parse_card("H3")
    keep = BIT[eight] | BIT[three]
    for i in range(st.batch_size):
        rest = st.hands[i, seats[i]] & ~keep
        st.hands[i] &= ~keep
        st.discard[i] |= rest  # the seat's other cards: played in earlier tricks
        st.played[i, seats[i]] |= rest
        st.hands[i, seats[i]] = keep
    check_invariants(st, game.legal_mask(st))
    play_eight, play_three = A.SINGLE0 + eight, A.SINGLE0 + three
    normal = heuristic("ninja_daifugo")
    assert (normal.act(game.observe(st, seats), game.legal_mask(st), np.random.default_rng(0)) == play_three).all()
    expert = ExpertPolicy("ninja_daifugo", normal, think_ms=None, rounds=2, samples=8, top_n=3)
    chosen = expert.act_state(game, st, seats, np.random.default_rng(0))
    assert np.isin(chosen, [play_eight, play_three]).all()
    # Where the 3 first still wins the deal in every sample the two lines tie and the heuristic's choice stays.
    assert (chosen == play_eight).mean() >= 0.5


def test_a_network_guide_ranks_by_its_logits_and_prunes_unlikely_candidates():
    game, st = mid_game("momotaro", 60, 30, seed=2)
    seats = st.to_play.astype(np.int64)
    obs, mask = game.observe(st, seats), game.legal_mask(st)
    hard = hard_for(game)
    logits = np.where(mask, hard.logits(obs, mask).astype(np.float64), -np.inf)
    prob = np.exp(logits - logits.max(axis=1, keepdims=True))
    prob /= prob.sum(axis=1, keepdims=True)
    rng = np.random.default_rng(0)
    cands = guide_candidates(hard, obs, mask, 4, 0.0, rng)
    np.testing.assert_array_equal(cands[:, 0], hard.act(obs, mask, rng))  # the reference is hard's own move
    pruned = guide_candidates(hard, obs, mask, 4, 0.1, rng)
    for row in range(st.batch_size):
        listed = cands[row][cands[row] >= 0]
        assert len(listed) == min(4, mask[row].sum()) and mask[row, listed].all()
        assert (np.diff(prob[row, listed]) <= 1e-12).all()  # most likely first
        kept = pruned[row][pruned[row] >= 0]
        np.testing.assert_array_equal(kept, listed[:len(kept)])
        assert (prob[row, kept[1:]] >= 0.1).all() and (prob[row, listed[len(kept):]] < 0.1).all()
    assert (pruned < 0).sum() > (cands < 0).sum()  # the threshold removed some candidates


def test_hard_is_the_network_made_for_the_player_count():
    for players, stem in ((2, "momotaro_hard_2p"), (3, "momotaro_hard_3p"), (4, "momotaro_hard")):
        game = make_game("momotaro", num_players=players)
        assert hard_for(game).name == "momotaro_hard" and hard_for(game).signature["num_players"] == players
        assert hard_weights("momotaro", num_players=players).stem == stem
    with pytest.raises(ValueError, match="normal, hard, random"):
        ExpertPolicy("nigejozu", heuristic("nigejozu"), rollout_policy="greedy")
    with pytest.raises(ValueError, match="normal, hard, random"):
        ExpertPolicy("nigejozu", heuristic("nigejozu"), guide="expert")


class CountingPolicy:
    """A rollout policy that plays at random and records the batch size of every call."""

    def __init__(self):
        self.sizes = []

    def act(self, observation, mask, rng):
        self.sizes.append(len(mask))
        return random_legal(mask, rng)


def test_all_decisions_of_a_batch_are_searched_in_one_rollout_batch():
    game, st = mid_game("nigejozu", 30, 12, seed=4)
    counting = CountingPolicy()
    expert = ExpertPolicy("nigejozu", heuristic("nigejozu"), think_ms=None, rounds=1, samples=4, top_n=3,
                          guide="normal", rollout_policy=counting)
    expert.act_state(game, st, st.to_play, np.random.default_rng(0))
    searched = expert.stats["searched"]
    assert searched > 10
    # The first rollout step holds every (decision, candidate, sample) row at once: no loop per game.
    assert counting.sizes[0] == expert.stats["rollouts"] and searched * 4 * 2 <= counting.sizes[0] <= searched * 12


@pytest.mark.parametrize("rollout_policy", ["random", "hard", "normal"])
def test_every_rollout_policy_plays_legal_games_to_the_end(rollout_policy):
    game, st = mid_game("momotaro", 8, 20, seed=6)
    expert = ExpertPolicy("momotaro", heuristic("momotaro"), think_ms=None, samples=2, top_n=3,
                          rollout_policy=rollout_policy, prune=0.0,
                          search_when=lambda state: np.ones(state.batch_size, dtype=bool))  # from round 1: long rollouts
    actions = expert.act_state(game, st, st.to_play, np.random.default_rng(0))
    assert game.legal_mask(st)[np.arange(st.batch_size), actions].all() and expert.stats["rollouts"] > 0


def test_a_large_batch_is_searched_in_chunks_of_at_most_max_rows_rollouts():
    game, st = mid_game("nigejozu", 30, 12, seed=4)
    counting = CountingPolicy()
    expert = ExpertPolicy("nigejozu", heuristic("nigejozu"), think_ms=None, rounds=1, samples=4, top_n=3,
                          guide="normal", rollout_policy=counting, max_rows=40)
    actions = expert.act_state(game, st, st.to_play, np.random.default_rng(0))
    assert game.legal_mask(st)[np.arange(st.batch_size), actions].all()
    assert max(counting.sizes) <= 40 and sum(counting.sizes) > 40 * 3  # several chunks, none over the limit
