"""ninja_slayer's CPU ladder with each seat reported on its own: is every step decided in both seats?

``yuugi eval`` reports a pairing over both seats together. A two-seat card game can hide a seat
effect in that mean (the deck is per seat under asymmetric ``decks``, and a policy may play one
seat worse), so this tool plays each ladder step (consecutive entries of ``--levels``, the stronger
last: ``random easy normal hard`` gives easy−random, normal−easy and hard−normal) with the stronger
side at seat 0 in even games and seat 1 in odd ones, on the seeds ``yuugi eval`` uses
(``seed · 10,000,019 + g``), and reports the score (the stronger side's return minus the weaker's,
in [−2, 2]) with its 95% percentile-bootstrap interval per seat and overall, and the share of games
the stronger side won (draws half) with its Wilson interval. A step is *decided in a seat* when that
seat's score interval excludes 0. Built on :mod:`yuugi.training.eval.evaluate`'s seating, play loop and
intervals.

    python -m yuugi.training.eval.slayer_ladder --rule decks=sealed --games 2000 --seed 0 \\
        --save agents/weights/ninja_slayer_ladder_sealed.json --plot agents/weights/ninja_slayer_ladder_sealed.png

An entry of ``--levels`` is a level name or ``NAME=SPEC`` (a weights ``.npz``, ``module:attr``, ...,
anything :func:`yuugi.agents.adapters.as_policy` accepts), so a training checkpoint is rated the same way.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np

from yuugi.training.eval.evaluate import SEED_STRIDE, bootstrap_mean_ci, games_ahead, play_games, seat_layout, wilson_ci

GAME = "ninja_slayer"
DEFAULT_LEVELS = ("random", "easy", "normal", "hard")


def summary(score: np.ndarray, seed: Any) -> dict[str, Any]:
    """Mean score with its bootstrap interval, the stronger side's win share (draws half) with Wilson's."""
    mean, ci = bootstrap_mean_ci(score, seed=seed)
    won = games_ahead(score)
    lo, hi = wilson_ci(won, len(score))
    return {"games": int(len(score)), "score": round(mean, 4), "score_ci95": [round(ci[0], 4), round(ci[1], 4)],
            "ahead": round(won / len(score), 4), "ahead_ci95": [round(lo, 4), round(hi, 4)],
            "draws": int((score == 0).sum()), "decided": bool(ci[0] > 0 or ci[1] < 0)}


def play_step(game: Any, strong: Any, weak: Any, games: int, seed: int, rng: np.random.Generator,
              batch: int = 1000) -> np.ndarray:
    """int[games, 2] (seat of the stronger side, its score) over games 0..games−1 of ``seed``."""
    rows = []
    for start in range(0, games, batch):
        g = np.arange(start, min(start + batch, games))
        seating = seat_layout("alternate", g, 2)  # 0 -> strong, 1 -> weak; strong at seat g mod 2
        returns = play_games(game, seating, [strong, weak], seed * SEED_STRIDE + g, rng)
        strong_seat = np.argmin(seating, axis=1)
        score = returns[np.arange(len(g)), strong_seat] - returns[np.arange(len(g)), 1 - strong_seat]
        rows.append(np.stack([strong_seat, score], axis=1))
    return np.concatenate(rows)


def ladder(entries: list[str], rules: dict[str, Any], games: int, seed: int,
           log: Any = sys.stderr) -> list[dict[str, Any]]:
    """Every step of the ladder ``entries`` (weakest first), each seat on its own and both together."""
    from yuugi.agents.adapters import as_policy
    from yuugi.agents.registry import cpu
    from yuugi.envs import make_game

    game = make_game(GAME, **rules)
    named = {}
    for entry in entries:
        name, sep, spec = entry.partition("=")
        named[name] = as_policy(spec, game=GAME, **rules) if sep else cpu(GAME, name, **rules)
    names = list(named)
    steps = []
    for k, (weak, strong) in enumerate(zip(names, names[1:])):
        began = time.perf_counter()
        rng = np.random.default_rng([seed, k])  # the policies' own draws (random, easy's blunders)
        played = play_step(game, named[strong], named[weak], games, seed, rng)
        seat, score = played[:, 0].astype(int), played[:, 1]
        step = {"stronger": strong, "weaker": weak, "games": games,
                "both_seats": summary(score, [seed, k, 2]),
                **{f"stronger_at_seat_{s}": summary(score[seat == s], [seed, k, s]) for s in (0, 1)}}
        step["decided_in_both_seats"] = all(step[f"stronger_at_seat_{s}"]["decided"] for s in (0, 1))
        steps.append(step)
        print(f"{strong} vs {weak}: {_line(step)}  ({time.perf_counter() - began:.0f} s)", file=log, flush=True)
    return steps


def _line(step: dict[str, Any]) -> str:
    def one(s: dict[str, Any]) -> str:
        lo, hi = s["score_ci95"]
        return f"{s['score']:+.3f} [{lo:+.3f}, {hi:+.3f}]"

    return (f"both {one(step['both_seats'])}; seat 0 {one(step['stronger_at_seat_0'])}; "
            f"seat 1 {one(step['stronger_at_seat_1'])}; decided in both seats: "
            f"{'yes' if step['decided_in_both_seats'] else 'no'}")


def save_plot(record: dict[str, Any], path: str) -> None:
    """Each step's score with its 95% interval: the stronger side at seat 0, at seat 1, and both seats."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = record["steps"]
    rows = [("stronger_at_seat_0", "seat 0", "#55a868", -0.25), ("both_seats", "both seats", "#4c72b0", 0.0),
            ("stronger_at_seat_1", "seat 1", "#c44e52", 0.25)]
    fig, ax = plt.subplots(figsize=(6.5, 1.2 + 0.9 * len(steps)))
    for key, label, color, dy in rows:
        y = np.arange(len(steps)) + dy
        score = np.array([st[key]["score"] for st in steps])
        ci = np.array([st[key]["score_ci95"] for st in steps])
        ax.errorbar(score, y, xerr=[score - ci[:, 0], ci[:, 1] - score], fmt="o", color=color, capsize=3,
                    label=label)
    ax.axvline(0.0, color="black", linewidth=0.8)
    ax.set_yticks(np.arange(len(steps)), [f"{st['stronger']} vs {st['weaker']}" for st in steps])
    ax.invert_yaxis()
    ax.set_xlim(min(-0.2, ax.get_xlim()[0]), 2.05)
    ax.set_xlabel("score of the stronger side (its return minus the other's), 95% interval")
    decks = record.get("rules", {}).get("decks", "constructed")
    games = sorted({step["games"] for step in record["steps"]})
    ax.set_title(f"{record['game']}: decks={decks}, {' or '.join(f'{g:,}' for g in games)} games per step", fontsize=10)
    ax.legend(loc="lower right", fontsize=8)  # a close step sits near 0, on the left
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _rules(pairs: list[str]) -> dict[str, Any]:
    """``--rule KEY=VALUE`` options as ``yuugi`` reads them (VALUE as JSON when it can be)."""
    from yuugi.training.cli.args import UsageError, parse_rules

    try:
        return parse_rules(pairs)
    except UsageError as error:
        raise SystemExit(f"slayer_ladder: {error}") from None


