"""``expert``: determinized Monte-Carlo search on the batched core.

For each decision the policy

1. lists the **candidates**: the legal actions in its *guide*'s order of preference, at most
   ``top_n`` of them (daifugō offers up to 2,389 actions; a club player considers few). The guide
   is ``normal`` (the heuristic, asked again with its favourite masked out) or ``hard`` (the shipped
   network: its top logits, dropping candidates it gives less than ``prune`` probability, so a
   decision it is sure of costs nothing);
2. draws ``samples`` **determinizations**: copies of the state in which everything the acting seat
   cannot see is drawn again consistently with what it has seen (its game's ``resample_hidden``:
   opponents' hands, deck orders, sealed bids) and future chance is re-keyed;
3. plays every candidate in every determinization and **rolls out** to the end with the *rollout
   policy* (``normal``, ``hard`` or ``random``) at every seat, all rows of all decisions in one
   batch on the core (the same determinizations serve every candidate: common random numbers, so
   the comparison between candidates is sharper than the noise of each estimate). A game may
   end its rollouts earlier (``HORIZONS``): a daifugō rollout ends with its deal, a ninja_slayer
   one after the opponent's next turn, a nigejozu one three turns ahead, where a horizon with a
   ``value`` estimates each seat's reward from the position (ninja_slayer's and nigejozu's: ``hard``'s
   own win network);
4. repeats 2–3 in rounds while the budget lasts, and plays the candidate with the best mean reward
   for the acting seat, *provided it is better than the guide's own choice with confidence*:
   each candidate is compared with the guide's first choice sample by sample (the paired
   difference of their rewards in the same determinization) and replaces it only when the mean
   difference stays positive after subtracting ``confidence`` standard errors. Without that gate a
   small budget plays noise: with dice and hidden cards a handful of rollouts cannot tell close
   candidates apart, and the argmax of noisy means is a worse choice than the guide's.

Each game's guide, rollout policy, ``top_n``, ``samples``, horizon and searched decisions
(:mod:`yuugi.agents.search.game_search`) were chosen by matches on selection seeds
(``training/eval/expert_ladder.py``). A game may search only some of its decisions (``SEARCH_WHEN``:
momotaro its last battle round, where rollouts are short enough to judge) and plays its guide's
choice in the others.

*Why flat determinized Monte-Carlo and not IS-MCTS:* the core is fast per batch and slow per
call, so a search should issue few, huge batches. Flat Monte-Carlo needs one batch per round for
all decisions, candidates and samples together; a tree search adds a sequential dependency per
simulation. With a sound rollout policy, flat Monte-Carlo is a policy-improvement step
over its guide (one ply of lookahead with exact simulated consequences), which is what makes
it stronger than the guide. Strategy fusion, the known weakness of determinization, costs least
at one ply: the opponents' replies come from the rollout policy, not from a search that sees the cards.

**What it may know.** ``act_state(game, state, seats, rng)`` receives the true state (an evaluation
loop has nothing else to hand over), and immediately replaces everything hidden from the acting
seat by resampling before it simulates; its decision depends only on that seat's information and
``rng`` (tested: the same decision from states that differ only in hidden information).

**Budget.** ``think_ms`` per decision: a batch of B decisions gets ``B × think_ms`` and plays
rounds while the next one is expected to fit (at least ``rounds``). The default, 50 ms, keeps a
game against a person brisk on a 2-core machine. ``think_ms=None`` plays exactly
``rounds`` rounds (deterministic given ``rng``: for tests and reproducible ladders). ``stats``
records decisions, rollouts and seconds, so ``rollouts_per_second`` reports what was achieved.
"""
from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from yuugi.agents.policy import Policy
from yuugi.agents.search.guides import candidates as guide_candidates
from yuugi.agents.search.guides import check_policy_name, resolve
from yuugi.agents.search.game_search import HORIZONS, SEARCH_WHEN, fast_rollout_policy, search_defaults
from yuugi.agents.search.resamplers import resampler
from yuugi.agents.search.rollout import Horizon, rollout
from yuugi.envs.core.game import BatchGame, State


DEFAULT_THINK_MS = 50.0


