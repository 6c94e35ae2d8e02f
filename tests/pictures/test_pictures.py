"""Pictures of every game (``yuugi.envs.pictures``): a fixed size all game long, hidden cards face
down (a seat's picture does not change when another seat's hidden cards do), visible changes
drawn, ``render_mode="rgb_array"`` in the single-agent env, and Gymnasium's ``RecordVideo``."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from yuugi.envs import make_game
from yuugi.envs.pictures import H, W, PictureError, picture, picture_svg

GAMES = ("ninja_daifugo", "momotaro", "nigejozu", "ninja_slayer")
CHECKPOINTS = (0, 7, 30, 120)

needs_raster = pytest.mark.skipif(
    not all(__import__("importlib").util.find_spec(m) for m in ("resvg_py", "PIL", "matplotlib_fontja")),
    reason='needs the pictures extra: pip install "yuugi[pictures]"')


def random_game(name: str, seed: int = 0, **rules):
    """The game and copies of its state at each checkpoint of a random game, and at its end."""
    game = make_game(name, **rules)
    state = game.init(np.array([seed], dtype=np.uint64))
    rng = np.random.default_rng(seed)
    states, step = [], 0
    while True:
        if step in CHECKPOINTS:
            states.append(state.copy())
        mask = game.legal_mask(state)
        if not mask.any() or step > 3000:
            states.append(state.copy())
            return game, states
        game.step(state, np.array([rng.choice(np.flatnonzero(mask[0]))]))
        step += 1


@pytest.fixture(scope="module", params=GAMES)
def played(request):
    return random_game(request.param, seed=11)


def test_the_svg_is_one_well_formed_document_of_the_fixed_size(played):
    game, states = played
    for st in states:
        for seat in range(game.num_players):
            root = ET.fromstring(picture_svg(game, st, 0, seat))
            assert root.tag.endswith("svg") and (root.get("width"), root.get("height")) == (str(W), str(H))


@needs_raster
def test_every_game_draws_a_fixed_size_rgb_array_all_game_long(played):
    game, states = played
    for st in states:
        img = picture(game, st)  # from the seat to play
        assert img.shape == (H, W, 3) and img.dtype == np.uint8
        assert img.std() > 10  # a picture, not a blank


def _hide_test(game, st, change, seat=0, other=1):
    """``change`` alters hidden arrays of ``other``: ``seat``'s picture is identical, ``other``'s is not."""
    changed = st.copy()
    change(changed)
    assert not changed.equals(st), "the change changed nothing"
    assert picture_svg(game, changed, 0, seat) == picture_svg(game, st, 0, seat)
    assert picture_svg(game, changed, 0, other) != picture_svg(game, st, 0, other)
    return changed


def test_daifugo_hands_of_the_other_seats_are_face_down():
    game, states = random_game("ninja_daifugo", seed=3)
    st = states[1]  # a few plays in: every seat still holds cards
    h1, h2 = int(st.hands[0, 1]), int(st.hands[0, 2])
    u1, u2 = h1 & ~int(st.known[0, 0, 1]), h2 & ~int(st.known[0, 0, 2])  # what seat 0 does not know of them
    a, b = u1 & -u1, u2 & -u2  # the lowest such card of each
    assert a and b

    def swap(s):
        s.hands[0, 1] = np.uint64((h1 ^ a) | b)
        s.hands[0, 2] = np.uint64((h2 ^ b) | a)
    changed = _hide_test(game, st, swap, seat=0, other=1)
    if needs_raster.args[0] is False:  # the arrays too, where the pictures extra is installed
        assert np.array_equal(picture(game, changed, 0, 0), picture(game, st, 0, 0))


def test_ninja_slayer_opponent_hand_and_decks_are_face_down():
    game, states = random_game("ninja_slayer", seed=5)
    st = states[1]
    assert (st.hand[0, 1] >= 0).any()

    def change(s):
        hidden = (s.hand[0, 1] >= 0) & ~s.hand_known[0, 1]
        s.hand[0, 1] = np.where(hidden, (s.hand[0, 1] + 1) % 48, s.hand[0, 1])
        ptr, size = int(s.deck_ptr[0, 1]), int(s.deck_size[0, 1])
        s.deck[0, 1, ptr:size] = s.deck[0, 1, ptr:size][::-1].copy()
        s.deck[0, 0, :] = np.roll(s.deck[0, 0, :], 1)  # seat 0's own deck order is hidden from seat 0 too
    changed = st.copy()
    change(changed)
    assert picture_svg(game, changed, 0, 0) == picture_svg(game, st, 0, 0)
    assert picture_svg(game, changed, 0, 1) != picture_svg(game, st, 0, 1)


def test_momotaro_sealed_bids_are_face_down():
    game = make_game("momotaro")
    st = game.init(np.array([2], dtype=np.uint64))
    st.bids[0, 1] = 0

    def rebid(s):
        s.bids[0, 1] = 5
    _hide_test(game, st, rebid, seat=0, other=1)


def test_a_card_played_changes_the_picture():
    game, states = random_game("ninja_daifugo", seed=3)
    st = states[1].copy()
    seat = 0
    hand = int(st.hands[0, seat])
    card = hand & -hand
    played = st.copy()
    played.hands[0, seat] = np.uint64(hand ^ card)
    played.field_cards[0] = np.uint64(card)
    played.field_action[0] = 1
    played.field_owner[0] = seat
    for viewer in range(4):  # the field is public: every seat sees it
        assert picture_svg(game, played, 0, viewer) != picture_svg(game, st, 0, viewer)


@pytest.mark.parametrize("name", GAMES)
def test_every_move_shows(name):
    game = make_game(name)
    st = game.init(np.array([4], dtype=np.uint64))
    rng = np.random.default_rng(0)
    for _ in range(10):
        mask = game.legal_mask(st)
        if not mask.any():
            break
        before = st.copy()
        game.step(st, np.array([rng.choice(np.flatnonzero(mask[0]))]))
        mover = int(before.to_play[0])
        assert picture_svg(game, st, 0, mover) != picture_svg(game, before, 0, mover)


def test_a_game_without_a_picture_says_so():
    from tests.core.toy_games import DiceNim

    game = DiceNim()
    st = game.init(np.array([0], dtype=np.uint64))
    with pytest.raises(PictureError, match="has no picture"):
        picture_svg(game, st)


@needs_raster
@pytest.mark.parametrize("name", GAMES)
def test_single_agent_rgb_array_and_record_video(name, tmp_path):
    from gymnasium.wrappers import RecordVideo, TimeLimit

    from yuugi.seated.single_agent import single_agent

    pytest.importorskip("moviepy")
    env = single_agent(name, opponents="random", seat=1, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (H, W, 3) and frame.dtype == np.uint8
    # the learner's seat: identical to the picture from seat 1
    assert np.array_equal(frame, picture(env.game, env.state, 0, 1))
    # an episode, truncated to keep the test short, recorded to a playable file
    video = RecordVideo(TimeLimit(env, max_episode_steps=12), str(tmp_path / "videos"), episode_trigger=lambda e: e == 0,
                        disable_logger=True)
    obs, info = video.reset(seed=1)
    done = False
    while not done:
        obs, reward, terminated, truncated, info = video.step(env.action_space.sample(info["action_mask"]))
        done = terminated or truncated
    video.close()
    files = list((tmp_path / "videos").glob("*.mp4"))
    assert len(files) == 1 and files[0].stat().st_size > 1000
    import imageio  # moviepy's own dependency: the file decodes, frame by frame, at the picture's size

    with imageio.get_reader(str(files[0])) as reader:
        assert reader.get_meta_data()["size"] == (W, H)
        assert sum(1 for _ in reader) >= 2


@needs_raster
def test_the_gymnasium_vector_face_draws_each_env_from_its_learners_seat():
    from yuugi.agents.policy import RandomPolicy
    from yuugi.envs.faces.vector import GymSelfPlayVectorEnv

    env = GymSelfPlayVectorEnv(make_game("ninja_daifugo"), 2, RandomPolicy(), learner_seat=1, render_mode="rgb_array")
    env.reset(seed=0)
    frames = env.render()
    assert len(frames) == 2 and all(f.shape == (H, W, 3) and f.dtype == np.uint8 for f in frames)
    state = env.batch.state
    for i, frame in enumerate(frames):
        assert np.array_equal(frame, picture(env.batch.game, state, i, 1))
    with pytest.raises(Exception, match="render_mode must be 'rgb_array' or None"):
        GymSelfPlayVectorEnv(make_game("nigejozu"), 2, RandomPolicy(), render_mode="human")


@needs_raster
@pytest.mark.parametrize("name", GAMES)
def test_the_aec_env_draws_from_the_seat_to_play_and_passes_pettingzoos_render_test(name):
    from pettingzoo.test import render_test

    from yuugi.envs import make_raw

    env = make_raw(name, render_mode="rgb_array")
    env.reset(seed=3)
    frame = env.render()
    state = env.unwrapped.state_batch
    assert frame.shape == (H, W, 3) and frame.dtype == np.uint8
    assert np.array_equal(frame, picture(env.unwrapped.game, state, 0, int(state.to_play[0])))
    render_test(lambda render_mode=None: make_raw(name, render_mode=render_mode))
