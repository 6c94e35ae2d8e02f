"""The ``yuugi`` command line: ``list``, ``bench`` (more jobs join as they are built)."""
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

    results = []
    for name in args.games:
        if name not in available_games():
            print(f"unknown or unbuilt game {name!r}; available: {available_games()}", file=sys.stderr)
            return 2
        results += bench.run(name, tuple(args.batch), args.seconds, **_parse_rules(args.rule))
    if args.json:
        print(json.dumps([r.as_dict() for r in results], indent=2))
    else:
        print(bench.format_table(results))
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
    b.add_argument("games", nargs="+", help="game names")
    b.add_argument("--batch", type=int, nargs="+", default=[1, 64, 1024], help="core batch sizes")
    b.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    b.add_argument("--json", action="store_true", help="print JSON instead of a table")
    b.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule option of the game, e.g. --rule ninja=off (repeatable)")
    b.set_defaults(func=_cmd_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
