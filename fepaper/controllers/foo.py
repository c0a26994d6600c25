"""Foo's playing machines (seed 004: Bartosz Wójcik's Haskell engine *Foo*, 2008).

Foo lists seven machines "in the ascending power order", each a number of plies
with a limit on the moves (our distinct turns) examined per ply:

=========================  =====  ==========  ==========================================
machine                    level  plies       reading implemented here
=========================  =====  ==========  ==========================================
``GoAhead``                0      1 x 1000    the turn ending nearest the opponent's goal
``GoBackWatchOpponent``    1      1 1/2 x 1000  the turn ending farthest from one's own
                                              goal, among those after which the opponent
                                              cannot win at once
``GoAheadWatchOpponent``   2      1 1/2 x 1000  ``GoAhead`` among those same safe turns
``PreventingOpponent40``   3      2 x 40      minimax over my turn and the reply
``PreventingOpponent50``   4      2 x 50      the same, 50 turns a ply
``Watch2Ahead``            5      3 x 30      minimax, 3 plies
``Watch3Ahead``            6      4 x 18      minimax, 4 plies
=========================  =====  ==========  ==========================================

Readings (Foo's text is silent on them; see the report and ``docs/interpretation.md``):

* **Evaluation.** "The easy algorithm 'force ahead to opponent's goal'" prefers
  "moves that finish close to the opponent's goal. 'Close' in meaning of number of
  passes": a position is worth minus the steps from the ball to the goal the
  machine attacks (``Board.distance``). *GoBack* reads "go back" as the second
  factor Foo lists, "distance from own goal (these two are not complementary!)":
  the farther from one's own goal the better. A goal is worth +-1000 (sooner wins
  and later losses preferred); a draw (Foo's blocked rule: "loses only half a point")
  is worth what the kick-off node is worth.
* **Half a ply.** "Watch opponent" looks at the opponent's replies only to see
  whether one wins at once (a goal, or blocking us where that wins); such a turn is
  taken only when every turn allows it.
* **The limit per ply.** Foo does not say which moves are kept ("I don't spoil you
  pleasure ... you can find this in the sources"). Default ``order="nearest"``: the
  turns that the one-ply evaluation of the player to move ranks best (goals first,
  then nearest to the goal it attacks), ties at random. ``order="shortest"`` keeps
  the turns of fewest steps, which is what cutting a breadth-first generator (Foo
  generates turns breadth first) after N turns gives; ``order="random"`` a random
  sample.
* **No pruning.** Foo's breadth-first generation rules out alpha-beta; the search
  here is plain minimax over the kept turns, so it examines what Foo's limits say.
* **A clock** (fepaper's, not Foo's): with ``time_limit`` the minimax stops expanding
  when the time is spent (less a reserve for the wrap-up): a position reached after that
  is worth its static evaluation, and the turns not yet searched at the root are not
  played. Without it every machine examines exactly what its limits say.

What a decision costs: ``nodes`` counts the turns kept (those the limits let through), and
``details`` what Foo calls the moves scanned: ``listed``, the distinct turns seen at every
position whose turns were listed (all of them, before the limit keeps the best);
``listings``, those positions; ``full``, the listings that had at least as many turns as the
limit asked for; ``truncated``, the listings cut short by ``max_states`` or the clock. A look
half a ply ahead lists the replies only up to the first that wins, so its ``listed`` counts
the replies seen until then.
"""

from __future__ import annotations

import time

from .._core.bundles import new_budget
from .._core.picks import CONTINUE, DRAW, LOSS, ORDERS, WIN, collect_turns, new_picks
from .._core.playout import apply_turn
from .._core.turns import new_keyset
from ..game import Game
from ..search.budget import reserve
from ..search.playouts import random_state
from ..search.result import SearchResult
from .base import Controller, register
from .params import Choice, Int, SpecError

__all__ = ["FooMachine", "MACHINES"]

#: name -> (level, plies (1.5 = one ply and a look at the replies), turns kept per ply)
MACHINES: dict[str, tuple[int, float, int]] = {
    "GoAhead": (0, 1, 1000),
    "GoBackWatchOpponent": (1, 1.5, 1000),
    "GoAheadWatchOpponent": (2, 1.5, 1000),
    "PreventingOpponent40": (3, 2, 40),
    "PreventingOpponent50": (4, 2, 50),
    "Watch2Ahead": (5, 3, 30),
    "Watch3Ahead": (6, 4, 18),
}
_BY_LEVEL = {level: name for name, (level, _, _) in MACHINES.items()}
_WIN_VALUE = 1000


