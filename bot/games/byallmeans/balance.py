"""Balance of the preset decks, measured: the AI plays every pair of presets.

``python -m bot.games.byallmeans.balance --games 500 [--level strong] [--seed 1] [--turn-cap 120]``

For each unordered pair of preset decks it plays ``--games`` games of the AI against itself, the first deck
in seat 0 in even games and in seat 1 in odd ones (so the first-move lot and the seat cancel out), and
prints a Markdown table: the first deck's win rate with its Wilson 95% interval, draws, games stopped at the
turn cap, the mean and longest game in turns, and what ended the games. A game that reaches the turn cap
counts as unfinished (a stalemate); the run is meant to show none. Seeds are ``seed + g`` for game ``g``
of every pair, so the table is reproducible.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from bot.games.ai import Policy, bot_rng, game_rng, policy_for, wilson
from bot.games.byallmeans import ByAllMeans, decks

TURN_CAP = 120
"""A game still running after this many turns is stopped and counted as unfinished."""


@dataclass
class PairResult:
    a: str
    b: str
    games: int = 0
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    unfinished: int = 0
    turns: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)

    def rate(self) -> float:
        return self.wins_a / self.games if self.games else 0.0

    def row(self) -> str:
        lo, hi = wilson(self.wins_a, self.games)
        mean = sum(self.turns) / max(1, len(self.turns))
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(self.reasons.items()))
        return (f"| {self.a} – {self.b} | {self.games} | {self.rate():.1%} | {lo:.1%}–{hi:.1%} | {self.draws} | "
                f"{self.unfinished} | {mean:.1f} | {max(self.turns, default=0)} | {reasons} |")


def play_one(deck0: str, deck1: str, policies: Sequence[Policy], seed: int,
             turn_cap: int = TURN_CAP) -> tuple[ByAllMeans, int]:
    """One AI game; returns the game and the number of actions taken."""
    game = ByAllMeans.new([{"deck": deck0}, {"deck": deck1}], {}, seed)
    steps = 0
    while game.outcome() is None and game.s.turn.number <= turn_cap:
        seat = game.actors()[0]
        legal = game.legal_actions(seat)
        action = policies[seat].choose(dict(game.view(seat)), legal, bot_rng(game_rng(game), seat, steps))
        game.apply(seat, action)
        steps += 1
    return game, steps


def run_pair(a: str, b: str, games: int, seed: int, level: str = "strong",
             turn_cap: int = TURN_CAP) -> PairResult:
    bot = policy_for("byallmeans", level)
    res = PairResult(a, b)
    for g in range(games):
        a_seat = g % 2
        pair = (a, b) if a_seat == 0 else (b, a)
        game, _ = play_one(pair[0], pair[1], [bot, bot], seed + g, turn_cap)
        res.games += 1
        res.turns.append(game.s.turn.number)
        out = game.outcome()
        if out is None:
            res.unfinished += 1
            continue
        res.reasons.update(out.get("reasons", []))
        if out.get("draw"):
            res.draws += 1
        elif a_seat in out["winners"]:
            res.wins_a += 1
        else:
            res.wins_b += 1
    return res


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.games.byallmeans.balance", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--level", choices=("strong", "quick"), default="strong")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turn-cap", type=int, default=TURN_CAP)
    parser.add_argument("--pairs", nargs="*", default=None, help="only these pairs, as a-b")
    args = parser.parse_args(argv)
    names = sorted(decks.presets())
    pairs = list(combinations(names, 2))
    if args.pairs:
        pairs = [(p.split("-", 1)[0], p.split("-", 1)[-1]) for p in args.pairs]
    print(f"By All Means preset balance: {args.games} games a pair, AI level {args.level} in both seats, "
          f"seeds from {args.seed}, turn cap {args.turn_cap}")
    print("| pair (first deck's rate) | games | first wins | Wilson 95% | draws | unfinished | mean turns | "
          "max turns | endings |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    ok = True
    for a, b in pairs:
        res = run_pair(a, b, args.games, args.seed, args.level, args.turn_cap)
        print(res.row(), flush=True)
        ok = ok and 0.35 <= res.rate() <= 0.65 and res.unfinished == 0
    print("all pairs within 35–65%, none unfinished" if ok else "OUT OF BOUNDS")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
