"""The core contract beyond Box(0, 1): declared spaces, per-episode setup, auto-skip, vector conventions."""
import gymnasium
import numpy as np
import pytest

from yuugi.agents.policy import random_legal
from yuugi.envs import make_game
from yuugi.envs.faces.aec import BatchAECEnv
from yuugi.envs.core.errors import CallError, OptionError
from yuugi.envs.faces.replay import Recorder, replay
from yuugi.seated.single_agent import SingleAgentEnv
from yuugi.envs.faces.vector import GymSelfPlayVectorEnv, SelfPlayBatch
from yuugi.envs.nigejozu.game import Nigejozu
from yuugi.envs.ninja_slayer.decks import CONSTRUCTED


class Random:
    def act(self, observation, mask, rng):
        return random_legal(mask, rng)


# ---- observation_space ---------------------------------------------------------------------------
def test_default_space_is_the_unit_box_of_the_declared_shape():
    game = make_game("nigejozu")
    space = game.observation_space
    assert isinstance(space, gymnasium.spaces.Box) and space.shape == tuple(game.observation_shape)
    assert space.dtype == np.float32 and space.low.min() == 0.0 and space.high.max() == 1.0


class WideNigejozu(Nigejozu):
    """A game declaring its own space: every face must show this one, not Box(0, 1)."""

    @property
    def observation_space(self):
        return gymnasium.spaces.Box(-5.0, 5.0, tuple(self.observation_shape), np.float32)


def test_every_face_declares_the_games_own_space():
    game = WideNigejozu()
    aec = BatchAECEnv(game)
    assert aec.observation_space(aec.possible_agents[0])["observation"] == game.observation_space
    single = SingleAgentEnv(game, [Random()] * game.num_players)
    assert single.observation_space == game.observation_space
    vec = GymSelfPlayVectorEnv(game, 3, Random())
    assert vec.single_observation_space == game.observation_space
    assert vec.observation_space.shape == (3, *game.observation_shape) and vec.observation_space.low.min() == -5.0
    sb3_vec = pytest.importorskip("yuugi.training.train.sb3_vec")
    assert sb3_vec.SB3SelfPlayVecEnv(game, 2, Random()).observation_space == game.observation_space


# ---- per-episode setup ---------------------------------------------------------------------------
def seat_deck(state, game_index, seat):
    size = int(state.deck_size[game_index, seat])
    return sorted(state.deck[game_index, seat, :size].tolist())


def test_setup_decks_give_each_seat_that_deck():
    game = make_game("ninja_slayer")
    st = game.init(np.arange(2), {"decks": ("D1", "D2")})
    for i in range(2):  # the deck array keeps all 50 cards (a pointer marks those drawn)
        assert seat_deck(st, i, 0) == sorted(CONSTRUCTED["D1"])
        assert seat_deck(st, i, 1) == sorted(CONSTRUCTED["D2"])


def test_one_setup_per_game_is_each_game_set_up_alone():
    game = make_game("ninja_slayer")
    setups = [{"decks": ("D1", "D1")}, None, {"decks": ("D3", "D4")}, {"decks": ("D1", "D1")}]
    st = game.init(np.arange(4), setups)
    for i, setup in enumerate(setups):
        assert st.take(i).equals(game.init([i], setup)), i
    assert game.init_with_decks([2], ("D3", "D4")).equals(st.take(2))


def test_bad_setups_name_the_key_and_the_choices():
    with pytest.raises(OptionError, match=r"no per-episode setup 'deck'; its setup keys: decks"):
        make_game("ninja_slayer").init([0], {"deck": "D1"})
    with pytest.raises(OptionError, match=r"nigejozu has no per-episode setup 'decks'; it takes no setup"):
        make_game("nigejozu").init([0], {"decks": "D1"})
    with pytest.raises(OptionError, match="decks"):
        make_game("ninja_slayer").init([0], {"decks": ("D1", "no such deck")})
    with pytest.raises(CallError, match="a list of 2 mappings"):
        make_game("ninja_slayer").init([0, 1], [{"decks": ("D1", "D1")}])


def test_reset_options_setup_on_the_aec_and_single_agent_faces():
    game = make_game("ninja_slayer")
    setup = {"decks": ("D2", "D3")}
    aec = BatchAECEnv(game)
    aec.reset(seed=7, options={"setup": setup})
    game_seed = int(np.random.default_rng(7).integers(0, 2**63 - 1))  # the AEC face's seed derivation
    assert aec.state_batch.equals(game.init([game_seed], setup))
    aec.reset(seed=7)
    assert not aec.state_batch.equals(game.init([game_seed], setup))  # the setup is per episode only

    single = SingleAgentEnv(game, [Random(), Random()], seat=0)
    single.reset(seed=3, options={"setup": setup})
    assert seat_deck(single.state, 0, 0) == sorted(CONSTRUCTED["D2"])
    assert seat_deck(single.state, 0, 1) == sorted(CONSTRUCTED["D3"])
    with pytest.raises(OptionError, match="'deck'"):
        single.reset(options={"setup": {"deck": "D1"}})


def test_replays_record_the_setup_and_replay_it():
    rec = Recorder("ninja_slayer", seed=5, setup={"decks": ["D4", "D1"]})
    rng = np.random.default_rng(0)
    for _ in range(20):
        if rec.state.done[0]:
            break
        rec.step(int(random_legal(rec.game.legal_mask(rec.state), rng)[0]))
    record = rec.record()
    assert record["setup"] == {"decks": ["D4", "D1"]}
    final = None
    for final in replay(record):
        pass
    assert final is not None


