"""``yuugi list``: what a newcomer needs to pick a game, in one table.

For each game: its players (and the range ``--rule num_players=N`` allows, where it has that
option), the sizes of its action and observation spaces, the CPU levels that can be built here
under the rules ``yuugi eval`` and ``yuugi play`` use, and its personas with their romaji names.
"""
from __future__ import annotations

from typing import Any

from yuugi.envs import GAMES, available_games, make_game
from yuugi.envs.core.errors import OptionError

# Player counts probed for games with a num_players option (no game here seats more than eight).
_PLAYER_COUNTS = range(1, 9)


def player_counts(game: str) -> list[int]:
    """The player counts ``game`` can be built with; one count for a game without ``num_players``."""
    default = make_game(game).num_players
    counts = []
    for n in _PLAYER_COUNTS:
        try:
            make_game(game, num_players=n)
        except OptionError:  # a count outside the game's range, or no num_players option at all
            continue
        counts.append(n)
    return counts or [default]


def _players_text(game: str) -> str:
    counts = player_counts(game)
    default = make_game(game).num_players
    if len(counts) == 1:
        return str(default)
    return f"{counts[0]}-{counts[-1]} ({default})"


def _observation_text(game: Any) -> str:
    shape = game.observation_space.shape
    return "x".join(str(d) for d in shape) if shape else type(game.observation_space).__name__


def game_rows() -> list[dict[str, Any]]:
    """One dict per registered game: name, players, actions, observation, levels, personas (or status)."""
    from yuugi.agents.registry import PERSONAS, PERSONA_ROMAJI, available_levels
    from yuugi.envs.spec import game_spec

    built = set(available_games())
    rows: list[dict[str, Any]] = []
    for name in GAMES:
        if name not in built:
            rows.append({"game": name, "status": "not built yet"})
            continue
        rules = dict(game_spec(name).default_eval_rules)  # the rules the shipped hard weights fit
        game = make_game(name, **rules)
        romaji = {persona: r for r, persona in PERSONA_ROMAJI.get(name, {}).items()}
        personas = [f"{p} ({romaji[p]}, {lv})" if p in romaji else f"{p} ({lv})"
                    for p, lv in PERSONAS.get(name, {}).items()]
        rows.append({"game": name, "status": "ready", "players": _players_text(name), "actions": game.num_actions,
                     "observation": _observation_text(game), "levels": available_levels(name, **rules),
                     "personas": personas})
    return rows


def game_listing() -> str:
    """The table ``yuugi list`` prints, with the personas under it."""
    rows = game_rows()
    header = ("game", "players", "actions", "observation", "CPU levels")
    table = [header]
    for row in rows:
        if row["status"] != "ready":
            table.append((row["game"], row["status"], "", "", ""))
            continue
        table.append((row["game"], row["players"], str(row["actions"]), row["observation"], " ".join(row["levels"])))
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in table]
    lines.append("")
    lines.append("players: the default in brackets where --rule num_players=N chooses; observation: floats")
    for row in rows:
        if row.get("personas"):
            lines.append(f"{row['game']} personas (--level accepts either name): {', '.join(row['personas'])}")
    return "\n".join(lines)
