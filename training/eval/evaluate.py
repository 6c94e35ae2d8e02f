"""Round-robin evaluation of policies: pairwise scores with 95% intervals, and openskill ratings.

Each pairing plays ``games`` games over fixed seeds (the same seeds for every pairing) in one of two
seat layouts; in a 2-player game they are the same (A and B swap seats every game):

- ``alternate``: the two policies alternate around the table (A at even seats, B at odd ones) and
  swap in every other game; in a 4-player game that is two A seats against two B seats.
- ``field``: one A against P−1 copies of B, A sitting at seat ``g mod P`` in game ``g`` — the usual
  test of a CPU at a 3–4 player table.

``mirror=True`` plays each deal from every seating of the layout, in consecutive games
(:mod:`yuugi.training.eval.mirror`): a deal's luck then falls on A and B alike, and the score's
interval is bootstrapped over deals.

A game's *score* for A is its mean return per seat minus B's (in ``field``: A's return minus the mean
of the P−1 B seats). The pairing's mean score gets a seeded percentile-bootstrap 95% interval, which
cannot leave the range of the scores played, let alone :func:`score_range`, the range the game's
rewards allow. "A ahead" is the fraction of games A's score is positive (a tie counts half), with a
Wilson 95% interval, which stays inside [0, 1]. Every game also updates openskill (Plackett–Luce)
ratings of the two policies, ranked by that game's score.

A long round-robin can be stopped and resumed: ``on_pairing`` is told the state after every
finished pairing (the pairings so far and the exact ratings), and ``resume=`` that state continues
where it stopped, giving exactly the result of an unbroken run: each batch of games draws the
policies' random numbers from its own generator (:func:`chunk_rng`), so no generator state is carried.
"""
from __future__ import annotations

import dataclasses
import io
import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

from yuugi.agents.policy import Policy
from yuugi.envs import make_game
from yuugi.envs.core.game import BatchGame
from yuugi.envs.faces.rollout import policy_table, rollout
from yuugi.training.eval.mirror import check_whole_deals, deal_means, deal_seeds, games_per_deal

Z95 = 1.959963984540054
LAYOUTS = ("alternate", "field")
BOOTSTRAP_RESAMPLES = 2000


@dataclass
class Pairing:
    a: str
    b: str
    games: int
    score_mean: float  # mean per-game score of a against b
    score_ci: tuple[float, float]  # percentile bootstrap, 95%
    a_win_rate: float  # fraction of games a finished ahead (ties count half)
    win_ci: tuple[float, float]  # Wilson, 95%
    score_sd: float | None = None  # the per-game scores' standard deviation (None: a result saved before it was kept)

    @property
    def decided(self) -> bool:
        """The 95% interval of the score excludes a tie."""
        return bool(self.score_ci[0] > 0 or self.score_ci[1] < 0)


@dataclass
class EvalResult:
    game: str
    pairings: list[Pairing]
    ratings: dict[str, tuple[float, float]]  # name -> (mu, sigma)
    extra: dict[str, Any] = field(default_factory=dict)  # pairings_planned, layout, seating, score_range

    def ordinal(self, name: str) -> float:
        mu, sigma = self.ratings[name]
        return mu - 3 * sigma


