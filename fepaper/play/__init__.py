"""Play, below the experiments and the engines: the arena (one game, matches, round robins over
controller specs), games files (gamefile), random games (randomplay), process pools (pools),
file locks (filelock) and the bounds of run sizes (limits). Their progress bars are
:mod:`fepaper.game.progress` (the one bar of every layer); the statistics of their results are in
:mod:`fepaper.stats`."""
