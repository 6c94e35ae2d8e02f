"""The rules of ninja daifugō (rules file §5) for one game ``i`` of a batch, compiled with numba.

Every function reads and writes game ``i`` of ``st``, the state's arrays (``DaifugoState.view()``).
``T`` is :func:`~.tables.kernel_tables` (the action and rule tables) and ``R`` the rule options
(:class:`~.batch.RuleOptions`). A play reads in the order of §5.7: ``remove_from_hand`` →
``place_on_field`` → ``check_lock`` → ``check_revolution`` → ninja points (``points.play_gain``) →
``check_finish`` (and ``miyako_ochi``) → 8-cut / ♠3 return, 11-back, 5-skip → ``finish_game`` when one
seat is left → ``flush_and_lead`` or ``next_player``; then the next turn starts (``start_turn``:
pending skips).
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.jit import rules
from yuugi.envs.core.streams import draw_below, permutation

from . import actions as A
from .cards import DIAMOND3, NUM_CARDS, SPADE3
from .config import (D_ELEVEN_BACK, D_FIVE_SKIP, D_NO_EIGHT_CUT, D_NO_LOCK, D_NO_SEQUENCE, D_START_REVOLUTION,
                      D_WEAK_JOKER, USES_BY_LEVEL)
from .state import DAIFUGO, FUGO, PHASE_EXCHANGE, PHASE_PLAY, PHASE_SHURIKEN
from .tables import (FC_EMPTY, FC_JOKER, ORDER_NORMAL, ORDER_REVOLUTION, ORDER_WEAK_JOKER, VARIANT_BASE,
                     VARIANT_NO_SEQ, VARIANT_WEAK_JOKER)
from .tables import TRIBUTE_ORDER  # noqa: F401  (the tribute order, also read here by the resampler's tests)
from . import ninjutsu as N
from . import points as P
from .field import clear_field
from .held import holds_card, offer_plays
from .seats import (next_active, next_to_answer, others_in_game, seat_with_title, seats_in_game)
from .seats import all_passed, seat_of

_ONE = np.uint64(1)
_USES_BY_LEVEL = USES_BY_LEVEL
# UECda: this many passes in a row without a play end the game (千日手), the places left drawn at random.
STALEMATE_PASSES = 20


# ---- the rules in force -------------------------------------------------------------------------
@rules
def rule_variant(declaration: int) -> int:
    """The card rules' table in force: D1 (the joker is the weakest card) and D4 (no sequences)
    change it, the other declarations do not."""
    if declaration == D_WEAK_JOKER:
        return VARIANT_WEAK_JOKER
    if declaration == D_NO_SEQUENCE:
        return VARIANT_NO_SEQ
    return VARIANT_BASE


@rules
def strength_reversed(st, i: int) -> int:
    """1 while the order of the ranks is reversed (revolution or 11-back; both cancel), else 0."""
    return 1 if st.revolution[i] != st.eleven_back[i] else 0


# ---- the legal mask ----------------------------------------------------------------------------
@rules(inline=True)  # one call per decision
def legal_mask(st, i: int, T, R, mask: np.ndarray) -> None:
    """The legal actions of the seat to play into ``mask`` (bool[2389]; all False once over)."""
    mask[:] = False
    if st.terminated[i] or st.truncated[i]:
        return
    hand = st.hands[i, st.to_play[i]]
    phase = st.phase[i]
    if phase == PHASE_EXCHANGE:
        exchange_picks(st, i, hand, mask)
        return
    if phase == PHASE_SHURIKEN:
        N.shuriken_picks(hand, mask)
        return
    if phase != PHASE_PLAY:
        return
    variant = rule_variant(int(st.declaration[i]))
    direction = strength_reversed(st, i)
    if st.henge_shift[i] > 0:
        boosted_plays(st, i, T, hand, variant, direction, mask)
    elif st.field_class[i] == FC_EMPTY:
        lead_plays(T, hand, variant, mask)
        if R.uecda:
            mask[A.PASS] = True  # UECda: a lead may pass too (the 20 passes of a stalemate count it)
    else:
        answers(st, i, T, hand, variant, direction, mask)
    if R.ninja_on and not st.jutsu_used[i]:
        N.jutsu_mask(st, i, T, hand, variant, direction, mask)


@rules
def lead_plays(T, hand: np.uint64, variant: int, mask: np.ndarray) -> None:
    """A lead may play anything it holds (never PASS); only D1 and D4 forbid some shapes."""
    offer_plays(T, hand, FC_EMPTY, T.beats[variant, FC_EMPTY, 0], T.lock_ok[0], mask)


@rules
def answers(st, i: int, T, hand: np.uint64, variant: int, direction: int, mask: np.ndarray) -> None:
    """On a field: PASS, or a held play of the same form that beats it and fits the lock."""
    mask[A.PASS] = True
    field_class = int(st.field_class[i])
    offer_plays(T, hand, field_class, T.beats[variant, field_class, direction], T.lock_ok[st.lock[i]], mask)


@rules
def boosted_plays(st, i: int, T, hand: np.uint64, variant: int, direction: int, mask: np.ndarray) -> None:
    """A turn boosted by 変化: no PASS; held plays that beat the field once boosted (Lv5: lock ignored)."""
    field_class = int(st.field_class[i])
    allowed = T.beats_boosted[st.henge_shift[i] - 1, variant, field_class, direction]
    fits = T.lock_ok[0 if st.lock_ignored[i] else st.lock[i]]
    offer_plays(T, hand, field_class, allowed, fits, mask)


@rules
def exchange_picks(st, i: int, hand: np.uint64, mask: np.ndarray) -> None:
    """The exchange: any card of the hand not picked yet."""
    left = hand & ~st.picked[i]
    for c in range(NUM_CARDS):
        mask[A.PICK0 + c] = holds_card(left, c)


# ---- setup of each game (rules file "Setup of each game") ---------------------------------------
@rules(allocates=True)
def start_game(st, i: int, T, R) -> None:
    """Declaration, deal, ninja reset, tribute and the exchange (or the first lead) of game ``i``."""
    n = st.active.shape[1]
    first_game = st.game_index[i] == 0
    if R.uecda:
        # UECda: the classes reset every class_reset_every games (that game has no exchange and a random
        # dealer); the players change seats before game 1 and every seat_change_every games.
        first_game = st.game_index[i] % R.class_reset_every == 0
        if first_game:
            for seat in range(n):
                st.titles[i, seat] = 0
        if R.seat_change_every > 0 and st.game_index[i] % R.seat_change_every == 0:
            change_seats(st, i)
    # 1. Declaration, 2. the dealing seat and the shuffle: drawn in this order from the game's stream.
    declaration = R.declarations[draw_below(st.rng_key, st.rng_counter, i, R.declarations.shape[0])]
    random_seat = draw_below(st.rng_key, st.rng_counter, i, n)
    dealer = random_seat if first_game else seat_with_title(st, i, DAIFUGO)
    deck = np.empty(NUM_CARDS, np.int64)
    permutation(st.rng_key, st.rng_counter, i, deck)
    st.declaration[i] = declaration
    deal(st, i, deck, dealer)
    for seat in range(n):
        st.played[i, seat] = 0
        st.given[i, seat] = 0
        st.received[i, seat] = 0
        for holder in range(n):
            st.known[i, seat, holder] = 0
    clear_field(st, i)
    st.discard[i] = 0
    st.removed[i] = 0
    # 3. Ninja reset; the revolution is off unless declared.
    st.revolution[i] = declaration == D_START_REVOLUTION
    for seat in range(n):
        st.active[i, seat] = True
        st.finish_pos[i, seat] = 0
        st.skip_pending[i, seat] = 0
        st.points[i, seat] = 1 if R.ninja_on and st.gokui[i, seat] else 0  # 極意: one point to start with
        for j in range(st.levels.shape[2]):
            st.uses_left[i, seat, j] = _USES_BY_LEVEL[st.levels[i, seat, j]]
    st.next_pos[i] = 1
    st.last_pos[i] = n
    st.game_steps[i] = 0
    end_turn(st, i)
    st.shuriken_target[i] = -1
    st.picked[i] = 0
    st.picks_left[i] = 0
    st.miyako[i] = -1 if first_game or not R.miyako_ochi else seat_with_title(st, i, DAIFUGO)
    if first_game:
        # 6. The holder of ♦3 leads.
        st.phase[i] = PHASE_PLAY
        st.to_play[i] = diamond3_holder(st, i)
    else:
        # 4. Tribute, then 5. the exchange, 大富豪 first (大貧民 and 貧民 are the last two places).
        tribute(st, i, T, n, DAIFUGO, 2)
        tribute(st, i, T, n - 1, FUGO, 1)
        st.phase[i] = PHASE_EXCHANGE
        st.to_play[i] = seat_with_title(st, i, DAIFUGO)
        st.picks_left[i] = 2


@rules
def deal(st, i: int, deck: np.ndarray, dealer: int) -> None:
    """One card at a time clockwise from the dealing player (who gets an extra card first)."""
    n = st.hands.shape[1]
    for seat in range(n):
        st.hands[i, seat] = 0
    first = seat_of(st, i, dealer)
    for k in range(deck.shape[0]):
        st.hands[i, st.seating[i, (first + k) % n]] |= _ONE << np.uint64(deck[k])


@rules
def diamond3_holder(st, i: int) -> int:
    """The player holding ♦3 (who leads the first game, and every UECda game)."""
    for seat in range(st.hands.shape[1]):
        if holds_card(st.hands[i, seat], DIAMOND3):
            return seat
    return 0


@rules(allocates=True)
def change_seats(st, i: int) -> None:
    """UECda's seat change: the players take the seats in an order drawn from the game's stream."""
    order = np.empty(st.seating.shape[1], np.int64)
    permutation(st.rng_key, st.rng_counter, i, order)
    for seat in range(order.shape[0]):
        st.seating[i, seat] = order[seat]


@rules
def tribute(st, i: int, T, giver_title: int, taker_title: int, k: int) -> None:
    """The giver's ``k`` strongest cards (in the order at the start of this game) go to the taker."""
    giver = seat_with_title(st, i, giver_title)
    taker = seat_with_title(st, i, taker_title)
    order = ORDER_NORMAL
    if st.declaration[i] == D_WEAK_JOKER:
        order = ORDER_WEAK_JOKER
    elif st.declaration[i] == D_START_REVOLUTION:
        order = ORDER_REVOLUTION
    hand = st.hands[i, giver]
    cards = np.uint64(0)
    chosen = 0
    for card in T.tribute_order[order]:
        if chosen == k:
            break
        if holds_card(hand, int(card)):
            cards |= _ONE << card
            chosen += 1
    transfer(st, i, giver, taker, cards)


