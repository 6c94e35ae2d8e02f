"""``yuugi play GAME``: a person plays one seat in the terminal against CPUs of a chosen level.

The table is drawn from the person's seat (other hands hidden) with a legend under it; every move,
the person's and the CPUs', is told in words as it happens. At the prompt, besides a move:
``help`` (the rules in brief and the legend), ``undo`` (back to your previous decision; ``back``
too), ``hint`` (what the ``normal`` CPU would play, and why where it can say), ``moves`` (every legal
move by number; a number picks one) and ``quit``. Anything else is answered with what would be
understood and the question is asked again: a typo never costs the game.

After ``undo`` the CPUs answer an identical move with identical moves: the snapshot restores the
game's chance stream and the CPUs' random generator along with the position (:mod:`yuugi.training.play.undo`).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from yuugi.agents.policy import Policy
from yuugi.agents.registry import PERSONAS, SHIPPED_LEVEL_NAMES, cpu
from yuugi.agents.search.dispatch import act
from yuugi.envs import make_game
from yuugi.envs.core.errors import OptionError
from yuugi.envs.core.game import BatchGame
from yuugi.envs.faces.replay import make_record

from yuugi.training.play import undo as play_undo
from yuugi.training.play.table import InputError, Table

QUIT = ("q", "quit", "exit")
UNDO = ("undo", "u", "back")
Opponents = Policy | Sequence[Policy | None] | None


def table_for(game_name: str, game: Any, seat: int, who: list[str]) -> Table:
    """The table of ``yuugi play`` for this game (also the browser's, ``yuugi serve``): it names the
    seats, labels the moves and narrates them as ``seat`` sees them (another seat's exchange is 'a
    card', a sealed bid has no amount)."""
    if game_name == "nigejozu":
        from yuugi.training.play.nigejozu import NigejozuTable
        return NigejozuTable(game, seat, who)
    if game_name == "momotaro":
        from yuugi.training.play.momotaro import MomotaroTable
        return MomotaroTable(game, seat, who)
    if game_name == "ninja_daifugo":
        from yuugi.training.play.daifugo import DaifugoTable
        return DaifugoTable(game, seat, who)
    if game_name == "ninja_slayer":
        from yuugi.training.play.ninja_slayer import NinjaSlayerTable
        return NinjaSlayerTable(game, seat, who)
    return Table(game, seat, [f"{w}({p})" for p, w in enumerate(who)])


def _is_level(policy: Policy) -> bool:
    """Whether ``policy`` is one of the shipped CPU levels (``cpu()`` names them by level), not a policy of the
    user's own (a file, a module:attr, an object): those are named by their file or attribute."""
    return str(getattr(policy, "name", "")) in SHIPPED_LEVEL_NAMES


def _cpu_name(game_name: str, policy: Policy) -> str:
    """A seat's name at the table: a CPU's persona where the game has them (ninja_daifugo), else its level;
    a policy of the user's own by its name, marked as theirs (so that it never reads as one of ours)."""
    name = str(getattr(policy, "name", "cpu"))
    if not _is_level(policy):
        return f"{name} (your policy)"
    persona = {lv: persona for persona, lv in PERSONAS.get(game_name, {}).items()}.get(name)
    return persona or f"CPU {name}"


def opponents_phrase(policies: Sequence[Policy | None]) -> str:
    """Who the person plays against, in words: ``a normal CPU``, ``3 easy CPUs``, ``your policy mine``,
    ``an easy CPU and your policy mine`` (seats in order, equal opponents counted together)."""
    counts: dict[tuple[bool, str], int] = {}
    for policy in policies:
        if policy is not None:
            key = (_is_level(policy), str(getattr(policy, "name", "cpu")))
            counts[key] = counts.get(key, 0) + 1
    parts = []
    for (level, name), n in counts.items():
        if level:
            parts.append(f"{'an' if name[:1] in 'aeiou' else 'a'} {name} CPU" if n == 1 else f"{n} {name} CPUs")
        else:
            parts.append(f"your policy {name}" + (f" in {n} seats" if n > 1 else ""))
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _seat_policies(opponents: Opponents, default: Callable[[], Policy], seat: int, players: int) -> list[Policy | None]:
    if opponents is None:
        shared = default()
        return [None if p == seat else shared for p in range(players)]
    if isinstance(opponents, Sequence):
        if len(opponents) != players:
            raise ValueError(f"opponents must be one policy or a list of {players} (one per seat, the person's "
                             f"ignored), got {len(opponents)}")
        chosen = [None if p == seat else opponents[p] for p in range(players)]
        if any(c is None for p, c in enumerate(chosen) if p != seat):
            raise ValueError("opponents: every CPU seat needs a policy")
        return chosen
    return [None if p == seat else opponents for p in range(players)]


def play(game_name: str, level: str = "normal", seat: int = 0, seed: int | None = None,
         read: Callable[[str], str] | None = None, write: Callable[[str], None] = print,
         opponents: Opponents = None, game: BatchGame | None = None, **rules: Any) -> dict[str, Any]:
    """Play one episode; returns the final position, the person's total reward, whether it finished and
    the game's replay record (:mod:`yuugi.envs.faces.replay`; undone moves are not in it).

    ``read`` asks the person (default: ``input``, looked up when called), ``write`` shows them text.
    ``opponents``: one policy for every CPU seat, or a list with one per seat (the person's entry is
    ignored); by default the CPU of ``level``. ``game``: the game already built with ``rules`` (by
    default it is built by name).
    """
    read = input if read is None else read
    game = make_game(game_name, **rules) if game is None else game
    if not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be 0..{game.num_players - 1}, got {seat}")
    policies = _seat_policies(opponents, lambda: cpu(game_name, level, **rules), seat, game.num_players)
    who = ["you" if p == seat else _cpu_name(game_name, pol) for p, pol in enumerate(policies)]
    table = table_for(game_name, game, seat, who)
    seed = int(np.random.default_rng().integers(0, 2**31)) if seed is None else seed
    cpu_rng = np.random.default_rng(seed)
    st = game.init(np.array([seed]))
    total = 0.0
    history: list[play_undo.Snapshot] = []
    moves: list[int] = []  # every action played, for the replay record
    moves_at: list[int] = []  # len(moves) at each snapshot in history
    write(f"{game_name}: you play {table.names[seat]} (seat {seat}) against {opponents_phrase(policies)}. "
          "Type help for the rules, undo, hint or quit at any prompt.")
    hinter: list[Any] = []  # the normal CPU, built on the first hint
    abandoned = False
    while not st.done[0]:
        mask = game.legal_mask(st)
        to_play = int(st.to_play[0])
        if to_play == seat:
            history.append(play_undo.take(game, st, cpu_rng, total))
            moves_at.append(len(moves))
            write("")
            write(table.render(st))
            legal = np.flatnonzero(mask[0])
            for line in table.menu(st, legal):
                write(line)
            action = _ask(table, st, legal, read, write, game_name, rules, hinter)
            if action == "quit":
                abandoned = True
                break
            if action == "undo":
                if len(history) < 2:
                    history.pop()
                    moves_at.pop()
                    write("nothing to undo: this is your first decision.")
                    continue
                history.pop()
                moves_at.pop()
                snap = history.pop()
                del moves[moves_at.pop():]
                st = play_undo.restore(game, snap, cpu_rng)
                total = snap.total
                write("undone: back to your previous decision (the CPUs will answer the same moves the same way).")
                continue
        else:
            obs = game.observe(st, to_play)
            # a search level (expert, ninja_slayer's hard) reads a copy of the state, the others the observation
            action = int(act(policies[to_play], game, st.copy(), np.array([to_play]), obs, mask, cpu_rng)[0])  # type: ignore[arg-type]
        before = st.copy()
        game.step(st, np.array([action]), mask=mask)
        moves.append(int(action))
        total += float(st.rewards[0, seat])
        for line in table.narrate(before, int(action), st):
            write(line)
    write("")
    if abandoned:
        write("game abandoned.")
    else:
        write(table.render(st))
        for line in table.final(st):
            write(line)
    write(f"your total reward: {total:+.3f}")
    return {"position": game.to_position(st, 0), "reward": total, "finished": bool(st.done[0]),
            "record": make_record(game_name, seed, moves, rules, players=[
                {"name": "you", "policy": "person"} if p == seat
                else {"name": who[p], "policy": str(getattr(policies[p], "name", "cpu"))}
                for p in range(game.num_players)])}


def _ask(table: Table, st: Any, legal: np.ndarray, read: Callable[[str], str], write: Callable[[str], None],
         game_name: str, rules: dict[str, Any], hinter: list[Any]) -> int | str:
    """The person's move (an action index), or "quit" / "undo"."""
    while True:
        try:
            answer = read("your move (help, undo, hint, quit): ").strip()
        except EOFError:
            return "quit"
        word = answer.lower()
        if word in QUIT:
            return "quit"
        if word in UNDO:
            return "undo"
        if word in ("help", "h", "?"):
            write(table.help_text())
            continue
        looked_up = _look_up(table, answer)
        if looked_up is not None:
            write(looked_up)
            continue
        if word == "moves":
            write(table.full_list(legal))
            continue
        if word == "hint":
            write(_hint(table, st, legal, game_name, rules, hinter))
            continue
        try:
            return table.parse(answer, st, legal)
        except InputError as e:
            write(str(e))


def _look_up(table: Table, answer: str) -> str | None:
    """The answer to ``card NAME`` or ``? NAME`` (what the card is and does); None for any other answer."""
    head, _, name = answer.partition(" ")
    if head.lower() not in ("card", "?") or not name.strip():
        return None
    found = table.look_up(name.strip())
    if found is None:
        return f"no card {name.strip()!r} to look up here (a card's code, e.g. C29, or a part of its name)"
    return found


def _hint(table: Table, st: Any, legal: np.ndarray, game_name: str, rules: dict[str, Any], hinter: list[Any]) -> str:
    try:
        if not hinter:
            own = getattr(table, "hint_policy", None)  # a game whose CPUs are not in the registry yet
            hinter.append(own() if own is not None else cpu(game_name, "normal", **rules))
    except OptionError as e:  # a game without a heuristic still plays; the hint says why not
        return f"no hint: {e}"
    game = table.game
    obs = game.observe(st, int(st.to_play[0]))
    mask = np.zeros((1, game.num_actions), dtype=bool)
    mask[0, legal] = True
    # Its own generator: asking for a hint must not change what the CPUs draw later.
    action = int(hinter[0].act(obs, mask, np.random.default_rng(0))[0])
    why = table.explain(st, action)
    return f"hint: the normal CPU would play {table.choice(st, action)}" + (f" — {why}" if why else "")
