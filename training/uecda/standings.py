"""Standings of a UECda run: points per game (5 for 大富豪 down to 1 for 大貧民) with a 95% interval."""
from __future__ import annotations

import dataclasses
import math
import statistics

from .table import CLASS_NAMES, NUM_PLAYERS

Z95 = 1.96  # the normal approximation: a run's games are many and independent enough for it


@dataclasses.dataclass
class PlayerRecord:
    number: int
    name: str
    points: list[int] = dataclasses.field(default_factory=list)
    fault: str | None = None  # why the server took this player's seat over, if it did

    def mean(self) -> float:
        return statistics.fmean(self.points) if self.points else float("nan")

    def half_width(self) -> float:
        """Half the 95% interval of the mean points per game (0 for fewer than two games)."""
        n = len(self.points)
        return Z95 * statistics.stdev(self.points) / math.sqrt(n) if n >= 2 else 0.0

    def class_counts(self) -> list[int]:
        return [sum(1 for p in self.points if p == NUM_PLAYERS - k) for k in range(NUM_PLAYERS)]


def format_standings(players: list[PlayerRecord]) -> str:
    """One line per player, best mean first."""
    head = (f"{'player':>6}  {'name':<15}  {'games':>5}  {'points/game':>11}  {'95% interval':>15}  "
            + "  ".join(f"{c:>9}" for c in CLASS_NAMES) + "  seat")
    lines = [head]
    for rec in sorted(players, key=lambda r: -r.mean() if r.points else math.inf):
        lo, hi = rec.mean() - rec.half_width(), rec.mean() + rec.half_width()
        interval = f"{lo:.2f} .. {hi:.2f}" if rec.points else "-"
        mean = f"{rec.mean():.3f}" if rec.points else "-"
        lines.append(f"{rec.number:>6}  {rec.name[:15]:<15}  {len(rec.points):>5}  {mean:>11}  {interval:>15}  "
                     + "  ".join(f"{n:>9}" for n in rec.class_counts())
                     + ("  " + rec.fault if rec.fault else "  client"))
    return "\n".join(lines)