@rules
def transfer(st, i: int, giver: int, taker: int, cards: np.uint64) -> None:
    """Move cards between hands; the giver knows where they went, the taker sees them anyway."""
    for observer in range(st.known.shape[1]):
        st.known[i, observer, giver] &= ~cards
    st.hands[i, giver] &= ~cards
    st.hands[i, taker] |= cards
    st.given[i, giver] |= cards
    st.received[i, taker] |= cards
    st.known[i, giver, taker] |= cards


# ---- a turn ------------------------------------------------------------------------------------
@rules(inline=True)  # one call per decision
def apply_action(st, i: int, a: int, T, R) -> None:
    """Apply the legal action ``a`` of the seat to play, then run the game on to the next decision."""
    st.game_steps[i] += 1
    phase = st.phase[i]
    kind = T.kind[a]
    if phase == PHASE_EXCHANGE:
        exchange_pick(st, i, a, T, R)
    elif phase == PHASE_SHURIKEN:
        N.throw(st, i, a, T)
    elif kind == A.K_JUTSU:
        N.activate(st, i, a, T)
    else:
        if kind == A.K_PASS:
            end_turn(st, i)
            if R.uecda:
                pass_uecda(st, i, int(st.to_play[i]), T, R)
            else:
                respond(st, i, int(st.to_play[i]), R)
        else:
            play(st, i, a, T, R)
        if not (st.terminated[i] or st.truncated[i]):
            start_turn(st, i, R)
    if st.game_steps[i] >= R.max_game_steps and not st.terminated[i]:
        st.truncated[i] = True  # the truncation guard


