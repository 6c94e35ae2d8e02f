"""Position mutation fuzz over every registered game (a game added to ``envs.GAMES`` is fuzzed too).

Real positions come from random play. Each is first loaded as it is (it must load and round-trip
exactly), then mutated one to three times: a key deleted, a value of the wrong type, NaN, a huge
number, a boolean, a value crossed over from another position, a card (or any listed name) moved to
another list, an extra key, an integer nudged by one, or another game's position. Each mutated
position must either be rejected with ``PositionError`` naming a field path, or load into a state
that passes the game's invariants, round-trips through ``to_position`` and plays on to the end.
Nothing else may escape (no ``TypeError``, ``KeyError``, numpy errors...).
"""
from __future__ import annotations

import copy
import functools
import json
import math
import re
import zlib
from typing import Any, Callable

import numpy as np
import pytest

from yuugi import envs
from yuugi.envs import make_game
from yuugi.envs.core.errors import PositionError
from yuugi.envs.core.game import BatchGame, State
from yuugi.envs.core.sampling import random_legal

GAME_NAMES = sorted(envs.GAMES)
FAST_MUTATIONS = 300  # per game in the default suite
FUZZ_MUTATIONS = 4000  # per game under -m fuzz
MAX_PLAY_STEPS = 20_000


def _invariant_checks() -> dict[str, Callable[[BatchGame, State], None]]:
    """Each game's own invariant checks (tests/<game>/invariants.py); other games get the generic ones."""
    from tests.momotaro import invariants as momotaro
    from tests.nigejozu import invariants as nigejozu
    from tests.ninja_daifugo import invariants as ninja_daifugo
    from tests.ninja_slayer import invariants as ninja_slayer
    return {
        "ninja_daifugo": lambda g, st: ninja_daifugo.check_invariants(st, g.legal_mask(st)),
        "nigejozu": lambda g, st: nigejozu.check_invariants(g, st, g.legal_mask(st)),
        "momotaro": lambda g, st: momotaro.check_state(g, st),
        "ninja_slayer": lambda g, st: ninja_slayer.check_invariants(g, st, g.legal_mask(st)),
    }


def check_state(name: str, g: BatchGame, st: State) -> None:
    """Generic invariants (a live game offers an action, a finished one none, finite observations),
    then the game's own."""
    mask = g.legal_mask(st)
    assert mask[~st.done].any(axis=1).all(), "a live game without a legal action"
    assert not mask[st.done].any(), "a finished game with legal actions"
    for seat in range(g.num_players):
        assert np.isfinite(g.observe(st, seat)).all(), f"non-finite observation for seat {seat}"
    check = _invariant_checks().get(name)
    if check is not None:
        check(g, st)


# ---- real positions from random play ------------------------------------------------------------
def rule_sets(name: str) -> list[dict[str, Any]]:
    """The default rules and the other rule sets the trace check uses for this game (if any)."""
    from yuugi.training.bench.trace_hash import RULE_SETS
    return RULE_SETS.get(name, [{}])


@functools.lru_cache(maxsize=None)
def real_positions(name: str, rules: tuple[tuple[str, Any], ...] = (), games: int = 12,
                   every: int = 5) -> tuple[str, ...]:
    """JSON texts of positions met in random play (every ``every`` steps, and each game's end)."""
    g = make_game(name, **dict(rules))
    st = g.init(np.arange(games))
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    out: list[str] = []
    ended = np.zeros(games, dtype=bool)
    for step in range(MAX_PLAY_STEPS):
        for i in range(games):
            if (step % every == 0 and not st.done[i]) or (st.done[i] and not ended[i]):
                out.append(json.dumps(g.to_position(st, i), allow_nan=False))
        ended |= st.done
        if st.done.all():
            break
        g.step(st, random_legal(g.legal_mask(st), rng), check=False)
    return tuple(out)


# ---- mutations ----------------------------------------------------------------------------------
Path = tuple[Any, ...]
WRONG_TYPES: tuple[Any, ...] = ("x", "", [], {}, None, 1.5, -1, 0, [None], {"k": 1}, [[]], "0", np.int64(2),
                                np.float64(1.0), np.bool_(True), (1, 2))
HUGE: tuple[Any, ...] = (2 ** 70, -2 ** 63, 1e39, -1e308, 2 ** 31, 10 ** 12, 10 ** 400)


