"""Who plays whom: Swiss, round robin, single elimination, and tables of 3-5 by rating.

Pure functions over user ids, scores and the encounters so far; nothing here reads a clock,
a database or Discord.

**Swiss** (two players a game) follows the FIDE Handbook, C.04.1 "Basic rules for Swiss systems"
and C.04.3 "FIDE (Dutch) System", without the colour rules (our games seat players by their own
rules):

* C.04.1 b: two players shall not play each other more than once. Here a hard constraint while
  any pairing without a rematch exists (a complete backtracking search, bounded by
  :data:`SEARCH_BUDGET`); only when none exists (or the budget is spent) are rematches allowed,
  the fewest the greedy fallback finds.
* C.04.1 c/d: a player who cannot be paired gets a pairing-allocated bye, scored as a win
  (:data:`bot.core.leagues.standings.BYE_POINTS`), and nobody gets a second bye while another
  player could take it. The bye goes to the lowest-ranked such player (ranked by score, then
  rating) whose absence leaves the others pairable: the Dutch system's bye falls to the last
  score bracket.
* C.04.1 e / C.04.3 A.3: players are paired within their score bracket; a bracket is ranked by
  rating (the pairing numbers), split into S1 (the upper half) and S2 (the lower half), and S1's
  i-th player meets S2's i-th player. When that would be a rematch, S2 is transposed (the next
  S2 players in order, then the lower S1 players: an exchange), and a player left over in a
  bracket moves down (a downfloater) and meets the highest resident of the next bracket
  (S1 = the movers, S2 = the residents).

The search picks the highest unpaired player and tries opponents in exactly that order; going
back only when the rest cannot be paired, so the first pairing found is the Dutch one whenever
the Dutch one has no rematch.

**Round robin** is the circle method (Berger): one player stays, the others turn one place a
round; with an odd number a "bye" takes the empty place. Every pair meets exactly once in
``n - 1`` rounds (``n`` even, counting the bye).

**Single elimination** seeds the standard bracket (seed 1 meets the last seed, 1 and 2 can meet
only in the final); the top seeds get the byes when the field is not a power of two.

**Tables of 3-5** (multi-player games): the field, ranked by score then rating, is cut into
consecutive tables whose sizes differ by at most one, then players of neighbouring tables are
swapped while that lowers the number of repeated encounters.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from bot.core.leagues import colours

SEARCH_BUDGET = 200_000
"""Pairs placed and taken back at most in one Swiss search (then the greedy fallback pairs)."""


@dataclass
class SwissRound:
    """One round's pairing: the pairs (higher-ranked first), the bye (or None), and how many of
    the pairs are rematches (0 unless unavoidable or the search ran out of budget)."""

    pairs: list[tuple[int, int]]
    bye: int | None
    rematches: int = 0
    searched: int = 0
    """Pairs tried by the search (for the bench)."""


@dataclass
class History:
    """What the pairing needs to know of the rounds so far."""

    scores: dict[int, float] = field(default_factory=dict)
    met: dict[int, set[int]] = field(default_factory=dict)
    byes: dict[int, int] = field(default_factory=dict)
    colours: dict[int, list[int | None]] = field(default_factory=dict)
    """Two-player games: each player's seat per round so far (:mod:`bot.core.leagues.colours`)."""

    def meet(self, players: Sequence[int]) -> None:
        for a in players:
            self.met.setdefault(a, set()).update(b for b in players if b != a)

    def has_met(self, a: int, b: int) -> bool:
        return b in self.met.get(a, ())


def ranked(players: Iterable[int], ratings: Mapping[int, float], scores: Mapping[int, float]) -> list[int]:
    """Players by score, then rating (both highest first), then id: the pairing numbers."""
    return sorted(players, key=lambda u: (-round(scores.get(u, 0.0), 6), -ratings.get(u, 0.0), u))


def swiss(players: Sequence[int], ratings: Mapping[int, float], history: History,
          budget: int = SEARCH_BUDGET) -> SwissRound:
    """Pair one Swiss round (see the module's docstring for the rules)."""
    order = ranked(players, ratings, history.scores)
    n = len(order)
    if n == 0:
        return SwissRound([], None)
    if n == 1:
        return SwissRound([], order[0])
    score_key = [round(history.scores.get(u, 0.0), 6) for u in order]
    met = _met_indices(order, history)
    group = _groups(score_key)
    avoid = _clashes(order, history)
    if any(avoid):  # first without colour clashes (C.04.3 C.3), then, only if none exists, as if no colours
        strict = [m | a for m, a in zip(met, avoid, strict=True)]
        first = _swiss(order, group, strict, history, budget)
        if first is not None:
            return first
        return _swiss(order, group, met, history, max(0, budget)) or _fallback(order, group, met, history)
    return _swiss(order, group, met, history, budget) or _fallback(order, group, met, history)


