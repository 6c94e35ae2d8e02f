"""ninja_slayer: the two-player trading card game with a stack, priority, interrupts and ウケミ."""
