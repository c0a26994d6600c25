"""The game's complexity: branching, bounces and steps measured on real play (branching), the
arithmetic of the thesis's §2.1 (estimates), search cost against depth (scaling), seeded random
games (randomplay), perft and its reference counts (perft), the table of solved boards (solved)."""
