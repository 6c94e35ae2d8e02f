"""The ``yuugi`` command line: ``main.py`` parses and dispatches (the entry point is
``yuugi.training.cli.main:main``); ``args.py`` holds what every command reads the same way."""
