"""# Momotarō: 鬼ヶ島 (Onigashima, the oni battle)

| | |
|---|---|
| Import | `from envs import momotaro_v0` |
| Agents | `player_0` .. `player_{N-1}`, N = `num_players` ∈ {2, 3, 4} (default 4) |
| Action space | `Discrete(K0 + 96)`: `Discrete(111)` with the default 15 kibidango |
| Action mask | `observation["action_mask"]`, `int8[K0 + 96]` (also `infos[agent]["action_mask"]`) |
| Observation | `Box(0, 1, (56·N + 144,), float32)`: 256 / 312 / 368 floats for 2 / 3 / 4 players |
| Episode | hiring (9 auctions) then 3 battle rounds; rank rewards at the end |

Each player is a village's warrior (power 3). First the 9 retainers (イヌ/サル/キジ 1–3, marks グー/パー/
チョキ) are hired one at a time by sealed kibidango bids; then the players fight the 12 oni over three
rounds of 4 new oni each, sending one of 58 legal card sets against an oni of their choice, adding
janken modifiers and a red (oni) and a white (player) die. Defeated oni become treasure; 黒鬼
regenerates, 黄鬼 can be taken as potions. The rules for people — every rule, the options and the
rulings we made where the original is silent — are `docs/rules/momotaro.md`.

## Observation (from the observing seat: self first, then the next seats clockwise)
Phase, round, lap and turn slots left, the observer's absolute seat, the seat to play and the round's
start player; for every player: alive, kibidango, potions, treasure, cards in play with their damage,
cards knocked out and cards damaged in their latest battle; the retainer on auction, the retainers
still face down (as a set), declined retainers; who bids in the current stage and who has bid; bid
values where known; the previous auction's revealed bids; the oni on the field with damage, in the
deck (as a set), taken as treasure or potions; this turn's target oni, the cards sent, pending damage,
the last dice and the last outcome; battle turns. The exact blocks are in
`yuugi.envs.momotaro.observation` (`layout(N)`). Hidden: another seat's sealed bid (only "has bid" shows
until the stage's bids are revealed) and the order of both decks.

## Actions (K0 = kibidango per player, 15 by default)
| Range (K0 = 15) | Meaning |
|---|---|
| 0–15 | BID n: the first sealed bid (D1) or the additional bid after a tie (D2) |
| 16, 17 | TAKE / DECLINE the retainer after winning janken (D3) |
| 18–27 | HEAL card c (c = 0 the warrior with a potion; 1–9 a retainer with a kibidango) (D4) |
| 28 | END HEAL (D4b) |
| 29–40 | ATTACK oni o: R4 R5 R6 B4 B5 B6 G4 G5 G6 X6 Y2 Y4 (D5) |
| 41–98 | SEND card set k, the 58 sets of Appendix A (D6) |
| 99–108 | DAMAGE card c: the card that takes the loss (or the draw's 1 damage) (D7) |
| 109, 110 | YELLOW oni reward: TREASURE / POTION (D8) |

Cards: 0 = W, 1–3 = I1–I3 (イヌ), 4–6 = S1–S3 (サル), 7–9 = K1–K3 (キジ). `Game().describe_action(a)` and
`action_label(a)` name any index.

## Rewards
At the game's end, by rank (§5.7: surviving warriors above eliminated players, then treasure,
surviving retainers, kibidango; a full tie shares the rank). `reward_scheme="winner"` (default):
+1 to the winner and −1/(N−1) to every other player; k players sharing first place get
(N−k)/(k·(N−1)) each. `"linear"`: 1 − 2·(rank−1)/(N−1), tied players averaging the places they
cover. Both sum to zero. A truncated game (see `max_turns`) gives no rewards.

## Options (`env(**rules)`, `make_game("momotaro", **rules)`)
`num_players` (4), `kibi_per_player` (15, or `"60/N"`), `warrior_value` (3), `colored_values`
((4, 5, 6)), `green_mark` ("paper"), `monkey_mark` ("paper"), `laps_per_round` ({2: 3, 3: 2, 4: 2}
or an integer), `heal_any_turn` (True), `damage_reduces_power` (True), `reward_scheme` ("winner"),
`max_turns` (300 battle turns, then truncation). §12's `treasure_equals_power`, `declined_retainer`,
`janken`, `black_regen` and `public_hands` are accepted with their only defined value.

## Rulings where the original rules are silent (reasons in `docs/rules/momotaro.md`)
* Sealed bids are taken in seat order (0, 1, …; tied seats in seat order for the additional bid).
  The order carries no information: a seat sees only *that* earlier seats have bid, never how much,
  until the stage's bids are all in. The previous auction's bids stay visible (they were revealed).
* Every decision point of §6 is asked even with one legal action (e.g. `BID 0` with no kibidango, the
  only oni on the field), except the two §6 skips: no heal step when nothing can be healed (the heal
  step also ends by itself once nothing more can be healed) and no D7 when one card fought.
* A draw that defeats 黄鬼: the treasure-or-potion choice (D8) comes before the draw's 1 damage to a
  card, since the oni's damage is applied first (§5.2-6); a player whose warrior that damage then
  knocks out keeps the reward.
* Damage beyond what knocks a card out is discarded; a card's recorded damage is capped at its printed
  power (likewise for a defeated oni), so damage never exceeds power.
* In the strict heal variant (`heal_any_turn=False`) the damage a player's cards took in their latest
  battle may be healed at the start of their next turn only; after that turn's heal step it can no
  longer be healed.
* During the yellow-reward choice the defeated 黄鬼 is still listed on the field (with damage equal
  to its power) until the choice flips it; positions show it that way.
* A truncated game (`max_turns`, never reached in random or heuristic play) ends without rewards.
* `render()` without a seat shows everything, sealed bids included (like the other games' omniscient
  view); `render_text(state, i, seat)` shows another seat's sealed bid only as "bid".

## Performance
Random legal play on the batched core (legal mask + the acting seat's observation + step, finished
games replaced) runs at about 440–530k decisions/s at B = 1024 on one CPU core:
`yuugi bench momotaro --batch 1024` (the same protocol for every game; see BENCHMARKS.md).

## Version history
* v0: first release.
"""
from __future__ import annotations

from yuugi.envs.faces.versioned import env_factories
from yuugi.envs.momotaro.game import Momotaro as Game

raw_env, env = env_factories(Game)

__all__ = ["Game", "env", "raw_env"]
