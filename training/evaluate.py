"""Round-robin evaluation of policies: pairwise scores with 95% intervals, and openskill ratings.

Each pairing plays ``games`` games over fixed seeds with seat rotation: in a 2-player game each
policy moves first in half of them; in a P-player game the two policies alternate around the table
(A at even seats, B at odd ones) and swap in half the games. A game's *score* for A is its mean
reward per seat minus B's (zero-sum games: ±1 per win/loss in 2-player games; the finishing-position
rewards in daifugō); the pairing's mean score gets a 95% normal interval. For 2-player games the win
rate (draws count half) is reported too. Every game also updates openskill (Plackett–Luce) ratings
of the two policies, ranked by their total reward in that game.

A long round-robin can be stopped and resumed: ``on_pairing`` is told the state after every
finished pairing (the pairings so far, the exact ratings and the random generator's state), and
``resume=`` that state continues where it stopped, giving exactly the result of an unbroken run.
"""
from __future__ import annotations

import dataclasses
import io
import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

from agents.policy import Policy
from envs import make_game
from envs.core.game import BatchGame

Z95 = 1.959963984540054


@dataclass
class Pairing:
    a: str
    b: str
    games: int
    score_mean: float  # mean per-game score of a against b
    score_ci: tuple[float, float]
    a_win_rate: float  # fraction of games a finished ahead (ties count half)
    win_ci: tuple[float, float]

    @property
    def decided(self) -> bool:
        """The 95% interval of the score excludes a tie."""
        return bool(self.score_ci[0] > 0 or self.score_ci[1] < 0)


@dataclass
class EvalResult:
    game: str
    pairings: list[Pairing]
    ratings: dict[str, tuple[float, float]]  # name -> (mu, sigma)
    extra: dict[str, Any] = field(default_factory=dict)

    def ordinal(self, name: str) -> float:
        mu, sigma = self.ratings[name]
        return mu - 3 * sigma


def play_games(game: BatchGame, seat_policy: np.ndarray, policies: list[Policy], seeds: np.ndarray,
               rng: np.random.Generator) -> np.ndarray:
    """Play one game per row of ``seat_policy`` [G, P] (policy index per seat); returns returns [G, P]."""
    st = game.init(seeds)
    total = np.zeros((len(seeds), game.num_players), dtype=np.float64)
    while not st.done.all():
        live = np.flatnonzero(~st.done)
        seats = st.to_play[live].astype(np.int64)
        who = seat_policy[live, seats]
        sub = st.take(live)
        obs = game.observe(sub, seats)
        mask = game.legal_mask(sub)
        actions = np.zeros(len(seeds), dtype=np.int64)
        for k in np.unique(who):
            r = who == k
            actions[live[r]] = policies[k].act(obs[r], mask[r], rng)
        game.validate(sub, actions[live], np.ones(len(live), dtype=bool), mask)  # policies must stay legal
        game.step(st, actions, check=False)
        total[live] += st.rewards[live]  # finished games keep their last rewards: count them once
    return total


def _mean_ci(x: np.ndarray) -> tuple[float, tuple[float, float]]:
    m = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / np.sqrt(len(x)) if len(x) > 1 else float("inf")
    return m, (m - half, m + half)