def _nodes(tree: Any, path: Path = ()) -> list[Path]:
    """Every path below ``tree`` (dict keys and list indices)."""
    out: list[Path] = []
    items = tree.items() if isinstance(tree, dict) else enumerate(tree) if isinstance(tree, list) else ()
    for key, child in items:
        out.append(path + (key,))
        out.extend(_nodes(child, path + (key,)))
    return out


def _walk(tree: Any, rng: np.random.Generator) -> Path:
    """A random path: a random key at each level, stopping at each level with probability 1/2, so
    that every top-level field is hit as often as the others, however large it is."""
    path: Path = ()
    while True:
        keys = list(tree) if isinstance(tree, dict) else list(range(len(tree))) if isinstance(tree, list) else []
        if not keys or (path and rng.random() < 0.5):
            return path
        key = keys[rng.integers(len(keys))]
        path, tree = path + (key,), tree[key]


def _get(tree: Any, path: Path) -> Any:
    for key in path:
        tree = tree[key]
    return tree


def _set(tree: Any, path: Path, value: Any) -> Any:
    if not path:
        return value
    _get(tree, path[:-1])[path[-1]] = value
    return tree


def mutate(pos: Any, rng: np.random.Generator, same_game: list[Any], other_games: list[Any]) -> tuple[Any, str]:
    """One mutation of ``pos`` (a JSON tree, changed in place where it can be); returns it and a label."""
    nodes = _nodes(pos)
    kind = ["delete", "wrong_type", "nan", "huge", "bool", "crossover", "move_name", "extra_key", "nudge",
            "other_game"][rng.integers(10)]
    pick = (lambda seq: copy.deepcopy(seq[rng.integers(len(seq))]))  # a copy: the tree never shares a node
    if kind == "other_game" or not nodes:
        other = pick(other_games)
        if rng.random() < 0.5 or not nodes:
            return copy.deepcopy(other), "other_game:whole"
        path = pick(nodes)
        sub = _nodes(other)
        value = copy.deepcopy(_get(other, pick(sub))) if sub else copy.deepcopy(other)
        return _set(pos, path, value), f"other_game:{path}"
    if kind == "delete":
        path = _walk(pos, rng)
        parent = _get(pos, path[:-1])
        del parent[path[-1]]
        return pos, f"delete:{path}"
    if kind == "extra_key":
        dicts = [()] + [p for p in nodes if isinstance(_get(pos, p), dict)]
        path = pick(dicts)
        _get(pos, path)[f"extra_{rng.integers(100)}"] = pick(WRONG_TYPES)
        return pos, f"extra_key:{path}"
    if kind == "crossover":
        donor = pick(same_game)
        path = _walk(pos, rng)
        try:
            value = copy.deepcopy(_get(donor, path))
        except (KeyError, IndexError, TypeError):
            donor_nodes = _nodes(donor)
            value = copy.deepcopy(_get(donor, pick(donor_nodes)))
        return _set(pos, path, value), f"crossover:{path}"
    if kind == "move_name":
        lists = [p for p in nodes if isinstance(_get(pos, p), list) and any(isinstance(x, str) for x in _get(pos, p))]
        if len(lists) >= 1:
            src = _get(pos, pick(lists))
            dst_path = pick(lists + [p for p in nodes if isinstance(_get(pos, p), list)])
            names = [k for k, x in enumerate(src) if isinstance(x, str)]
            name = src.pop(pick(names))
            _get(pos, dst_path).append(name)
            return pos, f"move_name:{name}->{dst_path}"
        kind = "wrong_type"
    path = _walk(pos, rng)
    if kind == "nudge":
        ints = [p for p in nodes if isinstance(_get(pos, p), int) and not isinstance(_get(pos, p), bool)]
        if ints:
            path = pick(ints)
            return _set(pos, path, _get(pos, path) + pick([-2, -1, 1, 2])), f"nudge:{path}"
    value = {"wrong_type": lambda: pick(WRONG_TYPES), "nan": lambda: pick([math.nan, math.inf, -math.inf]),
             "huge": lambda: pick(HUGE), "bool": lambda: bool(rng.integers(2))}.get(kind, lambda: pick(WRONG_TYPES))()
    return _set(pos, path, value), f"{kind}:{path}"


# ---- the check of one mutated position ----------------------------------------------------------
def _root(field: str) -> str:
    return re.split(r"[.\[]", field, maxsplit=1)[0]


