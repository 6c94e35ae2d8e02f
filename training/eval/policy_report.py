""""How good is my policy?": one policy's results against each level of a round-robin, from its side.

The round-robin's pairings table lists each pair once, in schedule order, so a policy added after
the levels sits in column B with the sign of every score turned against it. This report turns those
rows around: the policy first in every row, one row per opponent, its mean score and its share of
games ahead with their 95% intervals (taken from the pairing, mirrored), and how many games per
pairing would decide a row that is not decided yet.

Under the rows, each pair of neighbouring levels (in the round-robin's order, weakest first as the
levels are listed) gets the games per pairing at which the policy's scores against the two would
differ at 95%: what it takes to place the policy between them.

Games needed are estimated with the normal approximation from the scores' spread in the games
played: a row is decided when 1.96·sd/√n < |mean|, so n = (1.96·sd/mean)²; two rows differ when
1.96·√((sd₁² + sd₂²)/n) < |mean₁ − mean₂|.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Any, Sequence

from yuugi.training.eval.evaluate import Z95, EvalResult, Pairing


@dataclass
class ReportRow:
    """The policy against one opponent, from the policy's side."""

    opponent: str
    games: int
    score: float  # the policy's mean score per game (its mean return per seat minus the opponent's)
    score_ci: tuple[float, float]
    ahead: float  # share of games the policy finished ahead (ties half)
    ahead_ci: tuple[float, float]
    sd: float  # the per-game scores' standard deviation

    @property
    def decided(self) -> bool:
        return self.score_ci[0] > 0 or self.score_ci[1] < 0

    @property
    def games_to_decide(self) -> int | None:
        """Games per pairing at which this score's 95% interval would exclude 0 (None: a score of 0 exactly,
        which no number of games decides)."""
        if self.score == 0:
            return None
        if self.sd == 0:
            return 1
        return math.ceil((Z95 * self.sd / self.score) ** 2)


def _sd(pairing: Pairing) -> float:
    """The scores' standard deviation; for a result saved without it, estimated from the interval's width."""
    if pairing.score_sd is not None:
        return pairing.score_sd
    half = (pairing.score_ci[1] - pairing.score_ci[0]) / 2
    return half * math.sqrt(pairing.games) / Z95


def policy_rows(result: EvalResult, name: str, opponents: Sequence[str] | None = None) -> list[ReportRow]:
    """``name``'s rows against ``opponents`` (default: every other policy, in the round-robin's order)."""
    if name not in result.ratings:
        raise ValueError(f"{name!r} is not in this round-robin; policies: {list(result.ratings)}")
    opponents = [o for o in result.ratings if o != name] if opponents is None else list(opponents)
    by_pair = {(p.a, p.b): p for p in result.pairings}
    rows = []
    for other in opponents:
        if (name, other) in by_pair:
            p = by_pair[(name, other)]
            rows.append(ReportRow(other, p.games, p.score_mean, p.score_ci, p.a_win_rate, p.win_ci, _sd(p)))
        elif (other, name) in by_pair:  # the policy was B: its score is the negative of A's, its share the rest
            p = by_pair[(other, name)]
            # (+ 0.0: a negated 0 would print as -0.000)
            rows.append(ReportRow(other, p.games, -p.score_mean + 0.0, (-p.score_ci[1] + 0.0, -p.score_ci[0] + 0.0),
                                  1.0 - p.a_win_rate, (1.0 - p.win_ci[1], 1.0 - p.win_ci[0]), _sd(p)))
    return rows


def games_to_separate(lower: ReportRow, upper: ReportRow) -> int | None:
    """Games per pairing at which the policy's scores against two opponents differ at 95% (None: equal scores)."""
    gap = lower.score - upper.score
    if gap == 0:
        return None
    return max(1, math.ceil(Z95 ** 2 * (lower.sd ** 2 + upper.sd ** 2) / gap ** 2))


def _count(n: int | None) -> str:
    return "never (a score of exactly 0)" if n is None else f"{n:,}"


def neighbour_lines(name: str, rows: list[ReportRow]) -> list[str]:
    """One line per pair of neighbouring opponents: how far apart the policy's scores are, and the games
    per pairing that tell them apart."""
    lines = []
    for lower, upper in zip(rows, rows[1:]):
        need = games_to_separate(lower, upper)
        gap = lower.score - upper.score
        verdict = ("already told apart" if need is not None and need <= min(lower.games, upper.games)
                   else f"about {_count(need)} games per pairing tell them apart")
        lines.append(f"{lower.opponent} -> {upper.opponent}: {name}'s score {lower.score:+.3f} -> {upper.score:+.3f} "
                     f"(gap {gap:+.3f}); {verdict} (95%)")
    return lines


def format_policy_report(result: EvalResult, name: str, levels: Sequence[str] | None = None) -> str:
    """The report as text: a table with ``name`` first in every row, then the neighbouring levels."""
    rows = policy_rows(result, name, levels)
    header = ("policy", "against", "games", "score", "95% CI", "ahead", "95% CI ", "decided", "games to decide")
    cells = [(name, r.opponent, f"{r.games:,}", f"{r.score:+.3f}", f"[{r.score_ci[0]:+.3f}, {r.score_ci[1]:+.3f}]",
              f"{r.ahead:.3f}", f"[{r.ahead_ci[0]:.3f}, {r.ahead_ci[1]:.3f}]", "yes" if r.decided else "no",
              "decided" if r.decided else _count(r.games_to_decide)) for r in rows]
    title = f"{result.game}: {name} against each level (its side in every row)"
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # pragma: no cover - rich is in the train and test extras
        body = [title, "  ".join(header)] + ["  ".join(c) for c in cells]
    else:
        console = Console(file=io.StringIO(), record=True, width=130)
        table = Table(title=title)
        for col in header:
            table.add_column(col)
        for c in cells:
            table.add_row(*c)
        console.print(table)
        body = [console.export_text().rstrip("\n")]
    notes = [f"score: {name}'s mean return per seat minus the level's, per game; ahead: {name}'s share of games "
             "ahead (ties half); games to decide: per pairing, for the score's 95% interval to exclude 0"]
    return "\n".join(body + notes + neighbour_lines(name, rows))


def report_json(result: EvalResult, name: str, levels: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The rows as JSON-safe dicts (``yuugi eval --format json`` puts them under ``reports``)."""
    return [{"policy": name, "against": r.opponent, "games": r.games, "score": round(r.score, 4),
             "score_ci95": [round(x, 4) for x in r.score_ci], "ahead": round(r.ahead, 4),
             "ahead_ci95": [round(x, 4) for x in r.ahead_ci], "decided": bool(r.decided),
             "games_to_decide": r.games_to_decide} for r in policy_rows(result, name, levels)]