def _earlier(path: str | None, rules: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The ladder saved in ``path``, which ``--append`` extends: it must be of the same rules and seed (a new
    step may play more games, e.g. where a small edge needs them to be decided in each seat)."""
    if not path:
        raise SystemExit("slayer_ladder: --append adds to the ladder in --save FILE; give --save")
    with open(path) as f:
        earlier = json.load(f)
    mine = {"rules": rules, "seed": args.seed}
    differ = [k for k, v in mine.items() if earlier.get(k) != v]
    if differ:
        raise SystemExit(f"slayer_ladder: {path} was measured with other {', '.join(differ)}; --append needs the same")
    return earlier


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    p = argparse.ArgumentParser(prog="python -m yuugi.training.eval.slayer_ladder", description=__doc__.split("\n")[0])
    p.add_argument("--levels", nargs="+", default=list(DEFAULT_LEVELS),
                   help="the ladder, weakest first: level names or NAME=SPEC (default: random easy normal hard)")
    p.add_argument("--games", type=int, default=2000, help="games per step (half with the stronger side at seat 0)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule option, e.g. --rule decks=sealed (repeatable)")
    p.add_argument("--save", help="write the steps as JSON here, with the command")
    p.add_argument("--append", action="store_true",
                   help="add these steps to the ladder already in --save (same rules and seed), "
                        "e.g. the hard step once its weights exist")
    p.add_argument("--plot", help="draw every step's score per seat with its interval (PNG) here")
    args = p.parse_args(argv)
    if args.games < 2 or len(args.levels) < 2:
        p.error("--games must be at least 2 (one per seat) and --levels must name at least two policies")
    rules = _rules(args.rule)
    earlier = _earlier(args.save, rules, args) if args.append else None
    began = time.perf_counter()
    steps = ladder(args.levels, rules, args.games, args.seed)
    record = {"game": GAME, "command": "python -m yuugi.training.eval.slayer_ladder " + " ".join(argv), "rules": rules,
              "seed": args.seed, "games_per_step": args.games, "levels": args.levels,
              "seeding": "game g plays seed·10,000,019 + g (as yuugi eval); the stronger side sits at seat g mod 2",
              "score": "the stronger side's return minus the weaker's, per game, in [-2, 2]; 95% percentile "
                       "bootstrap; ahead: games won (draws half), Wilson 95%",
              "steps": steps, "wall_time_s": round(time.perf_counter() - began, 1)}
    if earlier is not None:  # one ladder, measured by more than one command
        # (a ladder appended to before holds "commands" and no "command")
        record["commands"] = (earlier["commands"] if "commands" in earlier else [earlier["command"]]) + [record.pop("command")]
        record["levels"] = earlier["levels"] + [lv for lv in args.levels if lv not in earlier["levels"]]
        record["steps"] = earlier["steps"] + steps
        if any(step["games"] != args.games for step in earlier["steps"]):
            record["games_per_step"] = [step["games"] for step in record["steps"]]
        record["wall_time_s"] = round(earlier["wall_time_s"] + record["wall_time_s"], 1)
    if args.save:
        with open(args.save, "w") as f:
            json.dump(record, f, indent=2, ensure_ascii=False)
            f.write("\n")
        print(f"saved: {args.save}", file=sys.stderr)
    else:
        print(json.dumps(record, indent=2, ensure_ascii=False))
    if args.plot:
        save_plot(record, args.plot)
        print(f"plot: {args.plot}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