# ---- seating ---------------------------------------------------------------------------------------
def seat_layout(layout: str, game_index: np.ndarray, num_players: int) -> np.ndarray:
    """int[G, P]: 0 where A sits, 1 where B sits, in games ``game_index`` of a pairing."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; choose from: {', '.join(LAYOUTS)}")
    g = np.asarray(game_index)
    seats = np.arange(num_players)[None, :]
    if layout == "field":
        return np.where(seats == (g % num_players)[:, None], 0, 1)
    swap = (g % 2).astype(bool)[:, None]
    return np.where((seats % 2 == 0) ^ swap, 0, 1)


def describe_seating(layout: str, num_players: int, games: int, mirror: bool = False) -> str:
    """One line saying who sits where, printed with the tables."""
    p = num_players
    per_deal = games_per_deal(layout, p, mirror)
    dealt = (f"; mirrored: games {per_deal}d to {per_deal}d+{per_deal - 1} play deal d, the interval drawn over "
             f"the {games // per_deal} deals") if mirror else ""
    if p == 2:
        return ("2 players: A at seat 0 in even games, seat 1 in odd ones (alternate and field are the same "
                "layout for 2 players)" + dealt)
    if layout == "field":
        spread = "each seat equally often" if games % p == 0 else \
            f"seats 0..{games % p - 1} once more than the others ({games} games is not a multiple of {p})"
        return f"field: one A against {p - 1} copies of B; A at seat g mod {p} in game g ({spread})" + dealt
    a_seats = ",".join(str(s) for s in range(0, p, 2))
    b_seats = ",".join(str(s) for s in range(1, p, 2))
    return (f"alternate: A at seats {a_seats} and B at {b_seats} in even games, swapped in odd ones "
            f"({(p + 1) // 2} against {p // 2}, then {p // 2} against {(p + 1) // 2})" + dealt)


# ---- the possible range of a score -----------------------------------------------------------------
def episode_return_range(game: BatchGame) -> tuple[float, float]:
    """The smallest and largest return one seat can have in one episode.

    Every game pays its rewards once, at a game's end (``metadata.reward_range`` bounds that step); an
    episode of daifugō is a series of ``series_games`` games, each paying once.
    """
    lo, hi = game.metadata.reward_range
    paid = int(getattr(game.config, "series_games", 1))
    return lo * paid, hi * paid


def score_range(game: BatchGame, layout: str) -> tuple[float, float]:
    """The range the rewards allow for a game's score (A's mean return per seat minus B's) in ``layout``.

    Any two returns differ by at most hi − lo. In a zero-sum game A's k_a seats return S and B's k_b
    seats −S, so the score is S (1/k_a + 1/k_b), and S is bounded by both sides' seats: S ≤ k_a·hi
    (every A seat at the best) and −S ≥ k_b·lo (every B seat at the worst), and the same the other way.
    For ±1 per 2-player game that is [−2, 2]; for momotaro's four players paid +1 to the winner and
    −1/3 to the others, two A seats against two B seats score at most (1 − 1/3)/2 + (1/3 + 1/3)/2 = 2/3
    (one A seat wins), not the 4/3 a bound on A's seats alone would allow.
    """
    lo, hi = episode_return_range(game)
    p = game.num_players
    counts = {tuple(np.bincount(row, minlength=2)) for row in seat_layout(layout, np.arange(2 * p), p)}
    low, high = np.inf, -np.inf
    for k_a, k_b in counts:
        s_lo, s_hi = lo - hi, hi - lo
        if game.metadata.zero_sum:
            per_unit = 1 / k_a + 1 / k_b
            s_lo = max(s_lo, max(k_a * lo, -k_b * hi) * per_unit)
            s_hi = min(s_hi, min(k_a * hi, -k_b * lo) * per_unit)
        low, high = min(low, s_lo), max(high, s_hi)
    return float(low), float(high)


# ---- intervals -------------------------------------------------------------------------------------
def bootstrap_mean_ci(x: np.ndarray, seed: Any,
                      resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, tuple[float, float]]:
    """The mean and its 95% percentile-bootstrap interval (seeded: the same data give the same interval).

    Every resampled mean lies between the smallest and largest of ``x``, so the interval does too:
    it never runs past a value the games could not produce.
    """
    x = np.asarray(x, dtype=np.float64)
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    chunk = max(1, 4_000_000 // max(1, len(x)))  # bound the index array's memory for long pairings
    for start in range(0, resamples, chunk):
        stop = min(start + chunk, resamples)
        means[start:stop] = x[rng.integers(0, len(x), size=(stop - start, len(x)))].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(x.mean()), (float(lo), float(hi))


def wilson_ci(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (ties may count half a success); always inside [0, 1]."""
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * np.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n)))
    # The formula's bound is exactly 0 at p = 0 and exactly 1 at p = 1; say so rather than trust the
    # last bit of the float arithmetic, which can land just outside [0, 1].
    lo = 0.0 if successes <= 0 else max(0.0, float(centre - half))
    hi = 1.0 if successes >= n else min(1.0, float(centre + half))
    return lo, hi


