"""The ``yuugi`` command line: ``list``, ``bench``, ``train``, ``eval``, ``play``."""
from __future__ import annotations

import argparse
import json
import sys

from envs import GAMES, available_games


def _cmd_list(args: argparse.Namespace) -> int:
    for name in GAMES:
        print(f"{name:<16} {'ready' if name in available_games() else 'not built yet'}")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from training import bench

    games = available_games() if args.games == ["all"] else args.games
    results = []
    for name in games:
        if name not in available_games():
            print(f"unknown or unbuilt game {name!r}; available: {available_games()}", file=sys.stderr)
            return 2
        variants = args.variant or [None]
        for variant in variants:
            rules = {**_parse_rules(args.rule), **(_parse_rules([variant]) if variant else {})}
            rows = bench.run(name, tuple(args.batch), args.seconds, **rules)
            if variant:
                for r in rows:
                    r.game = f"{name} [{variant}]"
            results += rows
        if args.training:
            results.append(bench.bench_training(name, args.seconds * 3))
        if args.inference:
            results.append(bench.bench_inference(name))
    peers, notes = [], []
    if args.peers:
        from training import peers as peer_mod

        peers, notes = peer_mod.run_peers(args.seconds)
        if args.training:
            try:
                peers.append(peer_mod.pettingzoo_sb3_tutorial_training(args.seconds * 3))
            except ImportError as e:
                notes.append(f"sb3 tutorial: skipped ({e.name} not installed)")
    if args.json:
        print(json.dumps({"ours": [r.as_dict() for r in results], "peers": [r.as_dict() for r in peers],
                          "notes": notes}, indent=2))
        return 0
    print(bench.format_table(results + peers))
    if args.peers:
        print()
        print(bench.format_ratios(results, [p for p in peers if p.face != "train"]))
        for note in notes:
            print(note)
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    from training.selfplay import TrainConfig, train

    given = {"bc_decisions": args.bc_decisions} if args.bc_decisions is not None else {}
    cfg = TrainConfig.for_game(args.game, total_steps=args.steps, minutes=args.minutes, seed=args.seed,
                               num_envs=args.envs, rules=_parse_rules(args.rule), init_from=args.init_from, **given)
    result = train(cfg, args.out)
    print(f"weights: {result['weights']}  steps: {result['meta']['steps']}  wall: {result['meta']['wall_time_s']} s")
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    from agents.registry import available_levels, cpu
    from training.evaluate import evaluate, format_tables, save_plot

    levels = args.levels or available_levels(args.game)
    result = evaluate(args.game, {lv: cpu(args.game, lv) for lv in levels}, games=args.games, seed=args.seed,
                      rules=_parse_rules(args.rule) or _eval_rules(args.game))
    print(format_tables(result))
    if args.save:
        import json as json_

        from training.evaluate import to_json

        context = {"games_per_pairing": args.games, "seed": args.seed,
                   "rules": _parse_rules(args.rule) or _eval_rules(args.game),
                   "command": "yuugi eval " + " ".join(sys.argv[2:]) if len(sys.argv) > 2 else ""}
        with open(args.save, "w") as f:
            json_.dump(to_json(result, **context), f, indent=2, ensure_ascii=False)
            f.write("\n")
        print(f"saved: {args.save}")
    if args.plot:
        save_plot(result, args.plot)
        print(f"plot: {args.plot}")
    return 0


def _eval_rules(game: str) -> dict[str, object]:
    from training.selfplay import TRAIN_RULES

    return dict(TRAIN_RULES.get(game, {}))


def _cmd_play(args: argparse.Namespace) -> int:
    from training.play import play

    play(args.game, level=args.level, seat=args.seat, seed=args.seed, **_parse_rules(args.rule))
    return 0


def _parse_rules(pairs: list[str]) -> dict[str, object]:
    """``KEY=VALUE`` rule options; VALUE is read as JSON when it can be (numbers, true, lists)."""
    rules: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--rule expects KEY=VALUE, got {pair!r}")
        try:
            rules[key] = json.loads(value)
        except json.JSONDecodeError:
            rules[key] = value
    return rules


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="yuugi", description="yuugi: RL environments for Japanese tabletop games")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the games").set_defaults(func=_cmd_list)
    b = sub.add_parser("bench", help="steps/s of the AEC loop and the batched core under random legal play")
    b.add_argument("games", nargs="+", help="game names, or 'all'")
    b.add_argument("--peers", action="store_true", help="also run the peer libraries (RLCard, OpenSpiel, PettingZoo)")
    b.add_argument("--training", action="store_true", help="also time self-play MaskablePPO training")
    b.add_argument("--inference", action="store_true", help="also time numpy MLP inference for 1,024 rows")
    b.add_argument("--batch", type=int, nargs="+", default=[1, 64, 1024], help="core batch sizes")
    b.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    b.add_argument("--json", action="store_true", help="print JSON instead of a table")
    b.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule option of the game, e.g. --rule ninja=off (repeatable)")
    b.add_argument("--variant", action="append", metavar="KEY=VALUE",
                   help="measure once per variant in the same run, e.g. --variant ninja=off --variant ninja=faithful")
    b.set_defaults(func=_cmd_bench)

    t = sub.add_parser("train", help="self-play MaskablePPO training; exports numpy weights")
    t.add_argument("game")
    t.add_argument("--steps", type=int, default=2_000_000, help="learner steps (upper bound)")
    t.add_argument("--minutes", type=float, default=None, help="wall-clock budget")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--envs", type=int, default=64, help="games stepped together")
    t.add_argument("--bc-decisions", type=int, default=None,
                   help="heuristic decisions to clone first (0: none; default 200,000, or 0 for a prior-guided game)")
    t.add_argument("--init-from", help="continue from exported weights (.npz) instead of cloning the heuristic")
    t.add_argument("--out", default="runs/train", help="folder for weights, metadata and the learning curve")
    t.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    t.set_defaults(func=_cmd_train)

    e = sub.add_parser("eval", help="round-robin of CPU levels with openskill ratings")
    e.add_argument("game")
    e.add_argument("--levels", nargs="+", help="levels to include (default: all available)")
    e.add_argument("--games", type=int, default=1000, help="games per pairing")
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--plot", help="save a ratings plot (PNG) here")
    e.add_argument("--save", help="save ratings and pairings (JSON) here")
    e.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    e.set_defaults(func=_cmd_eval)

    pl = sub.add_parser("play", help="play one seat in the terminal against CPUs")
    pl.add_argument("game")
    pl.add_argument("--level", default="normal", help="CPU level or persona")
    pl.add_argument("--seat", type=int, default=0)
    pl.add_argument("--seed", type=int, default=None)
    pl.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    pl.set_defaults(func=_cmd_play)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
