"""One picture of each game, as PNG files: ``python -m yuugi.envs.pictures.gallery [FOLDER]``
(default ``docs/pictures``) writes ``<game>.png`` for every game.

Each picture is a random game (fixed seeds) stopped at the first moment that shows the most of its
table: the field full and the ninja layer on (ninja daifugō), a battle with the dice thrown
(鬼ヶ島), the dice of a turn (nigejozu), characters on both fields and the stack in use (Ninja
Slayer); drawn from the seat to play.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np

MOMENTS: dict[str, tuple[int, Callable[[Any], bool]]] = {
    "ninja_daifugo": (1, lambda s: int(s.field_action[0]) >= 0 and bin(int(s.field_cards[0])).count("1") >= 2
                      and bin(int(s.hands[0, int(s.to_play[0])])).count("1") >= 7),
    "momotaro": (1, lambda s: int(s.round[0]) >= 1 and int(s.dice[0, 0]) > 0 and int(s.phase[0]) == 4
                 and int(s.kibi[0].sum()) > 0 and int(s.oni_dmg[0].sum()) > 0),
    "nigejozu": (2, lambda s: int(s.phase[0]) == 1 and int(s.turn[0]) >= 12),
    "ninja_slayer": (3, lambda s: int(s.stk_len[0]) >= 1 and (s.fld_card[0] >= 0).sum(axis=1).min() >= 2),
}


def moment(name: str, tries: int = 40, max_steps: int = 3000):
    """(game, state) at the first moment of ``MOMENTS[name]`` in random games seeded seed, seed + 1, …"""
    from yuugi.envs import make_game

    seed, wanted = MOMENTS[name]
    game = make_game(name)
    for k in range(tries):
        rng = np.random.default_rng(seed + k)
        state = game.init(np.array([seed + k], dtype=np.uint64))
        for _ in range(max_steps):
            if wanted(state):
                return game, state
            mask = game.legal_mask(state)
            if not mask.any():
                break
            game.step(state, np.array([rng.choice(np.flatnonzero(mask[0]))]))
    raise RuntimeError(f"no game of {name} reached the gallery's moment in {tries} tries")


def main(argv: list[str] | None = None) -> None:
    from . import picture_svg
    from .raster import save_png

    folder = Path((argv if argv is not None else sys.argv[1:] or ["docs/pictures"])[0])
    folder.mkdir(parents=True, exist_ok=True)
    for name in MOMENTS:
        game, state = moment(name)
        save_png(picture_svg(game, state), str(folder / f"{name}.png"))
        print(folder / f"{name}.png")


if __name__ == "__main__":
    main()
