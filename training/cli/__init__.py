"""The ``yuugi`` command line: ``main`` parses and dispatches (``main.py``); ``args.py`` holds what
every command reads the same way."""
from yuugi.training.cli.main import main

__all__ = ["main"]
