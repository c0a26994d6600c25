"""The thesis's reproduction: every checkable claim (claims, measured, searchclaims), the duels
that decide them (duels, sequential, fixed, contrasts, reproduction), the genetic algorithm
(tuning, fitness, checkpoints, tuned) and the claims tables (tables)."""