# ---- playing ---------------------------------------------------------------------------------------
def play_games(game: BatchGame, seat_policy: np.ndarray, policies: list[Policy], seeds: np.ndarray,
               rng: np.random.Generator, on_finished: Callable[[int], None] | None = None) -> np.ndarray:
    """Play one game per row of ``seat_policy`` [G, P] (policy index per seat); returns returns [G, P].

    ``on_finished(n)`` is told each time ``n`` more games have ended (a progress bar's tick).
    """
    st = game.init(seeds)
    total = np.zeros((len(seeds), game.num_players), dtype=np.float64)

    def add_up(rows: np.ndarray, finished: np.ndarray) -> None:
        total[rows] += st.rewards[rows]  # finished games keep their last rewards: count them once
        if on_finished is not None and finished.size:
            on_finished(int(finished.size))

    rollout(game, st, policies, policy_table(seat_policy), rng, after_round=add_up)
    return total


def score_of_a(seating: np.ndarray, returns: np.ndarray) -> np.ndarray:
    """float[G]: each game's score, A's mean return per seat minus B's (``seating``: 0 where A sits)."""
    a_mean = np.where(seating == 0, returns, 0.0).sum(axis=1) / (seating == 0).sum(axis=1)
    b_mean = np.where(seating == 1, returns, 0.0).sum(axis=1) / (seating == 1).sum(axis=1)
    return a_mean - b_mean


def score_sd(score: np.ndarray) -> float:
    """The per-game scores' sample standard deviation (0 for a single game): what the games needed to
    decide a pairing are estimated from (:mod:`yuugi.training.eval.policy_report`)."""
    return float(np.std(score, ddof=1)) if len(score) > 1 else 0.0


def games_ahead(score: np.ndarray) -> float:
    """How many games A is ahead in (a positive score), ties counted half."""
    return float(np.where(score > 0, 1.0, np.where(score < 0, 0.0, 0.5)).sum())


SEED_STRIDE = 10_000_019  # game g of a run seeded s is seeded s * SEED_STRIDE + g, in every pairing


def chunk_rng(seed: int, a: int, b: int, start: int) -> np.random.Generator:
    """The policies' generator for the games of pairing (a, b) from game ``start`` (one batch).

    Each batch draws from its own stream, so its games depend only on the run's seed, the pairing
    and the batch: not on the pairings played before it (adding a policy to a round-robin leaves
    the others' games as they were), and not on where it runs (Ray workers play batches in any
    order and give the local table).
    """
    return np.random.default_rng([seed, a, b, start])


def rate_games(model: Any, ratings: dict[str, Any], a: str, b: str, score: np.ndarray) -> None:
    """Update the openskill ratings of ``a`` and ``b`` by each game of ``score`` in turn (ranked by its sign)."""
    for s in score:
        ranks = [0, 0] if s == 0 else ([0, 1] if s > 0 else [1, 0])
        (ra,), (rb,) = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        ratings[a], ratings[b] = ra, rb


def pairing_of(a: str, b: str, score: np.ndarray, bootstrap_seed: Any, per_deal: int = 1) -> Pairing:
    """A pairing's record from its games' scores: the mean with a bootstrap interval over deals (its own
    generator, seeded by the run and the pairing), and the share of games A is ahead."""
    ahead = games_ahead(score)
    m, ci = bootstrap_mean_ci(deal_means(score, per_deal), seed=bootstrap_seed)
    return Pairing(a, b, len(score), m, ci, ahead / len(score), wilson_ci(ahead, len(score)), score_sd(score))


