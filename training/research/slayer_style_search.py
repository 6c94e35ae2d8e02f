"""Tune the ninja_slayer heuristic's style knobs by a cross-entropy search against ``control``.

Each generation draws a population of styles around the current mean (a normal per numeric knob,
clipped to its range; a coin per yes/no knob), plays each against ``control`` on ``--games`` games
of constructed decks and as many of sealed ones (stronger side alternating seats, the same deals
for every candidate of a generation, fresh deals each generation), and moves the mean to its best
quarter. The population's first member is the mean itself, so its score tracks the search. The
batched core plays every candidate's games at once, so a generation of 14 candidates × 600 games
takes about two minutes on two cores.

``hard``'s prior, :data:`yuugi.agents.heuristics.ninja_slayer.TUNED`, is the rounded mean of two stages:

    python -m yuugi.training.research.slayer_style_search --knobs stage1 --games 300 --generations 15 --seed 2000 \\
        --out runs/style/stage1.json
    python -m yuugi.training.research.slayer_style_search --start runs/style/stage1.json --games 500 --generations 10 \\
        --seed 3000 --out runs/style/stage2.json

(the first stage ran with ``guard_face`` clipped at 0.2 rather than 0). Selection among styles and
checkpoints used seeds 501 (``python -m yuugi.training.eval.slayer_ladder``); the ladder's seed 7 was not used.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from contextlib import nullcontext
from dataclasses import replace
from multiprocessing import Pool
from typing import Any

import numpy as np

from yuugi.agents.heuristics.ninja_slayer import CONTROL, NinjaSlayerHeuristic, Style
from yuugi.training.eval.slayer_ladder import play_step

# Numeric knob: (start mean, start spread, least, most). The start is the control style.
NUMERIC = {
    "face": (1.0, 0.4, 0.2, 3.0), "guard_face": (1.3, 0.4, 0.0, 3.0), "kill_scale": (1.0, 0.3, 0.2, 2.5),
    "etel_cap": (7.0, 1.2, 3.0, 10.0), "guard_home": (2.0, 0.8, 0.0, 4.0), "own_turn_removal": (0.5, 0.3, 0.0, 1.5),
    "etel_worth": (0.35, 0.2, 0.0, 1.5), "enter_base": (3.0, 1.0, -1.0, 8.0),
    "stopped_face": (0.4, 0.2, 0.0, 1.0), "interrupt_tap": (0.3, 0.3, 0.0, 2.0), "far_penalty": (1.5, 0.5, 0.0, 4.0),
    "draw_worth": (0.9, 0.4, 0.0, 3.0), "ramp_worth": (1.2, 0.4, 0.0, 3.0)}
YES_NO = {"keep_answer_open": 0.8, "proactive_own_turn": 0.2}  # start probability of "yes" (control's, softened)
STAGE1 = ("face", "guard_face", "kill_scale", "etel_cap", "guard_home", "own_turn_removal", "etel_worth", "enter_base")
ELITE_SHARE = 4 / 14
DECKS = ("constructed", "sealed")


def style_of(knobs: dict[str, Any]) -> Style:
    """The control style with ``knobs`` (numeric ones clipped to their range, etel_cap rounded)."""
    numeric = {k: float(np.clip(v, NUMERIC[k][2], NUMERIC[k][3])) for k, v in knobs.items() if k in NUMERIC}
    if "etel_cap" in numeric:
        numeric["etel_cap"] = int(round(numeric["etel_cap"]))
    return replace(CONTROL, name="searched", **numeric, **{k: bool(v) for k, v in knobs.items() if k in YES_NO})


def score_against_control(knobs: dict[str, Any], games: int, seed: int) -> list[float]:
    """Mean score (the style's return minus control's, in [−2, 2]) on constructed and on sealed decks."""
    from yuugi.envs import make_game

    me, control = NinjaSlayerHeuristic(style_of(knobs)), NinjaSlayerHeuristic("control")
    out = []
    for decks in DECKS:
        played = play_step(make_game("ninja_slayer", decks=decks), me, control, games, seed,
                           np.random.default_rng([seed, 1]), batch=games)
        out.append(float(played[:, 1].mean()))
    return out


def _score(job: tuple[dict[str, Any], int, int]) -> list[float]:
    return score_against_control(*job)


def search(knobs: tuple[str, ...], start: dict[str, Any] | None, games: int, generations: int, seed: int,
           population: int, workers: int, log: Any = sys.stderr) -> dict[str, Any]:
    """Run the search; returns every generation's record and the final mean."""
    fixed = dict(start or {})
    mean = {k: float(fixed.get(k, NUMERIC[k][0])) for k in knobs}
    # From a previous stage: half the start spread, and its yes/no answers held with 0.9.
    spread = {k: NUMERIC[k][1] * (0.5 if start else 1.0) for k in knobs}
    yes = {k: ((0.9 if fixed[k] else 0.1) if k in fixed else p) for k, p in YES_NO.items()}
    rng = np.random.default_rng(0)
    elite = max(1, round(population * ELITE_SHARE))
    generations_done = []
    with Pool(workers) as pool:
        for gen in range(generations):
            began = time.perf_counter()
            pop = [{**fixed, **mean, **{k: p > 0.5 for k, p in yes.items()}}]
            for _ in range(population - 1):
                pop.append({**fixed, **{k: rng.normal(mean[k], spread[k]) for k in knobs},
                            **{k: bool(rng.random() < p) for k, p in yes.items()}})
            scores = pool.map(_score, [(x, games, seed + gen) for x in pop])
            best = np.argsort([sum(s) for s in scores])[::-1][:elite]
            for k in knobs:
                values = np.array([pop[i][k] for i in best])
                mean[k] = float(values.mean())
                spread[k] = float(max(values.std(), 0.15 * NUMERIC[k][1]))  # a floor, so it keeps looking
            for k in yes:
                yes[k] = float(np.clip(0.7 * np.mean([pop[i][k] for i in best]) + 0.3 * yes[k], 0.05, 0.95))
            record = {"generation": gen, "mean_scores": scores[0], "best_scores": scores[best[0]],
                      "mean": dict(mean), "spread": dict(spread), "yes": dict(yes),
                      "seconds": round(time.perf_counter() - began, 1)}
            generations_done.append(record)
            print(f"generation {gen}: the mean scored {scores[0][0]:+.3f} constructed, {scores[0][1]:+.3f} sealed "
                  f"({record['seconds']:.0f} s)", file=log, flush=True)
    final = {**fixed, **mean, **{k: p > 0.5 for k, p in yes.items()}}
    return {"generations": generations_done, "final": final}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m yuugi.training.research.slayer_style_search", description=__doc__.split("\n\n")[0])
    ap.add_argument("--knobs", default="all", help="'all', 'stage1' or a comma-separated list of numeric knobs")
    ap.add_argument("--start", default=None, help="a previous run's --out: start from its final mean")
    ap.add_argument("--games", type=int, default=300, help="games per deck family per candidate")
    ap.add_argument("--generations", type=int, default=15)
    ap.add_argument("--population", type=int, default=14)
    ap.add_argument("--seed", type=int, default=2000, help="generation g plays the deals of seed SEED + g")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", required=True, help="JSON file for every generation and the final mean")
    args = ap.parse_args(argv)
    named = {"all": tuple(NUMERIC), "stage1": STAGE1}
    knobs = named.get(args.knobs) or tuple(args.knobs.split(","))
    unknown = [k for k in knobs if k not in NUMERIC]
    if unknown or min(args.games, args.generations, args.population, args.workers) < 1:
        print(f"error: unknown knobs {unknown}; knobs: {', '.join(NUMERIC)}" if unknown
              else "error: --games, --generations, --population and --workers must be at least 1", file=sys.stderr)
        return 2
    try:
        with open(args.start) if args.start else nullcontext(None) as f:
            start = json.load(f)["final"] if f else None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"error: --start {args.start}: not a style search result ({exc!r})", file=sys.stderr)
        return 2
    try:
        result = search(knobs, start, args.games, args.generations, args.seed, args.population, args.workers)
    except KeyboardInterrupt:
        print("interrupted: nothing written (each generation's line above has its mean)", file=sys.stderr)
        return 130
    given = sys.argv[1:] if argv is None else argv
    result["command"] = "python -m yuugi.training.research.slayer_style_search " + " ".join(map(shlex.quote, given))
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps(result["final"]), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
