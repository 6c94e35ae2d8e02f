"""A short search for a constructed ninja_slayer deck that beats the four shipped decks, and its measurement.

    python -m yuugi.training.research.deck_search search --level normal --generations 4 --candidates 7 --games 48
    python -m yuugi.training.research.deck_search measure --games 1000 --seed 1

**search** is a greedy hill-climb over swaps, scored by simulation with the deck-building env's
scorer (:func:`yuugi.seated.deckbuild.scoring.score_decks`, what ``ninja_slayer_deckbuild_v0`` rewards a
finished deck with). Generation 0 scores the starting decks (D1–D4 by default); the best becomes the
current deck. Each later generation scores the current deck and ``candidates`` mutants of it — each
mutant takes one to ``max_move`` copies of one card out and puts as many copies of another card in,
kept legal by the env's pick mask — against every opponent deck, ``games`` games each (seats
alternating), all on the **same seeds** (common random numbers, new seeds every generation, so the
current deck is re-scored with its rivals and an early lucky score does not stick). The objective is
the mean of the win rates against the opponents plus their minimum, halved (beating each one is the
goal, so the weakest match-up counts twice); a mutant replaces the current deck when it scores higher.

**measure** plays the chosen deck against each opponent deck on fresh seeds (another seed namespace
than the search's), ``games`` per opponent split evenly between moving first and second, and stores
the win rate with its Wilson 95% interval, per opponent and per seat, with the exact command.
Both write ``agents/weights/ninja_slayer_built_deck.json`` by default (measure adds to it).
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from yuugi.envs import make_game
from yuugi.seated.deckbuild.matches import SEED_STRIDE
from yuugi.seated.deckbuild.picks import NUM_CARDS, deck_codes, pick_mask
from yuugi.seated.deckbuild.scoring import resolve_policy, score_decks
from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.decks import CONSTRUCTED, DECK_NAMES, validate_constructed
from yuugi.training.eval.evaluate import wilson_ci

GAME = "ninja_slayer"
OUT = Path(__file__).resolve().parent.parent / "agents" / "weights" / "ninja_slayer_built_deck.json"
MEASURE_NAMESPACE = 10**6  # measurement seeds: (MEASURE_NAMESPACE + seed) ..., never a search generation's


def counts_of(deck: Any) -> np.ndarray:
    """Card counts of a deck name (D1..D4), a text such as ``"C01x4 C02x3 ..."`` or a list of codes."""
    if isinstance(deck, str) and deck in CONSTRUCTED:
        ids = CONSTRUCTED[deck]
    elif isinstance(deck, str):
        codes = []
        for item in deck.split():
            code, _, n = item.partition("x")
            if not n.isdigit():
                raise ValueError(f"a start deck is D1..D4 or a text like 'C01x4 C02x3 ...', got item {item!r}")
            codes += [code] * int(n)
        ids = validate_constructed(codes, f"start deck {deck!r}")
    else:
        ids = validate_constructed(deck)
    return np.bincount(np.asarray(ids), minlength=NUM_CARDS)


def deck_text(counts: np.ndarray) -> str:
    return " ".join(f"{C.CODES[c]}x{int(n)}" for c, n in enumerate(counts) if n)


def mutate(counts: np.ndarray, rng: np.random.Generator, max_move: int) -> np.ndarray:
    """Take 1..max_move copies of one card out and put as many of another card in (legal by the pick mask;
    where the new card runs out of room, the rest are picked among the cards the mask allows)."""
    new = counts.copy()
    held = np.flatnonzero(new > 0)
    out = int(rng.choice(held, p=new[held] / new[held].sum()))
    k = int(rng.integers(1, min(max_move, int(new[out])) + 1))
    new[out] -= k
    mask = pick_mask(new)
    mask[out] = False
    card = int(rng.choice(np.flatnonzero(mask)))
    for _ in range(k):
        mask = pick_mask(new)
        if not mask[card]:
            mask[out] = False
            card = int(rng.choice(np.flatnonzero(mask)))
        new[card] += 1
    validate_constructed(deck_codes(new), "a mutant")
    return new


def objective(rates: Sequence[float]) -> float:
    return 0.5 * (float(np.mean(rates)) + float(np.min(rates)))


def score_generation(game: Any, decks: list[np.ndarray], opponents: Sequence[str], policy: Any, games: int,
                     seed: int, generation: int, batch: int) -> np.ndarray:
    """float[len(decks), len(opponents)]: win rates, every deck on the same seeds per opponent."""
    entries = []
    for counts in decks:
        for j, opp in enumerate(opponents):
            seed_start = ((seed * 1000 + generation) * 16 + j) * SEED_STRIDE
            entries.append((deck_codes(counts), opp, games, seed_start))
    rng = np.random.default_rng([seed, generation])
    scores = score_decks(game, entries, policy, policy, rng, "alternate", batch)
    return np.array([s.win_rate for s in scores]).reshape(len(decks), len(opponents))


def search(level: str, opponents: Sequence[str], starts: Sequence[str], generations: int, candidates: int, games: int,
           seed: int, max_move: int, batch: int, log: Any = print) -> dict[str, Any]:
    game = make_game(GAME)
    policy = resolve_policy(level)
    rng = np.random.default_rng(seed)
    t0 = time.time()
    decks = [counts_of(s) for s in starts]
    rates = score_generation(game, decks, opponents, policy, games, seed, 0, batch)
    history = [{"generation": 0, "decks": [deck_text(d) for d in decks], "win_rates": rates.round(4).tolist()}]
    best = int(np.argmax([objective(r) for r in rates]))
    current = decks[best]
    log(f"gen 0: starts {[deck_text(d) if s not in DECK_NAMES else s for s, d in zip(starts, decks)]} objective {[round(objective(r), 3) for r in rates]} -> start {best} "
        f"({time.time() - t0:.0f}s)")
    for gen in range(1, generations + 1):
        pool = [current] + [mutate(current, rng, max_move) for _ in range(candidates)]
        rates = score_generation(game, pool, opponents, policy, games, seed, gen, batch)
        objs = [objective(r) for r in rates]
        best = int(np.argmax(objs))
        history.append({"generation": gen, "decks": [deck_text(d) for d in pool], "win_rates": rates.round(4).tolist(),
                        "chosen": best})
        log(f"gen {gen}: current {objs[0]:.3f} {rates[0].round(3).tolist()}, best mutant "
            f"{max(objs[1:]):.3f}; {'kept' if best == 0 else 'took ' + deck_text(pool[best])} ({time.time() - t0:.0f}s)")
        current = pool[best]
    return {"game": GAME, "deck": deck_codes(current), "deck_text": deck_text(current),
            "ukemi": int(current[C.HAS_UKEMI].sum()), "characters": int(current[C.IS_CHAR].sum()),
            "search": {"level": level, "opponents": list(opponents), "starts": list(starts), "generations": generations,
                       "candidates": candidates, "games_per_opponent": games, "max_move": max_move, "seed": seed,
                       "objective": "(mean + min of the win rates against the opponents) / 2",
                       "seconds": round(time.time() - t0, 1), "history": history}}


def measure(deck: Sequence[str], level: str, opponents: Sequence[str], games: int, seed: int,
            batch: int) -> dict[str, Any]:
    game = make_game(GAME)
    policy = resolve_policy(level)
    t0 = time.time()
    entries = [(list(deck), opp, games, ((MEASURE_NAMESPACE + seed) * 16 + j) * SEED_STRIDE)
               for j, opp in enumerate(opponents)]
    scores = score_decks(game, entries, policy, policy, np.random.default_rng([MEASURE_NAMESPACE, seed]), "alternate",
                         batch)
    rows = []
    for opp, s in zip(opponents, scores):
        lo, hi = wilson_ci(s.wins + 0.5 * s.draws, s.games)
        seat = {}
        for name, (w, l, d) in (("first", s.first), ("second", s.second)):
            n = w + l + d
            slo, shi = wilson_ci(w + 0.5 * d, n)
            seat[name] = {"games": n, "wins": w, "losses": l, "draws": d, "win_rate": round((w + 0.5 * d) / n, 4),
                          "wilson95": [round(slo, 4), round(shi, 4)]}
        rows.append({"opponent": opp, "games": s.games, "wins": s.wins, "losses": s.losses, "draws": s.draws,
                     "win_rate": round(s.win_rate, 4), "wilson95": [round(lo, 4), round(hi, 4)],
                     "beats_at_95": bool(lo > 0.5), "by_seat": seat})
    return {"level": level, "seed": seed, "games_per_opponent": games,
            "seeds": "fresh: a namespace the search never uses", "seconds": round(time.time() - t0, 1),
            "value": "the built deck's (wins + draws / 2) / games, Wilson 95%; half the games moving first",
            "opponents": rows}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m yuugi.training.research.deck_search", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("search", help="hill-climb from the starting decks")
    s.add_argument("--level", default="normal")
    s.add_argument("--opponents", nargs="+", default=list(DECK_NAMES), choices=list(DECK_NAMES))
    s.add_argument("--starts", nargs="+", default=list(DECK_NAMES),
                   help="starting decks: D1..D4 or texts like 'C01x4 C02x3 ...' (default D1 D2 D3 D4)")
    s.add_argument("--generations", type=int, default=4)
    s.add_argument("--candidates", type=int, default=7)
    s.add_argument("--games", type=int, default=48, help="games per deck and opponent (default 48)")
    s.add_argument("--max-move", type=int, default=2)
    m = sub.add_parser("measure", help="measure the stored deck on fresh seeds")
    m.add_argument("--level", default="normal")
    m.add_argument("--opponents", nargs="+", default=list(DECK_NAMES), choices=list(DECK_NAMES))
    m.add_argument("--games", type=int, default=1000, help="games per opponent deck, half in each seat (default 1000)")
    for p in (s, m):
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--batch", type=int, default=1024)
        p.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    command = "python -m yuugi.training.research.deck_search " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv))
    if args.what == "search":
        result = search(args.level, args.opponents, args.starts, args.generations, args.candidates, args.games,
                        args.seed, args.max_move, args.batch, log=lambda t: print(t, flush=True))
        result["search"]["command"] = command
    else:
        if not args.out.exists():
            parser.error(f"{args.out} does not exist: run the search first (it writes the deck there)")
        result = json.loads(args.out.read_text())
        deck = validate_constructed(result["deck"], f"the deck in {args.out}")
        result["measurement"] = {"command": command, **measure([C.CODES[c] for c in deck], args.level, args.opponents,
                                                              args.games, args.seed, args.batch)}
        for row in result["measurement"]["opponents"]:
            print(f"vs {row['opponent']}: {row['win_rate']:.3f} {row['wilson95']} over {row['games']} games")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
