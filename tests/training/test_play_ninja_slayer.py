"""``yuugi play ninja_slayer``: a whole game through play's read/write hooks, with help, hint, undo, a
typo and a move by label; the table shows the question and the moves grouped by kind; the game's
record replays to the position it ended in; --deck reaches the game as the ``decks`` rule."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.policy import RandomPolicy
from yuugi.envs.faces import replay as R
from yuugi.envs.ninja_slayer import actions as A
from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.decks import CONSTRUCTED
from yuugi.envs.ninja_slayer_v0 import Game as NinjaSlayer
from yuugi.training.cli.main import NINJA_SLAYER_DECKS, main
from yuugi.training.play.play import play
from yuugi.training.play.ninja_slayer import DECK_CHOICES, NinjaSlayerTable, deck_pair


class Person:
    """Answers the prompt from a script first, then with menu number 0 (the lowest legal action)."""

    def __init__(self, script: list[str]) -> None:
        self.script = list(script)
        self.asked = 0

    def __call__(self, prompt: str) -> str:
        self.asked += 1
        return self.script.pop(0) if self.script else "0"


def play_scripted(script: list[str], seed: int = 11, decks=("D1", "D3")):
    out: list[str] = []
    person = Person(script)
    game = NinjaSlayer(decks=list(decks))
    result = play("ninja_slayer", seat=0, seed=seed, read=person, write=out.append, opponents=RandomPolicy(),
                  game=game, decks=list(decks))
    return result, "\n".join(out), game, person


def test_a_whole_game_is_played_to_the_end_and_its_record_replays():
    result, text, game, person = play_scripted(["help", "hint", "moves", "no such move", "undo", "0", "0", "undo"])
    assert result["finished"]
    assert "ninja_slayer in brief" in text  # help
    assert "hint: the normal CPU would play" in text
    assert "'no such move' is not one of the legal moves" in text
    assert "nothing to undo: this is your first decision." in text
    assert "undone: back to your previous decision" in text
    assert "game over:" in text and ("you win." in text or "wins." in text or "draw" in text)
    # The record holds every move that stands (the undone ones are gone) and replays to where the game ended.
    final = R.final_state(result["record"], game=game)
    assert game.to_position(final, 0) == result["position"]
    assert result["record"]["rules"] == {"decks": ["D1", "D3"]}


def test_the_table_asks_the_question_and_groups_the_moves_by_kind():
    _, text, _, _ = play_scripted([])
    assert "question: etel for player_0" in text  # the game's own question line
    assert "you are asked: etel" in text
    assert "  エテル: [0] put into エテル " in text  # grouped under a heading, named by the card
    assert "  pass: [0] pass" in text
    assert "resolved: " in text  # the log tells what resolved
    assert "damage: " in text  # and who took damage


def test_a_move_can_be_typed_by_its_label():
    game = NinjaSlayer(decks=["D1", "D1"])
    st = game.init([5])
    table = NinjaSlayerTable(game, int(st.to_play[0]), ["you", "CPU"])
    legal = np.flatnonzero(game.legal_mask(st)[0])
    assert table.parse("skip_etel", st, legal) == A.SKIP_ETEL
    assert table.parse("ETEL_PUT h1", st, legal) == A.ETEL0 + 1


def test_menu_names_the_hand_card_of_each_move():
    game = NinjaSlayer(decks=["D2", "D2"])
    st = game.init([8])
    seat = int(st.to_play[0])
    table = NinjaSlayerTable(game, seat, ["you", "CPU"])
    card = int(st.hand[0, seat, 2])
    expected = f"{C.CODES[card]} {C.NAMES_JP[card].split(' ◆ ')[0]}"
    assert table.choice(st, A.ETEL0 + 2) == f"put into エテル {expected}"
    assert card in CONSTRUCTED["D2"]


def test_deck_choices_are_the_games_and_the_cli_lists_them_all():
    assert set(NINJA_SLAYER_DECKS) == set(DECK_CHOICES)
    assert deck_pair(1, "sealed", "D2") == ["D2", "sealed"]


def test_the_person_plays_the_chosen_deck():
    # Seat 1 chooses D4: every card seat 1 ever holds in hand comes from D4's list.
    out: list[str] = []
    game = NinjaSlayer(decks=deck_pair(1, "D4", "D1"))
    result = play("ninja_slayer", seat=1, seed=3, read=lambda _: "0", write=out.append, opponents=RandomPolicy(),
                  game=game, decks=deck_pair(1, "D4", "D1"))
    held = {int(c) for st, _ in R.replay(result["record"], game) for c in st.hand[0, 1] if c >= 0}
    assert held and held <= set(CONSTRUCTED["D4"])


@pytest.mark.parametrize("argv, message", [
    (["play", "nigejozu", "--deck", "D1"], "--deck and --cpu-deck choose ninja_slayer decks; nigejozu has none"),
    (["play", "nigejozu", "--cpu-deck", "D9"], "argument --cpu-deck: invalid choice: 'D9'"),
])
def test_deck_flags_are_refused_in_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_by_name_once_registered_play_deck_record_and_replay(tmp_path, monkeypatch, capsys):
    # What `yuugi play ninja_slayer --deck D2 --record FILE` and `yuugi replay FILE` do once the registry
    # names the game (registered here for the test only).
    from yuugi import envs

    monkeypatch.setitem(envs.GAMES, "ninja_slayer", "yuugi.envs.ninja_slayer_v0")
    monkeypatch.setattr("builtins.input", lambda prompt="": "0")
    path = tmp_path / "ns.json"
    argv = ["play", "ninja_slayer", "--level", "random", "--seat", "1", "--deck", "D2", "--cpu-deck", "sealed",
            "--seed", "4", "--record", str(path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "you are asked:" in out and f"replay saved: {path}" in out
    record = R.load(path)
    assert record["rules"] == {"decks": ["sealed", "D2"]} and record["seed"] == 4
    final = R.final_state(record)
    assert final.done[0]
    assert main(["replay", str(path), "--seat", "1"]) == 0
    shown = capsys.readouterr().out
    assert f"--- move {len(record['actions'])} of {len(record['actions'])} ---" in shown
    assert "game over:" in shown


def test_a_search_level_plays_at_the_terminal_table():
    """hard searches from the game state (act_state), as expert does: play asks it through that call."""
    from yuugi.agents.registry import cpu

    out: list[str] = []
    game = NinjaSlayer()
    result = play("ninja_slayer", seat=1, seed=5, read=Person([]), write=out.append,
                  opponents=cpu("ninja_slayer", "hard"), game=game)
    assert result["finished"] and "game over:" in "\n".join(out)
