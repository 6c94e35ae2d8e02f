"""nigejozu's ``hard``: a win-probability network learned by rounds of play against ``normal``.

Each round plays ``--games`` games of the learner against ``normal`` (the learner's side alternating by
game) on the batched core, keeps every turn start with the facts its mover sees
(:func:`~yuugi.agents.heuristics.nigejozu_valued.turn_features`) and whether the mover is the learner,
and labels it with whether that mover went on to win. A :class:`~yuugi.agents.win_network.WinNetwork`
is fitted to those labels (logistic loss, one twentieth of the games held out), and the next round's
learner is :class:`~yuugi.agents.heuristics.nigejozu_valued.NigejozuValued` with it: the heuristic's
decisions, every board valued by the network. Round 0's learner is ``normal`` itself, so its network
learns the value of ``normal``'s play; each later round learns the value of the previous round's
policy, and a policy valuing its boards by that is one step of policy iteration further.

    python -m yuugi.training.train.value_iteration --rounds 3 --games 61440 --out runs/valued

writes ``OUT/nigejozu_value_round<k>.npz`` per round, ``OUT/nigejozu_value.npz`` (the last round's network)
and ``OUT/nigejozu_value_curve.csv``/``.png`` (per round: the learner's share of its games won, the held-out loss).
Game ``g`` of round ``k`` is seeded ``(seed · 100 + k) · 10,000,000 + g``, so a run is reproducible given its
arguments (``--workers`` included: each worker draws the policies' tie-breaks from a stream of its own).
``NigejozuValued(network="OUT/nigejozu_value.npz")`` plays a run's network.

The shipped level reads ``agents/weights/nigejozu_value.npz``, an ensemble of two runs' networks (their
mean log-odds: :class:`~yuugi.agents.win_network.WinEnsemble`), written by
``--ensemble NETWORK NETWORK ... --write-network FILE``; its level file, ``nigejozu_hard.npz``, is
written by ``--write-level FILE`` (:func:`write_level`), alone or after the rounds.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from yuugi.agents.heuristics.nigejozu import NigejozuHeuristic
from yuugi.agents.heuristics.nigejozu_valued import INPUTS, NigejozuValued, network_inputs, turn_features
from yuugi.agents.win_network import WinEnsemble, WinNetwork
from yuugi.envs import make_game
from yuugi.envs.nigejozu.observation import OFFSETS
from yuugi.training.train.curve_csv import write_curve_csv

PHASE_TURN_START = OFFSETS["phase"].start  # the phase one-hot's first column: a turn start
SEEDS_PER_ROUND = 10_000_000
PRIOR_GAIN = 4.0  # the level file's logits per prior unit (as a prior-guided run starts)


@dataclass
class RoundData:
    """The turn starts of one round's games: facts, whether the learner moves, the mover's result, the game."""

    features: np.ndarray  # float16[n, NUM_FEATURES] (counts and flags: exact in half precision)
    learner_moves: np.ndarray  # bool[n]
    mover_won: np.ndarray  # bool[n]
    game: np.ndarray  # int64[n]
    learner_won: int  # games the learner won
    games: int


def round_seed(seed: int, round_index: int) -> int:
    return (seed * 100 + round_index) * SEEDS_PER_ROUND


def play_round(network: str | None, first_game: int, games: int, seed_base: int, batch: int = 2048,
               progress: bool = False) -> RoundData:
    """Games ``first_game .. first_game + games - 1`` of a round: the learner (``normal`` when ``network``
    is None, else :class:`NigejozuValued` with that network file) against ``normal``; the learner plays
    faction ``g % 2`` in game ``g``. ``progress``: a line after each batch of games (a round's part takes
    minutes, in a worker process of its own)."""
    game = make_game("nigejozu")
    normal = NigejozuHeuristic()
    learner = normal if network is None else NigejozuValued(network)
    rng = np.random.default_rng(seed_base + first_game)
    parts: dict[str, list[np.ndarray]] = {"features": [], "learner_moves": [], "mover": [], "game": []}
    winners = []
    for start in range(first_game, first_game + games, batch):
        ids = np.arange(start, min(start + batch, first_game + games))
        state = game.init(seed_base + ids)
        learner_side = ids % 2
        while not state.done.all():
            live = ~state.done
            mover = state.to_play.copy()
            observation = game.observe(state, mover)
            mask = game.legal_mask(state)
            turn_start = np.flatnonzero(live & (observation[:, PHASE_TURN_START] == 1.0))
            parts["features"].append(turn_features(observation[turn_start]).astype(np.float16))
            parts["learner_moves"].append(mover[turn_start] == learner_side[turn_start])
            parts["mover"].append(mover[turn_start])
            parts["game"].append(ids[turn_start])
            actions = np.zeros(len(ids), dtype=np.int64)
            learner_turn = live & (mover == learner_side)
            for rows, policy in ((np.flatnonzero(learner_turn), learner), (np.flatnonzero(live & ~learner_turn), normal)):
                if len(rows):
                    actions[rows] = policy.act(observation[rows], mask[rows], rng)
            game.step(state, actions)
        winners.append(game.winner(state))
        if progress:
            print(f"  games {ids[0]:,}-{ids[-1]:,} played ({ids[-1] + 1 - first_game:,} of this part's {games:,})",
                  flush=True)
    winner = np.concatenate(winners)  # by game, from first_game
    game_ids = np.concatenate(parts["game"])
    mover = np.concatenate(parts["mover"])
    learner_won = int(np.count_nonzero(winner == np.arange(first_game, first_game + games) % 2))
    return RoundData(np.concatenate(parts["features"]), np.concatenate(parts["learner_moves"]),
                     winner[game_ids - first_game] == mover, game_ids, learner_won, games)


def _play_part(args: tuple[str | None, int, int, int]) -> RoundData:
    return play_round(*args, progress=True)


def play_round_parallel(network: str | None, games: int, seed_base: int, workers: int) -> RoundData:
    """:func:`play_round` over ``workers`` processes (each a contiguous part of the games), joined."""
    bounds = np.linspace(0, games, workers + 1).astype(int)
    jobs = [(network, int(a), int(b - a), seed_base) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
    if workers <= 1:
        parts = [_play_part(job) for job in jobs]
    else:
        import multiprocessing

        # spawn: the parent has run OpenMP-threaded kernels, and GNU OpenMP is not fork-safe
        with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
            parts = pool.map(_play_part, jobs)
    return RoundData(np.concatenate([p.features for p in parts]), np.concatenate([p.learner_moves for p in parts]),
                     np.concatenate([p.mover_won for p in parts]), np.concatenate([p.game for p in parts]),
                     sum(p.learner_won for p in parts), games)


def fit(data: RoundData, hidden: int = 256, epochs: int = 4, seed: int = 0, batch: int = 4096
        ) -> tuple[WinNetwork, float]:
    """A network fitted to the round's labels; returns it and its held-out logistic loss (games ``g`` with
    ``g % 20 == 0`` are held out)."""
    import torch

    torch.manual_seed(seed)
    heuristic = NigejozuHeuristic()
    features = data.features.astype(np.float32)
    x = np.concatenate([network_inputs(heuristic, features[i:i + 200_000], data.learner_moves[i:i + 200_000])
                        for i in range(0, len(features), 200_000)])
    y = data.mover_won.astype(np.float32)
    held = data.game % 20 == 0
    xt, yt = torch.from_numpy(x[~held]), torch.from_numpy(y[~held])
    xv, yv = torch.from_numpy(x[held]), torch.from_numpy(y[held])
    net = torch.nn.Sequential(torch.nn.Linear(INPUTS, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, hidden),
                              torch.nn.ReLU(), torch.nn.Linear(hidden, 1))
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    generator = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        order = torch.randperm(len(xt), generator=generator)
        for i in range(0, len(xt), batch):
            rows = order[i:i + batch]
            loss = loss_fn(net(xt[rows])[:, 0], yt[rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    with torch.no_grad():
        held_loss = float(loss_fn(net(xv)[:, 0], yv)) if len(xv) else float("nan")
    layers = [m for m in net if isinstance(m, torch.nn.Linear)]
    network = WinNetwork([m.weight.detach().numpy().T.copy() for m in layers], [m.bias.detach().numpy().copy() for m in layers])
    return network, held_loss


def write_level(path: str | Path, meta: dict[str, Any]) -> None:
    """The level file: an MLPPolicy guided by the prior ``nigejozu_valued`` whose logits are that prior
    times :data:`PRIOR_GAIN` and nothing else (one hidden unit, all zeros), so it plays the valued
    policy's choices through the same loader, signature and record checks as every ``hard``."""
    from yuugi.agents.mlp import MLPPolicy

    game = make_game("nigejozu")
    actions = game.num_actions
    reads = game.observation_space.shape[0] + actions
    head = np.concatenate([np.zeros((1, actions)), PRIOR_GAIN * np.eye(actions)]).astype(np.float32)
    policy = MLPPolicy([np.zeros((reads, 1), np.float32), head], [np.zeros(1, np.float32), np.zeros(actions, np.float32)],
                       activation="relu", meta={"game": "nigejozu", "rules": {}, **meta}, prior="nigejozu_valued")
    policy.for_game(game, {}).save(path)


