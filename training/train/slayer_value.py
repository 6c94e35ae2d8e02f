"""ninja_slayer's win network: the value that ``hard`` judges a position a turn ahead by.

Plays ``--games`` games per deck family (both seats constructed, then both sealed) of the shipped
network (``hard``'s own network, ``agents/weights/ninja_slayer_hard.npz``, without its lookahead) against
``normal``, the network's seat alternating by game, on the batched core. At every decision a game's
state is kept with probability ``--keep``, seen by both seats (:func:`~yuugi.agents.search.slayer_value.network_inputs`:
the view's features and whether that seat is the network's), and labelled with whether that seat went
on to win. A :class:`~yuugi.agents.win_network.WinNetwork` (two ReLU layers of ``--hidden``) is fitted to
the labels by logistic loss with Adam, one game in twenty held out.

    python -m yuugi.training.train.slayer_value --games 50000 --keep 0.012 --seed 70 --out runs/slayer_value

writes ``OUT/ninja_slayer_value.npz`` (the network; its meta records the run) and
``OUT/ninja_slayer_value_curve.csv``/``.png`` (per epoch: the mean training loss and the held-out loss).
Game ``g`` of family ``i`` (0 constructed, 1 sealed) is dealt with seed ``(SEED + i) · 1,000,000 + g``;
the families are played in two processes, each drawing the sampling and the policies' tie-breaks from
its own stream, so a run is reproducible given its arguments.
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

from yuugi.agents.search.slayer_value import INPUTS, network_inputs
from yuugi.agents.win_network import WinNetwork
from yuugi.envs import make_game
from yuugi.training.train.curve_csv import write_curve_csv

FAMILIES = ("constructed", "sealed")
SEEDS_PER_FAMILY = 1_000_000


@dataclass
class ValueData:
    """Kept states: the network's inputs (half precision), whether the seat won, and the game (for holding out)."""

    inputs: np.ndarray  # float16[n, INPUTS]
    won: np.ndarray  # bool[n]
    game: np.ndarray  # int64[n], unique across families


def play_family(family: str, games: int, seed_base: int, keep: float, batch: int = 1000,
                progress: bool = False) -> ValueData:
    """Games ``0 .. games - 1`` of one deck family: the network at seat ``g % 2`` of game ``g``, ``normal``
    at the other; each decision's state kept with probability ``keep``, from both seats' views."""
    from yuugi.agents.registry import hard_weights, heuristic
    from yuugi.agents.mlp import MLPPolicy

    game = make_game("ninja_slayer", decks=(family, family))
    network = MLPPolicy.load(hard_weights("ninja_slayer"), game=game, name="ninja_slayer_hard")
    normal = heuristic("ninja_slayer")
    rng = np.random.default_rng(seed_base)
    parts: dict[str, list[np.ndarray]] = {"inputs": [], "won": [], "game": []}
    started = time.perf_counter()
    for start in range(0, games, batch):
        ids = np.arange(start, min(start + batch, games))
        state = game.init(seed_base + ids)
        network_side = ids % 2
        total = np.zeros((len(ids), 2))
        kept: list[tuple[np.ndarray, np.ndarray, int]] = []
        while not state.done.all():
            live = ~state.done
            mover = state.to_play.astype(np.int64)
            observation = game.observe(state, mover)
            mask = game.legal_mask(state)
            rows = np.flatnonzero(live & (rng.random(len(ids)) < keep))
            if rows.size:
                sub = state.take(rows)
                for seat in (0, 1):
                    view = game.observe(sub, np.full(rows.size, seat))
                    kept.append((network_inputs(view, network_side[rows] == seat).astype(np.float16), rows, seat))
            actions = np.zeros(len(ids), np.int64)
            network_turn = live & (mover == network_side)
            for who, policy in ((np.flatnonzero(network_turn), network), (np.flatnonzero(live & ~network_turn), normal)):
                if who.size:
                    actions[who] = policy.act(observation[who], mask[who], rng)
            game.step(state, actions, live)
            total[live] += state.rewards[live]
        for inputs, rows, seat in kept:
            parts["inputs"].append(inputs)
            parts["won"].append(total[rows, seat] > 0)
            parts["game"].append(seed_base + ids[rows])
        if progress:
            print(f"  {family}: {ids[-1] + 1:,} of {games:,} games ({time.perf_counter() - started:.0f} s)", flush=True)
    return ValueData(np.concatenate(parts["inputs"]), np.concatenate(parts["won"]), np.concatenate(parts["game"]))


def _play_family(job: tuple[str, int, int, float]) -> ValueData:
    return play_family(*job, progress=True)