def round_robin_extra(game: BatchGame, layout: str, games: int, planned: int, mirror: bool,
                      unchecked: Mapping[str, str]) -> dict[str, Any]:
    """What a round-robin's result says besides its pairings: the plan, the seating, the score's range, and
    the policies rated outside the rules they were checked under."""
    extra: dict[str, Any] = {"pairings_planned": planned, "layout": layout,
                             "seating": describe_seating(layout, game.num_players, games, mirror),
                             "score_range": list(score_range(game, layout))}
    if mirror:
        extra["mirror"] = True
    if unchecked:
        extra["unchecked"] = dict(unchecked)
    return extra


def check_round_robin(games: Any, policies: Mapping[str, Any], layout: str) -> None:
    """ValueError naming what is wrong with a round-robin's games, policies or layout."""
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be a positive integer (games per pairing), got {games!r}")
    if len(policies) < 2:
        raise ValueError(f"a round-robin needs at least two policies, got {list(policies)}")
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; choose from: {', '.join(LAYOUTS)}")


def _resume_state(pairings: list[Pairing], ratings: Mapping[str, Any]) -> dict[str, Any]:
    """JSON-safe and exact: what ``evaluate(resume=...)`` needs to carry on after these pairings
    (each batch has its own generator, :func:`chunk_rng`, so no generator state is carried)."""
    return {"pairings": [dataclasses.asdict(p) for p in pairings],
            "ratings": {n: [r.mu, r.sigma] for n, r in ratings.items()}}


