"""Experiments: games between controllers (arena), ratings and the thesis's claims, the
decisions on claims from games (stats: verdicts, Holm, families; sequential: the SPRT;
fixed: games for a power and the z-test), the genetic algorithm (tuning), complexity
measurements and estimates, search scaling, the heuristics duels, random play and perft.
"""
