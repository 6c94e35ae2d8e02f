"""What ``yuugi play`` shows and reads for one game: the table, the moves, the log lines and the help.

:class:`Table` is the plain version every game gets (the core's render, a numbered list of the legal
moves by their labels, ``name: label`` log lines); a game with its own module in ``training/``
(``play_nigejozu``, ``play_momotaro``, ``play_daifugo``) subclasses it to speak in the game's words.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.game import BatchGame, State


class InputError(ValueError):
    """The person's answer is not a move here; the message says why and what would be."""


class Table:
    """The plain table of any game. ``names[p]`` is how seat p is called everywhere (table and log)."""

    legend = ""
    rules_in_brief = "The rules of this game are in the documentation page of its environment module."

    def __init__(self, game: BatchGame, seat: int, names: list[str]) -> None:
        self.game, self.seat, self.names = game, seat, names
        self._legend_shown = False

    # ---- showing -----------------------------------------------------------------------------
    def legend_once(self) -> str:
        """``"\n" + legend`` under the first table only (``help`` shows it again): the same paragraph under
        every table buries the table; '' after the first time, or for a game without a legend."""
        if not self.legend or self._legend_shown:
            return ""
        self._legend_shown = True
        return "\n" + self.legend + "\n(the legend again: help)"

    def render(self, st: State) -> str:
        """The table from the person's seat, with the legend under the first one."""
        return self.game.render_text(st, 0, seat=self.seat) + self.legend_once()

    def menu(self, st: State, legal: np.ndarray) -> list[str]:
        """Lines that show the person what they may do now."""
        return ["legal moves: " + "  ".join(f"[{i}] {self.game.action_label(int(a))}" for i, a in enumerate(legal))]

    def full_list(self, legal: np.ndarray) -> str:
        """Every legal move by number (the ``moves`` command): a number typed at the prompt picks one."""
        return "legal moves: " + "  ".join(f"[{i}] {self.label(int(a))}" for i, a in enumerate(legal))

    def label(self, action: int) -> str:
        return self.game.action_label(action)

    def choice(self, st: State, action: int) -> str:
        """How the menu offers ``action`` in this state (the label, unless the game says more)."""
        return self.label(action)

    def help_text(self) -> str:
        return self.rules_in_brief + ("\n\n" + self.legend if self.legend else "")

    def look_up(self, name: str) -> str | None:
        """What the card (or other named thing) ``name`` is and does, for ``card NAME`` / ``? NAME`` at the
        prompt; None when this game has nothing by that name (the default: nothing to look up)."""
        return None

    # ---- reading -----------------------------------------------------------------------------
    def parse(self, answer: str, st: State, legal: np.ndarray) -> int:
        """The legal action the answer names; :class:`InputError` otherwise.

        A number (ASCII digits only: ``str.isdigit`` also accepts '²' or '٣', which ``int`` refuses
        or misreads) picks that entry of the full numbered list; otherwise a move's label, any case.
        """
        if answer.isascii() and answer.isdigit() and 0 <= int(answer) < len(legal):
            return int(legal[int(answer)])
        for a in legal:
            if answer.lower() in (self.label(int(a)).lower(), self.game.action_label(int(a)).lower()):
                return int(a)
        raise InputError(f"'{answer}' is not one of the legal moves; {self.what_to_type(legal)}")

    def what_to_type(self, legal: np.ndarray) -> str:
        return f"type a number 0..{len(legal) - 1} or a move's name (help: the rules, moves: the list)."

    # ---- the log -----------------------------------------------------------------------------
    def narrate(self, before: State, action: int, after: State) -> list[str]:
        """What a person at the table saw happen when the seat to play in ``before`` chose ``action``."""
        actor = int(before.to_play[0])
        return [f"{self.names[actor]}: {self.label(action)}"]

    def explain(self, st: State, action: int) -> str:
        """Why the heuristic (``normal``) picks ``action`` here, in a sentence ('' when it cannot say)."""
        return ""

    def final(self, st: State) -> list[str]:
        """Lines shown once the game is over, after the last table."""
        return []