def _clashes(order: list[int], history: History) -> list[set[int]]:
    """Per ranked position, the positions it may not meet without breaking an absolute colour preference."""
    if not history.colours:
        return [set() for _ in order]
    absolute = {}
    for i, u in enumerate(order):
        pref = colours.preference(history.colours.get(u, ()))
        if pref.strength == colours.ABSOLUTE:
            absolute[i] = pref.colour
    return [{j for j, c in absolute.items() if j != i and c == absolute.get(i)} if i in absolute else set()
            for i in range(len(order))]


def _swiss(order: list[int], group: list[int], met: list[set[int]], history: History,
           budget: int) -> SwissRound | None:
    """The search's pairing without any pair of ``met`` (None: none found within the budget)."""
    n = len(order)
    spent = 0
    if n % 2 == 0:
        found, used = _search(list(range(n)), group, met, budget)
        if found is None:
            return None
        return SwissRound([(order[a], order[b]) for a, b in found], None, 0, used)
    for i in _bye_order(order, history):
        rest = [j for j in range(n) if j != i]
        found, used = _search(rest, group, met, max(0, budget - spent))
        spent += used
        if found is not None:
            return SwissRound([(order[a], order[b]) for a, b in found], order[i], 0, spent)
        if spent >= budget:
            break
    return None


def _bye_order(order: list[int], history: History) -> list[int]:
    """Positions that may take the bye, the lowest-ranked first (those who had none, if any)."""
    n = len(order)
    return [i for i in range(n - 1, -1, -1) if history.byes.get(order[i], 0) == 0] or list(range(n - 1, -1, -1))


def _fallback(order: list[int], group: list[int], met: list[set[int]], history: History) -> SwissRound:
    """The greedy pairing with the fewest rematches it finds (no pairing without one exists, or the
    search ran out of budget)."""
    n = len(order)
    if n % 2 == 0:
        pairs, rematches = _greedy(list(range(n)), group, met)
        return SwissRound([(order[a], order[b]) for a, b in pairs], None, rematches, 0)
    i = _bye_order(order, history)[0]
    pairs, rematches = _greedy([j for j in range(n) if j != i], group, met)
    return SwissRound([(order[a], order[b]) for a, b in pairs], order[i], rematches, 0)


def _met_indices(order: list[int], history: History) -> list[set[int]]:
    index = {u: i for i, u in enumerate(order)}
    return [{index[v] for v in history.met.get(u, ()) if v in index} for u in order]


def _groups(score_key: list[float]) -> list[int]:
    """The score bracket of each ranked position (0 = the top bracket)."""
    out: list[int] = []
    g = 0
    for i, s in enumerate(score_key):
        if i and s != score_key[i - 1]:
            g += 1
        out.append(g)
    return out


def _candidate(rest: list[int], m: int, k: int) -> int:
    """The position in ``rest`` of the ``k``-th opponent to try for ``rest[0]``, whose bracket has
    ``m`` unpaired players at the front of ``rest``: S2 in order, then S1 from the bottom (an
    exchange), then the lower brackets in rank order (``rest[0]`` floats down). -1: none left."""
    if m >= 2:
        h = m // 2
        if k < m - h:
            return h + k
        k -= m - h
        if k < h - 1:
            return h - 1 - k
        k -= h - 1
        pos = m + k
    else:
        pos = 1 + k
    return pos if pos < len(rest) else -1


def _search(start: list[int], group: list[int], met: list[set[int]],
            budget: int) -> tuple[list[tuple[int, int]] | None, int]:
    """Backtracking over the Dutch order without rematches: the pairs (ranked positions) or None
    when there is none (or the budget ran out); and the pairs tried."""
    rest = list(start)
    left: dict[int, int] = {}
    for i in rest:
        left[group[i]] = left.get(group[i], 0) + 1
    pairs: list[tuple[int, int]] = []
    frames: list[list[int]] = []  # per level: [m, next k]
    tried = 0
    descend = True
    while True:
        if descend:
            if not rest:
                return pairs, tried
            frames.append([left[group[rest[0]]], 0])
        frame = frames[-1]
        p = rest[0]
        mine = met[p]
        while True:
            pos = _candidate(rest, frame[0], frame[1])
            frame[1] += 1
            if pos < 0 or rest[pos] not in mine:
                break
        if pos >= 0:
            q = rest.pop(pos)
            rest.pop(0)
            left[group[p]] -= 1
            left[group[q]] -= 1
            pairs.append((p, q))
            tried += 1
            if tried > budget:
                return None, tried
            descend = True
            continue
        frames.pop()  # no opponent for rest[0] here: take the previous pair back
        if not pairs:
            return None, tried
        a, b = pairs.pop()
        bisect.insort(rest, b)
        bisect.insort(rest, a)
        left[group[a]] += 1
        left[group[b]] += 1
        descend = False