class _ProgressBar:
    """Games played across all pairings, on stderr; silent where stderr is not a terminal (pipes, pytest)."""

    def __init__(self, total: int, label: str) -> None:
        try:
            from tqdm import tqdm
        except ImportError:  # tqdm comes with the train extra; without it there is simply no bar
            self.bar = None
            return
        self.bar = tqdm(total=total, desc=label, unit="game", disable=None, leave=False, dynamic_ncols=True)

    def __call__(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def pairing(self, a: str, b: str) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(f"{a} vs {b}", refresh=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def evaluate(game_name: str, policies: Mapping[str, Any], games: int = 1000, seed: int = 0,
             rules: Mapping[str, Any] | None = None, batch: int = 500, resume: Mapping[str, Any] | None = None,
             on_pairing: Callable[[EvalResult, dict[str, Any]], None] | None = None, layout: str = "alternate",
             progress: bool | Callable[[int], None] = False, mirror: bool = False) -> EvalResult:
    """Round-robin over every pair of ``policies`` (dict name -> anything ``agents.as_policy`` accepts:
    a Policy, a level name, a function ``(observation, mask, rng) -> actions``, a ``.npz`` or SB3 ``.zip``
    path, or ``"module:attr"``).

    ``layout`` seats each pairing (``"alternate"`` or ``"field"``, see the module's text); ``mirror``
    plays each deal from all its seatings (``games`` a multiple of their number).
    ``progress=True`` shows a bar of the games played (on a terminal only); a function is called with
    the number of games that just ended instead. ``on_pairing(result_so_far, state)`` is called after
    each pairing; ``resume=state`` skips the pairings ``state`` holds and restores its ratings
    (the same policies, in the same order, with the same ``games``, ``seed``,
    ``rules``, ``layout`` and ``mirror`` as the run that made it).
    """
    from openskill.models import PlackettLuce

    from yuugi.agents.adapters import as_policy

    check_round_robin(games, policies, layout)
    game = make_game(game_name, **dict(rules or {}))
    p = game.num_players
    per_deal = games_per_deal(layout, p, mirror)
    check_whole_deals(games, per_deal, layout)
    names = list(policies)
    acting = {n: as_policy(policies[n], game=game_name, **dict(rules or {})) for n in names}
    model = PlackettLuce()
    ratings = {n: model.rating(name=n) for n in names}
    pairings: list[Pairing] = []
    schedule = list(itertools.combinations(range(len(names)), 2))
    if resume is not None:
        pairings = [Pairing(**{**p, "score_ci": tuple(p["score_ci"]), "win_ci": tuple(p["win_ci"])})
                    for p in resume["pairings"]]
        expected = [(names[ia], names[ib]) for ia, ib in schedule[:len(pairings)]]
        if [(p.a, p.b) for p in pairings] != expected or set(resume["ratings"]) != set(names):
            raise ValueError(f"the saved pairings {[(p.a, p.b) for p in pairings]} are not the first of this "
                             f"round-robin of {names}")
        ratings = {n: model.rating(mu=mu, sigma=sigma, name=n) for n, (mu, sigma) in resume["ratings"].items()}
    extra = round_robin_extra(game, layout, games, len(schedule), mirror,
                              outside_checked_rules(game_name, acting, rules))
    todo = schedule[len(pairings):]
    bar = _ProgressBar(games * len(todo), f"{game_name} {layout}") if progress is True else None
    tick = bar if bar is not None else (progress if callable(progress) else None)
    try:
        for ia, ib in todo:
            a, b = names[ia], names[ib]
            if bar is not None:
                bar.pairing(a, b)
            scores = []
            for start in range(0, games, batch):
                g = np.arange(start, min(start + batch, games))
                seeds = deal_seeds(seed * SEED_STRIDE, g, per_deal)  # the same seeds for every pairing
                seating = seat_layout(layout, g, p)  # 0 -> a, 1 -> b
                returns = play_games(game, seating, [acting[a], acting[b]], seeds, chunk_rng(seed, ia, ib, start),
                                     on_finished=tick)
                score = score_of_a(seating, returns)
                scores.append(score)
                rate_games(model, ratings, a, b, score)
            pairings.append(pairing_of(a, b, np.concatenate(scores), [seed, ia, ib], per_deal))
            if on_pairing is not None:
                on_pairing(EvalResult(game_name, list(pairings),
                                      {n: (r.mu, r.sigma) for n, r in ratings.items()}, dict(extra)),
                           _resume_state(pairings, ratings))
    finally:
        if bar is not None:
            bar.close()
    return EvalResult(game_name, pairings, {n: (r.mu, r.sigma) for n, r in ratings.items()}, extra)


def outside_checked_rules(game_name: str, policies: Mapping[str, Any], rules: Mapping[str, Any] | None) -> dict[str, str]:
    """name -> one line, for each shipped trained level among ``policies`` (built by ``cpu``, which names it
    by its level) that plays under rules its record does not list as checked: the tables mark its rows, so
    that a step measured outside those rules never reads as the level's ladder step."""
    from yuugi.agents.level_records import TRAINED_LEVELS, unchecked_note

    notes = {}
    for name, policy in policies.items():
        level = getattr(policy, "name", None)
        note = unchecked_note(game_name, level, rules) if level in TRAINED_LEVELS else None
        if note is not None:
            notes[name] = note
    return notes


def _shown(result: EvalResult, name: str) -> str:
    """A policy's name in the tables: starred when it plays outside the rules it was checked under."""
    return f"{name}*" if name in result.extra.get("unchecked", {}) else name


def _unchecked_lines(result: EvalResult) -> list[str]:
    return [f"* {name}: {note}" for name, note in result.extra.get("unchecked", {}).items()]


def format_tables(result: EvalResult) -> str:
    """Ratings and pairings as text tables (rich when available), with the layout and seat rotation."""
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
        t.add_row(_shown(result, name), f"{mu:.2f}", f"{sigma:.2f}", f"{result.ordinal(name):.2f}")
    console.print(t)
    t = Table(title=f"{result.game}: pairings (A against B)")
    for col in ("A", "B", "games", "score", "95% CI", "A ahead", "95% CI ", "decided"):
        t.add_column(col)
    for pr in result.pairings:
        t.add_row(_shown(result, pr.a), _shown(result, pr.b), str(pr.games), f"{pr.score_mean:+.3f}", f"[{pr.score_ci[0]:+.3f}, {pr.score_ci[1]:+.3f}]",
                  f"{pr.a_win_rate:.3f}", f"[{pr.win_ci[0]:.3f}, {pr.win_ci[1]:.3f}]", "yes" if pr.decided else "no")
    console.print(t)
    return "\n".join([console.export_text().rstrip("\n")] + _layout_lines(result)  # unwrapped, whole lines
                     + _unchecked_lines(result))


def _layout_lines(result: EvalResult) -> list[str]:
    extra = result.extra
    if "layout" not in extra:
        return []
    lo, hi = extra["score_range"]
    return ["score: A's mean return per seat minus B's, per game; A ahead: games with a positive score (ties half)",
            f"95% intervals: percentile bootstrap for the score, Wilson for A ahead; a score lies in "
            f"[{lo:+.3f}, {hi:+.3f}] under these rules",
            f"layout: {extra['seating']}; the same seeds in every pairing"]


def _plain(result: EvalResult) -> str:
    lines = [f"{result.game} ratings:"]
    for name in sorted(result.ratings, key=result.ordinal, reverse=True):
        mu, sigma = result.ratings[name]
        lines.append(f"  {_shown(result, name):<10} mu={mu:.2f} sigma={sigma:.2f}")
    for pr in result.pairings:
        lines.append(f"  {_shown(result, pr.a)} vs {_shown(result, pr.b)}: {pr.score_mean:+.3f} [{pr.score_ci[0]:+.3f}, {pr.score_ci[1]:+.3f}] "
                     f"n={pr.games}")
    return "\n".join(lines + _layout_lines(result) + _unchecked_lines(result))


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
    extra = {k: result.extra[k] for k in ("layout", "mirror", "seating", "score_range", "unchecked")
             if k in result.extra}
    return {
        "game": result.game,
        **context,
        **extra,
        "ratings": {n: {"mu": round(mu, 3), "sigma": round(sg, 3), "ordinal": round(result.ordinal(n), 3)}
                    for n, (mu, sg) in result.ratings.items()},
        "pairings": [{"a": p.a, "b": p.b, "games": p.games, "score": round(p.score_mean, 4),
                      "score_ci95": [round(x, 4) for x in p.score_ci], "a_ahead": round(p.a_win_rate, 4),
                      "a_ahead_ci95": [round(x, 4) for x in p.win_ci], "decided": bool(p.decided)}
                     for p in result.pairings],
    }


# Columns added later go at the end, so that a reader of the earlier columns by position still reads them.
CSV_COLUMNS = ("game", "layout", "a", "b", "games", "score", "score_ci95_low", "score_ci95_high", "a_ahead",
               "a_ahead_ci95_low", "a_ahead_ci95_high", "decided", "a_ordinal", "b_ordinal", "mirror")


def to_csv(result: EvalResult) -> str:
    """One row per pairing, with a header; the ratings appear as each side's ordinal (mu − 3 sigma)."""
    import csv

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for p in result.pairings:
        writer.writerow([result.game, result.extra.get("layout", "alternate"), p.a, p.b, p.games,
                         f"{p.score_mean:.4f}", f"{p.score_ci[0]:.4f}", f"{p.score_ci[1]:.4f}", f"{p.a_win_rate:.4f}",
                         f"{p.win_ci[0]:.4f}", f"{p.win_ci[1]:.4f}", "yes" if p.decided else "no",
                         f"{result.ordinal(p.a):.3f}", f"{result.ordinal(p.b):.3f}",
                         "yes" if result.extra.get("mirror") else "no"])
    return out.getvalue()
