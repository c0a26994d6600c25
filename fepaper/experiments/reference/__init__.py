"""The related work's games and methods beside fepaper's: Connect Four searched as its report did
(connectfour), the Aboyne report's measurements and claims (aboyne, aboyne_claims), heuristics
compared from fixed positions (heuristics), Foo's seven machines on their own games and its report's
claims (foo_machines, foo_claims)."""
