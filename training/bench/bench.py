"""``yuugi bench GAME``: throughput of the AEC loop and of the batched core under random legal play.

Protocol (the same for every game): each decision computes the legal mask and the acting seat's
observation, picks a uniformly random legal action and steps. The batched core picks with
:func:`~yuugi.envs.core.sampling.random_legal` (compiled, on the game's threads), the AEC loops with
one ``flatnonzero`` and one Python ``random()`` draw, as the peers' loops do. The policy's time
(the random pick) is reported apart from the environment's. Finished games are replaced by new
ones (their reset time counts as environment time).

Measurements run in interleaved rounds (:func:`measure_rounds`): each round measures every one of
ours and every peer once, alternating ours, peer, ours, peer, so a slow spell of a shared machine
hits both sides of a ratio. A ratio is formed within each round and reported as the median of the
rounds with their spread (min–max), so no single noisy run decides a claim.
"""
from __future__ import annotations

import json
import random
import statistics
import time
from dataclasses import dataclass
from itertools import chain, zip_longest
from typing import Any, Callable, Sequence

import numpy as np

from yuugi.agents.policy import random_legal
from yuugi.envs import make_game, make_raw
from yuugi.envs.spec import SPECS, as_dict
from yuugi.training.bench import peers as peer_mod
from yuugi.training.bench.result import BenchResult, time_learning


class _TimedRandom:
    """Random legal play that keeps the time spent choosing (the bench's policy time)."""

    def __init__(self, threads: int = 1) -> None:
        self.seconds = 0.0
        self.threads = threads  # the pick's own threads: each reads the mask rows its step wrote

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        t0 = time.perf_counter()
        actions = random_legal(mask, rng, self.threads)
        self.seconds += time.perf_counter() - t0
        return actions


class _CoreRun:
    """Random legal play over one batch of games, a batch step at a time, keeping its own counts and times."""

    def __init__(self, name: str, batch: int, seed: int, threads: int, rules: dict[str, Any]) -> None:
        self.game = make_game(name, **rules)
        self.game.threads = threads
        _warm_up(self.game)
        self.rng = np.random.default_rng(seed)
        self.state = self.game.init(np.arange(batch))
        self.mask = self.game.legal_mask(self.state)
        self.obs = self.game.observe(self.state, self.state.to_play)
        self.policy = _TimedRandom(threads)
        self.batch = batch
        self.decisions = self.games = 0
        self.next_seed = batch
        self.seconds = 0.0  # wall time of this run's steps, the policy's included

    def step(self) -> None:
        """One batch step: the random pick (the policy's time), then one fused call (the environment's)."""
        start = time.perf_counter()
        actions = self.policy.act(self.obs, self.mask, self.rng)
        self.decisions += self.batch - int(np.count_nonzero(self.state.done))
        finished = self.game.step_fused(self.state, actions, self.mask, self.obs,
                                        reset_seeds=np.arange(self.next_seed, self.next_seed + self.batch,
                                                              dtype=np.uint64))
        self.next_seed += self.batch
        self.games += int(np.count_nonzero(finished))
        self.seconds += time.perf_counter() - start

    def result(self, name: str) -> BenchResult:
        return BenchResult(name, "core", self.batch, self.decisions, self.games, self.seconds,
                           self.seconds - self.policy.seconds, self.policy.seconds, threads=self.game.threads)


def bench_core(name: str, batch: int, seconds: float = 2.0, seed: int = 0, threads: int = 1,
               **rules: Any) -> BenchResult:
    """Random legal play over ``batch`` games at once for about ``seconds`` (finished games replaced).

    One :meth:`~yuugi.envs.core.game.BatchGame.step_fused` call per batch step (the call the fast faces
    make): apply the actions, replace finished games, write the next mask and the acting seat's
    observation into buffers owned here. The random pick is the policy's time.
    """
    run = _CoreRun(name, batch, seed, threads, rules)
    while True:
        run.step()
        if run.seconds >= seconds:
            return run.result(name)


