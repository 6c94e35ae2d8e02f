"""Deck building for ninja_slayer: the pick rules, deck-versus-deck play on the batched core, the env.

:mod:`.picks` masks the next card by the constructed rules, :mod:`.matches` plays queued games of
given deck pairs (seat 0 moving first) in one batch, :mod:`.env` is the Gymnasium environment
``yuugi/ninja_slayer_deckbuild-v0`` (documented in ``yuugi/seated/ninja_slayer_deckbuild_v0.py``).
Nothing here imports ``agents``: the policies are arguments (level names are resolved lazily).
"""
