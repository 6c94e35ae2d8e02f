"""A learning curve as CSV: one row per point (a round, an epoch), its columns from the first row's keys."""
from __future__ import annotations

import csv
from pathlib import Path
from typing import Any, Mapping, Sequence


def write_curve_csv(path: str | Path, rows: Sequence[Mapping[str, Any]]) -> None:
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