def _greedy(start: list[int], group: list[int], met: list[set[int]]) -> tuple[list[tuple[int, int]], int]:
    """Everyone paired in the Dutch order, a rematch only where no new opponent is left."""
    rest = list(start)
    left: dict[int, int] = {}
    for i in rest:
        left[group[i]] = left.get(group[i], 0) + 1
    pairs: list[tuple[int, int]] = []
    rematches = 0
    while len(rest) >= 2:
        p = rest[0]
        m = left[group[p]]
        k, first, chosen = 0, -1, -1
        while True:
            pos = _candidate(rest, m, k)
            k += 1
            if pos < 0:
                break
            if first < 0:
                first = pos
            if rest[pos] not in met[p]:
                chosen = pos
                break
        if chosen < 0:
            chosen = first
            rematches += 1
        q = rest.pop(chosen)
        rest.pop(0)
        left[group[p]] -= 1
        left[group[q]] -= 1
        pairs.append((p, q))
    return pairs, rematches


# ---- round robin -----------------------------------------------------------------------------------
def round_robin(players: Sequence[int]) -> list[list[tuple[int, int | None]]]:
    """Every round of a round robin by the circle method: a list of rounds, each a list of pairs;
    ``None`` is the bye (odd fields)."""
    field_: list[int | None] = list(players)
    if len(field_) % 2:
        field_.append(None)
    n = len(field_)
    if n < 2:
        return []
    fixed, ring = field_[0], field_[1:]
    rounds: list[list[tuple[int, int | None]]] = []
    for r in range(n - 1):
        turned = ring[r:] + ring[:r] if r else ring
        line = [fixed, *turned]
        pairs: list[tuple[int, int | None]] = []
        for i in range(n // 2):
            a, b = line[i], line[n - 1 - i]
            if a is None:
                a, b = b, None
            assert a is not None
            pairs.append((a, b))
        rounds.append(pairs)
    return rounds


# ---- single elimination ----------------------------------------------------------------------------
def bracket_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for a power-of-two ``size``: neighbours meet in the first
    round, and seeds 1 and 2 only in the final (1, 8, 4, 5, 2, 7, 3, 6 for eight)."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket's size is a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def elimination_slots(seeded: Sequence[int]) -> list[int | None]:
    """The first round's slots for players listed by seed (best first): pairs of neighbouring slots
    meet; ``None`` is a bye (the top seeds get them)."""
    n = len(seeded)
    size = 1
    while size < n:
        size *= 2
    return [seeded[s - 1] if s <= n else None for s in bracket_order(size)]


def slot_pairs(slots: Sequence[int | None]) -> list[tuple[int, int | None]]:
    """Neighbouring slots as the round's tables (a lone player has a bye)."""
    out: list[tuple[int, int | None]] = []
    for i in range(0, len(slots) - 1, 2):
        a, b = slots[i], slots[i + 1]
        if a is None:
            a, b = b, None
        if a is not None:
            out.append((a, b))
    return out


# ---- tables of 3-5 ---------------------------------------------------------------------------------
def table_sizes(n: int, wanted: int, low: int, high: int) -> list[int]:
    """Sizes of tables for ``n`` players, as near ``wanted`` as the limits allow and differing by at
    most one (larger tables first); raises ValueError when ``n`` cannot be seated."""
    if n < low:
        raise ValueError(f"{n} players cannot fill a table of {low}")
    count = max(1, round(n / wanted))
    while count > 1 and n / count < low:
        count -= 1
    while n / count > high:
        count += 1
    base, extra = divmod(n, count)
    sizes = [base + 1] * extra + [base] * (count - extra)
    if min(sizes) < low or max(sizes) > high:
        raise ValueError(f"{n} players cannot be seated at tables of {low}-{high}")
    return sizes


def tables(order: Sequence[int], wanted: int, low: int, high: int, history: History | None = None,
           passes: int = 3) -> list[list[int]]:
    """Consecutive tables over ``order`` (ranked best first), then swaps between neighbouring
    tables that lower the repeated encounters (a swap keeps each table's size)."""
    sizes = table_sizes(len(order), wanted, low, high)
    out: list[list[int]] = []
    i = 0
    for size in sizes:
        out.append(list(order[i:i + size]))
        i += size
    if history is None:
        return out

    def repeats(table: list[int]) -> int:
        return sum(1 for x in range(len(table)) for y in range(x + 1, len(table)) if history.has_met(table[x], table[y]))

    for _ in range(passes):
        improved = False
        for t in range(len(out) - 1):
            a, b = out[t], out[t + 1]
            base = repeats(a) + repeats(b)
            if base == 0:
                continue
            best: tuple[int, int, int] | None = None
            for x in range(len(a) - 1, -1, -1):  # the lowest of the upper table with the highest of the lower
                for y in range(len(b)):
                    a2 = a[:x] + [b[y]] + a[x + 1:]
                    b2 = b[:y] + [a[x]] + b[y + 1:]
                    cost = repeats(a2) + repeats(b2)
                    if cost < base and (best is None or cost < best[0]):
                        best = (cost, x, y)
            if best is not None:
                _, x, y = best
                a[x], b[y] = b[y], a[x]
                improved = True
        if not improved:
            break
    return out


# ---- round robin and elimination at tables of more than two ----------------------------------------
def table_rounds(players: Sequence[int], per_table: int, low: int = 2) -> list[list[list[int]]]:
    """A round robin at tables of ``per_table``: rounds of tables (sizes from :func:`table_sizes`, as near
    ``per_table`` as possible, ``low`` at least) until every pair of players has met at least once.

    Greedy, round by round, over the pairs not met yet: a table starts with the free player who has the
    most of them among the free players (ties: the better seed), then takes, one at a time, the free
    player who meets the most new opponents at the table (ties: the one with the fewest unmet pairs left
    among the free players, so the players hardest to place later go first; then the better seed).
    Every round meets at least one new pair, so it ends; it takes at least ⌈(n − 1)/(k − 1)⌉ rounds
    (a player meets at most k − 1 new opponents a round), and docs/leagues.md lists what it takes."""
    return [[[players[i] for i in table] for table in tables] for tables in _table_rounds(len(players), per_table, low)]


@lru_cache(maxsize=64)
def _table_rounds(n: int, per_table: int, low: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """:func:`table_rounds` over positions (it depends on the field's size only; kept, as the standings
    and every round ask it again)."""
    if n < 2:
        return ()
    sizes = table_sizes(n, per_table, low, per_table)
    unmet = [set(range(n)) - {p} for p in range(n)]  # each position's opponents not met yet
    left = n * (n - 1) // 2
    rounds: list[tuple[tuple[int, ...], ...]] = []
    while left:
        free = set(range(n))
        tables: list[tuple[int, ...]] = []
        for size in sizes:
            seed = max(free, key=lambda p: (len(unmet[p] & free), -p))
            table = [seed]
            free.discard(seed)
            while len(table) < size:
                q = max(free, key=lambda c: (sum(1 for p in table if p in unmet[c]), -len(unmet[c] & free), -c))
                table.append(q)
                free.discard(q)
            tables.append(tuple(sorted(table)))
        for seated in tables:
            for a in seated:
                for b in seated:
                    if b in unmet[a]:
                        unmet[a].discard(b)
                        left -= a < b
        rounds.append(tuple(sorted(tables)))
    return tuple(rounds)


def snake_tables(seeded: Sequence[int], per_table: int, low: int = 2) -> list[list[int]]:
    """Seeded tables of at most ``per_table``: the seeds go round the tables in a snake (1 to T, then T
    back to 1, ...), so the top T seeds sit at different tables and each table's seeds add up evenly."""
    sizes = table_sizes(len(seeded), per_table, low, per_table)
    out: list[list[int]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    lap = 0
    i = 0
    while i < len(seeded):
        for t in (order if lap % 2 == 0 else order[::-1]):
            if i < len(seeded) and len(out[t]) < sizes[t]:
                out[t].append(seeded[i])
                i += 1
        lap += 1
    return out


def elimination_rounds(players: int, per_table: int, low: int = 2) -> int:
    """Rounds of an elimination at tables of ``per_table`` where each table's winner goes on: tables of the
    field, then of their winners, until one is left."""
    rounds = 0
    while players > 1:
        players = len(table_sizes(players, per_table, low, per_table))
        rounds += 1
    return rounds