def write_ensemble(parser: argparse.ArgumentParser, networks: list[str], path: str | None) -> int:
    """``--ensemble A B ... --write-network FILE``: one :class:`WinEnsemble` of the networks, saved."""
    if path is None or len(networks) < 2:
        parser.error("--ensemble takes two or more network files and --write-network FILE")
    missing = [n for n in networks if not Path(n).is_file()]
    if missing:
        parser.error(f"no network file {missing[0]!r}")
    members = [WinNetwork.load(n) for n in networks]
    if any(isinstance(m, WinEnsemble) for m in members):
        parser.error("--ensemble combines single networks (a run's nigejozu_value_round<k>.npz), not ensembles")
    WinEnsemble(members, {"members": [Path(n).name for n in networks]}).save(path)
    print(json.dumps({"ensemble": str(path), "members": len(members)}), flush=True)
    return 0


def curve_png(curve: list[dict[str, Any]], path: str | Path) -> None:
    """The learner's share of its games won against ``normal``, round by round (round 0: ``normal`` itself)."""
    from matplotlib.figure import Figure  # no pyplot: a notebook's own backend stays as it was

    fig = Figure(figsize=(6, 3.5))
    ax = fig.subplots()
    ax.plot([row["round"] for row in curve], [100 * row["learner_won"] for row in curve], marker="o")
    ax.axhline(50, color="grey", linewidth=0.8)
    ax.set_xlabel("round (its learner values boards by the previous round's network)")
    ax.set_ylabel("games won against normal (%)")
    ax.set_title("nigejozu: value iteration against normal")
    ax.set_xticks([row["round"] for row in curve])
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m yuugi.training.train.value_iteration",
                                     description="Learn nigejozu's win-probability network by rounds of play against normal.")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of play and fitting (default 3)")
    parser.add_argument("--games", type=int, default=61_440, help="games per round (default 61,440)")
    parser.add_argument("--workers", type=int, default=2, help="processes that play a round's games (default 2)")
    parser.add_argument("--hidden", type=int, default=256, help="units of each of the network's two hidden layers")
    parser.add_argument("--epochs", type=int, default=4, help="passes over a round's turn starts (default 4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="folder for the networks and the curve (needed to play rounds)")
    parser.add_argument("--write-level", metavar="FILE",
                        help="write the level file that plays the shipped network (agents/weights/nigejozu_value.npz)")
    parser.add_argument("--ensemble", nargs="+", metavar="NETWORK",
                        help="networks (of runs' rounds) to value boards together, by their mean log-odds; "
                             "written to --write-network FILE")
    parser.add_argument("--write-network", metavar="FILE", help="where --ensemble writes the ensemble")
    args = parser.parse_args(argv)
    if args.ensemble is not None or args.write_network is not None:
        return write_ensemble(parser, args.ensemble or [], args.write_network)
    if args.out is None:
        if args.write_level is None:
            parser.error("give --out (a folder for the rounds' networks) or --write-level FILE")
        write_level(args.write_level, {"value_network": "nigejozu_value.npz"})
        return 0
    for name in ("rounds", "workers", "hidden", "epochs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.games < 40:
        parser.error(f"--games must be at least 40 (the games g with g % 20 == 0 are held out), got {args.games}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    command = "python -m yuugi.training.train.value_iteration " + " ".join(sys.argv[1:] if argv is None else argv)
    started = time.perf_counter()
    network_path: str | None = None
    curve = []
    for k in range(args.rounds):
        learner = "normal" if network_path is None else Path(network_path).name
        print(f"[round {k}] {args.games:,} games of {learner} against normal ({args.workers} workers)", flush=True)
        data = play_round_parallel(network_path, args.games, round_seed(args.seed, k), args.workers)
        share = data.learner_won / data.games
        print(f"[round {k}] the learner won {share:.1%}; fitting on {len(data.features):,} turn starts", flush=True)
        network, held_loss = fit(data, args.hidden, args.epochs, seed=args.seed * 100 + k)
        network.meta = {"round": k, "games": args.games, "turn_starts": int(len(data.features)),
                        "learner": learner, "learner_won": share, "held_out_loss": held_loss,
                        "seed": args.seed, "command": command}
        network_path = str(out / f"nigejozu_value_round{k}.npz")
        network.save(network_path)
        curve.append({"round": k, "learner": learner, "learner_won": round(share, 4),
                      "held_out_loss": round(held_loss, 5), "turn_starts": int(len(data.features)),
                      "seconds": round(time.perf_counter() - started, 1)})
        print(f"[round {k}] held-out loss {held_loss:.4f} ({time.perf_counter() - started:.0f} s so far)", flush=True)
    final = WinNetwork.load(network_path)
    final.save(out / "nigejozu_value.npz")
    write_curve_csv(out / "nigejozu_value_curve.csv", curve)
    curve_png(curve, out / "nigejozu_value_curve.png")
    if args.write_level:
        write_level(args.write_level, {"value_network": "nigejozu_value.npz"})
    print(json.dumps({"value": str(out / "nigejozu_value.npz"), "seconds": round(time.perf_counter() - started, 1)}),
          flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
