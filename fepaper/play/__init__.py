"""Play, below the experiments and the engines: the arena (one game, matches, round robins over
controller specs), games files (gamefile), random games (randomplay), process pools (pools),
progress bars (progress), file locks (filelock) and the bounds of run sizes (limits). The
statistics of their results are in :mod:`fepaper.stats`."""