def play(games: int, seed: int, keep: float, workers: int = 2) -> ValueData:
    """Both families' games (one process each when ``workers`` > 1), joined."""
    jobs = [(family, games, (seed + i) * SEEDS_PER_FAMILY, keep) for i, family in enumerate(FAMILIES)]
    if workers <= 1:
        parts = [_play_family(job) for job in jobs]
    else:
        import multiprocessing

        # spawn: the parent has run OpenMP-threaded kernels, and GNU OpenMP is not fork-safe
        with multiprocessing.get_context("spawn").Pool(min(workers, len(jobs))) as pool:
            parts = pool.map(_play_family, jobs)
    return ValueData(np.concatenate([p.inputs for p in parts]), np.concatenate([p.won for p in parts]),
                     np.concatenate([p.game for p in parts]))


def fit(data: ValueData, hidden: int = 256, epochs: int = 4, seed: int = 0, batch: int = 2048
        ) -> tuple[WinNetwork, list[dict[str, float]]]:
    """A network fitted to the labels (games with ``game % 20 == 0`` held out) and its curve per epoch."""
    import torch

    torch.manual_seed(seed)
    held = data.game % 20 == 0
    xt, yt = torch.from_numpy(data.inputs[~held]), torch.from_numpy(data.won[~held].astype(np.float32))
    xv, yv = torch.from_numpy(data.inputs[held]).float(), torch.from_numpy(data.won[held].astype(np.float32))
    net = torch.nn.Sequential(torch.nn.Linear(INPUTS, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, hidden),
                              torch.nn.ReLU(), torch.nn.Linear(hidden, 1))
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    generator = torch.Generator().manual_seed(seed)
    curve = []
    for epoch in range(epochs):
        order = torch.randperm(len(xt), generator=generator)
        losses = []
        for i in range(0, len(xt), batch):
            rows = order[i:i + batch]
            loss = loss_fn(net(xt[rows].float())[:, 0], yt[rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        with torch.no_grad():
            held_loss = float(loss_fn(net(xv)[:, 0], yv)) if len(xv) else float("nan")
        curve.append({"epoch": epoch + 1, "train_loss": float(np.mean(losses)), "held_out_loss": held_loss})
        print(f"  epoch {epoch + 1}: training loss {curve[-1]['train_loss']:.4f}, held-out loss {held_loss:.4f}",
              flush=True)
    layers = [m for m in net if isinstance(m, torch.nn.Linear)]
    network = WinNetwork([m.weight.detach().numpy().T.copy() for m in layers],
                         [m.bias.detach().numpy().copy() for m in layers])
    return network, curve


def curve_png(curve: list[dict[str, Any]], path: str | Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.2))
    epochs = [row["epoch"] for row in curve]
    ax.plot(epochs, [row["train_loss"] for row in curve], marker="o", label="training")
    ax.plot(epochs, [row["held_out_loss"] for row in curve], marker="o", label="held out (1 game in 20)")
    ax.axhline(np.log(2), color="grey", lw=0.8, ls=":", label="a coin (ln 2)")
    ax.set_xlabel("epoch")
    ax.set_ylabel("logistic loss")
    ax.set_title("ninja_slayer win network")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m yuugi.training.train.slayer_value", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50_000, help="games per deck family")
    ap.add_argument("--keep", type=float, default=0.012, help="the share of decision states kept")
    ap.add_argument("--seed", type=int, default=70)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2, help="processes playing the games (one per family at most)")
    ap.add_argument("--out", required=True, help="folder for the network and its curve")
    args = ap.parse_args(argv)
    if not 1 <= args.games < SEEDS_PER_FAMILY:
        ap.error(f"--games must be between 1 and {SEEDS_PER_FAMILY - 1:,}")
    if not 0.0 < args.keep <= 1.0:
        ap.error("--keep must be a share in (0, 1]")
    for name in ("hidden", "epochs", "workers"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    print(f"playing {args.games:,} games per deck family ...", flush=True)
    data = play(args.games, args.seed, args.keep, args.workers)
    played = time.perf_counter() - started
    print(f"{len(data.won):,} states kept in {played:.0f} s; fitting ...", flush=True)
    network, curve = fit(data, args.hidden, args.epochs)
    network.meta = {"command": "python -m yuugi.training.train.slayer_value " + " ".join(sys.argv[1:] if argv is None else argv),
                    "games_per_family": args.games, "families": list(FAMILIES), "states": int(len(data.won)),
                    "play_seconds": round(played, 1), "fit_seconds": round(time.perf_counter() - started - played, 1),
                    "held_out_loss": curve[-1]["held_out_loss"], "curve": curve}
    network.save(out / "ninja_slayer_value.npz")
    write_curve_csv(out / "ninja_slayer_value_curve.csv", curve)
    curve_png(curve, out / "ninja_slayer_value_curve.png")
    print(json.dumps({k: v for k, v in network.meta.items() if k != "curve"}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
