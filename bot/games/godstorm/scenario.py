"""Hand-built positions for tests and for the next issue's miracle cards (not used in play)."""

from __future__ import annotations

from bot.games.base import Rng
from bot.games.godstorm import board
from bot.games.godstorm.core import NEUTRAL
from bot.games.godstorm.game import Godstorm
from bot.games.godstorm.state import Space, Territory, TurnFlags


class ScriptedRng(Rng):
    """An Rng whose dice come from a script (then from the seed); everything else as usual."""

    __slots__ = ("script",)

    def __init__(self, script: list[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.script = list(script)

    def dice(self, count: int, sides: int = 6) -> list[int]:
        out = []
        for _ in range(count):
            out.append(self.script.pop(0) if self.script else super().dice(1, sides)[0])
        return out


def scenario(players: int = 3, ruleset: str = "godstorm", step: str = "invade", filler: int | None = None,
             filler_armies: int = 1, miracles: bool = False) -> Godstorm:
    """A running turn of seat 0 at ``step`` with every territory held by ``filler`` (default: the last seat).
    ``miracles``: the cards are played (fresh shuffled piles, empty hands); otherwise only counted."""
    g = Godstorm.new([{} for _ in range(players)], {"ruleset": ruleset, "miracles": "on" if miracles else "off"}, 1)
    s = g.s
    owner = players - 1 if filler is None else filler
    for tid in s.terr:
        s.terr[tid] = Territory(owner, filler_armies)
    for sp in s.uw:
        s.uw[sp] = Space()
    for p in s.players:
        p.heaven, p.faith, p.eliminated, p.bid, p.tcards = 0, 10, False, None, []
        p.cards = {k: 0 for k in board.GOD_KINDS}
    s.phase, s.step, s.current, s.turn_order, s.turn_idx = "turn", step, 0, list(range(players)), 0
    s.epoch = 1 if ruleset == "godstorm" else None
    s.pending, s.battle, s.move, s.last, s.neutral_due, s.outcome = 0, None, None, None, False, None
    s.turn = TurnFlags(plague_done=step not in ("raise", "gods", "cards", "miracle"))
    rebalance(g)
    return g


def put(g: Godstorm, tid: str, owner: int, armies: int, gods: list[str] | None = None, temple: bool = False,
        plague: bool = False) -> None:
    g.s.terr[tid] = Territory(owner, armies, list(gods or []), temple, plague)
    rebalance(g)


def rebalance(g: Godstorm) -> None:
    """Reset every side's supply to what is in play, with an empty reserve (keeps the ledger exact)."""
    s = g.s
    for i, p in enumerate(s.players):
        p.reserve = 0
        p.supply = g.board_armies(i) + g.uw_armies(i) + p.heaven
    if s.neutral is not None:
        n = s.neutral
        n.reserve = 0
        n.supply = g.board_armies(NEUTRAL) + n.heaven


def script(g: Godstorm, dice: list[int]) -> None:
    g.rng = ScriptedRng(dice, g.rng.seed)


def ledger_ok(g: Godstorm) -> bool:
    s = g.s
    ok = all(g.board_armies(i) + g.uw_armies(i) + p.heaven + p.reserve == p.supply
             for i, p in enumerate(s.players))
    if s.neutral is not None:
        n = s.neutral
        ok = ok and g.board_armies(NEUTRAL) + n.heaven + n.reserve == n.supply
    return ok