class _Search:
    """One decision's search: the board arrays, a random state and a node count."""

    def __init__(self, game: Game, order: int, cap: int, max_states: int, seed, go_back: bool,
                 time_limit: float | None) -> None:
        b = game.board
        self.b = b
        self.me = game.player
        self.order, self.cap, self.max_states = order, cap, max_states
        self.flags = game.rules.flags
        self.state = random_state(seed)
        self.picks = new_picks(b.n_nodes, b.n_edges, cap)
        self.table = new_keyset(32)
        limit = None if time_limit is None else time_limit - reserve(time_limit, 0.03)
        self.budget = new_budget(limit)
        self.deadline = None if limit is None else time.perf_counter() + limit
        # Foo's factors: steps to the goal I attack (row me-1) or from my own goal (row 2-me)
        self.row = (2 - self.me) if go_back else (self.me - 1)
        self.sign = 1 if go_back else -1
        self.draw_value = self.sign * int(b.distance[self.row, b.kickoff_index])
        self.examined = 0
        self.listed = self.listings = self.full = self.truncated = 0

    def turns(self, marks, ball, mover, turns_played, cap=None, stop_at_win=False):
        """The kept turns of a position: ``(steps, length, end, outcome)`` best first."""
        cap = self.cap if cap is None else cap
        kept, total, cut, self.table = collect_turns(
            marks, ball, mover, turns_played, self.b.arrays, self.flags, self.order, cap, self.max_states,
            stop_at_win, self.state, self.picks, self.table, self.budget)
        self.examined += kept
        self.listed += total
        self.listings += 1
        self.full += total >= cap
        self.truncated += bool(cut)
        p = self.picks
        return [(p.steps[s, :p.lengths[s]].copy(), int(p.lengths[s]), int(p.ends[s]), int(p.outcomes[s]))
                for s in p.order[:kept]]

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def static(self, end: int) -> int:
        return self.sign * int(self.b.distance[self.row, end])

    def outcome_value(self, outcome: int, mover: int, ply: int) -> int:
        if outcome == DRAW:
            return self.draw_value
        i_win = (outcome == WIN) == (mover == self.me)
        return _WIN_VALUE - ply if i_win else -_WIN_VALUE + ply

    def child(self, marks, ball, steps, length):
        after = marks.copy()
        return after, int(apply_turn(after, self.b.neighbour, ball, steps, length))

    def minimax(self, marks, ball, mover, turns_played, depth, ply) -> int:
        """The value (for the machine) of a turn-start position, ``depth`` plies deep (its
        static value once the clock has run out)."""
        if self.out_of_time():
            return self.static(ball)
        best = None
        for steps, length, end, outcome in self.turns(marks, ball, mover, turns_played):
            if outcome != CONTINUE:
                v = self.outcome_value(outcome, mover, ply)
            elif depth == 1:
                v = self.static(end)
            else:
                after, end = self.child(marks, ball, steps, length)
                v = self.minimax(after, end, 3 - mover, turns_played + 1, depth - 1, ply + 1)
            if best is None or (v > best if mover == self.me else v < best):
                best = v
        return 0 if best is None else best

    def opponent_wins(self, marks, ball, turns_played) -> bool:
        """Half a ply: whether the opponent has a turn that wins at once."""
        replies = self.turns(marks, ball, 3 - self.me, turns_played, cap=1, stop_at_win=True)
        return bool(replies) and replies[0][3] == WIN


@register
class FooMachine(Controller):
    """One of Foo's seven playing machines (see the module text for the readings).

    Parameters
    ----------
    machine : str, optional
        One of :data:`MACHINES` (default ``"GoAhead"``).
    level : int, optional
        0..6 instead of ``machine`` (the order Foo lists them in).
    order : {"nearest", "shortest", "random"}
        Which turns each ply keeps when it has more than the machine's limit.
    max_states : int
        Cap on the states of one position's turn walk (0: none).
    """

    name = "foo"
    WARM = {"machine": "PreventingOpponent40"}
    PARAMS = (
        Choice("machine", None, tuple(MACHINES), nullable=True, doc="one of Foo's machines"),
        Int("level", None, 0, 6, shown="never", doc="0..6 instead of machine"),
        Choice("order", "nearest", tuple(ORDERS), doc="which turns each ply keeps"),
        Int("max_states", 200_000, 0, 10**9, doc="cap on one position's turn walk (0: none)"),
    )

    def setup(self) -> None:
        if self.machine is None:
            self.machine = _BY_LEVEL[self.level or 0]
        elif self.level is not None and MACHINES[self.machine][0] != self.level:
            raise SpecError(f"foo: machine {self.machine!r} is level {MACHINES[self.machine][0]}, "
                            f"not {self.level!r}")
        self._values["machine"] = self.machine
        if 0 < self.max_states < 1000:
            raise SpecError(f"foo: max_states must be 0 (no cap) or >= 1000, got {self.max_states!r}")
        self.level, self.plies, self.limit = MACHINES[self.machine]

    def decide(self, game: Game) -> SearchResult:
        go_back = self.machine == "GoBackWatchOpponent"
        search = _Search(game, ORDERS[self.order], self.limit, self.max_states, self.rng, go_back,
                         self.time_limit)
        marks, ball, me, played = game.marks, game.ball_index, game.player, len(game.history)
        best_turn, best = None, None
        for steps, length, end, outcome in search.turns(marks, ball, me, played):
            if best_turn is not None and search.out_of_time():
                break  # the turns searched so far decide
            if outcome != CONTINUE:
                v = search.outcome_value(outcome, me, 0)
            elif self.plies == 1:
                v = search.static(end)
            else:
                after, end = search.child(marks, ball, steps, length)
                if self.plies == 1.5:
                    v = (search.outcome_value(LOSS, me, 1) if search.opponent_wins(after, end, played + 1)
                         else search.static(end))
                else:
                    v = search.minimax(after, end, 3 - me, played + 1, int(self.plies) - 1, 1)
            if best is None or v > best:  # the kept turns come in random order within ties
                best, best_turn = v, steps
        details = {"listed": search.listed, "listings": search.listings, "full": search.full,
                   "truncated": search.truncated}
        if best_turn is None:  # the capped walk met no whole turn: the greedy fallback plays one
            from .baselines import GreedyController

            turn = GreedyController(seed=int(self.rng.integers(2**63))).decide(game).turn
            return SearchResult(turn, None, search.examined, details=details)
        turn = (best_turn + 48).tobytes().decode()
        return SearchResult(turn, float(best), search.examined, details=details)
