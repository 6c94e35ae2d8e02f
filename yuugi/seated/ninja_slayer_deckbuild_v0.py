"""
# Ninja Slayer deck building (`ninja_slayer_deckbuild_v0`)

| | |
|---|---|
| Import | `from envs import ninja_slayer_deckbuild_v0` |
| Gymnasium id | `yuugi/ninja_slayer_deckbuild-v0` (registered by `import envs`) |
| Agents | one (single-agent Gymnasium env) |
| Action space | `Discrete(48)`: the card to add, in the card table's order (0 = C01 … 31 = C32, 32 = K01 … 47 = K16) |
| Action mask | `env.action_masks()` (sb3-contrib's convention), also `info["action_mask"]`, `bool[48]` |
| Observation | `Box(0, 1, (50,), float32)`; `(3314,)` with `card_features=True` |
| Episode | exactly 50 picks; the 50th is scored by play |

Build a constructed deck for the card game `ninja_slayer` (see `envs/ninja_slayer_v0.py` and
`docs/rules/ninja_slayer.md`) one card at a time, then play it. Each step adds one copy of a card of
the pool of 48. The mask allows a card while the deck can still become legal under the constructed
rules of `yuugi.envs.ninja_slayer.decks` (at most 4 copies of a card — a card is its name with its 二つ名,
one code — and at most 16 cards with ウケミ, 50 cards in all); the finished deck goes through the
same validator (`validate_constructed`) as any explicit deck list. A masked pick raises
`IllegalActionError` naming the card and the rule it breaks, and the env is left as it was.

After the 50th pick the deck is played `games` times on the batched core against `opponent_deck`:
the deck by the CPU `level`, the opponent by `opponent_level` (the same as `level` unless given).
Seat 0 moves first in every game played (the game draws the first player; the scorer keeps the
seeds whose draw gave seat 0 the first move), and `seats` says where the built deck sits.

## Observation
`counts[c] / 4` for the 48 cards, then the deck's size / 50 and its ウケミ count / 16. With
`card_features=True`, the 48 cards' static features follow (`yuugi.envs.ninja_slayer.cards.CARD_FEATURES`,
68 floats each: type, cost, カラテ, 工作力, keywords, trigger, opcode, argument, target kind, ウケミ
effect, activation cost), the same features the game's observation gives every card, so a policy
may read cards by what they do. They never change during an episode.

## Reward
0 on every pick but the last; on the 50th pick, the deck's score: its wins plus half its draws
(a truncated game is a draw) over the `games` games, in [0, 1] (`reward="win_rate"`), or that minus
0.5, in [−0.5, 0.5] (`reward="centered"`). `info` on the last step holds `deck` (its 50 card codes),
`win_rate` and `score` (wins, losses, draws, and the split by seat).

## Options (`ninja_slayer_deckbuild_v0.env(**options)`)
* `level` ("normal"): the deck's CPU — a level name (`random`, `easy`, `normal`, `hard` when
  shipped), a path to weights, `module:attr`, or a policy object (`act(observation, mask, rng)`).
  Names and paths are turned into policies by `yuugi.agents.adapters.as_policy`, **imported inside the
  scoring function when the first deck is scored**: importing this module or `envs` never imports
  `agents`, and a policy object is used as it is.
* `opponent_level` (None: the same as `level`): the opponent's CPU, the same kinds.
* `opponent_deck` ("D1"): `D1`–`D4`, `sealed` (fresh packs per game), `constructed` (one of D1–D4 at
  random per game), or an explicit list of 50 card codes (validated).
* `games` (32): games played to score a deck (k).
* `seats` ("alternate"): the built deck moves first in half the games (the odd one first), or always
  `"first"`, or always `"second"`.
* `reward` ("win_rate" or "centered"), `card_features` (False), `batch` (1024: games played at once),
  `render_mode` (None or "ansi": the picks so far and the last score), and any rule option of
  `ninja_slayer` (`deckout_rule`, `max_turns`, …), passed to the game that scores the deck.

## Seeding
`reset(seed=s)` seeds the env's generator, from which each scoring draws its game seeds and its
policies' random generator: the same seed and the same picks give the same reward.

## Scoring speed
A game takes about 130 agent decisions under random play and about 280 under `normal` (auto-taken
forced decisions not counted); the scorer plays all `games` in one batch, so a deck scored with
`random` play costs well under a second for k = 32, and with `normal` a few seconds.

## Version history
* v0: first release.
"""
from __future__ import annotations

from typing import Any

from yuugi.envs.registration import DECKBUILD_ID as ENV_ID  # noqa: F401  (the Gymnasium id)


def env(**options: Any) -> Any:
    """The deck-building env (see the module's text for the options)."""
    from yuugi.seated.deckbuild.env import DeckBuildEnv

    return DeckBuildEnv(**options)
