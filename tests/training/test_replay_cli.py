"""``yuugi replay FILE`` shows every move; ``yuugi play GAME --record FILE`` saves a game that replays to
the position it ended in (every game); a bad file is one line and exit status 2."""
from __future__ import annotations

import json

import numpy as np
import pytest

from yuugi.envs import GAMES, make_game
from yuugi.envs.faces import replay as R
from yuugi.training.cli.main import main
from yuugi.training.play.play import play


def random_record(name: str, seed: int, rng_seed: int = 0) -> dict:
    rec = R.Recorder(name, seed)
    rng = np.random.default_rng(rng_seed)
    while not rec.state.done[0]:
        rec.step(int(rng.choice(np.flatnonzero(rec.game.legal_mask(rec.state)[0]))))
    return rec.record()


@pytest.fixture
def nigejozu_file(tmp_path):
    record = random_record("nigejozu", seed=21)
    path = tmp_path / "nigejozu.json"
    R.save(record, path)
    return record, path


def test_replay_prints_every_move_with_its_label(nigejozu_file, capsys):
    record, path = nigejozu_file
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    game = make_game("nigejozu")
    n = len(record["actions"])
    states = [st for st, _ in R.replay(record, game)]
    for k, action in enumerate(record["actions"]):
        who = game.agent_names[int(states[k].to_play[0])]
        assert f"--- move {k + 1} of {n} ---" in out
        assert f"move {k + 1}: {who} plays {game.action_label(action)}\n" in out
    assert f"--- final position after {n} moves ---" in out
    assert game.render_text(states[-1], 0) in out
    # nigejozu is zero-sum with a winner: one seat ends +1, the other -1.
    assert "game over; total rewards:" in out and "+1.000" in out and "-1.000" in out


def test_replay_seat_shows_that_seats_view(tmp_path, capsys):
    record = random_record("ninja_daifugo", seed=4)
    path = tmp_path / "daifugo.json"
    R.save(record, path)
    assert main(["replay", str(path), "--seat", "2"]) == 0
    out = capsys.readouterr().out
    game = make_game("ninja_daifugo")
    first = R.start(game, record["seed"])
    seen, omniscient = game.render_text(first, 0, seat=2), game.render_text(first, 0)
    assert seen != omniscient  # the other hands are hidden from seat 2
    assert omniscient not in out
    # The replay from a seat is the play screen of that seat: its own hand is there, the others' are not.
    hands = {int(line.split(")")[0][-1]): line.split("]: ", 1)[1] for line in omniscient.splitlines()
             if "]: " in line}
    first_move = out.split("--- move 2 of")[0]
    assert hands[2] in first_move
    assert not any(hands[q] in first_move for q in (0, 1, 3))


def test_replay_step_waits_for_enter_and_q_stops(nigejozu_file, capsys, monkeypatch):
    _, path = nigejozu_file
    answers = iter(["", "", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["replay", str(path), "--step"]) == 0
    out = capsys.readouterr().out
    assert "move 3:" in out and "move 4:" not in out and out.rstrip().endswith("stopped.")


def test_a_tampered_file_shows_the_moves_before_and_names_the_step(nigejozu_file, tmp_path, capsys):
    record, _ = nigejozu_file
    game = make_game("nigejozu")
    states = [st for st, _ in R.replay(record, game)]
    k = 7
    illegal = int(np.flatnonzero(~game.legal_mask(states[k])[0])[0])
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(dict(record, actions=record["actions"][:k] + [illegal] + record["actions"][k + 1:])))
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert f"move {k}:" in captured.out and f"move {k + 1}:" not in captured.out
    assert captured.err.count("\n") == 1
    assert captured.err.startswith(f"yuugi replay: error: {path}: step {k} (move {k + 1}): action {illegal} (")


@pytest.mark.parametrize("content, message", [
    ("{not json", "not a replay file"),
    ('{"format": "yuugi-replay", "version": 7}', "version 7 is not supported"),
    ("[1, 2]", "not a replay record"),
])
def test_a_bad_file_is_one_line_and_exit_2(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and str(path) in err


def test_a_missing_file_an_unknown_game_and_a_bad_seat_are_one_line(nigejozu_file, tmp_path, capsys):
    record, path = nigejozu_file
    assert main(["replay", str(tmp_path / "none.json")]) == 2
    assert "none.json: no such file" in capsys.readouterr().err
    other = tmp_path / "chess.json"
    other.write_text(json.dumps(dict(record, game="chess")))
    assert main(["replay", str(other)]) == 2
    err = capsys.readouterr().err
    assert "cannot build 'chess'" in err and "unknown game 'chess'" in err and "nigejozu" in err
    assert main(["replay", str(path), "--seat", "2"]) == 2
    assert "seat must be 0..1" in capsys.readouterr().err


def test_play_record_saves_a_replayable_game(tmp_path, capsys, monkeypatch):
    path = tmp_path / "played.json"
    monkeypatch.setattr("builtins.input", lambda prompt="": "0")
    assert main(["play", "nigejozu", "--level", "random", "--seed", "5", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"replay saved: {path}" in out
    record = R.load(path)
    assert record["game"] == "nigejozu" and record["seed"] == 5
    assert R.final_state(record).done[0]
    assert main(["replay", str(path)]) == 0
    reward = float(out.split("your total reward: ")[1].split()[0])
    shown = capsys.readouterr().out.split("total rewards: ")[1].split()
    assert float(shown[1]) == reward  # the person played seat 0, the first seat listed


def test_play_record_refuses_a_missing_folder(tmp_path, capsys):
    assert main(["play", "nigejozu", "--record", str(tmp_path / "no" / "x.json")]) == 2
    assert "--record: folder" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_games_played_record_replays_to_the_final_position(name):
    result = play(name, level="random", seed=9, read=lambda _: "0", write=lambda _: None)
    final = R.final_state(result["record"])
    assert result["finished"] and final.done[0]
    assert make_game(name).to_position(final, 0) == result["position"]


def test_undone_moves_are_not_in_the_record():
    answers = iter(["0", "0", "undo"])
    result = play("nigejozu", level="random", seed=2, read=lambda _: next(answers, "0"), write=lambda _: None)
    plain = play("nigejozu", level="random", seed=2, read=lambda _: "0", write=lambda _: None)
    # Undo restores the CPUs' random stream too, so the same answers give the same game as without the undo.
    assert result["record"]["actions"] == plain["record"]["actions"]
    assert R.final_state(result["record"]).equals(R.final_state(plain["record"]))
