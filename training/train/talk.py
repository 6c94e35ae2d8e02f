"""What a training run tells as it goes: each phase announced, with its own progress bar, and one line
per PPO update with the learner's results against its training opponents.

Bars go to stderr and only on a terminal (rich); the lines go to stdout always, so a log file or a
notebook shows the phases and the rewards too. A quiet run (``TrainConfig(progress=False)``) tells
nothing.
"""
from __future__ import annotations

import sys
import time
from typing import Any


def clock(seconds: float) -> str:
    """``1:05`` for 65 seconds, ``1:02:03`` past an hour."""
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


class RunReport:
    """Phases with bars (``phase``/``advance``/``done``) and lines (``say``), timed from ``start``."""

    def __init__(self, enabled: bool, start: float) -> None:
        self.enabled, self.start = enabled, start
        self._progress: Any = None
        self._task: Any = None
        if not enabled:
            return
        try:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        except ImportError:  # pragma: no cover - rich comes with the train extra; without it, lines only
            return
        console = Console(stderr=True)
        self._progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                  TimeElapsedColumn(), console=console, disable=not console.is_terminal,
                                  transient=True)
        self._progress.start()

    def say(self, text: str) -> None:
        """A line on stdout (above the bar on a terminal: rich redirects stdout while a bar is shown)."""
        if self.enabled:
            print(text, flush=True)

    def phase(self, description: str, total: int | None) -> None:
        """Start a phase: announce it and give it a bar of ``total`` units (None: no count)."""
        self.done()
        self.say(f"[{clock(time.perf_counter() - self.start)}] {description}")
        if self._progress is not None:
            self._task = self._progress.add_task(description.split(":")[0], total=total)

    def advance(self, completed: int) -> None:
        """The phase's count so far."""
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, completed=completed)

    def done(self) -> None:
        """End the current phase's bar."""
        if self._progress is not None and self._task is not None:
            self._progress.remove_task(self._task)
        self._task = None

    def close(self) -> None:
        self.done()
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
        sys.stdout.flush()
