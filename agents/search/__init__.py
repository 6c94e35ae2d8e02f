"""Building blocks of the search policies: hidden-information resampling by game, candidate
actions by a heuristic's preference, batched rollouts on the core, and the call that lets an
evaluation loop hand a search policy the state it needs."""
