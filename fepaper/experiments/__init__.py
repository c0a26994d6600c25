"""Experiments, one subpackage a concern; imports point down this list only:

- :mod:`~fepaper.experiments.thesis`: the thesis's reproduction: its claims and their rows,
  duels that stop when decided, the genetic algorithm (tuning, fitness, checkpoints, the tuned
  spec), the claims tables;
- :mod:`~fepaper.experiments.complexity`: the game's complexity: branching measured on real
  play, the §2.1 estimates, search scaling with depth, solved boards;
- :mod:`~fepaper.experiments.reference`: the related work's games and methods: Connect Four's
  search table, the Aboyne report's measurements and claims, heuristics compared from fixed
  positions, Foo's machines ranked and measured with its report's claims.

They play through :mod:`fepaper.play` (the arena, games files, pools) and decide with
:mod:`fepaper.stats`, both below them.
"""
