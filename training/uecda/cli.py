"""``yuugi uecda client`` and ``yuugi uecda server``: the parsers and what they run.

Kept free of heavy imports: ``yuugi --help`` builds these parsers without loading a game.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

DEFAULT_PORT = 42485  # the UECda servers' port


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number 0..65535, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number 0..65535, got {value}")
    return value


def _positive(kind: type) -> Any:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value
    return parse


def add_uecda_parser(sub: Any) -> None:
    """``uecda`` with its ``client`` and ``server`` subcommands, under the CLI's subparsers ``sub``."""
    u = sub.add_parser("uecda", help="the UECda computer daifugō protocol (20070): play our CPUs at a UECda "
                                     "server, or referee five UECda clients",
                       description="UECda protocol 20070 (the UEC computer daihinmin contest). See docs/uecda.md.")
    cmds = u.add_subparsers(dest="uecda_command", required=True)
    c = cmds.add_parser("client", help="play one of our CPUs (or your policy) at a UECda server",
                        description="Connect to a UECda protocol-20070 server and play every game it deals, then "
                                    "print a summary (games, points per game, classes).")
    c.add_argument("--host", default="127.0.0.1")
    c.add_argument("--port", type=_port, default=DEFAULT_PORT, help="default: %(default)s")
    who = c.add_mutually_exclusive_group()
    who.add_argument("--cpu", default=None, metavar="LEVEL",
                     help="a CPU level of ninja_daifugo (random, easy, normal, hard) or uecda_default "
                          "(the competition's baseline; the default)")
    who.add_argument("--policy", default=None, metavar="SPEC",
                     help="your policy: a .npz exported by `yuugi train`, an SB3 .zip, or module:attr")
    c.add_argument("--name", default=None, help="the name sent to the server (1-15 ASCII characters; "
                                                "default: yuugi-LEVEL)")
    c.add_argument("--timeout", type=_positive(float), default=60.0,
                   help="seconds to wait for each message of the server (default: %(default)s)")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--verbose", action="store_true", help="say each rejected play and fallback as it happens")
    c.set_defaults(func=run_client_command)
    s = cmds.add_parser("server", help="referee five UECda clients with our rules engine",
                        description="Wait for five UECda protocol-20070 clients, referee GAMES games under "
                                    "rules='uecda', save the games as yuugi replays and print the standings.")
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default: %(default)s, this machine only)")
    s.add_argument("--port", type=_port, default=DEFAULT_PORT, help="default: %(default)s; 0: a free port")
    s.add_argument("--games", type=_positive(int), default=100, help="default: %(default)s")
    s.add_argument("--on-fault", choices=("replace", "forfeit"), default="replace",
                   help="a client that disconnects, stalls or sends garbage: replace (uecda_default plays its "
                        "seat) or forfeit (its seat passes); default: %(default)s")
    s.add_argument("--timeout", type=_positive(float), default=10.0,
                   help="seconds for each message from or to a client (default: %(default)s)")
    s.add_argument("--wait", type=_positive(float), default=None,
                   help="seconds to wait for five clients (default: as long as it takes)")
    s.add_argument("--replays", default="runs/uecda_server", metavar="DIR",
                   help="folder for the replays, one file per series of games (default: %(default)s)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--seat-change-every", type=int, default=None, metavar="N",
                   help="games between seat shuffles (default: the rules' 5; 0: never)")
    s.add_argument("--class-reset-every", type=int, default=None, metavar="N",
                   help="games between class resets, 1..100 (default: the rules' 100)")
    s.set_defaults(func=run_server_command)


def _fail(prog: str, problem: str) -> int:
    print(f"{prog}: error: {problem}", file=sys.stderr)
    return 1


def run_client_command(args: argparse.Namespace) -> int:
    from .client import run_client
    from .connection import ProtocolError
    from .policies import BASELINE, policy_for
    from .table import TableError, profile_table

    name = args.name or f"yuugi-{args.cpu or ('policy' if args.policy else BASELINE)}"[:15]
    try:
        profile_table(name)
    except TableError as e:
        return _fail("yuugi uecda client", f"--name: {e}")
    policy = policy_for(cpu=args.cpu, policy=args.policy)  # a UsageError is the CLI's one line
    log = (lambda line: print(line, file=sys.stderr)) if args.verbose else None
    try:
        summary = run_client(args.host, args.port, policy, name=name, timeout=args.timeout, seed=args.seed,
                             log=log)
    except ProtocolError as e:
        played = getattr(e, "summary", None)
        if played is not None and played.games:
            print(played.text())  # the games finished before the error
        return _fail("yuugi uecda client", str(e))
    print(summary.text())
    return 0


def run_server_command(args: argparse.Namespace) -> int:
    from yuugi.envs import make_game
    from yuugi.envs.core.errors import OptionError

    from .connection import ProtocolError
    from .server import ServerConfig, run_server

    config = ServerConfig(games=args.games, host=args.host, port=args.port, on_fault=args.on_fault,
                          timeout=args.timeout, wait=args.wait, seed=args.seed, replay_dir=args.replays,
                          seat_change_every=args.seat_change_every, class_reset_every=args.class_reset_every)
    try:
        make_game("ninja_daifugo", **config.rules(1))
    except (OptionError, TypeError, ValueError) as e:
        return _fail("yuugi uecda server", str(e))
    try:
        run_server(config, log=lambda line: print(line, flush=True))
    except OSError as e:  # the port is taken, or five clients did not come (ProtocolError)
        what = str(e) if isinstance(e, ProtocolError) else f"cannot serve on {args.host}:{args.port}: {e.strerror or e}"
        return _fail("yuugi uecda server", what)
    return 0
