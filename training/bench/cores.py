"""Whether two threads can scale on this machine right now, interval by interval: the check behind a two-thread figure.

numba's threading layers split a parallel loop statically, one contiguous half per thread (docs/architecture.md,
"Threads"), so such a step lasts as long as its slower half. On a shared virtual machine one core can run tens
of percent slower than the other for seconds at a time (another tenant on the host), and in those seconds two
threads cannot reach twice the one-thread rate, however well the code scales. In other spells both cores run
at full speed but a cache line that one core takes from the other costs far more, which slows two threads of
one process (they share the mask and observation buffers with the caller) and not two processes.

Each interval of this command has two halves. First, one single-threaded process per core, each pinned to
its core and stepping its own batch of the same game at the same time (``yuugi bench``'s core loop: random
legal play, finished games replaced): each core's env-only decisions/s, and the two-thread scaling a static
split could reach from them, ``2 × slower / faster``. Then this process steps twice that batch on one thread
and on two, a batch step of each in turn (``yuugi bench --threads 1 2``): the scaling two threads reach.
Intervals where the cores' ceiling is high and the threads' scaling low are the cross-core spells (Linux
only: it pins with ``sched_setaffinity``)::

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


def _probe(name: str, batch: int, cpu: int, intervals: int, interval: float, start: Any, out: Any) -> None:
    """In a child process: pinned to ``cpu``, step a batch for ``interval`` seconds at each of ``intervals``
    starts; env-only decisions/s of each."""
    os.sched_setaffinity(0, {cpu})
    from yuugi.training.bench.bench import _CoreRun

    run = _CoreRun(name, batch, seed=0, threads=1, rules={})
    for _ in range(50):  # past the first decisions, when every game is at the same point
        run.step()
    for _ in range(intervals):
        start.wait()
        out.put((cpu, _env_rates([run], interval)[0]))
    start.wait()  # exit only after the parent's last two-thread half: exiting takes a core for a while


def _env_rates(runs: Sequence[Any], seconds: float) -> list[float]:
    """Env-only decisions/s of each of ``runs`` (bench core runs), a batch step of each in turn for ``seconds``."""
    for run in runs:
        run.decisions, run.seconds, run.policy.seconds = 0, 0.0, 0.0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for run in runs:
            run.step()
    return [run.decisions / (run.seconds - run.policy.seconds) for run in runs]


def per_core_rates(name: str, cpus: Sequence[int], batch: int = 512, seconds: float = 20.0,
                   interval: float = 1.0) -> tuple[dict[int, list[float]], list[float]]:
    """Interval by interval: the env-only decisions/s of one pinned single-threaded process per core in
    ``cpus``, all stepping at once, then the two-thread scaling of this process over ``2 * batch`` games."""
    if not hasattr(os, "sched_setaffinity"):
        raise RuntimeError("pinning a process to a core needs Linux (os.sched_setaffinity)")
    from yuugi.training.bench.bench import _CoreRun

    intervals = max(int(seconds / interval), 1)
    ctx = multiprocessing.get_context("spawn")
    start, out = ctx.Barrier(len(cpus) + 1), ctx.Queue()
    procs = [ctx.Process(target=_probe, args=(name, batch, cpu, intervals, interval, start, out)) for cpu in cpus]
    for p in procs:
        p.start()
    runs = [_CoreRun(name, 2 * batch, seed=0, threads=t, rules={}) for t in (1, 2)]
    for _ in range(50):  # as the probes do
        for run in runs:
            run.step()
    rates: dict[int, list[float]] = {cpu: [] for cpu in cpus}
    scaling = []
    for _ in range(intervals):
        time.sleep(0.05)  # the idle OpenMP thread of this process spins a few ms before it sleeps
        start.wait()
        for _ in procs:
            cpu, rate = out.get()
            rates[cpu].append(rate)
        one, two = _env_rates(runs, interval)  # one thread, two threads
        scaling.append(two / one)
    start.wait()
    for p in procs:
        p.join()
    return rates, scaling


def static_split_ceilings(rates: dict[int, list[float]]) -> list[float]:
    """Per interval, the two-thread scaling a static halving can reach: 2 × slower / faster core's rate."""
    first, second = (rates[c] for c in sorted(rates))
    return [2 * min(a, b) / max(a, b) for a, b in zip(first, second)]


def format_rates(rates: dict[int, list[float]], threads: Sequence[float] | None = None) -> str:
    """The table: each core's rate per interval, the ceilings they allow, and (``threads``) what two threads reached."""
    cpus = sorted(rates)
    columns = {"static ceiling": static_split_ceilings(rates)}
    if threads is not None:
        columns["two threads"] = list(threads)
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
    parser.add_argument("--batch", type=int, default=512,
                        help="games per process (default 512); the two-thread half steps twice as many")
    parser.add_argument("--seconds", type=float, default=20.0, help="of each half (the command takes twice as long)")
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
    print(format_rates(*per_core_rates(args.game, cpus, args.batch, args.seconds, args.interval)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
