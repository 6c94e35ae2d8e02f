"""Replays from a seat show only what that seat saw at that moment; records say who played; the play
screens keep the legend to the first table, name one opponent in the singular and look cards up
(issue 38, item 6)."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from yuugi.envs import make_game
from yuugi.envs.faces import replay as R
from yuugi.training.play.play import play
from yuugi.training.play.replay import seat_view

cli = importlib.import_module("yuugi.training.cli.main")  # the module, not the package's main function


def _random_actions(game, seed: int, rng_seed: int) -> list[int]:
    rec = R.Recorder(game.name, seed, game=game)
    rng = np.random.default_rng(rng_seed)
    while not rec.state.done[0]:
        rec.step(int(rng.choice(np.flatnonzero(rec.game.legal_mask(rec.state)[0]))))
    return rec.actions


def _chunks(game, seed: int, actions: list[int], seat: int) -> list[str]:
    record = R.make_record(game.name, seed, actions)
    return ["\n".join(lines) for _, lines in seat_view(record, seat, game)]


@pytest.mark.parametrize("seed", [0, 1])
def test_momotaro_replay_from_a_seat_never_shows_a_bid_before_its_reveal(seed):
    # Like the observation tests: change another seat's sealed bid, and what seat 0 is shown must not
    # change for as long as seat 0's observations do not (until the bids are revealed). Checked for
    # every bid of every other seat over whole games.
    game = make_game("momotaro")
    actions = _random_actions(game, seed, rng_seed=seed)
    original = _chunks(game, seed, actions, seat=0)
    states = [st for st, _ in R.replay(R.make_record("momotaro", seed, actions), game)]
    checked = 0
    for k, action in enumerate(actions):
        st = states[k]
        kind, _ = game.config.tables.layout.decode(action)
        if kind != "bid" or int(st.to_play[0]) == 0:
            continue
        other_bids = [int(a) for a in np.flatnonzero(game.legal_mask(st)[0])
                      if game.config.tables.layout.decode(int(a))[0] == "bid" and a != action]
        if not other_bids:
            continue
        tampered = actions[:k] + [other_bids[0]]
        a_state, b_state = st.copy(), st.copy()
        game.step(a_state, np.array([action]))
        game.step(b_state, np.array([other_bids[0]]))
        unchanged = []  # moves i after which seat 0's observations are equal in both games
        i = k
        while np.array_equal(game.observe(a_state, 0), game.observe(b_state, 0)):
            unchanged.append(i)
            i += 1
            if i == len(actions) or a_state.done[0] or not game.legal_mask(b_state)[0, actions[i]]:
                break
            tampered.append(actions[i])
            game.step(a_state, np.array([actions[i]]))
            game.step(b_state, np.array([actions[i]]))
        shown = _chunks(game, seed, tampered, seat=0)
        for i in unchanged:  # the table before move i and move i as told: the same, bid unseen
            assert shown[i] == original[i], f"move {i + 1}: the sealed bid of move {k + 1} showed"
        (told,) = [line for line in shown[k].splitlines() if ": sealed " in line]  # the move, as seat 0 saw it
        assert told.endswith(" bid"), told  # "player_1(1): sealed bid", no amount
        checked += 1
    assert checked > 5


def test_the_record_says_who_played_and_the_replay_names_them(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt="": "0")
    path = tmp_path / "game.json"
    assert cli.main(["play", "ninja_daifugo", "--seed", "2", "--record", str(path),
                     "--rule", "series_games=1"]) == 0
    record = R.load(path)
    assert record["players"] == [{"name": "you", "policy": "person"}] + [{"name": "ジライヤ", "policy": "normal"}] * 3
    capsys.readouterr()
    assert cli.main(["replay", str(path), "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert "seats: player_0 you; player_1 ジライヤ (CPU normal); player_2 ジライヤ (CPU normal); " \
           "player_3 ジライヤ (CPU normal)" in out
    assert "お館様" not in out.split("--- move 1")[1] and "モコ" not in out.split("--- move 1")[1]
    assert "ジライヤ(2)" in out  # seat 2 is called as it was at the table


def test_a_record_without_players_still_replays(tmp_path, capsys):
    game = make_game("nigejozu")
    record = R.make_record("nigejozu", 3, _random_actions(game, 3, 0))
    assert "players" not in record
    path = tmp_path / "old.json"
    R.save(record, path)
    assert cli.main(["replay", str(path), "--seat", "1"]) == 0
    assert "seats:" not in capsys.readouterr().out


def test_nigejozu_shows_its_legend_once_and_again_on_help():
    said: list[str] = []
    answers = iter(["0"] * 3 + ["help"] + ["0"] * 500)
    play("nigejozu", level="random", seat=0, seed=1, read=lambda prompt: next(answers), write=said.append)
    text = "\n".join(said)
    assert text.count("legend: a province reads") == 2  # under the first table, and once for help


def test_one_opponent_is_one_cpu_in_the_banner(capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    assert cli.main(["play", "ninja_slayer", "--seed", "1"]) == 0
    assert "against a normal CPU." in capsys.readouterr().out


def test_a_cards_text_can_be_looked_up_at_the_prompt():
    said: list[str] = []
    answers = iter(["card C29", "? c30", "card mikazuki", "card Z99", "quit"])
    play("ninja_slayer", seat=0, seed=1, read=lambda prompt: next(answers), write=said.append)
    text = "\n".join(said)
    assert "not one of the legal moves" not in text
    assert "C29 ゲツリン (cost 2" in text and "Getsurin" in text
    assert text.count("C30 ミカヅキ (cost 3") == 2  # by code in any case, and by name
    assert "no card 'Z99' to look up here" in text
