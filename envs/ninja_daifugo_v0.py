"""# Ninja Daifugō (忍者大富豪)

| | |
|---|---|
| Import | `from envs import ninja_daifugo_v0` |
| Agents | `player_0` .. `player_3` (seat 0 is "you"; 1 ジライヤ, 2 お館様, 3 モコ in the faithful table) |
| Action space | `Discrete(2389)` |
| Action mask | `observation["action_mask"]`, `int8[2389]` (also `infos[agent]["action_mask"]`) |
| Observation | `Box(0, 1, (901,), float32)` |
| Episode | a series of `series_games` games (default 5), rewards at each game's end |

Four-player daifugō with revolution, 8-cut, ♠3 return, sequences, suit lock (縛り), 都落ち, tribute
and exchange between games, the Lord's per-game declaration (お館様の気まぐれ宣言), and the ninja
layer: ninja points earned by plays (cap 6), four ninjutsu — 足止め (skip), 手裏剣 (throw a card),
雷遁 (clear the field), 変化 (boost this turn's play) — at levels 1–5, schools (雷, 変化, 妨害)
and 極意. The rules for people — every rule, the options, and the rulings we made with their
reasons — are `docs/rules/ninja_daifugo.md`; this page is the programming interface.

A turn may take several decisions by the same agent: an optional jutsu activation (then, for
手裏剣, the card to throw), then the play or pass. `agent_selection` stays on the player meanwhile.

## Observation (901 floats in [0, 1], from the observing seat: self, +1, +2, +3)
Own hand (53), cards each seat played face up this game (4×53), cards known to be in each
opponent's hand — given to them in tribute/exchange, or thrown by 手裏剣 (3×53), field cards (53),
field kind (empty/single/group/sequence) and joker-single flag, field size one-hot 0..13,
effective low and high represented ranks (13+13), field owner, responses/3, lock flag+suits, the
field play's natural suits (the lock reference), revolution, 11-back, hand counts/23, finished flags
and finishing positions, titles from the previous game, the 都落ち candidate, ninja points, the
jutsu table, pending skips, the declaration one-hot, own school, phase (play/exchange/shuriken),
picks left and cards picked so far (own only), jutsu-used/変化 flags, cards received and given in
tribute/exchange, game index, series scores, the 都落ち card count/23 — then four blocks appended
after the first release's 877 columns: the seat to play (one-hot; all zero once the series is
over), the seats that passed or were skipped on the current field play (under `pass_lockout`: in
the whole trick, since they stay out of it), the target of a pending 手裏剣 throw (one-hot, the
observer included; zero when none is pending), and each opponent's school (none/雷/変化/妨害).
Card counts are divided by 23, the largest hand the rules allow (a dealt hand holds at most 14
cards and only 手裏剣 adds any: at most 3 uses by each of three opponents), so they never
saturate; a hand loaded from a position that no game can reach is capped at 1. The exact offsets
are `yuugi.envs.ninja_daifugo.observation.LAYOUT`. Opponents' hands never appear.

## Actions
| Range | Meaning |
|---|---|
| 0 | PASS (illegal when leading) |
| 1–53 | single card c = 4·rank + suit (53 = joker) |
| 54–196 | group of naturals: `54 + 11 r + m` |
| 197–391 | group with the joker: `197 + 15 r + m` |
| 392–655 | sequence of naturals: `392 + 66 s + off3[L] + start` |
| 656–2327 | sequence with the joker at position p: `656 + 418 s + offJ[L] + start·L + p` |
| 2328–2330 | 足止め on the seat +1/+2/+3 after you |
| 2331–2333 | 手裏剣 on the seat +1/+2/+3 after you |
| 2334 | 雷遁 |
| 2335 | 変化 |
| 2336–2388 | PICK_CARD c: an exchange gift, or the card 手裏剣 throws |

`Game().describe_action(a)` / `action_label(a)` name any index.

## Rewards
At each game's end: 1st +1, 2nd +1/3, 3rd −1/3, 4th −1 (`reward_scheme="uecda"`: 4/3/2/1).

## Options (`env(**rules)`)
`series_games` (5), `declarations` (the pool one is drawn from per game; default all ten, or D0–D5,
D8, D9 with `ninja="off"`), `pass_lockout` (False), `miyako_ochi` (True), `reward_scheme`
("zero_sum"), `max_game_steps` (4000, truncation), `ninja` ("faithful": seat 0 configurable, seats
1–3 the CPUs ジライヤ 雷遁+手裏剣, お館様 足止め+雷遁, モコ 変化+足止め at Lv1 without school;
"symmetric": every seat configurable; "off": plain daifugō), `loadouts` (faithful: a dict for seat
0; symmetric: one dict for all or a list of four), e.g.
`{"jutsu": {"henge": 5, "ashidome": 3}, "school": "henge", "gokui": True}`. The default loadout
is 足止め Lv1 + 手裏剣 Lv1, no school.

## The UECda game (`rules="uecda"`)
The UEC computer daihinmin contest's standard game: five players (`player_0` .. `player_4`), 53
cards, no ninja layer and no declarations; the field's owner may play again on its own cards and the
field flows only when everyone still in has passed; a pass locks a player out of the trick;
revolution by four of a rank or a sequence of five; any play spanning an 8 cuts; ♠3 beats only a
lone joker; a lock when a play's suits equal the field's; no 都落ち; the ♦3 holder leads every game;
the lower classes' best cards go up automatically and 大富豪/富豪 choose what they return; points
5..1 per game. Options: `series_games` (games per episode), `seat_change_every` (5: seats are
shuffled every that many games, 0 never) and `class_reset_every` (100). The observation is the
same blocks for five seats (1,063 floats; `observation.layout(5)`); the action space is the same.
`yuugi uecda client` / `yuugi uecda server` speak the competition's protocol (`docs/uecda.md`).

## Rulings where the original rules are silent (reasons in `docs/rules/ninja_daifugo.md`)
* A series of one game has no tribute: titles only matter from game 2.
* A seat that passed may answer again when someone else plays (§8 A1), unless `pass_lockout`.
* In `pass_lockout` mode a skip counts as a pass; if every other seat already passed when a play
  is made, the trick ends at once and the player leads again.
* The 都落ち player's cards are removed face down; in the observation only their count shows, and
  nobody goes on knowing a card to be in that hand (tribute and 手裏剣 knowledge of it is dropped).
* Tribute and exchange gifts are known to giver and receiver; the giver's knowledge shows in the
  "known in opponent hands" block until the card is played or passed on. A 手裏剣 card is known
  to everyone.
* D6 doubles every point gain: the play table, the school bonuses and the Lv5 雷遁 bonus.
* A new turn starts whenever a play or pass is made, even when the same player leads again after
  an 8-cut: one jutsu may be activated per turn. 雷遁 does not end the turn (the activator leads
  within the same turn, so no second jutsu).
* 変化 may be activated on a lead too (the boosted lead is harder to beat); its precondition is that
  some play other than the joker single or a revolution play is legal with the boost.
* The ♠3 return stays legal after 変化 (a boost cannot hurt it), under the lock rule as always.

* Schools are part of a seat's equipment, like the jutsu table: every seat sees every school (in
  the faithful table the CPUs have none, and they see seat 0's).

## Version history
* v0: first release. Later within v0: the observation grew from 877 to 901 floats (four blocks
  appended at the end) and card counts went from /16, capped at 16, to /23; the shipped `hard`
  weights were adapted so they play as before.
"""
from __future__ import annotations

from yuugi.envs.faces.versioned import env_factories
from yuugi.envs.ninja_daifugo.game import NinjaDaifugo as Game

raw_env, env = env_factories(Game)

__all__ = ["Game", "env", "raw_env"]
