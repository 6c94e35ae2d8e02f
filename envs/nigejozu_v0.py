"""# Nigejozu (逃げ上手の若君 天下統一ボードゲーム!)

| | |
|---|---|
| Import | `from envs import nigejozu_v0` |
| Agents | `hojo` (北条, seat 0), `ashikaga` (足利, seat 1) |
| Action space | `Discrete(29)` |
| Action mask | `observation["action_mask"]`, `int8[29]` (also `infos[agent]["action_mask"]`) |
| Observation | `Box(0, 1, (241,), float32)` |
| Episode | one game: about 20 turns, about 45 decisions (at most about 250) |

Two-player dice area control, the Shōnen Jump GIGA 2023 collaboration of 天下鳴動 (Rumble Nation).
Each turn a player either rolls 3 dice (one full reroll allowed), splits them into a pair (the
province whose chip shows the pair's sum) and a single die (1-2 → 1, 3-4 → 2, 5-6 → 3 troops), or
plays one of their 3 strategy cards (once per game, only while both hands hold troops). The first
player to empty their hand takes the 逃げチップ (escape chip, wins ties); the other then plays
consecutive turns. Then the battle: provinces in chip order 2..12; the stronger side (troops +
援軍) takes the chip and sends 1 援軍 to each adjacent province whose chip is still on the map and
holds its troops. The higher chip total wins. The rules for people — the map, the twelve cards, the
options and the rulings we made with their reasons — are `docs/rules/nigejozu.md`.

## Map
11 provinces P0..P10: 九州, 四国, 種子島, 播磨, 京, 敦賀, 三河, 信濃, 奥州, 鎌倉, 蝦夷. Sea links
九州–四国, 九州–種子島, 九州–播磨, 四国–播磨, 四国–京, 奥州–蝦夷; land borders 播磨–京, 京–敦賀,
京–三河, 敦賀–三河, 敦賀–信濃, 三河–信濃, 三河–鎌倉, 信濃–奥州, 信濃–鎌倉, 奥州–鎌倉. 九州, 四国,
種子島 and 蝦夷 are sea-surrounded (no land border). Chips 2..12 are shuffled onto them each game.

## Observation (241 floats in [0, 1], from the observing seat: self first, then the opponent)
Per province in map order: chip one-hot (11×11) and (chip − 2)/10; own and opponent troops / 18;
hands / 18; removed troops / 18; escape chip (nobody/self/opp); the usable card faces of each side
(2×12); card markers placed (2); cards locked; to move; phase one-hot (turn_start, dice, rerolled,
card, over); the sorted dice one-hot (3×6); reroll available; the card being resolved (12), its
step (choose X / choose Y), the province X chosen in step 0 (11), picks made by 退却/上洛 / 18; and
the final scores / 77. Exact offsets: `yuugi.envs.nigejozu.observation.LAYOUT` / `OFFSETS`. There is no
hidden information apart from future dice.

## Actions
| Index | Meaning | Legal when |
|---|---|---|
| 0 | ROLL | start of a turn |
| 1–12 | CARD(e), e = 加勢 物見 人質 追放 謀反 囮 神力 山越え 退却 忍 分隊 上洛 | start of a turn (see below) |
| 13 | REROLL | after the first roll |
| 14–16 | COUNT_DIE(i): sorted die i is the count, the other two the province | after a roll (see below) |
| 17–27 | PROVINCE(x) | a card's target step (see `EFFECT_TEXT` and `docs/rules/nigejozu.md`) |
| 28 | DONE | finishing 上洛 after at least one move |

A card is legal when it is the player's own face, their marker is unused, both hands hold troops
and the effect can be completed (§3.3 preconditions, e.g. 山越え needs 2 troops with a land border).
COUNT_DIE(i) is masked when die i equals die i − 1 (the same split). `Game().describe_action(a)` /
`action_label(a)` name any index. The same agent often acts several
times in a row (reroll decisions, card steps, consecutive turns): follow `agent_selection`.

## Rewards
On the step that ends the game (the last placement, which also runs the battle): +1 to the winner,
−1 to the loser (`reward_scheme="score_diff"`: (own chips − other's chips) / 77 instead). 0 otherwise.

## Options (`env(**rules)`)
`troops_per_player` (18, 12..18), `taikyaku_n` (3, 1..6), `muhon_returns_to_hand` (True; False removes
the bounced troop from the game), `reinf_per_win` (1, 1..3), `card_model` ("paired6" or "single12"),
`face_pairing` (six (Hojo face, Ashikaga face) pairs; default the table in `docs/rules/nigejozu.md`),
`reward_scheme` ("win_loss" or "score_diff"). Unknown options raise `OptionError`.

## Positions
`Game().to_position(state, i)` / `from_position(dict)`: JSON with province, faction and card names;
see `yuugi.envs.nigejozu.position`. `reset(options={"position": ...})` starts the AEC env from one.

## Rulings where the original rules are silent (reasons in `docs/rules/nigejozu.md`)
* Province names are ours except 京, 敦賀, 信濃 and 鎌倉, which the original names; P2 is 種子島.
* COUNT_DIE indices refer to the dice sorted ascending; the province and count follow from the
  choice, so the split is one decision.
* The battle phase has no decisions: it runs inside the step that empties the last hand, and that
  step carries the terminal rewards. `to_play` then stays on the player who made it.
* A card's target steps are decisions of the card's user, one PROVINCE(x) each; a two-step card
  picks the source X, then the destination Y. Once chosen, a card cannot be abandoned.
* Cards stay visible after use; the used card carries the player's marker (`used`), so a player who
  used one card keeps seeing (and showing) the other two.
* Under `single12` the 12 single-effect cards are shuffled and 3 dealt to each side (6 unused), so
  the two sides never hold the same effect. Under `paired6` the dead faces of dealt cards (the other
  faction's effects) are shown by `render` but never usable.
* With `muhon_returns_to_hand=False` the bounced troop is counted in `removed`; hands + board +
  removed = `troops_per_player` for each side, always.
* `score_diff` rewards carry no tie-break: a tied score gives 0 to both even though the escape chip
  holder wins (`Game().winner(state)` reports the winner).
* Observation troop counts are divided by 18 whatever `troops_per_player`, so one policy reads
  every variant on the same scale.
* The game always ends (hands only shrink outside 退却/謀反, which are once per game each), so
  there is no truncation option.
* Positions may give a side fewer than 3 cards (puzzles); every loaded position must be reachable
  in form (troop totals, escape chip, phase) and have a legal continuation.

## Version history
* v0: first release.
"""
from __future__ import annotations

from yuugi.envs.faces.versioned import env_factories
from yuugi.envs.nigejozu.game import Nigejozu as Game

raw_env, env = env_factories(Game)

__all__ = ["Game", "env", "raw_env"]