def _resume_state(pairings: list[Pairing], ratings: Mapping[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """JSON-safe and exact: what ``evaluate(resume=...)`` needs to carry on after these pairings."""
    return {"pairings": [dataclasses.asdict(p) for p in pairings],
            "ratings": {n: [r.mu, r.sigma] for n, r in ratings.items()},
            "rng": rng.bit_generator.state}


def evaluate(game_name: str, policies: Mapping[str, Policy], games: int = 1000, seed: int = 0,
             rules: Mapping[str, Any] | None = None, batch: int = 500, resume: Mapping[str, Any] | None = None,
             on_pairing: Callable[[EvalResult, dict[str, Any]], None] | None = None) -> EvalResult:
    """Round-robin over every pair of ``policies`` (dict name -> policy).

    ``on_pairing(result_so_far, state)`` is called after each pairing; ``resume=state`` skips the
    pairings ``state`` holds and restores its ratings and random generator (the same policies, in
    the same order, with the same ``games``, ``seed`` and ``rules`` as the run that made it).
    """
    from openskill.models import PlackettLuce

    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be a positive integer (games per pairing), got {games!r}")
    if len(policies) < 2:
        raise ValueError(f"a round-robin needs at least two policies, got {list(policies)}")
    game = make_game(game_name, **dict(rules or {}))
    names = list(policies)
    model = PlackettLuce()
    ratings = {n: model.rating(name=n) for n in names}
    pairings: list[Pairing] = []
    rng = np.random.default_rng(seed)
    schedule = list(itertools.combinations(range(len(names)), 2))
    if resume is not None:
        pairings = [Pairing(**{**p, "score_ci": tuple(p["score_ci"]), "win_ci": tuple(p["win_ci"])})
                    for p in resume["pairings"]]
        expected = [(names[ia], names[ib]) for ia, ib in schedule[:len(pairings)]]
        if [(p.a, p.b) for p in pairings] != expected or set(resume["ratings"]) != set(names):
            raise ValueError(f"the saved pairings {[(p.a, p.b) for p in pairings]} are not the first of this "
                             f"round-robin of {names}")
        ratings = {n: model.rating(mu=mu, sigma=sigma, name=n) for n, (mu, sigma) in resume["ratings"].items()}
        rng.bit_generator.state = resume["rng"]
    p = game.num_players
    for ia, ib in schedule[len(pairings):]:
        a, b = names[ia], names[ib]
        scores, wins = [], []
        for start in range(0, games, batch):
            g = np.arange(start, min(start + batch, games))
            seeds = seed * 10_000_019 + g  # the same seeds for every pairing
            swap = (g % 2).astype(bool)
            layout = np.where((np.arange(p) % 2 == 0)[None, :] ^ swap[:, None], 0, 1)  # 0 -> a, 1 -> b
            returns = play_games(game, layout, [policies[a], policies[b]], seeds, rng)
            a_mean = np.where(layout == 0, returns, 0).sum(1) / (layout == 0).sum(1)
            b_mean = np.where(layout == 1, returns, 0).sum(1) / (layout == 1).sum(1)
            score = a_mean - b_mean
            scores.append(score)
            wins.append(np.where(score > 0, 1.0, np.where(score < 0, 0.0, 0.5)))
            for s in score:
                ranks = [0, 0] if s == 0 else ([0, 1] if s > 0 else [1, 0])
                (ra,), (rb,) = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
                ratings[a], ratings[b] = ra, rb
        score = np.concatenate(scores)
        win = np.concatenate(wins)
        m, ci = _mean_ci(score)
        w, wci = _mean_ci(win)
        pairings.append(Pairing(a, b, len(score), m, ci, w, wci))
        if on_pairing is not None:
            on_pairing(EvalResult(game_name, list(pairings), {n: (r.mu, r.sigma) for n, r in ratings.items()},
                                  {"pairings_planned": len(schedule)}),
                       _resume_state(pairings, ratings, rng))
    return EvalResult(game_name, pairings, {n: (r.mu, r.sigma) for n, r in ratings.items()},
                      {"pairings_planned": len(schedule)})


def format_tables(result: EvalResult) -> str:
    """Ratings and pairings as text tables (rich when available)."""
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # pragma: no cover - rich is in the train and test extras
        return _plain(result)
    console = Console(file=io.StringIO(), record=True, width=110)
    t = Table(title=f"{result.game}: openskill ratings (Plackett-Luce)")
    for col in ("policy", "mu", "sigma", "ordinal"):
        t.add_column(col, justify="right" if col != "policy" else "left")
    for name in sorted(result.ratings, key=result.ordinal, reverse=True):
        mu, sigma = result.ratings[name]
        t.add_row(name, f"{mu:.2f}", f"{sigma:.2f}", f"{result.ordinal(name):.2f}")
    console.print(t)
    t = Table(title=f"{result.game}: pairings (score = mean reward of A minus B per game, 95% CI)")
    for col in ("A", "B", "games", "score", "95% CI", "A ahead", "95% CI ", "decided"):
        t.add_column(col)
    for pr in result.pairings:
        t.add_row(pr.a, pr.b, str(pr.games), f"{pr.score_mean:+.3f}", f"[{pr.score_ci[0]:+.3f}, {pr.score_ci[1]:+.3f}]",
                  f"{pr.a_win_rate:.3f}", f"[{pr.win_ci[0]:.3f}, {pr.win_ci[1]:.3f}]", "yes" if pr.decided else "no")
    console.print(t)
    return console.export_text()


def _plain(result: EvalResult) -> str:
    lines = [f"{result.game} ratings:"]
    for name in sorted(result.ratings, key=result.ordinal, reverse=True):
        mu, sigma = result.ratings[name]
        lines.append(f"  {name:<10} mu={mu:.2f} sigma={sigma:.2f}")
    for pr in result.pairings:
        lines.append(f"  {pr.a} vs {pr.b}: {pr.score_mean:+.3f} [{pr.score_ci[0]:+.3f}, {pr.score_ci[1]:+.3f}] "
                     f"n={pr.games}")
    return "\n".join(lines)


def save_plot(result: EvalResult, path: str | Path) -> None:
    """Bar chart of the ratings (mu ± sigma)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = sorted(result.ratings, key=lambda n: result.ratings[n][0])
    mus = [result.ratings[n][0] for n in names]
    sig = [result.ratings[n][1] for n in names]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.barh(names, mus, xerr=sig, color="#4c72b0", alpha=0.85)
    ax.set_xlabel("openskill mu (± sigma)")
    ax.set_title(f"{result.game}: CPU ladder")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def to_json(result: EvalResult, **context: Any) -> dict[str, Any]:
    """The ratings and pairings as a JSON-safe dict (stored next to the weights)."""
    return {
        "game": result.game,
        **context,
        "ratings": {n: {"mu": round(mu, 3), "sigma": round(sg, 3), "ordinal": round(result.ordinal(n), 3)}
                    for n, (mu, sg) in result.ratings.items()},
        "pairings": [{"a": p.a, "b": p.b, "games": p.games, "score": round(p.score_mean, 4),
                      "score_ci95": [round(x, 4) for x in p.score_ci], "a_ahead": round(p.a_win_rate, 4),
                      "a_ahead_ci95": [round(x, 4) for x in p.win_ci], "decided": bool(p.decided)}
                     for p in result.pairings],
    }
