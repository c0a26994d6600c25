"""Genetic programming: evaluations evolved as expression trees (the thesis's §6, its unfinished
controller), their evolution (evolution) and the duels that decide them (claims)."""
