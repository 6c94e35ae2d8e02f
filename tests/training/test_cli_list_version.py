"""``yuugi --version``, ``yuugi list`` with what a newcomer picks a game by, and personas by romaji
(issue 38, item 7). Expected sizes are the README's table of games."""
from __future__ import annotations

import importlib
from importlib import metadata

import pytest
from yuugi.agents.registry import cpu

# the module, not the package's re-exported function of the same name
cli = importlib.import_module("yuugi.training.cli.main")


def test_version_prints_the_installed_version(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.build_parser().parse_args(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"yuugi {metadata.version('yuugi')}"
    assert cli.main(["--version"]) == 0


# game -> players, actions, observation floats, as the README's table states them
README_TABLE = {"ninja_daifugo": ("4", "2389", "901"), "nigejozu": ("2", "29", "241"),
                "momotaro": ("2-4 (4)", "111", "368"), "ninja_slayer": ("2", "293", "5350")}


def test_list_shows_players_sizes_levels_and_personas(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "ready" not in out  # the bare status line is gone
    table = out.split("\n\n")[0].splitlines()  # the table, above the notes
    rows = {line.split()[0]: line.split() for line in table[1:]}
    assert set(rows) == set(README_TABLE)
    for game, (players, actions, obs) in README_TABLE.items():
        row = " ".join(rows[game])
        assert row.startswith(f"{game} {players} {actions} {obs} "), row
        # hard is listed where its record says it was checked under the listing's rules (the game's eval
        # rules; ninja_slayer's are its constructed-deck defaults, where its ladder checked it)
        assert "random easy normal hard" in row, row
    assert "モコ (moko, easy)" in out and "ジライヤ (jiraiya, normal)" in out and "お館様 (oyakatasama, hard)" in out


@pytest.mark.parametrize("name, level", [("moko", "easy"), ("Moko", "easy"), ("jiraiya", "normal"),
                                         ("oyakata-sama", "hard"), ("モコ", "easy")])
def test_personas_by_romaji(name, level):
    assert cpu("ninja_daifugo", name, series_games=1, ninja="symmetric").name == level


def test_play_accepts_a_romaji_persona_and_names_it(monkeypatch, capsys):
    monkeypatch.setattr("builtins.input", lambda prompt: "quit")
    assert cli.main(["play", "ninja_daifugo", "--level", "moko", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "モコ" in out


def test_an_unknown_persona_lists_the_romaji_too(capsys):
    assert cli.main(["play", "ninja_daifugo", "--level", "mokko"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "unknown level 'mokko'" in line and "moko" in line and "モコ" in line