def bench_core_side_by_side(name: str, batch: int, seconds: float = 2.0, seed: int = 0,
                            threads: Sequence[int] = (1, 2), **rules: Any) -> list[BenchResult]:
    """:func:`bench_core` at several thread counts at once, one result per count: a batch of its own for
    each count (the same seeds, so the same games), stepped in turn, one batch step each, for about
    ``seconds`` each.

    A ratio of two counts measured a few seconds apart carries whatever the machine did in between (on a
    shared virtual machine, tens of percent); stepped in turn, every slow spell falls on all of them.
    """
    runs = [_CoreRun(name, batch, seed, t, rules) for t in threads]
    while min(run.seconds for run in runs) < seconds:
        for run in runs:
            run.step()
    return [run.result(name) for run in runs]


def _warm_up(game: Any) -> None:
    """One untimed fused step on a game of its own: the first call of a kernel compiles it (or loads it
    from the on-disk cache), which is not what a measurement is about. The pick runs on the game's
    threads, as the measured runs pick."""
    st = game.init(np.array([0]))
    mask, obs = game.legal_mask(st), game.observe(st, st.to_play)
    game.step_fused(st, random_legal(mask, np.random.default_rng(0), game.threads), mask, obs,
                    reset_seeds=np.array([1]))
    game.step(st, random_legal(game.legal_mask(st), np.random.default_rng(0), game.threads))


def bench_aec(name: str, seconds: float = 2.0, seed: int = 0, **rules: Any) -> BenchResult:
    """The PettingZoo AEC loop (raw env) with a random legal policy.

    The pick is the one the peers' loops make (:mod:`yuugi.training.bench.peers`): the legal actions by one
    ``flatnonzero`` and one Python ``random()`` draw, a few microseconds less than a batched numpy pick.
    """
    env = make_raw(name, **rules)
    _warm_up(env.unwrapped.game)
    draw = random.Random(seed).random
    env.reset(seed=seed)
    decisions = games = 0
    env_t = pol_t = 0.0
    start = time.perf_counter()
    while True:
        t0 = time.perf_counter()
        obs, _, term, trunc, _ = env.last()
        t1 = time.perf_counter()
        if term or trunc:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[int(draw() * len(legal))])
        t2 = time.perf_counter()
        env.step(action)
        if not env.agents:
            games += 1
            env.reset()
        else:
            decisions += action is not None
        t3 = time.perf_counter()
        env_t += (t1 - t0) + (t3 - t2)
        pol_t += t2 - t1
        if t3 - start >= seconds:
            break
    return BenchResult(name, "aec", 1, decisions, games, time.perf_counter() - start, env_t, pol_t)


# Rule options the benchmark plays with, from each game's registry entry (yuugi.envs.spec.GameSpec.bench_rules;
# daifugō counts single games, not 5-game series, so that games/s means games).
BENCH_RULES: dict[str, dict[str, Any]] = {name: as_dict(spec.bench_rules) for name, spec in SPECS.items()
                                         if spec.bench_rules}


def run(name: str, batches: tuple[int, ...] = (1, 64, 1024), seconds: float = 2.0, threads: int = 1,
        **rules: Any) -> list[BenchResult]:
    rules = {**BENCH_RULES.get(name, {}), **rules}
    results = [bench_aec(name, seconds, **rules)]
    results += [bench_core(name, b, seconds, threads=threads, **rules) for b in batches]
    return results


def bench_vector(name: str, seconds: float = 2.0, num_envs: int = 1024, seed: int = 0, **rules: Any) -> BenchResult:
    """The SB3 vector face (``SB3SelfPlayVecEnv``, random opponents, finished episodes reset in place) stepped
    with random legal learner actions from its ``action_masks()``: learner decisions per second (the
    opponents' moves between them are the env's time, as a trainer sees it)."""
    from yuugi.agents.policy import RandomPolicy
    from yuugi.training.train.sb3_vec import SB3SelfPlayVecEnv

    rules = {**BENCH_RULES.get(name, {}), **rules}
    env = SB3SelfPlayVecEnv(make_game(name, **rules), num_envs, RandomPolicy(), seed=seed)
    _warm_up(env.batch.game)
    rng = np.random.default_rng(seed)
    env.reset()
    policy = _TimedRandom()
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step_async(policy.act(None, env.action_masks(), rng))
        _, _, dones, _ = env.step_wait()
        decisions += num_envs
        games += int(dones.sum())
    elapsed = time.perf_counter() - start
    return BenchResult(name, "vector", num_envs, decisions, games, elapsed, elapsed - policy.seconds, policy.seconds)


