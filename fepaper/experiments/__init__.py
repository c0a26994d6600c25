"""Experiments: games between controllers (arena), ratings and the thesis's claims, the
genetic algorithm (tuning), complexity measurements and estimates, search scaling, the
heuristics duels, random play and perft.
"""
