"""Play against outside programs, and learning: the engine research in one room.

- the CodinGame Paper Soccer protocol: fepaper as a bot on stdin/stdout (bot), an outside
  program seen from the referee's side (programs, jail), the referee that plays programs
  against each other (referee);
- the value network: its fitting (valuefit), search values as its targets (searchvalues), the
  turns a strong player chose as examples (imitation), and the recipes of the shipped networks
  fitted on engine games (enginenets).
"""