@rules
def end_turn(st, i: int) -> None:
    """Per-turn ninja flags reset when a play or pass ends the turn."""
    st.jutsu_used[i] = False
    st.henge_shift[i] = 0
    st.lock_ignored[i] = False


@rules
def start_turn(st, i: int, R) -> None:
    """Pending skips (足止め, 五飛び) of whoever is to play: each is used up and the turn passes on (a
    skip answers the field like a pass), until someone may act."""
    while st.skip_pending[i, st.to_play[i]] > 0:
        seat = int(st.to_play[i])
        st.skip_pending[i, seat] -= 1
        if st.field_class[i] == FC_EMPTY:
            st.to_play[i] = next_active(st, i, seat)
        else:
            respond(st, i, seat, R)


@rules
def exchange_pick(st, i: int, a: int, T, R) -> None:
    """An exchange gift card: the 大富豪 picks 2 for the 大貧民, then the 富豪 picks 1 for the 貧民;
    then the previous 大貧民 leads (UECda: the holder of ♦3)."""
    st.picked[i] |= T.cards[a]
    st.picks_left[i] -= 1
    if st.picks_left[i] != 0:
        return
    n = st.titles.shape[1]
    giver = int(st.to_play[i])
    by_daifugo = st.titles[i, giver] == DAIFUGO
    taker = seat_with_title(st, i, n if by_daifugo else n - 1)  # the 大貧民 (last place) or the 貧民
    transfer(st, i, giver, taker, st.picked[i])
    st.picked[i] = 0
    if by_daifugo:
        st.to_play[i] = seat_with_title(st, i, FUGO)
        st.picks_left[i] = 1
    else:
        st.phase[i] = PHASE_PLAY
        st.to_play[i] = diamond3_holder(st, i) if R.uecda else seat_with_title(st, i, n)