def try_position(name: str, g: BatchGame, pos: Any, seed: int, allowed_roots: set[str]) -> State | None:
    """Load ``pos``: a PositionError naming a field path, or a consistent state that round-trips."""
    try:
        st = g.from_position(pos, seed=seed)
    except PositionError as e:
        assert isinstance(e.field, str) and e.field and repr(e.field) in str(e), f"unnamed field: {e!r}"
        assert _root(e.field) in allowed_roots, f"field {e.field!r} is not a path of the position"
        return None
    check_state(name, g, st)
    again = g.to_position(st)
    json.dumps(again, allow_nan=False)  # JSON-safe, no NaN
    back = g.from_position(again, seed=seed)
    assert g.to_position(back) == again, "to_position(from_position(p)) != p"
    return st


def play_to_the_end(name: str, g: BatchGame, loaded: list[tuple[State, list[str], Any]], seed: int) -> None:
    """Random legal play from every loaded state at once, checking the invariants at each step; a
    failure names the mutations and the position that loaded the failing game."""
    if not loaded:
        return
    st = State.concat([s for s, _, _ in loaded])
    rng = np.random.default_rng(seed)
    for step in range(MAX_PLAY_STEPS):
        if st.done.all():
            return
        g.step(st, random_legal(g.legal_mask(st), rng))
        try:
            check_state(name, g, st)
        except AssertionError as e:
            bad = [i for i in range(st.batch_size) if _fails(name, g, st.take(np.array([i])))]
            culprits = [f"{loaded[i][1]} -> {loaded[i][2]!r}" for i in bad[:2]]
            raise AssertionError(f"{name}: after {step + 1} random steps: {e}; loaded from {culprits}") from e
    raise AssertionError(f"{int((~st.done).sum())} loaded games did not end within {MAX_PLAY_STEPS} steps")


def _fails(name: str, g: BatchGame, st: State) -> bool:
    try:
        check_state(name, g, st)
    except AssertionError:
        return True
    return False


def run_fuzz(name: str, mutations: int, seed: int, rules: dict[str, Any] | None = None) -> dict[str, int]:
    rules = rules or {}
    g = make_game(name, **rules)
    rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
    same = [json.loads(t) for t in real_positions(name, tuple(sorted(rules.items())))]
    others = [json.loads(t) for other in GAME_NAMES if other != name for t in real_positions(other)[::7]]
    others = others or [{"game": "another_game"}]
    known_keys = {str(key) for pos in same for key in pos}
    counts = {"real": 0, "rejected": 0, "loaded": 0}
    loaded: list[tuple[State, list[str], Any]] = []
    for text in real_positions(name, tuple(sorted(rules.items())))[:: max(1, len(same) // 50)]:  # load as they are
        pos = json.loads(text)
        st = g.from_position(pos, seed=1)
        assert g.to_position(st) == pos, "a position written by to_position does not round-trip"
        counts["real"] += 1
    for k in range(mutations):
        base = copy.deepcopy(same[rng.integers(len(same))])
        roots = {"position", "seed"} | known_keys
        pos, log = base, []
        for _ in range(1 + rng.integers(3)):
            pos, label = mutate(pos, rng, same, others)
            log.append(label)
            if isinstance(pos, dict):
                roots |= {str(key) for key in pos}
        try:
            st = try_position(name, g, pos, seed=k, allowed_roots=roots)
        except Exception as e:  # noqa: BLE001 - the report names the mutations that led here
            raise AssertionError(f"{name}: mutations {log} -> {type(e).__name__}: {e}\n{pos!r}") from e
        counts["loaded" if st is not None else "rejected"] += 1
        if st is not None:
            loaded.append((st, log, pos))
    play_to_the_end(name, g, loaded, seed)
    return counts


@pytest.mark.parametrize("name", GAME_NAMES)
def test_position_mutations(name: str) -> None:
    counts = run_fuzz(name, FAST_MUTATIONS, seed=0)
    assert counts["rejected"] > 0 and counts["loaded"] > 0, counts  # both outcomes are exercised


@pytest.mark.fuzz
@pytest.mark.parametrize("name,rule_set", [(n, k) for n in GAME_NAMES for k in range(len(rule_sets(n)))])
def test_position_mutations_long(name: str, rule_set: int) -> None:
    """More mutations, under each rule set of the trace check (a game without them: its defaults)."""
    run_fuzz(name, FUZZ_MUTATIONS, seed=1 + rule_set, rules=rule_sets(name)[rule_set])
