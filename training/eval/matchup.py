"""The ninja_slayer match-up matrix: first-player win rate per (first deck, second deck) and level.

    python -m yuugi.training.eval.matchup --level normal --games 1000
    python -m yuugi.training.eval.matchup --levels hard normal --games 1000 --decks D1 D2 D3 D4 sealed

Every game here has **seat 0 as the first player** (the game draws the first player at random; a
cell's games are the seeds of its stream whose draw gave seat 0 the first move, see
:mod:`yuugi.seated.deckbuild.matches`), so a cell is (first player's deck, second player's deck, the level
moving first, the level moving second). With one level (``--level``) there are decks × decks cells,
the diagonal being mirror matches; with two (``--levels A B``) each deck pair is played twice, A
first and B first. A level is anything ``agents.as_policy`` accepts: a level name, a ``.npz``, an
SB3 ``.zip`` or ``module:attr``.

``--per-pairing`` makes ``--games`` count per pairing instead of per cell: the two cells where the
same two sides meet (each moving first) split the games, and a mirror's one cell has them all.

A cell's value is the first player's wins plus half its draws (a truncation is a draw) over its
games, with a Wilson 95% interval (always inside [0, 1]). The result is written as JSON with the
exact command (saved as it goes, with ``"complete": false``, and on Ctrl-C or SIGTERM, so a run
stopped early keeps its games), and drawn as a heat map (PNG, one panel per level order) next to it; by default
``agents/weights/ninja_slayer_matchup_<level>.json`` and ``.png``.
"""
from __future__ import annotations

import argparse
import json
import re
import shlex
import signal
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from yuugi.agents import shipped
from yuugi.envs import make_game
from yuugi.seated.deckbuild.matches import SEED_STRIDE, Matchup, play_matchups
from yuugi.training.eval.evaluate import wilson_ci

GAME = "ninja_slayer"
DECK_CHOICES = ("D1", "D2", "D3", "D4", "sealed")  # the matrix's decks, in this order


def cell_seed_start(seed: int, order: int, first_deck: str, second_deck: str) -> int:
    """The first seed of a cell's stream: fixed by the run's seed, the level order and the two decks
    (so a run over fewer decks plays the same games in the cells it shares with a full run)."""
    key = 100 * order + 10 * DECK_CHOICES.index(first_deck) + DECK_CHOICES.index(second_deck)
    return (seed * 1000 + key) * SEED_STRIDE


def plan_cells(decks: Sequence[str], levels: Sequence[str], games: int, seed: int,
               per_pairing: bool = False) -> tuple[list[dict], list[Matchup]]:
    """The cells (their labels) and the match-ups that play them, in the same order.

    ``games`` is per cell, or with ``per_pairing`` per pairing: the two sides (deck, level) of a
    pairing meet in two cells, one for each side moving first, which split its games (the cell
    listed first takes the odd one); a mirror (the same deck and level on both sides) has one cell.
    """
    orders = [(0, 0)] if len(levels) == 1 else [(0, 1), (1, 0)]
    keys = []
    for order, (pa, pb) in enumerate(orders):
        for first in decks:
            for second in decks:
                keys.append((order, first, second, pa, pb))

    def pairing(key: tuple) -> tuple:
        _, first, second, pa, pb = key
        return tuple(sorted([(first, pa), (second, pb)]))

    share: dict[tuple, list[int]] = {}
    for i, key in enumerate(keys):
        share.setdefault(pairing(key), []).append(i)
    cells, matchups = [], []
    for i, (order, first, second, pa, pb) in enumerate(keys):
        n = games
        if per_pairing:
            group = share[pairing(keys[i])]
            n = games // len(group) + (1 if group.index(i) < games % len(group) else 0)
        cells.append({"first_deck": first, "second_deck": second, "first_level": levels[pa],
                      "second_level": levels[pb]})
        matchups.append(Matchup((first, second), (pa, pb), n, cell_seed_start(seed, order, first, second)))
    return cells, matchups


