"""A logger for SB3 models that leaves no stray folder behind.

A model that was never given a logger configures one at each ``learn()`` call, and with no folder
given SB3 creates ``SB3-<date-time>`` in the temporary directory even when it writes nothing there
(``verbose=0``, no TensorBoard): a training run, and a bench that calls ``learn()`` chunk by chunk,
left one empty folder per call. This logger takes the values that SB3 and the callbacks record, as
SB3's own does, and writes them nowhere.
"""
from __future__ import annotations

from stable_baselines3.common.logger import Logger


def silent_logger() -> Logger:
    """An SB3 logger with no outputs and no folder, for ``model.set_logger``."""
    return Logger(folder=None, output_formats=[])
