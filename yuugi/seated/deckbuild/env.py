"""``DeckBuildEnv``: build a 50-card constructed ninja_slayer deck one pick at a time, scored by play.

See ``yuugi/seated/ninja_slayer_deckbuild_v0.py`` for the page (spaces, reward, options).
"""
from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from yuugi.envs.core.errors import OptionError
from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.decks import CONSTRUCTED_SIZE, DECK_NAMES, MAX_COPIES, MAX_UKEMI, validate_constructed

from yuugi.seated.deckbuild.picks import NUM_CARDS, check_pick, deck_codes, pick_mask
from yuugi.seated.deckbuild.scoring import SEATS, resolve_policy, score_deck

REWARDS = ("win_rate", "centered")
OPPONENT_DECKS = DECK_NAMES + ("sealed", "constructed")


class DeckBuildEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, level: Any = "normal", opponent_level: Any = None, opponent_deck: Any = "D1", games: int = 32,
                 seats: str = "alternate", reward: str = "win_rate", card_features: bool = False, batch: int = 1024,
                 render_mode: str | None = None, **rules: Any) -> None:
        if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
            raise OptionError(f"games (games played to score a deck) must be a positive integer, got {games!r}")
        if seats not in SEATS:
            raise OptionError(f"seats must be one of {list(SEATS)}, got {seats!r}")
        if reward not in REWARDS:
            raise OptionError(f"reward must be one of {list(REWARDS)}, got {reward!r}")
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if isinstance(opponent_deck, str):
            if opponent_deck not in OPPONENT_DECKS:
                raise OptionError(f"opponent_deck must be one of {list(OPPONENT_DECKS)} or a list of 50 card codes, "
                                  f"got {opponent_deck!r}")
        else:
            opponent_deck = validate_constructed(opponent_deck, "opponent_deck")
        from yuugi.envs import make_game

        self.game = make_game("ninja_slayer", **rules)  # OptionError for a bad rule, before any play
        self.rules = dict(rules)
        self.level, self.opponent_level = level, level if opponent_level is None else opponent_level
        self.opponent_deck, self.games, self.seats, self.reward_kind = opponent_deck, int(games), seats, reward
        self.card_features, self.batch, self.render_mode = bool(card_features), int(batch), render_mode
        self._policies: tuple[Any, Any] | None = None
        size = NUM_CARDS + 2 + (NUM_CARDS * C.NUM_CARD_FEATURES if card_features else 0)
        self.observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.action_space = spaces.Discrete(NUM_CARDS)
        self.reward_range = (-0.5, 0.5) if reward == "centered" else (0.0, 1.0)
        self._static = C.CARD_FEATURES[:NUM_CARDS].astype(np.float32).ravel()
        self.counts = np.zeros(NUM_CARDS, np.int64)
        self.last_score: Any = None

    # ---- gymnasium -----------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        self.counts = np.zeros(NUM_CARDS, np.int64)
        self.last_score = None
        return self._obs(), {"action_mask": self.action_masks()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        card = check_pick(self.counts, action.item() if isinstance(action, np.ndarray) and action.ndim == 0 else action)
        self.counts[card] += 1
        info: dict[str, Any] = {}
        reward = 0.0
        done = int(self.counts.sum()) == CONSTRUCTED_SIZE
        if done:
            deck = validate_constructed(deck_codes(self.counts), "the built deck")
            self.last_score = self.score(deck)
            reward = self.last_score.win_rate - (0.5 if self.reward_kind == "centered" else 0.0)
            info.update(deck=deck_codes(self.counts), win_rate=self.last_score.win_rate, score=self.last_score)
        info["action_mask"] = self.action_masks()
        return self._obs(), float(reward), done, False, info

    def action_masks(self) -> np.ndarray:
        """bool[48]: the cards the constructed rules allow next (sb3-contrib's MaskablePPO reads this)."""
        return pick_mask(self.counts)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        total, ukemi = int(self.counts.sum()), int(self.counts[C.HAS_UKEMI].sum())
        held = " ".join(f"{C.CODES[c]}x{int(n)}" for c, n in enumerate(self.counts) if n)
        text = f"{total}/{CONSTRUCTED_SIZE} cards, {ukemi}/{MAX_UKEMI} ウケミ: {held or '(none)'}"
        if self.last_score is not None:
            text += f"\nscore: {self.last_score.win_rate:.3f} over {self.last_score.games} games"
        return text

    # ---- scoring -------------------------------------------------------------------------------
    def policies(self) -> tuple[Any, Any]:
        """The deck's and the opponent's policies, resolved on first use (imports ``agents`` lazily)."""
        if self._policies is None:
            mine = resolve_policy(self.level, self.rules)
            theirs = mine if self.opponent_level is self.level or self.opponent_level == self.level \
                else resolve_policy(self.opponent_level, self.rules)
            self._policies = (mine, theirs)
        return self._policies

    def score(self, deck: Any) -> Any:
        """Play the finished deck ``games`` times against the opponent deck, seeds from this env's generator."""
        mine, theirs = self.policies()
        seed_start = int(self.np_random.integers(0, 2**40)) * 10
        rng = np.random.default_rng(int(self.np_random.integers(0, 2**63)))
        return score_deck(self.game, deck, self.opponent_deck, mine, theirs, self.games, seed_start, rng,
                          self.seats, self.batch)

    def _obs(self) -> np.ndarray:
        head = np.concatenate([self.counts / MAX_COPIES, [self.counts.sum() / CONSTRUCTED_SIZE,
                                                           self.counts[C.HAS_UKEMI].sum() / MAX_UKEMI]])
        if self.card_features:
            head = np.concatenate([head, self._static])
        return head.astype(np.float32)
