"""Game-agnostic machinery: the batched game interface, RNG streams, the AEC and vector faces."""
from yuugi.envs.core.errors import IllegalActionError, OptionError, PositionError
from yuugi.envs.core.game import BatchGame, State

__all__ = ["BatchGame", "State", "IllegalActionError", "OptionError", "PositionError"]
