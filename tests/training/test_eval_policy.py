"""``yuugi eval GAME --policy NAME=SPEC``: every kind of SPEC is rated with the shipped levels in one table.

Each policy of our own plays ``random`` in nigejozu; every policy here plays the legal action a
choice rule picks, so a round-robin finishes whatever it is. A bad SPEC is one line naming the
spec and the kinds accepted, exit status 2, before any game is played.
"""
from __future__ import annotations

import importlib
import json
import textwrap

import numpy as np
import pytest

# the module, not the package's re-exported function of the same name
cli = importlib.import_module("yuugi.training.cli.main")


GAMES = "6"


def _rated(capsys, argv: list[str]) -> dict:
    """Run ``yuugi eval`` with --format json; the parsed record (stdout holds only the JSON)."""
    assert cli.main(argv + ["--format", "json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # no progress bar or warning noise where stderr is not a terminal
    return json.loads(captured.out)


def _one_pairing_against_random(record: dict, name: str) -> dict:
    assert set(record["ratings"]) == {"random", name}  # rated together with the level, in one table
    (pairing,) = record["pairings"]
    assert (pairing["a"], pairing["b"]) == ("random", name) and pairing["games"] == int(GAMES)
    assert record["policies"] == {name: record["policies"][name]}
    return pairing


def _write_module(tmp_path, monkeypatch, name: str, source: str) -> None:
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
    monkeypatch.syspath_prepend(str(tmp_path))


def make_npz(path, game_name: str = "nigejozu", **rules):
    """A small random network exported as ``yuugi train`` exports (MLPPolicy.save, signed for the game)."""
    from yuugi.agents.mlp import MLPPolicy
    from yuugi.envs import make_game

    game = make_game(game_name, **rules)
    rng = np.random.default_rng(0)
    sizes = [int(np.prod(game.observation_shape)), 16, game.num_actions]
    policy = MLPPolicy([rng.normal(size=(i, o)) for i, o in zip(sizes, sizes[1:])],
                       [np.zeros(o) for o in sizes[1:]]).for_game(game, rules)
    policy.save(path)
    return path


def make_maskable_ppo_zip(path, game_name: str = "nigejozu", **rules):
    """MaskablePPO trained for 32 steps on the single-agent env against random, saved as SB3 saves."""
    import torch
    from sb3_contrib import MaskablePPO

    from yuugi.seated.single_agent import single_agent

    torch.set_num_threads(1)
    env = single_agent(game_name, opponents="random", **rules)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16]})
    model.learn(total_timesteps=32)
    model.save(path)
    return path


def test_npz_exported_weights(tmp_path, capsys):
    path = make_npz(tmp_path / "mine.npz", **cli._eval_rules("nigejozu"))
    record = _rated(capsys, ["eval", "nigejozu", "--levels", "random", "--games", GAMES, "--policy", f"mine={path}"])
    _one_pairing_against_random(record, "mine")
    assert record["policies"]["mine"] == str(path)


def test_maskable_ppo_zip_trained_here(tmp_path, capsys):
    path = make_maskable_ppo_zip(tmp_path / "ppo_nigejozu.zip", **cli._eval_rules("nigejozu"))
    record = _rated(capsys, ["eval", "nigejozu", "--levels", "random", "--games", GAMES, "--policy", f"ppo={path}"])
    _one_pairing_against_random(record, "ppo")


def test_module_attr_naming_a_policy_object(tmp_path, monkeypatch, capsys):
    _write_module(tmp_path, monkeypatch, "eval_spec_policy_object", """
        import numpy as np

        class LastLegal:
            def act(self, observation, mask, rng):
                return (mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)).astype(np.int64)

        POLICY = LastLegal()
    """)
    record = _rated(capsys, ["eval", "nigejozu", "--levels", "random", "--games", GAMES,
                             "--policy", "last=eval_spec_policy_object:POLICY"])
    _one_pairing_against_random(record, "last")


def test_module_attr_naming_a_plain_function(tmp_path, monkeypatch, capsys):
    _write_module(tmp_path, monkeypatch, "eval_spec_function", """
        def first_legal(observation, mask, rng):
            return mask.argmax(axis=1)
    """)
    record = _rated(capsys, ["eval", "nigejozu", "--levels", "random", "--games", GAMES,
                             "--policy", "first=eval_spec_function:first_legal"])
    _one_pairing_against_random(record, "first")


def test_several_policies_are_rated_with_every_shipped_level(tmp_path, monkeypatch, capsys):
    _write_module(tmp_path, monkeypatch, "eval_spec_two", """
        def first_legal(observation, mask, rng):
            return mask.argmax(axis=1)

        def random_legal(observation, mask, rng):
            return (rng.random(mask.shape) * mask).argmax(axis=1)
    """)
    from yuugi.agents.registry import QUICK_LEVELS, available_levels

    record = _rated(capsys, ["eval", "nigejozu", "--games", "2", "--policy", "first=eval_spec_two:first_legal",
                             "--policy", "coin=eval_spec_two:random_legal"])
    # every shipped level but expert, which a round-robin plays only when named (it searches)
    shipped = [level for level in available_levels("nigejozu") if level in QUICK_LEVELS]
    assert "expert" not in shipped and "hard" in shipped
    entrants = shipped + ["first", "coin"]
    assert list(record["ratings"]) == entrants
    n = len(entrants)
    assert len(record["pairings"]) == n * (n - 1) // 2


