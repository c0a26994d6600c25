"""Games between controllers and their records: the arena (one game, matches, round robins), games
files (gamefile), win rates and ratings (ratings), the statistics of game results (stats), process
pools (pools), progress bars (progress), file locks (filelock) and the bounds of run sizes (limits)."""
