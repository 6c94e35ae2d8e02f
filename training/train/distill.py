"""Distillation of ``expert`` into a network: record the search's decisions as a dataset to clone.

``expert`` (:mod:`yuugi.agents.expert`) is strong but slow (tens of milliseconds per decision); a
network that plays its choices runs in microseconds with numpy alone. This module records what
the search chose: the expert plays one seat of every game against an opponent (``normal`` by
default, seats alternating), and each of its decisions with more than one legal action is kept
as (the acting seat's observation, the legal mask, the expert's action). ``yuugi train GAME
--bc-data FILE`` then clones those decisions into the policy (a prior-guided one, where the game
has a prior, starts from its heuristic and learns where the search departs from it) before PPO.

    python -m yuugi.training.train.distill ninja_slayer --games 400 --out runs/slayer_expert_labels.npz

The file holds ``observations`` (float16: the observations are counts and flags, exact in half
precision, at half the size), ``masks`` (packed bits), ``actions``, ``seats`` and the game's
``scores`` (expert's return minus the opponent's), with the command's settings in ``meta``. It is
rewritten after every batch of games (``meta["games"]`` finished of ``meta["planned_games"]``), so
a run stopped part-way keeps what it finished. A run is reproducible: game ``g`` is seeded
``seed · 10,000,019 + g`` and the expert plays a fixed number of search rounds per decision.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import zipfile
from pathlib import Path
from typing import Any, Callable

import numpy as np

from yuugi.envs.core.game import BatchGame, State


class RecordingSearch:
    """A search policy that keeps every decision it makes where it had a choice."""

    def __init__(self, search: Any) -> None:
        self.search = search
        self.observations: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.actions: list[np.ndarray] = []
        self.seats: list[np.ndarray] = []

    def act_state(self, game: BatchGame, state: State, seats: Any, rng: np.random.Generator) -> np.ndarray:
        chosen = np.asarray(self.search.act_state(game, state, seats, rng), dtype=np.int64)
        mask = game.legal_mask(state)
        choice = mask.sum(axis=1) > 1
        if choice.any():
            seats = np.broadcast_to(np.asarray(seats, dtype=np.int64), (state.batch_size,))
            obs = game.observe(state, seats)
            self.observations.append(obs[choice].astype(np.float16))
            self.masks.append(np.packbits(mask[choice], axis=1))
            self.actions.append(chosen[choice])
            self.seats.append(seats[choice])
        return chosen

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        raise TypeError("a recording search plays from the game state (act_state)")


def record(game_name: str, games: int, seed: int = 0, batch: int = 50, opponent: str = "normal",
           rules: dict[str, Any] | None = None, expert_options: dict[str, Any] | None = None,
           log: Any = sys.stderr, after_batch: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play ``games`` games of expert against ``opponent`` (expert at seat 0 in even games) and
    return the recorded decisions with each game's score.

    ``after_batch(data)`` gets the decisions recorded so far after every batch of games (``data``
    as returned, its ``meta["games"]`` the games finished): :func:`main` saves it, so a long run
    stopped part-way keeps its finished batches.
    """
    from yuugi.agents.expert import ExpertPolicy
    from yuugi.agents.registry import cpu
    from yuugi.envs import make_game
    from yuugi.training.eval.evaluate import SEED_STRIDE, play_games, score_of_a, seat_layout

    rules = dict(rules or {})
    game = make_game(game_name, **rules)
    options = {"think_ms": None, "rounds": 1, **(expert_options or {})}
    expert = ExpertPolicy(game_name, cpu(game_name, "normal", **rules), **options)
    recorder = RecordingSearch(expert)
    # Empty first parts: a batch in which the expert never had a choice still makes a (small) dataset.
    recorder.observations.append(np.empty((0, *game.observation_shape), dtype=np.float16))
    recorder.masks.append(np.empty((0, (game.num_actions + 7) // 8), dtype=np.uint8))
    recorder.actions.append(np.empty(0, dtype=np.int64))
    recorder.seats.append(np.empty(0, dtype=np.int64))
    other = cpu(game_name, opponent, **rules)
    scores, began = [], time.perf_counter()
    for start in range(0, games, batch):
        g = np.arange(start, min(start + batch, games))
        seating = seat_layout("alternate", g, game.num_players)
        rng = np.random.default_rng([seed, start])
        returns = play_games(game, seating, [recorder, other], seed * SEED_STRIDE + g, rng)
        scores.append(score_of_a(seating, returns))
        done = int(g[-1]) + 1
        labels = sum(len(a) for a in recorder.actions)
        print(f"{done}/{games} games, {labels} decisions recorded, expert {np.mean(np.concatenate(scores)):+.3f} "
              f"against {opponent}, {time.perf_counter() - began:.0f} s", file=log, flush=True)
        data = {"observations": np.concatenate(recorder.observations), "masks": np.concatenate(recorder.masks),
                "actions": np.concatenate(recorder.actions), "seats": np.concatenate(recorder.seats),
                "scores": np.concatenate(scores),
                "meta": {"game": game_name, "rules": rules, "games": done, "planned_games": games, "seed": seed,
                         "opponent": opponent, "expert": expert.describe(), "num_actions": game.num_actions,
                         "seconds": round(time.perf_counter() - began, 1)}}
        if after_batch is not None:
            after_batch(data)
    return data


def save(data: dict[str, Any], path: str | Path) -> None:
    """Write ``data`` to ``path`` (.npz) whole or not at all: a run stopped while saving keeps the last file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial.npz")
    np.savez_compressed(partial, **{k: v for k, v in data.items() if k != "meta"},
                        meta=np.array(json.dumps(data["meta"], ensure_ascii=False)))
    partial.replace(path)


def read_meta(path: str | Path) -> dict[str, Any]:
    """The ``meta`` of a recorded file (what it was recorded for, its command); ValueError if it is not one."""
    try:
        with np.load(path) as f:
            return json.loads(str(f["meta"]))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:
        raise ValueError(f"{path}: not a file recorded by python -m yuugi.training.train.distill ({err})") from err


def check_fits(path: str | Path, game: BatchGame) -> None:
    """ValueError unless the file at ``path`` was recorded for ``game`` under rules with its spaces.

    Reads only the record (the game and rules it was recorded under), so a trainer can refuse a file
    recorded under other rules (another player count, say) before building anything.
    """
    from yuugi.envs import make_game

    meta = read_meta(path)
    recorded = make_game(meta["game"], **meta.get("rules", {}))
    _check_spaces(path, meta["game"], tuple(recorded.observation_shape), recorded.num_actions, game)


def _check_spaces(path: str | Path, recorded_for: str, obs_shape: tuple[int, ...], num_actions: int,
                  game: BatchGame) -> None:
    if recorded_for != game.name or tuple(obs_shape) != tuple(game.observation_shape) or num_actions != game.num_actions:
        raise ValueError(f"{path}: recorded for {recorded_for} with observations {tuple(obs_shape)} and "
                         f"{num_actions} actions, not for this {game.name} ({tuple(game.observation_shape)}, "
                         f"{game.num_actions} actions): record it under the rules you train with (--rule)")


def load(path: str | Path, game: BatchGame | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """(observations float32, masks bool, actions, meta) of a recorded file; with ``game``, checked to fit it."""
    meta = read_meta(path)  # a file that is not a recording is named as such
    with np.load(path) as f:
        obs = f["observations"].astype(np.float32)
        masks = np.unpackbits(f["masks"], axis=1, count=int(meta["num_actions"])).astype(bool)
        actions = f["actions"].astype(np.int64)
    if game is not None:
        _check_spaces(path, meta["game"], obs.shape[1:], masks.shape[1], game)
    if not masks[np.arange(len(actions)), actions].all():
        raise ValueError(f"{path}: a recorded action is not legal in its recorded mask")
    return obs, masks, actions, meta


def load_many(paths: Any, game: BatchGame | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
    """:func:`load` of one file or of several recorded for the same game, concatenated; the metas in order."""
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    if not paths:
        raise ValueError("no recorded file given")
    parts = [load(path, game) for path in paths]
    if len({part[3]["game"] for part in parts}) > 1:
        raise ValueError(f"{[str(p) for p in paths]}: recorded for different games")
    obs, masks, actions = (np.concatenate([part[i] for part in parts]) for i in range(3))
    return obs, masks, actions, [part[3] for part in parts]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m yuugi.training.train.distill", description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=50, help="games played together (their decisions are searched in one batch)")
    parser.add_argument("--opponent", default="normal")
    parser.add_argument("--rounds", type=int, default=1, help="search rounds per decision (fixed: reproducible)")
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    from yuugi.training.cli.args import parse_rules

    try:
        rules = parse_rules(args.rule)
        if args.games < 1 or args.batch < 1 or args.rounds < 1:
            raise ValueError("--games, --batch and --rounds must be positive")
        command = "python -m yuugi.training.train.distill " + " ".join(sys.argv[1:] if argv is None else argv)

        def keep(data: dict[str, Any]) -> None:  # after every batch: Ctrl-C keeps the finished ones
            data["meta"]["command"] = command
            save(data, args.out)

        data = record(args.game, args.games, args.seed, args.batch, args.opponent, rules, {"rounds": args.rounds},
                      after_batch=keep)
    except (ValueError, KeyError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"interrupted: the batches finished before it are in {args.out}", file=sys.stderr)
        return 130
    print(f"{len(data['actions'])} decisions of {args.games} games -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