def bench_training(name: str, seconds: float = 10.0, num_envs: int = 64, **rules: Any) -> BenchResult:
    """Self-play MaskablePPO on the SB3 vector face (opponents: random): learner steps per second."""
    from sb3_contrib import MaskablePPO

    from yuugi.agents.policy import RandomPolicy
    from yuugi.training.train.sb3_vec import SB3SelfPlayVecEnv

    rules = {**BENCH_RULES.get(name, {}), **rules}
    env = SB3SelfPlayVecEnv(make_game(name, **rules), num_envs, RandomPolicy(), seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=512, n_epochs=4, verbose=0, seed=0)
    result = time_learning(model, name, seconds)
    return result


def bench_inference(name: str, batch: int = 1024, repeats: int = 50, hidden: tuple[int, ...] = (256, 256),
                    **rules: Any) -> BenchResult:
    """numpy MLP policy inference (observation batch -> masked actions) for ``batch`` rows."""
    from yuugi.agents.mlp import MLPPolicy

    rules = {**BENCH_RULES.get(name, {}), **rules}
    game = make_game(name, **rules)
    rng = np.random.default_rng(0)
    sizes = (int(np.prod(game.observation_shape)), *hidden, game.num_actions)
    policy = MLPPolicy([rng.normal(0, 0.05, (a, b)).astype(np.float32) for a, b in zip(sizes, sizes[1:])],
                       [np.zeros(b, np.float32) for b in sizes[1:]])
    st = game.init(np.arange(batch))
    obs, mask = game.observe(st, st.to_play), game.legal_mask(st)
    policy.act(obs, mask, rng)
    start = time.perf_counter()
    for _ in range(repeats):
        policy.act(obs, mask, rng)
    wall = time.perf_counter() - start
    return BenchResult(name, "infer", batch, batch * repeats, 0, wall, wall, 0.0)


# A measurement: one result, or one per thread count (bench_core_side_by_side).
Measure = Callable[[], "BenchResult | list[BenchResult]"]
DEFAULT_ROUNDS = 3


def interleave(ours: Sequence[tuple[str, Measure]], peers: Sequence[tuple[str, Measure]]
               ) -> list[tuple[str, Measure]]:
    """ours[0], peers[0], ours[1], peers[1], …, then the rest of the longer list."""
    pairs = zip_longest(ours, peers)
    return [m for m in chain.from_iterable(pairs) if m is not None]


def measure_rounds(measures: Sequence[tuple[str, Measure]], rounds: int = DEFAULT_ROUNDS
                   ) -> dict[str, list[Any]]:
    """Run every named measure once per round, in the given order; results per name, in round order."""
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    names = [name for name, _ in measures]
    if len(set(names)) != len(names):
        raise ValueError(f"measure names must be distinct, got {names}")
    results: dict[str, list[Any]] = {name: [] for name in names}
    for _ in range(rounds):
        for name, measure in measures:
            results[name].append(measure())
    return results


@dataclass(frozen=True)
class Spread:
    """The median of per-round values and their range."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> "Spread":
        if not values:
            raise ValueError("a spread needs at least one value")
        return cls(float(statistics.median(values)), float(min(values)), float(max(values)))

    def format(self, spec: str = "", unit: str = "") -> str:
        """``median (low–high)``; the default spec shows ratios: two decimals below 1, else one."""
        spec = spec or (".2f" if self.median < 1 else ".1f")
        return f"{self.median:{spec}}{unit} ({self.low:{spec}}–{self.high:{spec}})"


def round_ratios(ours: Sequence[BenchResult], peer: Sequence[BenchResult]) -> list[float]:
    """Per round, our decisions/s over the peer's, both measured in that round."""
    if len(ours) != len(peer):
        raise ValueError(f"ratios need the same rounds on both sides, got {len(ours)} and {len(peer)}")
    return [o.decisions_per_s / p.decisions_per_s for o, p in zip(ours, peer)]


