"""Jobs: benchmarks, self-play training, export, evaluation, and the ``yuugi`` command line."""
