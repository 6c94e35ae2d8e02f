"""``expert`` against another level (``hard`` by default), seated as ``yuugi eval`` seats a pairing.

    python -m yuugi.training.eval.expert_ladder nigejozu --games 2000 --rounds 1 --json agents/weights/nigejozu_expert_ladder.json
    python -m yuugi.training.eval.expert_ladder momotaro --rule num_players=3 --layout field --games 400
    python -m yuugi.training.eval.expert_ladder ninja_daifugo --against normal --think-ms 100

Layouts are :func:`yuugi.training.eval.evaluate.seat_layout`'s: ``field`` puts one expert at seat ``g mod P``
of game g against P−1 copies of the other level; ``alternate`` alternates the two around the table
and swaps them every game (for 2 players both are the same). Game g is dealt with seed
``seed_base + g``; with ``--mirror`` (field layout) each deal is played P times in a row, the expert at
each seat once (game g dealt with seed ``seed_base + g // P``), so the luck of a deal (a stronger deck,
a better draw) falls on both levels alike, and the score's interval is bootstrapped over deals. In
ninja_slayer the two seatings of a deal scored −0.40 correlated (400 deals of ``hard`` against
``normal``): a mirrored game tells as much as 1.7 unmirrored ones. Each batch of games draws the
policies' random numbers from its own generator (``seed``, the batch's first game); with ``--rounds`` (a
fixed number of search rounds, no clock) a run is reproducible, batch by batch. A search opponent is slow (a 2,000-game step takes
hours on two cores), so ``--json FILE`` is rewritten after every batch with every game's score, and
``--resume`` carries on from FILE with the same settings: a run can be spread over several
sittings and gives the games one sitting would, and a larger ``--games`` extends a finished run. A game's score is the expert's mean return per seat minus the other level's, with a
seeded 95% bootstrap interval and the Wilson interval of the share of games the expert is ahead
(ties half), as ``yuugi eval`` reports them. The expert's think time per decision, decisions per
second and rollouts per second are recorded with the settings and the command. Playing needs numpy
only.
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time
from typing import Any, Callable

import numpy as np

from yuugi.agents.expert import ExpertPolicy
from yuugi.agents.registry import cpu, heuristic
from yuugi.agents.search.game_search import HORIZONS
from yuugi.envs import make_game
from yuugi.training.cli.args import UsageError, parse_rules
from yuugi.training.eval.evaluate import (LAYOUTS, bootstrap_mean_ci, games_ahead, play_games, score_of_a, seat_layout,
                               wilson_ci)
from yuugi.training.eval.mirror import MirrorError, deal_means, deal_seeds, games_per_deal


def batch_rng(seed: int, first_game: int) -> np.random.Generator:
    """The policies' generator for the batch of games that starts at ``first_game``.

    Its own stream per batch, so a resumed run plays the games an uninterrupted one would.
    """
    return np.random.default_rng([seed, first_game])


# What a resumed run must share with the run it continues (the record's keys). The number of games
# may grow: game g is the same game in a run of any length, so a finished run can be extended.
SETTINGS = ("game", "rules", "b", "layout", "seed_base", "seed", "batch", "search", "mirror")


def measure(game_name: str, games: int, expert: ExpertPolicy, against: str = "hard", layout: str = "field",
            seed_base: int = 0, batch: int = 100, rules: dict[str, Any] | None = None, seed: int = 0,
            log: Any = sys.stderr, on_batch: Callable[[dict[str, Any]], None] | None = None,
            resume: dict[str, Any] | None = None, mirror: bool = False) -> dict[str, Any]:
    """Play ``games`` games of ``expert`` against the level ``against``; the result as a JSON-ready dict.

    ``on_batch(result so far)`` is called after every batch of games (``complete`` false until the last),
    so a run cut short still leaves the games it played. ``resume``: such a record of the same
    settings; its games are kept and the run carries on after them. ``mirror``: each deal is played
    once from every seat (``field`` layout; ``games`` and ``batch`` multiples of the player count).
    """
    rules = dict(rules or {})
    game = make_game(game_name, **rules)
    p = game.num_players
    per_deal = games_per_deal(layout, p, mirror)
    if mirror and (layout != "field" or games % p or batch % p):
        raise MirrorError(f"a mirrored run plays each deal from all {p} seats: the field layout, and games and batch "
                         f"multiples of {p} (got layout {layout!r}, games {games}, batch {batch})")
    other = cpu(game_name, against, **rules)
    scores, earlier_wall = [], 0.0
    if resume is not None:
        scores = [np.asarray(resume["game_scores"], dtype=np.float64)]
        earlier_wall = float(resume["wall_seconds"])
        expert.stats.update(resume["search_stats"])
    started = time.perf_counter() - earlier_wall

    def record(score: np.ndarray) -> dict[str, Any]:
        return summary(game_name, rules, p, against, layout, games, seed_base, seed, batch, score, expert, started,
                       mirror)

    for lo in range(sum(s.size for s in scores), games, batch):
        g = np.arange(lo, min(lo + batch, games))
        seating = seat_layout(layout, g, p)  # 0 = the expert, 1 = the other level
        returns = play_games(game, seating, [expert, other], deal_seeds(seed_base, g, per_deal), batch_rng(seed, lo))
        scores.append(score_of_a(seating, returns))
        done = np.concatenate(scores)
        deals = deal_means(done, per_deal)
        half = 1.96 * deals.std(ddof=1) / np.sqrt(deals.size) if deals.size > 1 else float("inf")
        print(f"{done.size} games: score {done.mean():+.3f} ± {half:.3f} ({expert.decisions_per_second:.1f} "
              f"decisions/s, {expert.rollouts_per_second:.0f} rollouts/s, {time.perf_counter() - started:.0f} s)",
              file=log, flush=True)
        if on_batch is not None:
            on_batch(record(done))
    return record(np.concatenate(scores) if scores else np.zeros(0))


def summary(game_name: str, rules: dict[str, Any], p: int, against: str, layout: str, games: int, seed_base: int,
            seed: int, batch: int, score: np.ndarray, expert: ExpertPolicy, started: float,
            mirror: bool = False) -> dict[str, Any]:
    """The JSON-ready record of the games ``score`` of a run planned for ``games`` games."""
    mean, ci = bootstrap_mean_ci(deal_means(score, games_per_deal(layout, p, mirror)), seed=[seed, games])
    ahead = games_ahead(score)
    stats = expert.stats
    return {"game": game_name, "rules": rules, "players": p, "a": "expert", "b": against, "layout": layout,
            "games": int(score.size), "planned_games": games, "complete": int(score.size) == games,
            "seeds": seed_range(seed_base, int(score.size), p, mirror), "seed_base": seed_base, "seed": seed,
            "batch": batch, **({"mirror": True} if mirror else {}),
            "score": mean, "score_ci95": list(ci), "expert_ahead": ahead / score.size,
            "expert_ahead_ci95": list(wilson_ci(ahead, int(score.size))), "search": expert.describe(),
            "decisions": stats["decisions"], "searched_decisions": stats["searched"], "rollouts": stats["rollouts"],
            "think_ms_per_decision": 1000.0 * stats["seconds"] / max(stats["decisions"], 1),
            "decisions_per_second": expert.decisions_per_second, "rollouts_per_second": expert.rollouts_per_second,
            "wall_seconds": time.perf_counter() - started,
            "search_stats": dict(stats), "game_scores": score.tolist()}


def seed_range(seed_base: int, games: int, players: int, mirror: bool) -> str:
    """How a record names its deals' seeds."""
    if not mirror:
        return f"{seed_base}..{seed_base + games - 1}"
    return f"{seed_base}..{seed_base + (games - 1) // players}, each dealt {players} times (the expert at every seat)"


