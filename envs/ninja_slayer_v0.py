"""# Ninja Slayer (ニンジャスレイヤーTCG)

| | |
|---|---|
| Import | `from envs import ninja_slayer_v0` |
| Agents | `player_0`, `player_1` |
| Action space | `Discrete(293)` |
| Action mask | `observation["action_mask"]`, `int8[293]` (also `infos[agent]["action_mask"]`) |
| Observation | `Box(0, 1, (5350,), float32)` (with the default `history=8`) |
| Episode | one game: about 20–25 turns, about 120 agent decisions under random play (at most 60 turns) |

A two-player trading card game with a real stack. Each player has a deck (50 cards constructed,
40 sealed), draws 4, and plays characters (キャラクター: cost, カラテ K, 工作力 W, keywords, one
ability, maybe a ウケミ effect) and コトダマ (instant effects). Costs are paid by tapping cards in the
エテル zone (one hand card may be put there face up each turn). Characters アイサツ (attack): a
character target takes the attacker's カラテ, the player takes its 工作力. **Damage to a player turns
over the top card of that player's deck per point** into the damage zone; a card with ウケミ
cancels its point instead, goes to オヒガン (the graveyard) and its ウケミ effect goes on the stack
for free. Ten cards in your damage zone lose; so does a deck that reaches 0 cards. The pool is 48
original cards (`envs/ninja_slayer/cards.csv`, read into `yuugi.envs.ninja_slayer.cards`): 32 characters
C01..C32 and 16 コトダマ K01..K16, four factions, rarities C/U/R/SR. The rules for people — the
cards, the decks, the options and the rulings we made with their reasons — are
`docs/rules/ninja_slayer.md`.

## The turn
1. Untap step: untap your characters and エテル; your TURN_START triggers. (window)
2. Draw step: draw 2 (the first player draws 1 on the game's first turn). (window)
3. エテル step: ETEL_PUT one hand card (untapped) or SKIP_ETEL; then (window).
4. Character step: (window) in which the turn player may also ENTER characters, only with an empty stack.
5. イクサ start: IKUSA_START triggers. (window)
6. アイサツ loop: the turn player DECLAREs AISATSU(attacker, target) or END_AISATSU (or plays
   instants). The attacker taps; ON_AISATSU triggers; (window). Then, if the attacker is still
   there and the defender has a legal interceptor, the defender chooses INTERRUPT(slot) or
   NO_INTERRUPT; (window). Then damage: カラテ to a character target, 工作力 to the player; (window);
   back to the declaration.
7. イクサ end: IKUSA_END triggers. (window) 8. End: TURN_END triggers. (window) Then cleanup: damage,
   this-turn modifiers and granted カイゼン vanish on both sides; the other player's turn.

In a window the turn player gets priority first. The holder may CAST コトダマ and ACTIVATE abilities
(on either turn) and keeps priority after each; PASS hands priority over. Two passes in a row
resolve the top item (then the turn player gets priority again) or, with an empty stack, end the
step. Every automatic chain — resolution, damage point by point, the rule check (a character with
damage ≥ 1 and ≥ its カラテ is destroyed), triggers and ウケミ effects put on the stack (the turn
player's first, ウケミ in reveal order, then triggers by slot; a trigger with a choosable target asks
its controller, CHOOSE_TARGET) — runs inside `step` until the next real decision.

Keywords: ハヤテ (may アイサツ the turn it entered), インターラプト (an untapped one may take over an
アイサツ aimed at another target, and taps), インターラプト・カイゼン (also while tapped, never taps),
ウケミ. A character redirects at most once per turn. Opcodes: NONE, DMG_CHAR, DMG_PLAYER, DRAW,
BUFF_K, BUFF_W, DEBUFF_K, TAP, UNTAP, DESTROY_LE, BOUNCE, RAMP, COUNTER, GRANT_KAIZEN, AMBUSH, HEAL;
triggers ON_ENTER, ON_AISATSU, ON_KILL, ON_DESTROYED, TURN_START, IKUSA_START, IKUSA_END, TURN_END,
ACTIVATED (costs: E n エテル, O tap itself, J n turn n face-up damage cards face down) and CAST.

## Observation (5350 floats in [0, 1], from the observing seat: self first, then the opponent)
Scalars (turn, whose turn, who went first, to act, stack size, passes, interrupt asked, priority,
top item mine, over); the step (13) and the decision (5) one-hot; per seat deck, hand, エテル
(total, untapped), face-up and face-down damage, healed cards, known hand cards; the current
アイサツ (attacker slot, target slot or player); my hand (10 slots); the opponent's hand cards I
know (bounced to its hand; 10 slots); both fields (2×6 slots: tapped, damage, current カラテ and
工作力, new, redirected, カイゼン granted, attacker, target); the stack (16 items bottom first: kind,
controller, opcode, arg, target kind, target, countered-by); the trigger whose target is asked; my
cards not seen yet (still in my deck) per card id; オヒガン, エテル and damage zones per card id for
both seats; the last resolved card; the last 8 public actions (by whom, family, card shown).
Every card slot holds the card's static features (present, id, type, cost, カラテ, 工作力, 4 keyword
bits, trigger, opcode, arg, target kind, ウケミ op and arg, activation cost: 68 floats), so weights
read cards by what they do. Offsets: `yuugi.envs.ninja_slayer.observation.offsets(history)`. Never in
it: the opponent's unknown hand cards, either deck's order.

With `observation="card_ids"` every card slot holds the card's id alone, `(id + 1) / 48` (0 when
empty), and nothing else changes: 1,464 floats instead of 5,350 (a quarter of the memory per decision,
and 1.3x the decisions per second of a 1,024-game batch), for a model that looks the 68 static
features up by id (`yuugi.envs.ninja_slayer.cards.CARD_FEATURES`, one row per id). Offsets:
`observation.offsets(history, card=1)`. The shipped `hard` weights read the full observation, so
`hard` is not offered there; the other levels read either.

## Actions
| Index | Meaning |
|---|---|
| 0 | PASS |
| 1–10 | ETEL_PUT(h) hand slot h |
| 11 | SKIP_ETEL |
| 12–21 | ENTER(h) |
| 22–151 | CAST(h, t) = 22 + 13h + t |
| 152–229 | ACTIVATE(f, t) = 152 + 13f + t (my field slot f) |
| 230–271 | AISATSU(a, u) = 230 + 7a + u (u 0..5 opponent slot, 6 the opponent) |
| 272 | END_AISATSU |
| 273–278 | INTERRUPT(f) |
| 279 | NO_INTERRUPT |
| 280–292 | CHOOSE_TARGET(t) |

A target t is 0..5 my slot, 6..11 the opponent's slot t − 6, 12 no choice / the player / the stack.
Payment is automatic. `Game().describe_action(a)` / `action_label(a)` name any index.

## Rewards
+1 to the winner and −1 to the loser on the step that ends the game; 0 to both for a draw or a
truncation (`truncated=True`).

## Options (`env(**rules)`)
`deckout_rule` ("reach_zero": a deck reaching 0 loses at once; "draw_from_empty": only drawing or
revealing from an empty deck loses), `ukemi_nullifies` ("point"; "event" also cancels the rest of
that damage), `death_rule` ("karate"), `summoning_sickness` (True), `interrupt_taps` (True; False
lets plain インターラプト redirect while tapped without tapping), `priority_windows` ("all";
"compact": windows only in the character step, after an アイサツ, after an asked interrupt, in the
end phase, and whenever the stack is non-empty), `auto_pass_forced` (True: decisions with one legal
action are taken by the engine and not counted), `hand_overflow` ("burn"), `mulligan` ("none"),
`mask_useless` (False; True masks ALL_* effects with nothing to affect and HEAL with no damage),
`max_turns` (60), `max_decisions` (5000), `sr_rate` (0.2), `history` (8), and `decks`: one per seat,
each "D1" Kurogane Aggro, "D2" Kasumi Control, "D3" Hibana Burn, "D4" Tsukikage Ukemi,
"constructed" (one of D1–D4 at random per game, the default), "sealed" (five fresh packs per game),
"any" (one of those five at random), or an explicit list of 50 card codes (exactly 50 cards, at most
4 copies of a card, at most 16 with ウケミ; an error names the rule broken). `Game().init_with_decks
(seeds, decks)` starts a batch with other decks. A sealed pack holds 5 different commons, 2
different uncommons and a rare slot (an SR with probability `sr_rate`, else a rare); 5 packs make
the 40-card deck, used as is. Unknown options raise `OptionError`.

## Positions
`Game().to_position(state, i)` / `from_position(dict)`: JSON with card codes ("C04"): per seat
the deck (top first), hand slots, which hand cards the opponent knows, field slots (tapped, damage,
modifiers, flags), エテル cards and untapped count, damage (face up, face down, the cards ever put
there, healed), オヒガン; the stack (bottom first: kind, card, controller, opcode, arg, target kind,
target as (seat, slot), source slot, the item a COUNTER cancels), pending items and the one being
asked, the attack, the step, the decision and the history. A reference to a character that left
the field is written with `"gone": true`. `reset(options={"position": ...})` starts from one.

## Rulings where the rules are silent (reasons in `docs/rules/ninja_slayer.md`)
* Set-up order: seat 0's deck is built and shuffled, then seat 1's, then the first player is drawn,
  then each seat draws 4 (seat 0 first) into hand slots 0–3. Cards entering a hand or the field take
  the lowest empty slot; nothing is compacted.
* In the declaration, an instant played by the turn player resolves and the declaration comes back
  at once (END_AISATSU is the turn player's pass there); the opponent answers while it is on the stack.
* ウケミ effects revealed during one damage event wait until every point is dealt, then go on the
  stack in reveal order (the first revealed resolves last); the remaining points continue meanwhile.
  A reveal that empties the deck loses at once and its effect is discarded. If the 10th damage card
  and an empty deck come together, the game is lost by damage; the remaining points and effects
  are discarded. A loss of both seats in one event is a draw.
* ウケミ effects choose no targets. SOURCE is the character that dealt the damage: the attacker for
  イクサ damage, the source character for triggered and activated abilities (even if it has left;
  then the effect fizzles), nothing for コトダマ and ウケミ damage.
* Targets are re-checked on resolution by object (a character that left and came back is a new
  object); an item whose chosen character is gone does nothing, and a コトダマ still goes to
  オヒガン. ALL_* sets are taken on resolution. Abilities whose source left still resolve, except
  SELF ones.
* The rule check runs after every resolution and every damage event; ON_KILL fires only for the
  イクサ target destroyed by the check right after the damage step's damage.
* COUNTER cancels the item that was on top when it was cast; a cancelled card goes to its owner's
  オヒガン (a character too: no ON_ENTER, the cost stays paid); an ability simply vanishes.
* An interceptor must not be the current target (compared by object); it may redirect after the
  original target left. Redirecting a player-targeted アイサツ makes the interceptor take カラテ.
  If the attacker has left or no interceptor is legal, the interrupt step and its window are skipped.
* A trigger with a choosable target and no legal one is skipped; the target is chosen as it is
  put on the stack. Triggers and ウケミ effects may fill the stack to 16; an item beyond is dropped.
  Voluntary items (ENTER, CAST, ACTIVATE) are masked from 12 items on.
* A card drawn or bounced into a full hand (10) goes to オヒガン and still leaves the deck. An entry
  or AMBUSH with a full field (6) leaves the card in オヒガン with no ON_ENTER.
* HEAL moves face-down damage cards first, then face-up ones, to オヒガン; their identities are not
  tracked (the damage-zone counts per card id include healed cards). RAMP puts cards into エテル
  tapped; from an empty deck it moves nothing.
* Cleanup clears damage, this-turn modifiers, granted カイゼン and the new / redirected flags of
  both seats, but no tapped state. Truncation (a draw) happens after the cleanup of turn
  `max_turns`, or after `max_decisions` agent decisions.
* The opponent knows a hand card only when it was bounced there (no card reveals hands); it stays
  known until it leaves the hand. The action history shows agent decisions only (not the ones
  `auto_pass_forced` took), with the card an action shows (ETEL_PUT, ENTER, CAST: the hand card;
  ACTIVATE, AISATSU, INTERRUPT: the character).
* Per-card-id counts are divided by 5 and capped at 1 (no deck here holds more than 5 copies).
* When a game ends, `to_play` stays on the seat that made the last decision.

## Version history
* v0: first release.
"""
from __future__ import annotations

from yuugi.envs.faces.versioned import env_factories
from yuugi.envs.ninja_slayer.game import NinjaSlayer as Game

raw_env, env = env_factories(Game)

__all__ = ["Game", "env", "raw_env"]