# ---- auto-skip -----------------------------------------------------------------------------------
def forced_decisions_exist(game_name, **rules):
    """True when random play of this game meets decisions with exactly one legal action."""
    game = make_game(game_name, **rules)
    st, rng = game.init(np.arange(32)), np.random.default_rng(0)
    for _ in range(200):
        mask = game.legal_mask(st)
        if ((mask.sum(axis=1) == 1) & ~st.done).any():
            return True
        game.step(st, random_legal(mask, rng))
    return False


# The card game's own auto-pass is turned off so that it has forced decisions; it is zero-sum with
# rewards +1/-1 (0/0 for a draw), so the auto-skipped env must still hand out exactly those.
SKIP_RULES = {"auto_pass_forced": False}


def test_the_chosen_game_has_forced_decisions():
    assert forced_decisions_exist("ninja_slayer", **SKIP_RULES)  # else the tests below would prove nothing


@pytest.mark.parametrize("auto_skip", [False, True])
def test_aec_auto_skip_shows_only_real_choices_and_keeps_the_rewards(auto_skip):
    env = BatchAECEnv(make_game("ninja_slayer", **SKIP_RULES), auto_skip=auto_skip)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    forced_seen = 0
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(5000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        forced_seen += legal.size == 1
        env.step(int(rng.choice(legal)))
    assert (forced_seen == 0) == auto_skip
    assert sum(totals.values()) == pytest.approx(0.0) and max(abs(v) for v in totals.values()) in (0.0, 1.0)


def test_auto_skip_is_a_bool_option():
    with pytest.raises(OptionError, match="auto_skip must be True or False"):
        BatchAECEnv(make_game("nigejozu"), auto_skip="yes")


def test_vector_auto_skip_never_hands_the_learner_a_forced_decision():
    batch = SelfPlayBatch(make_game("ninja_slayer", **SKIP_RULES), 8, Random(), seed=2, auto_skip=True)
    _, masks = batch.reset()
    rng = np.random.default_rng(0)
    for _ in range(150):
        assert (masks.sum(axis=1) >= 2).all()
        _, _, _, _, _ = batch.step(random_legal(masks, rng))
        masks = batch.action_masks()


# ---- the vector face's conventions ---------------------------------------------------------------
def test_final_observations_episode_stats_and_the_autoreset_mode():
    game = make_game("nigejozu")
    env = GymSelfPlayVectorEnv(game, 6, Random(), seed=0)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    returns, lengths = np.zeros(6), np.zeros(6, dtype=np.int64)
    checked = 0
    for _ in range(300):
        obs, rew, term, trunc, info = env.step(random_legal(info["action_mask"], rng))
        returns += rew
        lengths += 1
        ended = term | trunc
        if not ended.any():
            assert "final_obs" not in info
            continue
        assert info["final_obs"].dtype == object and info["_final_obs"].dtype == bool
        assert (info["_final_obs"] == ended).all() and (info["_episode"] == ended).all()
        for i in np.flatnonzero(ended):
            assert info["final_obs"][i].shape == tuple(game.observation_shape)
            assert info["episode"]["r"][i] == pytest.approx(returns[i])
            assert info["episode"]["l"][i] == lengths[i]
            checked += 1
        assert all(info["final_obs"][i] is None for i in np.flatnonzero(~ended))
        returns[ended], lengths[ended] = 0.0, 0
    assert checked > 0


def test_vector_reset_seeds_the_env_as_gymnasium_does():
    env = GymSelfPlayVectorEnv(make_game("nigejozu"), 2, Random())
    env.reset(seed=11)
    first = env.np_random.integers(0, 2**32)
    env.reset(seed=11)
    assert env.np_random.integers(0, 2**32) == first


def test_the_opponent_rounds_never_copy_the_whole_state(monkeypatch):
    batch = SelfPlayBatch(make_game("ninja_daifugo"), 16, Random(), learner_seat=3, seed=0)
    state_type = type(make_game("ninja_daifugo").init([0]))
    real_take, copied = state_type.take, []

    def counting_take(self, index):
        copied.append(np.asarray(index).size)
        return real_take(self, index)

    monkeypatch.setattr(state_type, "take", counting_take)
    batch.reset()  # seats 0..2 move before seat 3: several opponent rounds over most envs
    assert (batch.state.to_play == 3).all()
    # Rounds where most envs wait step in place; only the tail's few rows (under half) may be copied out.
    assert all(n < 16 / 2 for n in copied), copied


def test_sb3_face_reports_episodes_like_monitor():
    sb3_vec = pytest.importorskip("yuugi.training.train.sb3_vec")
    env = sb3_vec.SB3SelfPlayVecEnv(make_game("nigejozu"), 4, Random(), seed=0)
    env.reset()
    rng = np.random.default_rng(0)
    returns, lengths, seen = np.zeros(4), np.zeros(4, dtype=np.int64), 0
    for _ in range(300):
        _, rew, done, infos = env.step(random_legal(env.action_masks(), rng))
        returns += rew
        lengths += 1
        for i in np.flatnonzero(done):
            assert infos[i]["episode"] == {"r": pytest.approx(returns[i]), "l": int(lengths[i])}
            assert "terminal_observation" in infos[i]
            seen += 1
        returns[done], lengths[done] = 0.0, 0
    assert seen > 0
