"""Hand-written policies a club player would recognise, one module per game."""