def run_matrix(levels: Sequence[str], games: int, decks: Sequence[str] = DECK_CHOICES, seed: int = 0,
               batch: int = 1024, rules: dict[str, Any] | None = None, progress: bool = False,
               per_pairing: bool = False, on_partial: Callable[[dict[str, Any]], None] | None = None,
               partial_every: float = 120.0) -> dict[str, Any]:
    """Play the matrix; returns the JSON-safe result (without the command).

    ``on_partial(result)`` is given the result so far (``"complete": false``, each cell with the games
    it has finished) at most every ``partial_every`` seconds, and once more if the run is interrupted
    (Ctrl-C or SIGTERM), before the interruption is raised again. The cells advance together, so a
    partial result has about the same share of every cell's games.
    """
    from yuugi.agents.adapters import as_policy

    unknown = [d for d in decks if d not in DECK_CHOICES]
    if unknown:
        raise ValueError(f"unknown deck(s) {unknown}; choose from: {', '.join(DECK_CHOICES)}")
    if not 1 <= len(levels) <= 2:
        raise ValueError(f"give one level (both sides) or two (A against B), got {list(levels)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer (games per cell), got {games!r}")
    rules = dict(rules or {})
    game = make_game(GAME, **rules)
    policies = [as_policy(level, game=GAME, **rules) for level in levels]
    cells, matchups = plan_cells(decks, levels, games, seed, per_pairing)
    total = sum(m.games for m in matchups)
    done = [0, 0.0]
    t0 = time.time()

    def tick(n: int) -> None:
        done[0] += n
        if progress and (done[0] * 20 // total > done[1]):
            done[1] = done[0] * 20 // total
            print(f"  {done[0]}/{total} games, {time.time() - t0:.0f}s", file=sys.stderr, flush=True)

    last_save = [time.time()]
    latest: list[Any] = [None]

    def result_of(out: Any, complete: bool) -> dict[str, Any]:
        rows = []
        for k, cell in enumerate(cells):
            wins, losses, draws = int(out.first_wins[k]), int(out.first_losses[k]), int(out.draws[k])
            n = wins + losses + draws
            row = dict(cell, games=n, games_planned=matchups[k].games, first_wins=wins, first_losses=losses,
                       draws=draws, truncated=int(out.truncated[k]), seeds_from=matchups[k].seed_start)
            if n:
                lo, hi = wilson_ci(wins + 0.5 * draws, n)
                row.update(first_win_rate=round(out.score(k), 5), wilson95=[round(lo, 5), round(hi, 5)])
            rows.append(row)
        return {"game": GAME, "complete": complete, "levels": list(levels), "decks": list(decks),
                ("games_per_pairing" if per_pairing else "games_per_cell"): games, "seed": seed,
                "rules": rules, "batch": batch, "seconds": round(time.time() - t0, 1), **_NOTES, "cells": rows}

    def partial(out: Any) -> None:
        latest[0] = out
        if on_partial is not None and time.time() - last_save[0] >= partial_every:
            last_save[0] = time.time()
            on_partial(result_of(out, False))

    try:
        out = play_matchups(game, matchups, policies, np.random.default_rng(seed), batch=batch, on_finished=tick,
                            on_progress=partial)
    except KeyboardInterrupt:
        if on_partial is not None and latest[0] is not None:
            on_partial(result_of(latest[0], False))
        raise
    return result_of(out, True)


_NOTES = {
    "first_player": ("seat 0 moves first in every game: each cell plays the seeds of its stream (from "
                     "seeds_from up) whose first-player draw gave seat 0 the first move"),
    "value": "first player's (wins + draws / 2) / games, Wilson 95% interval; a truncation is a draw",
}


def level_tag(levels: Sequence[str]) -> str:
    """A file-name tag for the levels: ``normal``, ``hard_vs_normal`` (paths reduced to their stem)."""
    stems = [re.sub(r"[^A-Za-z0-9_-]+", "_", Path(str(v).split(":")[-1]).stem) for v in levels]
    return stems[0] if len(stems) == 1 else "_vs_".join(stems)


def draw_heatmap(result: dict[str, Any], path: Path) -> None:
    """One panel per level order: rows the first player's deck, columns the second's, colour the
    first player's win rate (0.5 white), each cell annotated with its rate and interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    decks, levels = result["decks"], result["levels"]
    orders = [(levels[0], levels[0])] if len(levels) == 1 else [(levels[0], levels[1]), (levels[1], levels[0])]
    fig, axes = plt.subplots(1, len(orders), figsize=(1.6 * len(decks) * len(orders) + 1.5, 1.3 * len(decks) + 1.4),
                             squeeze=False)
    index = {(c["first_deck"], c["second_deck"], c["first_level"], c["second_level"]): c for c in result["cells"]}
    for ax, (fl, sl) in zip(axes[0], orders):
        grid = np.array([[index[(a, b, fl, sl)]["first_win_rate"] for b in decks] for a in decks])
        im = ax.imshow(grid, cmap="RdBu_r", vmin=0.0, vmax=1.0)
        for i, a in enumerate(decks):
            for j, b in enumerate(decks):
                c = index[(a, b, fl, sl)]
                lo, hi = c["wilson95"]
                ax.text(j, i, f"{c['first_win_rate']:.3f}\n[{lo:.3f}, {hi:.3f}]\nn={c['games']}", ha="center",
                        va="center", fontsize=7)
        ax.set_xticks(range(len(decks)), decks)
        ax.set_yticks(range(len(decks)), decks)
        ax.set_xlabel(f"second player's deck ({sl})")
        ax.set_ylabel(f"first player's deck ({fl})")
        count = (f"{result['games_per_cell']} games per cell" if "games_per_cell" in result else
                 f"{result['games_per_pairing']} games per deck pairing (split over the two orders)")
        ax.set_title(f"first player's win rate, {count}", fontsize=9)
    fig.colorbar(im, ax=list(axes[0]), shrink=0.8)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def format_table(result: dict[str, Any]) -> str:
    lines = ["first deck  second deck  first level  second level  games  first win rate  95% interval"]
    for c in result["cells"]:
        lo, hi = c["wilson95"]
        lines.append(f"{c['first_deck']:<11} {c['second_deck']:<12} {c['first_level']:<12} {c['second_level']:<13} "
                     f"{c['games']:>5}  {c['first_win_rate']:.3f}           [{lo:.3f}, {hi:.3f}]")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m yuugi.training.eval.matchup", description=__doc__.split("\n\n")[0])
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--level", default=None, help="one level (or policy spec) on both sides (default normal)")
    who.add_argument("--levels", nargs=2, metavar=("A", "B"), help="level A against level B, each moving first in turn")
    parser.add_argument("--games", type=int, default=1000, help="games per cell (default 1000)")
    parser.add_argument("--per-pairing", action="store_true",
                        help="--games counts per pairing: its two cells (each side moving first) split them")
    parser.add_argument("--decks", nargs="+", default=list(DECK_CHOICES), choices=DECK_CHOICES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=1024, help="games played at once (default 1024)")
    parser.add_argument("--out", type=Path, default=None,
                        help="the JSON file (default agents/weights/ninja_slayer_matchup_<level>.json); the PNG goes next to it")
    parser.add_argument("--no-plot", action="store_true", help="write the JSON only")
    parser.add_argument("--save-every", type=float, default=120.0,
                        help="seconds between partial saves (\"complete\": false) while it runs (default 120)")
    args = parser.parse_args(argv)
    levels = args.levels or [args.level or "normal"]
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    if args.batch < 1:
        parser.error(f"--batch must be at least 1, got {args.batch}")
    out = args.out or shipped.WEIGHTS_DIR / f"ninja_slayer_matchup_{level_tag(levels)}.json"
    command = "python -m yuugi.training.eval.matchup " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv))
    out.parent.mkdir(parents=True, exist_ok=True)

    def save(result: dict[str, Any]) -> None:
        result = {"command": command, **result}
        tmp = out.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
        tmp.replace(out)  # a reader never sees half a file
        if not args.no_plot and all("first_win_rate" in c for c in result["cells"]):
            draw_heatmap(result, out.with_suffix(".png"))

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        result = run_matrix(levels, args.games, args.decks, args.seed, args.batch, progress=True,
                            per_pairing=args.per_pairing, on_partial=save, partial_every=args.save_every)
    except KeyboardInterrupt:
        print(f"stopped: the games finished so far are in {out} (\"complete\": false)", file=sys.stderr)
        return 130
    save(result)
    print(format_table(result))
    print(f"wrote {out}" + ("" if args.no_plot else f" and {out.with_suffix('.png')}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
