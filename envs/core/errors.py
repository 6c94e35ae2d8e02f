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


class ActionTypeError(IllegalActionError, TypeError):
    """An action that is not an integer index at all (a bool, a float, a string, ...).

    A subclass of :class:`IllegalActionError` (so code that catches illegal moves catches it) and of
    ``TypeError``. Raised before anything is changed. ``action`` holds the value as given.
    """

    def __init__(self, action: object, num_actions: int) -> None:
        self.game_index = 0
        self.action = action  # type: ignore[assignment]
        self.label = "not an integer"
        dtype = getattr(action, "dtype", None)
        if dtype is not None and getattr(action, "ndim", 0) > 0:
            first = action.reshape(-1)[:1].tolist()  # type: ignore[attr-defined]
            what = f"actions of dtype {dtype} (first {first}) are not action indices"
        else:
            what = f"action {action!r} of type {dtype if dtype is not None else type(action).__name__} is not an action index"
        ValueError.__init__(self, f"{what}: actions are integers 0..{num_actions - 1} "
                                  f"(Python or numpy integers; not bool, float or str)")


class CallError(ValueError):
    """A call whose arguments do not fit the game or the batch: a seat out of range, an ``active``
    mask of the wrong length, an empty batch, a seed outside 0..2**64-1."""


class NotResetError(RuntimeError, AttributeError):
    """An environment used before ``reset()`` (or after a ``reset()`` that failed).

    Also an ``AttributeError``, so ``hasattr(env, "agent_selection")`` stays False before reset as
    PettingZoo's wrappers expect.
    """

    def __init__(self, what: str) -> None:
        super().__init__(f"{what} before a successful reset(): call reset() first")