class ResumeError(ValueError):
    """A ``--resume`` that cannot carry on (no file, another run's settings, a finished run)."""


def resume_record(path: str, planned: dict[str, Any]) -> dict[str, Any]:
    """The record saved in ``path`` by a run with the settings ``planned`` (a record's SETTINGS keys)."""
    try:
        with open(path) as f:
            record = json.load(f)
    except FileNotFoundError:
        raise ResumeError(f"--resume: {path} does not exist (nothing to resume)") from None
    except (OSError, ValueError) as e:
        raise ResumeError(f"--resume: {path} is not a saved ladder step ({e})") from None
    if not isinstance(record, dict) or "game_scores" not in record or "search_stats" not in record:
        raise ResumeError(f"--resume: {path} holds no per-game scores (saved before runs could be resumed)")
    differ = [f"{key}: saved {record.get(key, False)!r}, now {planned[key]!r}" for key in SETTINGS
              if record.get(key, False) != planned[key]]  # a record without "mirror" is an unmirrored run
    if differ:
        raise ResumeError(f"--resume: {path} was made with other settings: " + "; ".join(differ))
    if len(record["game_scores"]) >= planned["planned_games"]:
        raise ResumeError(f"--resume: {path} already holds {len(record['game_scores'])} games; nothing to resume "
                          f"(a larger --games extends it)")
    if len(record["game_scores"]) % record["batch"]:
        raise ResumeError(f"--resume: {path} ends inside a batch; it was not written by this script")
    return record


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else list(argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--against", default="hard", help="the level the expert plays against (default: hard)")
    ap.add_argument("--layout", default="field", choices=LAYOUTS)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--think-ms", type=float, default=None, help="per-decision budget in ms (default: the expert's)")
    ap.add_argument("--rounds", type=int, default=None, help="a fixed number of search rounds instead of a clock")
    ap.add_argument("--samples", type=int, default=None, help="determinizations per round (default: the game's)")
    ap.add_argument("--top-n", type=int, default=None, help="candidates per decision (default: the game's)")
    ap.add_argument("--guide", default=None, help="normal or hard: proposes candidates and is the reference")
    ap.add_argument("--rollout", default=None, help="normal, hard or random: plays the rollouts")
    ap.add_argument("--prune", type=float, default=0.02, help="a network guide's least probability for a candidate")
    ap.add_argument("--confidence", type=float, default=1.0,
                    help="standard errors a candidate must beat the guide's choice by")
    ap.add_argument("--horizon-turns", type=int, default=None,
                    help="rollouts stop this many turns ahead (games whose horizon counts turns: nigejozu, ninja_slayer)")
    ap.add_argument("--value-network", default=None, metavar="FILE",
                    help="the win network (or ensemble) that values where rollouts stop (games whose horizon is "
                         "valued by one: nigejozu, ninja_slayer; default: the game's)")
    ap.add_argument("--seed-base", type=int, default=0, help="game g is dealt with seed SEED_BASE + g")
    ap.add_argument("--mirror", action="store_true",
                    help="play each deal from every seat (game g dealt with seed SEED_BASE + g // players; field "
                         "layout, --games and --batch multiples of the player count)")
    ap.add_argument("--batch", type=int, default=100, help="games played at once")
    ap.add_argument("--rule", action="append", default=[], help="KEY=VALUE rule option (VALUE read as JSON when it can be), repeatable")
    ap.add_argument("--json", default=None, help="also write the result (with this command) to this file, "
                    "rewritten after every batch")
    ap.add_argument("--resume", action="store_true",
                    help="carry on the run saved in --json FILE (same settings) after its games, up to --games")
    ap.add_argument("--seed", type=int, default=0, help="seeds the policies' random numbers (with each batch)")
    args = ap.parse_args(argv)
    try:
        rules = parse_rules(args.rule)  # as yuugi reads --rule: VALUE as JSON when it can be
    except UsageError as e:
        ap.error(str(e))
    if args.resume and not args.json:
        ap.error("--resume carries on the run saved in --json FILE; give --json")
    if args.rounds is not None:
        think = None
    else:
        think = args.think_ms if args.think_ms is not None else ExpertPolicy.__init__.__kwdefaults__["think_ms"]
    horizon = None
    if args.horizon_turns is not None or args.value_network is not None:
        horizon = copy.copy(HORIZONS.get(args.game))
    if args.horizon_turns is not None:
        if not hasattr(horizon, "turns"):
            ap.error(f"{args.game}'s rollouts do not stop after a number of turns: --horizon-turns does not apply")
        if args.horizon_turns < 1:
            ap.error(f"--horizon-turns must be at least 1, got {args.horizon_turns}")
        horizon.turns = args.horizon_turns
    if args.value_network is not None:
        if not hasattr(horizon, "network"):
            ap.error(f"{args.game}'s rollouts are not valued by a win network: --value-network does not apply")
        if not os.path.isfile(args.value_network):
            ap.error(f"--value-network: {args.value_network} is not a file")
        horizon.network = args.value_network
        try:  # read it now, so that a file made for other inputs is a usage error, not a traceback mid-run
            horizon.for_game(make_game(args.game, **rules))
        except (ValueError, OSError, KeyError) as e:
            ap.error(f"--value-network: {args.value_network}: {e}")
    expert = ExpertPolicy(args.game, heuristic(args.game), think_ms=think, rounds=args.rounds or 1,
                          samples=args.samples, top_n=args.top_n, guide=args.guide, rollout_policy=args.rollout,
                          prune=args.prune, confidence=args.confidence, horizon=horizon)
    command = "python -m yuugi.training.eval.expert_ladder " + " ".join(a for a in argv if a != "--resume")
    resume = None
    if args.resume:
        planned = {"game": args.game, "rules": rules, "b": args.against, "layout": args.layout,
                   "planned_games": args.games, "seed_base": args.seed_base, "seed": args.seed, "batch": args.batch,
                   "search": expert.describe(), "mirror": args.mirror}
        try:
            resume = resume_record(args.json, planned)
        except ResumeError as e:
            ap.error(str(e))
        print(f"resuming after {len(resume['game_scores'])} games", file=sys.stderr)

    def save(result: dict[str, Any]) -> None:
        if args.json:
            with open(args.json, "w") as f:
                json.dump({**result, "command": command}, f, indent=1)
                f.write("\n")

    try:
        result = measure(args.game, args.games, expert, args.against, args.layout, args.seed_base, args.batch, rules,
                         seed=args.seed, on_batch=save, resume=resume, mirror=args.mirror)
    except MirrorError as e:
        ap.error(str(e))
    save(result)
    shown = {k: v for k, v in result.items() if k != "game_scores"}
    print(json.dumps({**shown, "command": command}, indent=1))


if __name__ == "__main__":
    main()