def median_round(results: Sequence[BenchResult]) -> BenchResult:
    """The round whose decisions/s is the median (the lower middle one for an even count)."""
    ordered = sorted(results, key=lambda r: r.decisions_per_s)
    return ordered[(len(ordered) - 1) // 2]


def _label(r: BenchResult) -> str:
    return (f"{r.game} {r.face}" + (f" B={r.batch}" if r.face == "core" else "")
            + (f" t={r.threads}" if r.threads > 1 else ""))


def format_thread_scaling(ours: dict[str, list[BenchResult]]) -> str:
    """Each core row run on k > 1 threads as a multiple of the same row on one thread: per round (the two
    measured in the same round), then the median and range over rounds, of the decisions/s (the random pick
    included, which runs on one thread) and of the environment's own rate (env-only/s)."""
    one_thread = {(rows[0].game, rows[0].batch): rows for rows in ours.values()
                  if rows[0].face == "core" and rows[0].threads == 1}
    lines = [f"{'core row':<40}{'decisions/s':>24}{'env-only/s':>24}"]
    lines.append("-" * len(lines[0]))
    for rows in ours.values():
        base = one_thread.get((rows[0].game, rows[0].batch))
        if rows[0].face != "core" or rows[0].threads == 1 or base is None:
            continue
        total = Spread.of([r.decisions_per_s / b.decisions_per_s for r, b in zip(rows, base)]).format(".2f", "x")
        env = Spread.of([r.env_decisions_per_s / b.env_decisions_per_s for r, b in zip(rows, base)]).format(".2f", "x")
        lines.append(f"{_label(rows[0]):<40}{total:>24}{env:>24}")
    return "\n".join(lines)


def format_rounds(results: dict[str, list[BenchResult]]) -> str:
    """Every round's decisions/s of every measurement, with the median and spread."""
    rounds = max(len(v) for v in results.values())
    head = (f"{'measurement':<40}" + "".join(f"{'round ' + str(i + 1):>12}" for i in range(rounds))
            + "   median (min–max)")
    lines = [head, "-" * len(head)]
    for rows in results.values():
        rates = [r.decisions_per_s for r in rows]
        lines.append(f"{_label(rows[0]):<40}" + "".join(f"{x:>12,.0f}" for x in rates)
                     + "   " + Spread.of(rates).format(",.0f"))
    return "\n".join(lines)


def format_ratio_spreads(ours: dict[str, list[BenchResult]], peers: dict[str, list[BenchResult]]) -> str:
    """Each of our measurements as a multiple of each peer: median over rounds (min–max)."""
    if not peers:
        return "no peers measured"
    width = 22
    rows_shown = [rows for rows in ours.values() if rows[0].face in ("aec", "core")]
    label_width = max([len("ours")] + [len(_label(rows[0])) for rows in rows_shown]) + 2
    head = f"{'ours':<{label_width}}" + "".join(f"{name:>{width}}" for name in peers)
    lines = [head, "-" * len(head)]
    for rows in rows_shown:
        cells = [Spread.of(round_ratios(rows, p)).format(unit="x") for p in peers.values()]
        lines.append(f"{_label(rows[0]):<{label_width}}" + "".join(f"{c:>{width}}" for c in cells))
    return "\n".join(lines)


Variants = Sequence[tuple[str | None, dict[str, Any]]]


def bench_command(games: Sequence[str], *, batches: Sequence[int] = (1, 64, 1024), seconds: float = 3.0,
                  rules: dict[str, Any] | None = None, variants: Variants = ((None, {}),),
                  rounds: int = DEFAULT_ROUNDS, peers: bool = False, training: bool = False, inference: bool = False,
                  vector: bool = False, as_json: bool = False, threads: int | Sequence[int] = (1,)) -> str:
    """What ``yuugi bench`` prints: our measurements and the peers', in interleaved rounds.

    ``variants`` are (label, rule options) measured as separate rows of each game. Training and
    inference figures are measured once, after the rounds. ``threads`` are the compiled batch kernels'
    thread counts: each core row is measured once per count in every round (the AEC loop plays one game:
    one thread), and with one thread among them, each other count is shown as a multiple of it.
    """
    threads = tuple(dict.fromkeys((threads,) if isinstance(threads, int) else threads))  # each count once
    ours: list[tuple[str, Measure]] = []
    for name in games:
        for label, variant_rules in variants:
            game_rules = {**BENCH_RULES.get(name, {}), **(rules or {}), **variant_rules}
            shown = f"{name} [{label}]" if label else name
            ours.append((f"{shown}/aec", _renamed(shown, lambda n=name, r=game_rules: bench_aec(n, seconds, **r))))
            for b in batches:  # (one thread count: a side-by-side run of one)
                ours.append((f"{shown}/core/{b}", _renamed(shown, lambda n=name, r=game_rules, b=b:
                                                           bench_core_side_by_side(n, b, seconds, threads=threads,
                                                                                   **r))))
    theirs: list[tuple[str, Measure]] = []
    notes: list[str] = []
    if peers:
        found, notes = peer_mod.installed_peers()
        theirs = [(name, lambda f=f: f(seconds)) for name, f in found.items()]
    results = measure_rounds(interleave(ours, theirs), rounds)
    our_rounds = _one_row_per_thread_count({name: results[name] for name, _ in ours})
    peer_rounds = {name: results[name] for name, _ in theirs}

    our_once: list[BenchResult] = []
    peer_once: list[BenchResult] = []
    for name in games:
        if vector:
            our_once.append(bench_vector(name, seconds * 3, **(rules or {})))
        if training:
            our_once.append(bench_training(name, seconds * 3))
        if inference:
            our_once.append(bench_inference(name))
    if peers and training:
        try:
            peer_once.append(peer_mod.pettingzoo_sb3_tutorial_training(seconds * 3))
        except ImportError as e:
            notes.append(f"sb3 tutorial: skipped ({e.name} not installed)")

    our_rows = [median_round(v) for v in our_rounds.values()] + our_once
    peer_rows = [median_round(v) for v in peer_rounds.values()] + peer_once
    every_round = {**our_rounds, **peer_rounds}
    if as_json:
        return json.dumps({"ours": [r.as_dict() for r in our_rows], "peers": [r.as_dict() for r in peer_rows],
                           "rounds": {k: [r.as_dict() for r in v] for k, v in every_round.items()},
                           "round_count": rounds, "notes": notes}, indent=2)
    parts = [f"median round of {rounds} (interleaved: ours, peer, ours, peer, …)", format_table(our_rows + peer_rows),
             "", "decisions/s of every round", format_rounds(every_round)]
    if len(threads) > 1 and 1 in threads:
        parts += ["", f"threads: median of {rounds} rounds (min–max), each round's k-thread rate / its one-thread rate",
                  format_thread_scaling(our_rounds)]
    if peers:
        parts += ["", f"ratios: median of {rounds} rounds (min–max), each round's ours / that round's peer",
                  format_ratio_spreads(our_rounds, peer_rounds), *notes]
    return "\n".join(parts)


def _renamed(shown: str, measure: Measure) -> Measure:
    """The measure with its result (or each of its results) labelled ``shown`` (a game with its variant)."""
    def run() -> BenchResult | list[BenchResult]:
        result = measure()
        for r in result if isinstance(result, list) else [result]:
            r.game = shown
        return result
    return run


def _one_row_per_thread_count(rounds: dict[str, list[Any]]) -> dict[str, list[BenchResult]]:
    """A side-by-side measurement's rounds (a result per thread count in each) as one row per count."""
    rows: dict[str, list[BenchResult]] = {}
    for name, results in rounds.items():
        if isinstance(results[0], list):
            for j, first in enumerate(results[0]):
                rows[f"{name}/t{first.threads}"] = [r[j] for r in results]
        else:
            rows[name] = results
    return rows


def format_table(results: list[BenchResult]) -> str:
    header = (f"{'game':<30} {'face':<13} {'B':>5} {'decisions/s':>12} {'env-only/s':>12} {'policy %':>9} "
              f"{'games/s':>10}")
    lines = [header, "-" * len(header)]
    for r in results:
        pol = 100.0 * r.policy_seconds / max(r.seconds, 1e-12)
        face = r.face + (f" t={r.threads}" if r.threads > 1 else "")
        lines.append(f"{r.game:<30} {face:<13} {r.batch:>5} {r.decisions_per_s:>12,.0f} "
                     f"{r.env_decisions_per_s:>12,.0f} {pol:>8.1f}% {r.games_per_s:>10,.1f}")
    return "\n".join(lines)
