"""The fixed sizes of the table: zones, the stack and the damage that loses.

Their own module because both the rule options (``config``) and the deck builder (``decks``) need them,
and the options check decks through the deck builder.
"""
HAND_SLOTS = 10
FIELD_SLOTS = 6
STACK_MAX = 16
STACK_USER_MAX = 12
DECK_MAX = 50
LOSE_AT_DAMAGE = 10
