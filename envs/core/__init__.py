"""Game-agnostic machinery: the batched game interface, RNG streams, the AEC and vector faces."""
from .errors import IllegalActionError, OptionError, PositionError
from .game import BatchGame, State

__all__ = ["BatchGame", "State", "IllegalActionError", "OptionError", "PositionError"]
