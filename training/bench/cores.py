"""Whether the machine's cores run equally fast, second by second: the check behind a two-thread figure.

numba's threading layers split a parallel loop statically, one contiguous half per thread (docs/architecture.md,
"Threads"), so such a step lasts as long as its slower half. The fused step kernels hand their games out in
shares instead (envs/core/shares.py): a thread that finishes early steps games of the other's half, so a step
takes the whole work at the two cores' combined speed. On a shared virtual machine one core can run tens of
percent slower than the other for seconds at a time (another tenant on the host), and in those seconds
neither loop can reach twice the one-thread rate, however well the code scales.

This command runs one single-threaded process per core, each pinned to its core and stepping its own batch
of the same game at the same time (``yuugi bench``'s core loop: random legal play, finished games
replaced), and prints each core's decisions/s per interval with the two-thread scaling each loop can reach
in that interval, as a multiple of the faster core's rate: a static split ``2 × slower / faster``, shares
``1 + slower / faster`` (Linux only: it pins with ``sched_setaffinity``)::

    python -m yuugi.training.bench.cores nigejozu --seconds 20
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from typing import Any, Sequence

SLOW_CEILING = 1.6  # two-thread scaling asked of the compiled kernels (an interval below it is counted)


def _probe(name: str, batch: int, cpu: int, seconds: float, interval: float, start: Any, out: Any) -> None:
    """In a child process: pinned to ``cpu``, step a batch for ``seconds``; env-only decisions/s per interval."""
    os.sched_setaffinity(0, {cpu})
    from yuugi.training.bench.bench import _CoreRun

    run = _CoreRun(name, batch, seed=0, threads=1, rules={})
    for _ in range(50):  # past the first decisions, when every game is at the same point
        run.step()
    start.wait()
    rates = []
    for _ in range(int(seconds / interval)):
        run.decisions, run.seconds, run.policy.seconds = 0, 0.0, 0.0
        end = time.perf_counter() + interval
        while time.perf_counter() < end:
            run.step()
        rates.append(run.decisions / (run.seconds - run.policy.seconds))
    out.put((cpu, rates))


def per_core_rates(name: str, cpus: Sequence[int], batch: int = 512, seconds: float = 20.0,
                   interval: float = 1.0) -> dict[int, list[float]]:
    """Env-only decisions/s of one pinned single-threaded process per core in ``cpus``, interval by interval,
    all started together."""
    if not hasattr(os, "sched_setaffinity"):
        raise RuntimeError("pinning a process to a core needs Linux (os.sched_setaffinity)")
    ctx = multiprocessing.get_context("spawn")
    start, out = ctx.Barrier(len(cpus)), ctx.Queue()
    procs = [ctx.Process(target=_probe, args=(name, batch, cpu, seconds, interval, start, out)) for cpu in cpus]
    for p in procs:
        p.start()
    rates = dict(out.get() for _ in procs)
    for p in procs:
        p.join()
    return rates


def static_split_ceilings(rates: dict[int, list[float]]) -> list[float]:
    """Per interval, the two-thread scaling a static halving can reach: 2 × slower / faster core's rate."""
    first, second = (rates[c] for c in sorted(rates))
    return [2 * min(a, b) / max(a, b) for a, b in zip(first, second)]


def shared_split_ceilings(rates: dict[int, list[float]]) -> list[float]:
    """Per interval, the two-thread scaling of games handed out in shares: 1 + slower / faster core's rate."""
    first, second = (rates[c] for c in sorted(rates))
    return [1 + min(a, b) / max(a, b) for a, b in zip(first, second)]


def format_rates(rates: dict[int, list[float]]) -> str:
    cpus = sorted(rates)
    columns = {"static ceiling": static_split_ceilings(rates), "shares ceiling": shared_split_ceilings(rates)}
    lines = [f"{'interval':>8}" + "".join(f"{'cpu ' + str(c):>14}" for c in cpus)
             + "".join(f"{name:>16}" for name in columns)]
    for k in range(len(columns["static ceiling"])):
        lines.append(f"{k:>8}" + "".join(f"{rates[c][k]:>14,.0f}" for c in cpus)
                     + "".join(f"{values[k]:>15.2f}x" for values in columns.values()))
    for name, values in columns.items():
        below = sum(c < SLOW_CEILING for c in values)
        lines.append(f"{name}: median {statistics.median(values):.2f}x, min {min(values):.2f}x; "
                     f"{below} of {len(values)} intervals below {SLOW_CEILING}x")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m yuugi.training.bench.cores", description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--batch", type=int, default=512, help="games per process (default 512: half of 1,024)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--interval", type=float, default=1.0)
    args = parser.parse_args(argv)
    from yuugi.envs import GAMES

    if args.game not in GAMES:
        parser.error(f"unknown game {args.game!r}; choose from {', '.join(GAMES)}")
    if args.batch < 1:
        parser.error(f"--batch must be at least 1, got {args.batch}")
    if not 0 < args.interval <= args.seconds:
        parser.error(f"--interval must be above 0 and at most --seconds ({args.seconds}), got {args.interval}")
    if not hasattr(os, "sched_setaffinity"):
        parser.error("pinning a process to a core needs Linux (os.sched_setaffinity)")
    cpus = sorted(os.sched_getaffinity(0))[:2]
    if len(cpus) < 2:
        parser.error("this check needs two cores")
    print(format_rates(per_core_rates(args.game, cpus, args.batch, args.seconds, args.interval)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