# ---- the trick and the field -------------------------------------------------------------------
@rules
def respond(st, i: int, seat: int, R) -> None:
    """A pass or a skip by ``seat`` on the field; the field clears once every other seat still in has
    answered the last play."""
    st.responses[i] += 1
    st.passed[i, seat] = True
    owner = int(st.field_owner[i])
    if st.responses[i] >= others_in_game(st, i, owner):
        flush_and_lead(st, i, owner)
    else:
        st.to_play[i] = next_to_answer(st, i, seat, R.pass_lockout)


@rules
def pass_uecda(st, i: int, seat: int, T, R) -> None:
    """A UECda pass: the player is out of the trick until the field flows, which it does once every
    player still in has passed (the field's owner too, who is asked again when all others passed).
    The last player to play leads; on an empty field that all passed, the one who led it leads again
    (the player after the last to pass). ``responses`` counts the passes since the last play across
    flows: the 20th ends the game."""
    st.passed[i, seat] = True
    st.responses[i] += 1
    if st.responses[i] >= STALEMATE_PASSES:
        stalemate(st, i, T, R)
        return
    if not all_passed(st, i):
        st.to_play[i] = next_to_answer(st, i, seat, True)
        return
    passes = st.responses[i]
    leader = int(st.field_owner[i]) if st.field_class[i] != FC_EMPTY else next_active(st, i, seat)
    flush_and_lead(st, i, leader)
    st.responses[i] = passes  # a flow is not a play: the count goes on


@rules
def stalemate(st, i: int, T, R) -> None:
    """千日手 (UECda): the places left are drawn at random from the game's stream, in turn from the
    top, each among the players still in (by player number); then the game ends."""
    while seats_in_game(st, i) > 1:
        k = draw_below(st.rng_key, st.rng_counter, i, seats_in_game(st, i))
        for player in range(st.active.shape[1]):
            if not st.active[i, player]:
                continue
            if k == 0:
                st.finish_pos[i, player] = st.next_pos[i]
                st.next_pos[i] += 1
                st.active[i, player] = False
                break
            k -= 1
    finish_game(st, i, T, R)


@rules
def flush_and_lead(st, i: int, leader: int) -> None:
    """Clear the field; ``leader`` leads if still in, else the next seat in after him."""
    clear_field(st, i)
    st.to_play[i] = leader if st.active[i, leader] else next_active(st, i, leader)