class ExpertPolicy:
    """Determinized Monte-Carlo search (see the module docstring). Plays through ``act_state``."""

    name = "expert"

    def __init__(self, game_name: str, heuristic: Policy, *, think_ms: float | None = DEFAULT_THINK_MS,
                 samples: int | None = None, top_n: int | None = None, rounds: int = 1, max_rounds: int = 64,
                 max_rows: int = 4096, confidence: float = 1.0, guide: Any = None, rollout_policy: Any = None,
                 prune: float = 0.02, horizon: Horizon | None = None,
                 search_when: Callable[[State], np.ndarray] | None = None, name: str = "expert") -> None:
        defaults = search_defaults(game_name)
        samples = defaults["samples"] if samples is None else samples
        top_n = defaults["top_n"] if top_n is None else top_n
        if think_ms is not None and not think_ms > 0:
            raise ValueError(f"think_ms must be a positive number of milliseconds or None (fixed rounds), got {think_ms!r}")
        for label, value in (("samples", samples), ("top_n", top_n), ("rounds", rounds), ("max_rounds", max_rounds),
                             ("max_rows", max_rows)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{label} must be a positive integer, got {value!r}")
        if top_n < 2:
            raise ValueError(f"top_n must be at least 2 (a search compares candidates), got {top_n}")
        if not 0.0 <= prune < 1.0:
            raise ValueError(f"prune must be a probability in [0, 1), got {prune!r}")
        self.guide_spec = defaults["guide"] if guide is None else guide
        self.rollout_spec = defaults["rollout"] if rollout_policy is None else rollout_policy
        check_policy_name("guide", self.guide_spec)
        check_policy_name("rollout_policy", self.rollout_spec)
        self.name = name  # "hard" where a game's hard level is a short search (yuugi.agents.lookahead)
        self.game_name = game_name
        self.resample = resampler(game_name)
        self.heuristic = heuristic
        self.horizon = horizon if horizon is not None else HORIZONS.get(game_name)
        self.search_when = search_when if search_when is not None else SEARCH_WHEN.get(game_name)
        self.think_ms, self.samples, self.top_n, self.prune = think_ms, samples, top_n, float(prune)
        self.rounds, self.max_rounds, self.max_rows = rounds, max_rounds, max_rows
        if not confidence >= 0:
            raise ValueError(f"confidence must be a non-negative number of standard errors, got {confidence!r}")
        self.confidence = float(confidence)
        self._built: dict[tuple, tuple[Policy, Policy]] = {}
        self._horizons: dict[tuple, Horizon | None] = {}
        self.stats = {"decisions": 0, "searched": 0, "rollouts": 0, "seconds": 0.0}

    def policies_for(self, game: BatchGame) -> tuple[Policy, Policy]:
        """(guide, rollout policy) for ``game``: a ``hard`` network must fit its player count and spaces."""
        key = (game.name, game.num_players, tuple(game.observation_shape), game.num_actions)
        if key not in self._built:
            guide = resolve(self.guide_spec, game, self.heuristic)
            played = resolve(self.rollout_spec, game, self.heuristic)
            self._built[key] = (guide, fast_rollout_policy(self.game_name, played, self.heuristic))
        return self._built[key]

    def horizon_for(self, game: BatchGame) -> Horizon | None:
        """Where rollouts in ``game`` stop: the horizon, bound to the game where it needs it (``for_game``)."""
        key = (game.name, game.num_players, repr(getattr(game, "config", None)))
        if key not in self._horizons:
            bind = getattr(self.horizon, "for_game", None)
            self._horizons[key] = bind(game) if bind is not None else self.horizon
        return self._horizons[key]

    @property
    def rollouts_per_second(self) -> float:
        return self.stats["rollouts"] / self.stats["seconds"] if self.stats["seconds"] > 0 else 0.0

    @property
    def decisions_per_second(self) -> float:
        return self.stats["decisions"] / self.stats["seconds"] if self.stats["seconds"] > 0 else 0.0

    def describe(self) -> dict[str, Any]:
        """The search's settings, for a measurement's record."""
        name = lambda spec: spec if isinstance(spec, str) else getattr(spec, "name", type(spec).__name__)
        out = {"guide": name(self.guide_spec), "rollout_policy": name(self.rollout_spec), "top_n": self.top_n,
               "prune": self.prune, "samples": self.samples, "think_ms": self.think_ms, "rounds": self.rounds,
               "confidence": self.confidence}
        if callable(getattr(self.horizon, "describe", None)):  # (older records name no horizon)
            out["horizon"] = self.horizon.describe()
        return out

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        raise TypeError(f"{self.name} searches from the game state: call act_state(game, state, seats, rng) "
                        "(yuugi.agents.search.dispatch.act picks the right call for any policy)")

    def act_state(self, game: BatchGame, state: State, seats: Any, rng: np.random.Generator) -> np.ndarray:
        """int64[B]: the chosen action of ``seats[i]`` (who must be to play) in each live game of ``state``.

        All B decisions are searched together: their candidates and determinizations are rows of
        one rollout batch (in chunks of at most ``max_rows`` rows).
        """
        b = state.batch_size
        seats = np.broadcast_to(np.asarray(seats, dtype=np.int64), (b,))
        if state.done.any():
            raise ValueError(f"act_state needs live games; games {np.flatnonzero(state.done)[:8].tolist()} are over")
        if not np.array_equal(seats, state.to_play.astype(np.int64)):
            bad = int(np.flatnonzero(seats != state.to_play)[0])
            raise ValueError(f"seat {int(seats[bad])} is not to play in game {bad} (seat {int(state.to_play[bad])} is)")
        started = time.perf_counter()
        guide, played = self.policies_for(game)
        mask = game.legal_mask(state)
        obs = game.observe(state, seats)
        candidates = guide_candidates(guide, obs, mask, self.top_n, self.prune, rng)
        actions = candidates[:, 0].copy()
        worth = candidates[:, 1] >= 0  # one candidate: nothing to think about
        if self.search_when is not None:
            worth &= self.search_when(state)
        search = np.flatnonzero(worth)
        for chunk in self._chunks(search, (candidates[search] >= 0).sum(axis=1) * self.samples):
            actions[chunk] = self._search(game, state.take(chunk), seats[chunk], candidates[chunk], played, rng)
        self.stats["decisions"] += b
        self.stats["searched"] += int(search.size)
        self.stats["seconds"] += time.perf_counter() - started
        return actions

    def _chunks(self, decisions: np.ndarray, rows: np.ndarray) -> list[np.ndarray]:
        """``decisions`` split in order into chunks of at most ``max_rows`` rollout rows (``rows`` each; at least one decision)."""
        out, lo = [], 0
        ends = np.cumsum(rows)
        while lo < decisions.size:
            base = ends[lo - 1] if lo else 0
            hi = max(lo + 1, int(np.searchsorted(ends, base + self.max_rows, side="right")))
            out.append(decisions[lo:hi])
            lo = hi
        return out

    def _search(self, game: BatchGame, state: State, seats: np.ndarray, candidates: np.ndarray, played: Policy,
                rng: np.random.Generator) -> np.ndarray:
        """The best candidate of each decision by mean rollout reward (decisions of one chunk)."""
        started = time.perf_counter()
        d, k, n_cand = state.batch_size, self.samples, candidates.shape[1]
        horizon = self.horizon_for(game)
        valid = candidates >= 0
        # Row layout of a round: decision i, candidate c, sample j; sample j of decision i is one determinization.
        di, ci = np.nonzero(valid)
        det_of_row = (di[:, None] * k + np.arange(k)).reshape(-1)
        decision_of_row = np.repeat(di, k)
        action_of_row = np.repeat(candidates[di, ci], k)
        slot_of_row = np.repeat(di * n_cand + ci, k)
        # Paired differences against the guide's own choice (candidate 0), sample by sample.
        diff_sum = np.zeros((d, n_cand))
        diff_sq = np.zeros((d, n_cand))
        budget = None if self.think_ms is None else self.think_ms * d / 1000.0
        done_rounds = 0
        while True:
            origin = self.resample(game, state.take(np.repeat(np.arange(d), k)), np.repeat(seats, k), rng)
            sims = origin.take(det_of_row)
            first_origin = sims.copy() if horizon is not None else None
            game.step(sims, action_of_row, check=False)
            reward = sims.rewards[np.arange(sims.batch_size), seats[decision_of_row]].astype(np.float64)
            later = rollout(game, sims, played, rng, horizon, first_origin, getattr(horizon, "value", None))
            reward += later[np.arange(sims.batch_size), seats[decision_of_row]]
            per_sample = np.zeros((d * n_cand, k))
            per_sample[slot_of_row, np.tile(np.arange(k), di.size)] = reward
            per_sample = per_sample.reshape(d, n_cand, k)
            diff = per_sample - per_sample[:, :1]
            diff_sum += diff.sum(axis=2)
            diff_sq += (diff ** 2).sum(axis=2)
            self.stats["rollouts"] += sims.batch_size
            done_rounds += 1
            if done_rounds >= self.max_rounds:
                break
            if budget is None:
                if done_rounds >= self.rounds:
                    break
                continue
            elapsed = time.perf_counter() - started
            if done_rounds >= self.rounds and elapsed * (done_rounds + 1) / done_rounds > budget:
                break
        n = done_rounds * k
        mean = diff_sum / n
        spread = np.sqrt(np.maximum(diff_sq / n - mean ** 2, 0.0) / max(n - 1, 1))
        lower = np.where(valid, mean - self.confidence * spread, -np.inf)
        lower[:, 0] = 0.0  # the guide's choice is the reference
        best = lower.argmax(axis=1)  # the first maximum: the guide's preference among ties
        return candidates[np.arange(d), best]
