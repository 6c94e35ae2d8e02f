"""The UECda protocol 20070: the table codec, a client that plays our CPUs at any UECda server, and a
server that referees five UECda clients with our rules engine (docs/uecda.md)."""
