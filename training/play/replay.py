"""``yuugi replay FILE``: a recorded game shown move by move.

Without ``seat`` each move shows the whole table as the game draws it (``render_text``) and then who
played what (the game's action label). With ``seat`` the replay shows only what that seat saw at that
moment, as ``yuugi play`` showed it to a person in that seat: the table from that seat, and each move
told as the play screen tells it (another seat's sealed bid is "sealed" until the bids are revealed;
:func:`seat_view` yields it move by move). The end shows the final table and each seat's total reward.
With ``step``, the viewer waits for Enter between moves (``q`` stops). A record that names who sat
where (``players``, written by ``yuugi play GAME --record FILE``) names the seats that way.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping

import numpy as np

from yuugi.envs.core.game import BatchGame, State
from yuugi.envs.faces.replay import ReplayError, game_of, replay

STOP = ("q", "quit", "exit")


def seat_names(record: Mapping[str, Any], game: BatchGame) -> list[str]:
    """How each seat is called: the record's ``players`` names where it has them, else the agent names."""
    players = record.get("players")
    if players is None:
        return list(game.agent_names)
    if len(players) != game.num_players:
        raise ReplayError(f"field 'players' names {len(players)} seats; {record['game']} has {game.num_players} here")
    return [p["name"] for p in players]


def seats_line(record: Mapping[str, Any], game: BatchGame) -> str | None:
    """``seats: player_0 you; player_1 ジライヤ (CPU normal); ...`` for a record that says who played."""
    players = record.get("players")
    if players is None:
        return None
    seat_names(record, game)  # checks the count
    described = []
    for agent, p in zip(game.agent_names, players):
        says_itself = p["policy"] == "person" or p["name"].startswith("CPU ") or p["name"].endswith("(your policy)")
        # a persona's name does not say its level: add it (three ジライヤ are three normal CPUs)
        described.append(f"{agent} {p['name']}" + ("" if says_itself else f" (CPU {p['policy']})"))
    return "seats: " + "; ".join(described)


def _seat_table(record: Mapping[str, Any], game: BatchGame, seat: int) -> Any:
    from yuugi.training.play.play import table_for  # the play screens: the same view the person had

    names = seat_names(record, game)
    return table_for(record["game"], game, seat, names)


def seat_view(record: Mapping[str, Any], seat: int, game: BatchGame | None = None) -> Iterator[tuple[State, list[str]]]:
    """For each move, ``(state before it, the lines seat ``seat`` saw)``: the table from that seat, then the
    move as the play screen told it; last ``(final state, [final table])``. Every line depends only on
    what the seat could know at that moment (its observations), as on the play screen."""
    game = game if game is not None else game_of(record)
    table = _seat_table(record, game, seat)
    for st, action in replay(record, game):
        if action is None:
            yield st, [table.render(st)]
            return
        after = st.copy()
        game.step(after, np.array([action], dtype=np.int64), check=False)  # replay() has checked it
        yield st, [table.render(st)] + table.narrate(st, int(action), after)


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
    seats = seats_line(record, game)
    if seats:
        write(seats)
    shown = seat_view(record, seat, game) if seat is not None else _whole_view(record, game)
    totals = np.zeros(game.num_players, dtype=np.float64)
    for k, (st, lines) in enumerate(shown):
        totals += st.rewards[0]  # rewards of the move before this state (zero at the start)
        write("")
        if k == len(actions):
            write(f"--- final position after {len(actions)} moves ---")
            write(lines[0])
            outcome = "game over" if st.done[0] else "the record stops before the game ended"
            write(f"{outcome}; total rewards: " + "  ".join(f"{n} {t:+.3f}" for n, t in zip(names, totals)))
            break
        write(f"--- move {k + 1} of {len(actions)} ---")
        for line in lines:
            write(line)
        if step and _stop(read):
            write("stopped.")
            break
    return totals


def _whole_view(record: Mapping[str, Any], game: BatchGame) -> Iterator[tuple[State, list[str]]]:
    """Every move seen by no seat: the whole table, then ``move k: <seat> plays <label>``."""
    names = game.agent_names
    for k, (st, action) in enumerate(replay(record, game)):
        if action is None:
            yield st, [game.render_text(st, 0)]
            return
        yield st, [game.render_text(st, 0), f"move {k + 1}: {names[int(st.to_play[0])]} plays {game.action_label(action)}"]


def _stop(read: Callable[[str], str]) -> bool:
    """Wait for Enter; True when the viewer asks to stop (``q``, or the input ended)."""
    try:
        return read("Enter: next move, q: stop ").strip().lower() in STOP
    except EOFError:
        return True