# ---- a play (§5.7) -------------------------------------------------------------------------------
@rules(inline=True)  # one call site, in apply_action
def play(st, i: int, a: int, T, R) -> None:
    """Resolve an accepted play in the order of §5.7 (the caller then starts the next turn)."""
    p = int(st.to_play[i])
    declaration = st.declaration[i]
    previous = int(st.field_action[i])
    strong_joker_on_field = st.field_class[i] == FC_JOKER
    # 1. Cards to the field.
    remove_from_hand(st, i, p, T.cards[a])
    place_on_field(st, i, p, a, T)
    end_turn(st, i)
    # 2. Lock, 3. revolution.
    if R.uecda:
        locked = check_lock_uecda(st, i, a, previous, T)
        check_revolution_uecda(st, i, a, T)
        st.responses[i] = 0  # the passes in a row (a stalemate's count) start again
    else:
        locked = check_lock(st, i, a, previous, T)
        check_revolution(st, i, a, T)
    eight_cut = T.has8[a] and declaration != D_NO_EIGHT_CUT
    spade3_return = strong_joker_on_field and a == A.SINGLE0 + SPADE3
    # 4. Points.
    if R.ninja_on:
        P.gain(st, i, p, P.play_gain(int(T.kind[a]), int(T.size[a]), T.revolution[a], int(st.school[i, p]), locked,
                                     eight_cut, spade3_return))
    # 5. Going out, and 都落ち on the first finisher.
    check_finish(st, i, p)
    # 6. Flush effects: 8-cut and the ♠3 return. 7. Declaration triggers: 11-back, 5-skip.
    flush = eight_cut or spade3_return
    if declaration == D_ELEVEN_BACK and T.has_jack[a] and not flush:
        st.eleven_back[i] = not st.eleven_back[i]
    if declaration == D_FIVE_SKIP and T.has5[a]:
        skipped = next_active(st, i, p)
        if skipped >= 0:
            st.skip_pending[i, skipped] += 1
    # 8. Game end.
    if seats_in_game(st, i) <= 1:
        finish_game(st, i, T, R)
        return
    # 9. After a flush the player leads again; otherwise the next seat answers.
    if flush:
        flush_and_lead(st, i, p)
    elif R.uecda:
        next_player_uecda(st, i, p)
    else:
        next_player(st, i, p, R)


@rules
def remove_from_hand(st, i: int, p: int, cards: np.uint64) -> None:
    """The cards leave the hand face up: nobody needs to remember them in it any more."""
    st.hands[i, p] &= ~cards
    st.played[i, p] |= cards
    for observer in range(st.known.shape[1]):
        st.known[i, observer, p] &= ~cards


@rules
def place_on_field(st, i: int, p: int, a: int, T) -> None:
    """The play becomes the field to beat; the earlier field play is discarded. 変化 boosts its ranks
    for comparison only (8-cut, 5, J and revolution read the natural ranks)."""
    weak_joker = 1 if st.declaration[i] == D_WEAK_JOKER else 0
    st.discard[i] |= st.field_cards[i]
    st.field_cards[i] = T.cards[a]
    st.field_action[i] = a
    st.field_owner[i] = p
    shift = int(st.henge_shift[i])
    if shift == 0:
        st.field_elo[i] = T.lo[a]
        st.field_ehi[i] = T.hi[a]
        st.field_class[i] = T.field_class[weak_joker, a]
    else:
        direction = strength_reversed(st, i)
        st.field_elo[i] = T.boosted_elo[shift - 1, direction, a]
        st.field_ehi[i] = T.boosted_ehi[shift - 1, direction, a]
        st.field_class[i] = T.boosted_class[shift - 1, direction, weak_joker, a]


@rules
def check_lock(st, i: int, a: int, previous: int, T) -> bool:
    """縛り: a play with exactly the natural suits of the previous play of this trick, neither holding
    the joker, locks those suits. True when this play started the lock."""
    if st.declaration[i] == D_NO_LOCK or st.lock[i] != 0 or previous < 0:
        return False
    if T.has_joker[previous] or T.has_joker[a] or T.ns[a] != T.ns[previous]:
        return False
    st.lock[i] = T.ns[a]
    return True


@rules
def lowest_missing_suit(suits: int) -> int:
    """The bit of the first suit (♠, ♥, ♦, ♣) not in ``suits``; 0 when all four are."""
    for s in range(4):
        if not (suits >> s) & 1:
            return 1 << s
    return 0


@rules
def play_suits(T, a: int, field_suits: int) -> int:
    """The suit set of play ``a`` for UECda's lock. Our actions do not say which suit the joker takes in a
    group, so we rule: it takes the one suit that makes the set equal ``field_suits`` (the field play's
    set) when it can, else the first suit its naturals lack. In a sequence it takes the sequence's suit."""
    suits = int(T.ns[a])
    if T.kind[a] != A.K_GROUP or not T.has_joker[a]:
        return suits
    missing = field_suits & ~suits
    if field_suits > 0 and suits & ~field_suits == 0 and missing != 0 and missing & (missing - 1) == 0:
        return field_suits
    return suits | lowest_missing_suit(suits)


