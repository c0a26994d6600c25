"""The game's complexity: branching, bounces and steps measured on real play (branching), the
arithmetic of the thesis's §2.1 (estimates), search cost against depth (scaling), seeded random
games (randomplay), the table of solved boards (solved, solvedtable). perft, an algorithm over a
Game, is :mod:`fepaper.search.perft`."""
