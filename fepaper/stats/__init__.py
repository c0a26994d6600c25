"""The statistics of fepaper's claims, each in one place, below every experiment and engine.

- :mod:`.verdicts`: the verdict on a claim (*confirmed*, *refuted*, *not decided*) as one row;
- :mod:`.elo`: logistic Elo and expected score;
- :mod:`.scores`: tallies of game and pair scores (trinomial, pentanomial), their moments, the
  Elo interval, and the power a one-sided test reaches on so many games;
- :mod:`.sequential`: the sequential probability ratio test engine testers use (fishtest's GSPRT),
  and Wald's on a share of trials won or lost (a sequential sign test, its error rates exact);
- :mod:`.fixed`: a fixed number of games, chosen for power, and the one-sided test on their score;
- :mod:`.binomial`: exact binomial tests and (Clopper-Pearson) bounds, Wilson's interval;
- :mod:`.multiple`: Holm's correction and a claim decided over a family of pairs;
- :mod:`.ratings`: Bradley-Terry ratings with bootstrap intervals;
- :mod:`.contrasts`: families of players compared through the ratings of a league;
- :mod:`.bootstrap`: the percentile bootstrap of a mean and of a ratio of paired totals;
- :mod:`.regression`: a least-squares line and its prediction interval.

Each is checked against scipy's and statsmodels' values in tests/test_stats.py.
"""