@rules
def check_lock_uecda(st, i: int, a: int, previous: int, T) -> bool:
    """UECda's 縛り: a play whose suit set equals the field play's locks those suits until the field
    clears; the joker single clears the lock (and is exempt from it). True when this play locked."""
    if T.kind[a] == A.K_JSINGLE:
        st.lock[i] = 0
        return False
    if st.lock[i] != 0 or previous < 0 or T.kind[previous] == A.K_JSINGLE:
        return False
    # No lock in force: the field play's joker (in a group) did not match the play before it, so it took
    # the first suit its naturals lack (play_suits with no set to match).
    field_suits = play_suits(T, previous, 0)
    if play_suits(T, a, field_suits) != field_suits:
        return False
    st.lock[i] = field_suits
    return True


@rules
def check_revolution_uecda(st, i: int, a: int, T) -> None:
    """UECda's 革命: a group of 4+ cards (the joker included) or a sequence of 5+ toggles the order."""
    kind, size = T.kind[a], T.size[a]
    if (kind == A.K_GROUP and size >= 4) or (kind == A.K_SEQ and size >= 5):
        st.revolution[i] = not st.revolution[i]


@rules
def check_revolution(st, i: int, a: int, T) -> None:
    """A group or sequence of 4+ cards turns the order of the ranks over (革命, or back: 革命返し)."""
    if T.revolution[a]:
        st.revolution[i] = not st.revolution[i]


@rules
def check_finish(st, i: int, p: int) -> None:
    """A seat whose hand is empty goes out and takes the next place; 都落ち on the first one out."""
    if st.hands[i, p] != 0:
        return
    first_out = st.next_pos[i] == 1
    st.finish_pos[i, p] = st.next_pos[i]
    st.next_pos[i] += 1
    st.active[i, p] = False
    candidate = int(st.miyako[i])
    if first_out and candidate >= 0 and candidate != p and st.active[i, candidate]:
        miyako_ochi(st, i, candidate)


@rules
def miyako_ochi(st, i: int, fallen: int) -> None:
    """都落ち: the previous 大富豪 takes the last place at once; his hand is removed face down."""
    st.finish_pos[i, fallen] = st.last_pos[i]
    st.last_pos[i] -= 1
    st.active[i, fallen] = False
    st.removed[i] |= st.hands[i, fallen]
    st.hands[i, fallen] = 0
    for observer in range(st.known.shape[1]):
        st.known[i, observer, fallen] = 0  # nobody knows a card to be "in" the removed hand any more


@rules
def next_player(st, i: int, p: int, R) -> None:
    """The next seat answers the play. With ``pass_lockout`` the seats that passed earlier in this trick
    stay out, and the trick ends when nobody is left to answer."""
    if R.pass_lockout:
        responses = 0
        answering = 0
        for seat in range(st.active.shape[1]):
            if seat != p and st.active[i, seat]:
                answering += 1
                if st.passed[i, seat]:
                    responses += 1
        st.responses[i] = responses
        if responses >= answering:
            flush_and_lead(st, i, p)
            return
    else:
        st.responses[i] = 0
        for seat in range(st.passed.shape[1]):
            st.passed[i, seat] = False
    st.to_play[i] = next_to_answer(st, i, p, R.pass_lockout)


@rules
def next_player_uecda(st, i: int, p: int) -> None:
    """UECda: the next player still in who has not passed in this trick answers; when everyone else
    has passed the owner of the field is asked again, and when it has also gone out the field flows."""
    answering = next_to_answer(st, i, p, True)
    if answering >= 0:
        st.to_play[i] = answering
    elif st.active[i, p]:
        st.to_play[i] = p
    else:
        flush_and_lead(st, i, p)


# ---- the end of a game and the series ----------------------------------------------------------
@rules
def finish_game(st, i: int, T, R) -> None:
    """The last seat in takes the remaining place; rewards by place; the places become the titles;
    the next game of the series starts, or the series ends."""
    n = st.active.shape[1]
    for seat in range(n):
        if st.active[i, seat]:
            st.finish_pos[i, seat] = st.next_pos[i]
            st.active[i, seat] = False
            break
    for seat in range(n):
        reward = R.rewards[st.finish_pos[i, seat] - 1]
        st.rewards[i, seat] += reward
        st.series_score[i, seat] += reward
        st.titles[i, seat] = st.finish_pos[i, seat]  # place 1..n = 大富豪 .. 大貧民
    st.game_index[i] += 1
    if st.game_index[i] >= R.series_games:
        st.terminated[i] = True
        st.game_index[i] -= 1  # stays on the last game played
    else:
        start_game(st, i, T, R)