def test_the_table_names_the_policy_next_to_the_levels(tmp_path, monkeypatch, capsys):
    _write_module(tmp_path, monkeypatch, "eval_spec_table", """
        def first_legal(observation, mask, rng):
            return mask.argmax(axis=1)
    """)
    assert cli.main(["eval", "nigejozu", "--levels", "random", "easy", "--games", "2",
                     "--policy", "firstpick=eval_spec_table:first_legal"]) == 0
    out = capsys.readouterr().out
    ratings = out.split("pairings")[0]
    for name in ("random", "easy", "firstpick"):
        assert name in ratings


ACCEPTED = ["a .npz exported by `yuugi train`", "SB3 / sb3-contrib .zip", "module:attr", "function"]
BAD_SPECS = {
    "no such npz": ("missing.npz", ["no such file"]),
    "no such zip": ("missing.zip", ["no such file"]),
    "no such module": ("no_module_here_xyz:POLICY", ["no module 'no_module_here_xyz'"]),
    "no such attribute": ("json:no_attribute_xyz", ["has no attribute 'no_attribute_xyz'"]),
    "neither policy nor function": ("json:__name__", ["neither a policy nor a function"]),
    "a word that is nothing": ("grandmaster", ["unknown policy spec 'grandmaster'"]),
}


@pytest.mark.parametrize("case", BAD_SPECS, ids=list(BAD_SPECS))
def test_a_bad_spec_is_one_line_naming_it_and_the_kinds(case, capsys, monkeypatch):
    def no_run(*args, **kwargs):
        raise AssertionError("the evaluation must not start")

    monkeypatch.setattr("yuugi.training.eval.evaluate.evaluate", no_run)
    spec, says = BAD_SPECS[case]
    assert cli.main(["eval", "nigejozu", "--levels", "random", "--games", "2", "--policy", f"mine={spec}"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    (line,) = captured.err.strip().splitlines()
    assert line.startswith(f"yuugi eval: error: --policy mine={spec}: ")
    for text in says + ACCEPTED:
        assert text in line, (text, line)


def test_a_zip_that_is_no_model_is_one_line(tmp_path, capsys):
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip at all")
    assert cli.main(["eval", "nigejozu", "--levels", "random", "--games", "2", "--policy", f"j={junk}"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert f"--policy j={junk}: " in line and "not a readable Stable-Baselines3 model" in line
    assert all(text in line for text in ACCEPTED)


def test_npz_of_another_game_is_refused_naming_both(tmp_path, capsys):
    from yuugi.agents.mlp import MLPPolicy
    from yuugi.envs import make_game

    game = make_game("momotaro", num_players=2)
    sizes = [int(np.prod(game.observation_shape)), game.num_actions]
    path = tmp_path / "momo.npz"
    MLPPolicy([np.zeros((sizes[0], sizes[1]))], [np.zeros(sizes[1])]).for_game(game, {"num_players": 2}).save(path)
    assert cli.main(["eval", "nigejozu", "--levels", "random", "--games", "2", "--policy", f"m={path}"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert f"--policy m={path}" in line and "momotaro" in line and "nigejozu" in line


@pytest.mark.parametrize("argv, says", [
    (["--policy", "mine"], "--policy expects NAME=SPEC"),
    (["--policy", "=x.npz"], "--policy expects NAME=SPEC"),
    (["--policy", "a=easy", "--policy", "a=normal"], "--policy name 'a' is given twice"),
    (["--policy", "random=easy"], "--policy name 'random' is also a level"),
])
def test_bad_policy_flags(argv, says, capsys):
    assert cli.main(["eval", "nigejozu", "--levels", "random", "--games", "2"] + argv) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert says in line


def test_a_path_given_as_a_level_points_to_policy(capsys):
    assert cli.main(["eval", "nigejozu", "--levels", "normal", "runs/train/nigejozu_seed0.npz"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "unknown level 'runs/train/nigejozu_seed0.npz'" in line and "--policy NAME=SPEC" in line


def test_one_level_and_one_policy_make_a_round_robin(capsys):
    record = _rated(capsys, ["eval", "nigejozu", "--levels", "random", "--games", "2", "--policy", "e=easy"])
    assert [(p["a"], p["b"]) for p in record["pairings"]] == [("random", "e")]


def test_module_attr_is_found_in_the_folder_the_command_runs_in(tmp_path, monkeypatch, capsys):
    """As with ``python -m``: the ``yuugi`` console script alone would not look in the current folder."""
    import sys

    (tmp_path / "eval_spec_here.py").write_text("def first_legal(observation, mask, rng):\n"
                                                "    return mask.argmax(axis=1)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    record = _rated(capsys, ["eval", "nigejozu", "--levels", "random", "--games", "2",
                             "--policy", "here=eval_spec_here:first_legal"])
    assert set(record["ratings"]) == {"random", "here"}
