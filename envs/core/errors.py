"""Errors shared by every game."""
from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that the rules do not allow in the given position.

    Raised before anything is changed, so the state is exactly as it was.
    """

    def __init__(self, game_index: int, action: int, label: str, reason: str = "not legal here") -> None:
        self.game_index = int(game_index)
        self.action = int(action)
        self.label = label
        super().__init__(f"illegal action {int(action)} ({label}) in game {int(game_index)}: {reason}")


class PositionError(ValueError):
    """A position dict that cannot be loaded; the message names the bad field."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        super().__init__(f"bad position field {field!r}: {problem}")


class OptionError(ValueError):
    """An unknown rule option or an option value outside its allowed set."""
