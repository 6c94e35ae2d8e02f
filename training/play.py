"""``yuugi play GAME``: a person plays one seat in the terminal against CPUs of a chosen level.

The board is drawn from the person's seat (other hands hidden), the legal moves are listed by
number and name, and a move is chosen by its number (ASCII digits) or by typing its name. Anything else is
answered with a hint and the question is asked again: a typo never costs the game.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from agents.registry import cpu
from envs import make_game


def _choose(labels: list[str], read: Callable[[str], str], write: Callable[[str], None]) -> int | None:
    """Index into ``labels`` from the player's answer; None to quit."""
    lowered = [lab.lower() for lab in labels]
    while True:
        try:
            answer = read("your move (number or name, q to quit): ").strip()
        except EOFError:
            return None
        if answer.lower() in ("q", "quit", "exit"):
            return None
        # Only ASCII digits are a number: str.isdigit() also accepts '²' or '٣', which int() refuses or reads.
        if answer.isascii() and answer.isdigit() and 0 <= int(answer) < len(labels):
            return int(answer)
        if answer.lower() in lowered:
            return lowered.index(answer.lower())
        write(f"'{answer}' is not one of the legal moves; type a number 0..{len(labels) - 1} or a move's name.")


def play(game_name: str, level: str = "normal", seat: int = 0, seed: int | None = None,
         read: Callable[[str], str] | None = None, write: Callable[[str], None] = print,
         **rules: Any) -> dict[str, Any]:
    """Play one episode; returns the final position and the person's total reward.

    ``read`` asks the person (default: ``input``, looked up when called), ``write`` shows them text.
    """
    read = input if read is None else read
    game = make_game(game_name, **rules)
    if not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be 0..{game.num_players - 1}, got {seat}")
    opponent = cpu(game_name, level, **rules)
    seed = int(np.random.default_rng().integers(0, 2**31)) if seed is None else seed
    rng = np.random.default_rng(seed)
    st = game.init(np.array([seed]))
    total = 0.0
    names = game.agent_names
    write(f"{game_name}: you are {names[seat]} (seat {seat}) against {level} CPUs.")
    while not st.done[0]:
        mask = game.legal_mask(st)
        to_play = int(st.to_play[0])
        if to_play == seat:
            write("")
            write(game.render_text(st, 0, seat=seat))
            legal = np.flatnonzero(mask[0])
            labels = [game.action_label(int(a)) for a in legal]
            write("legal moves: " + "  ".join(f"[{i}] {lab}" for i, lab in enumerate(labels)))
            k = _choose(labels, read, write)
            if k is None:
                write("game abandoned.")
                break
            action = int(legal[k])
        else:
            obs = game.observe(st, to_play)
            action = int(opponent.act(obs, mask, rng)[0])
            write(f"{names[to_play]}: {game.action_label(action)}")
        game.step(st, np.array([action]))
        total += float(st.rewards[0, seat])
        if st.rewards[0].any():
            write("rewards this step: " + " ".join(f"{x:+.3f}" for x in st.rewards[0]))
    write("")
    write(game.render_text(st, 0))
    write(f"your total reward: {total:+.3f}")
    return {"position": game.to_position(st, 0), "reward": total, "finished": bool(st.done[0])}
