"""``yuugi replay FILE``: a recorded game shown move by move.

Each move shows the table as the game draws it (``render_text``; with ``seat``, only what that seat
could see) and then who played what (the game's action label). The end shows the final table and
each seat's total reward. With ``step``, the viewer waits for Enter between moves (``q`` stops).
Records are made by ``yuugi play GAME --record FILE`` or :mod:`yuugi.envs.faces.replay`.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from yuugi.envs.core.game import BatchGame
from yuugi.envs.faces.replay import ReplayError, game_of, replay

STOP = ("q", "quit", "exit")


def show(record: Mapping[str, Any], seat: int | None = None, step: bool = False,
         write: Callable[[str], None] = print, read: Callable[[str], str] | None = None,
         game: BatchGame | None = None) -> np.ndarray:
    """Write the game of ``record`` move by move; returns each seat's total reward over the moves shown.

    ``game`` overrides building the game from the record's name and rules. A record that cannot be
    replayed raises :class:`~yuugi.envs.faces.replay.ReplayError` after the moves before the bad one are shown.
    """
    game = game if game is not None else game_of(record)
    if seat is not None and not 0 <= seat < game.num_players:
        raise ReplayError(f"seat must be 0..{game.num_players - 1} ({record['game']} has {game.num_players} "
                          f"players), got {seat}")
    read = input if read is None else read
    names = game.agent_names
    actions = record["actions"]
    setup = f"  setup {record['setup']}" if record.get("setup") else ""
    start = "  from a position" if record.get("position") else ""
    view = f"  seen by {names[seat]}" if seat is not None else ""
    write(f"replay of {record['game']}: seed {record['seed']}  rules {record['rules'] or 'default'}{setup}{start}"
          f"  {len(actions)} moves{view}")
    totals = np.zeros(game.num_players, dtype=np.float64)
    for k, (st, action) in enumerate(replay(record, game)):
        totals += st.rewards[0]  # rewards of the move before this state (zero at the start)
        write("")
        if action is None:
            write(f"--- final position after {len(actions)} moves ---")
            write(game.render_text(st, 0, seat=seat))
            outcome = "game over" if st.done[0] else "the record stops before the game ended"
            write(f"{outcome}; total rewards: " + "  ".join(f"{n} {t:+.3f}" for n, t in zip(names, totals)))
            break
        write(f"--- move {k + 1} of {len(actions)} ---")
        write(game.render_text(st, 0, seat=seat))
        write(f"move {k + 1}: {names[int(st.to_play[0])]} plays {game.action_label(action)}")
        if step and _stop(read):
            write("stopped.")
            break
    return totals


def _stop(read: Callable[[str], str]) -> bool:
    """Wait for Enter; True when the viewer asks to stop (``q``, or the input ended)."""
    try:
        return read("Enter: next move, q: stop ").strip().lower() in STOP
    except EOFError:
        return True
