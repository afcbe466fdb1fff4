"""Who sits first at a two-player table (the chess player's "colour"), for Swiss and round robin.

A player's colour in a game is ``FIRST`` (the table's first seat) or ``SECOND``; their *history* is one
entry per round, ``None`` for a round without a game (a bye, not yet in the league). The rules are the
FIDE Handbook's C.04.3 "FIDE (Dutch) System" (2017), section A.6 "Colour differences and colour
preferences" and section E "Colour allocation rules", without the exceptions for topscorers:

* the colour difference (CD) is the number of games played first minus those played second;
* A.6 a, an *absolute* preference: CD below -1 or above +1, or the same colour in the two latest games
  played: the other colour;
* A.6 b, a *strong* preference: CD -1 or +1: the colour that evens it;
* A.6 c, a *mild* preference: CD 0: the other colour than in the latest game;
* no preference before the first game.

E (for a pair, in this order): E.1 grant both preferences; E.2 grant the stronger preference (both
absolute: the wider colour difference); E.3 alternate the colours to the most recent round in which
the two had different colours; E.4 grant the higher-ranked player's preference; E.5 the higher-ranked
player gets the initial colour (``FIRST``) with an odd pairing number, the other with an even one.

The pairing avoids pairs that would break an absolute preference (C.04.3 C.3: two players with the
same absolute preference do not meet) while a pairing without them exists: they are the "three in a
row" and a colour difference of three. :func:`bot.core.leagues.pairing.swiss` treats them like
rematches in a first search, and pairs without that criterion only when the first search finds none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

FIRST, SECOND = 0, 1

ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0
"""The strength of a colour preference (C.04.3 A.6)."""


@dataclass(frozen=True)
class Preference:
    strength: int
    colour: int | None
    difference: int


def preference(history: Sequence[int | None]) -> Preference:
    """A player's colour preference from their colours so far (C.04.3 A.6)."""
    played = [c for c in history if c is not None]
    if not played:
        return Preference(NONE, None, 0)
    cd = played.count(FIRST) - played.count(SECOND)
    if cd > 1 or (len(played) >= 2 and played[-1] == played[-2] == FIRST):
        return Preference(ABSOLUTE, SECOND, cd)
    if cd < -1 or (len(played) >= 2 and played[-1] == played[-2] == SECOND):
        return Preference(ABSOLUTE, FIRST, cd)
    if cd == 1:
        return Preference(STRONG, SECOND, cd)
    if cd == -1:
        return Preference(STRONG, FIRST, cd)
    return Preference(MILD, SECOND if played[-1] == FIRST else FIRST, cd)


def clash(a: Sequence[int | None], b: Sequence[int | None]) -> bool:
    """Two players who both hold an absolute preference for the same colour (C.04.3 C.3): one of them
    would play that colour a third time in a row, or reach a colour difference of three."""
    pa, pb = preference(a), preference(b)
    return pa.strength == pb.strength == ABSOLUTE and pa.colour == pb.colour


def allocate(higher: int, lower: int, colours: Mapping[int, Sequence[int | None]],
             pairing_number: Mapping[int, int]) -> tuple[int, int]:
    """The pair as (first seat, second seat) by C.04.3 E; ``higher`` is the higher-ranked of the two."""
    ha, hb = colours.get(higher, ()), colours.get(lower, ())
    pa, pb = preference(ha), preference(hb)

    def higher_gets(colour: int) -> tuple[int, int]:
        return (higher, lower) if colour == FIRST else (lower, higher)

    # E.1: both preferences granted
    if pa.colour is not None and pb.colour is not None and pa.colour != pb.colour:
        return higher_gets(pa.colour)
    if pa.colour is not None and pb.colour is None:
        return higher_gets(pa.colour)
    if pb.colour is not None and pa.colour is None:
        return higher_gets(1 - pb.colour)
    # E.2: the stronger preference (both absolute: the wider colour difference)
    if pa.colour is not None and pb.colour is not None:
        if pa.strength != pb.strength:
            return higher_gets(pa.colour) if pa.strength > pb.strength else higher_gets(1 - pb.colour)
        if pa.strength == ABSOLUTE and abs(pa.difference) != abs(pb.difference):
            return higher_gets(pa.colour) if abs(pa.difference) > abs(pb.difference) else higher_gets(1 - pb.colour)
    # E.3: alternate to the most recent round in which they had different colours
    for i in range(min(len(ha), len(hb)), 0, -1):
        ca, cb = ha[i - 1], hb[i - 1]
        if ca is not None and cb is not None and ca != cb:
            return higher_gets(1 - ca)
    # E.4: the higher-ranked player's preference
    if pa.colour is not None:
        return higher_gets(pa.colour)
    # E.5: the initial colour to an odd pairing number
    return higher_gets(FIRST if pairing_number.get(higher, 1) % 2 == 1 else SECOND)
