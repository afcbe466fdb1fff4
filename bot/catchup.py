"""Catch-up: what changed since a seat's last move, as a few counts (pure Python).

When a player's turn comes after others have moved, the DM panel starts with a short summary built
from the public events of the actions since that seat's own last action: how many moves each other
player made, how many turns ran out, and per game the things that matter (captures and victory
points in Cold War, lines and removed chips in Pobeda, conquests, temples and eliminations in
Godstorm, reputation in By All Means). Private events (with ``"to"``) are never read.

Each game's *counters* are a table ``event type -> (counter, who, amount)``: ``who`` names the
event field that says whose it is (a seat, or a side for ``side:`` fields), ``amount`` the field
to add (None: count one). A game without a table gets moves and timeouts only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.i18n import t, tn


class Counter(NamedTuple):
    name: str
    """The counter (its label is ``lifecycle.cu.<name>`` with plural forms)."""
    who: str
    """The event field naming whose it is; ``side:<field>`` for a side rather than a seat."""
    amount: str | None = None
    """The event field to add; None counts one per event."""
    when: Callable[[Mapping[str, Any]], bool] | None = None
    """Counted only when this says so (None: always)."""


COUNTERS: dict[str, dict[str, Counter]] = {
    "coldwar": {
        "capture": Counter("captures", "seat"),
        "capture_vp": Counter("points", "seat", "vp"),
        "event_used": Counter("points", "seat", "vp"),
    },
    "pobeda": {
        "line": Counter("lines", "side:side"),
        "played": Counter("removed", "seat", when=lambda e: e.get("kind") in ("minus1", "swap")),
    },
    "godstorm": {
        "conquered": Counter("conquests", "seat"),
        "temple_built": Counter("temples", "seat"),
        "eliminated": Counter("eliminated", "seat"),
    },
    "byallmeans": {
        "bam.gain": Counter("reputation", "seat", "n", when=lambda e: e.get("res") == "rep"),
    },
}
"""Per game: which public events count, and as what. ``capture_vp`` is an alias: a Cold War
capture both counts as a capture and adds its victory points (see :func:`_counters_of`)."""

ALIASES: dict[str, dict[str, list[str]]] = {"coldwar": {"capture": ["capture", "capture_vp"]}}

ORDER = ("captures", "points", "lines", "removed", "conquests", "temples", "reputation", "eliminated")


@dataclass
class Summary:
    moves: dict[int, int] = field(default_factory=dict)
    """Moves by each other seat (automatic moves included; timeouts counted apart)."""
    timeouts: dict[int, int] = field(default_factory=dict)
    counts: dict[tuple[str, int], dict[str, int]] = field(default_factory=dict)
    """``(("seat" | "side"), index) -> counter -> total``."""

    @property
    def empty(self) -> bool:
        return not self.moves and not self.timeouts and not self.counts


class Record(NamedTuple):
    """What catch-up reads of a stored action: who made it and its events."""

    seat: int
    events: list[dict[str, Any]]


def _counters_of(game: str, kind: str) -> list[Counter]:
    table = COUNTERS.get(game, {})
    names = ALIASES.get(game, {}).get(kind, [kind])
    return [table[n] for n in names if n in table]


def summarise(game: str, records: Iterable[Record], me: int) -> Summary:
    """The summary of ``records`` (the actions after ``me``'s last one) for seat ``me``."""
    out = Summary()
    for record in records:
        timed_out = any(e.get("type") == "platform.timeout" for e in record.events)
        if record.seat == me and not timed_out:
            continue  # the seat's own moves (a teammate's) are not news to catch up on
        if record.seat >= 0 and record.seat != me:
            bucket = out.timeouts if timed_out else out.moves
            bucket[record.seat] = bucket.get(record.seat, 0) + 1
        for event in record.events:
            if "to" in event:
                continue  # private to some seats: never summarised
            kind = str(event.get("type", ""))
            for counter in _counters_of(game, kind):
                if counter.when is not None and not counter.when(event):
                    continue
                ref, _, name = counter.who.partition(":")
                key = ("side", name) if name else ("seat", ref)
                who = event.get(key[1])
                if not isinstance(who, int) or who < 0:
                    continue
                amount = event.get(counter.amount, 0) if counter.amount else 1
                if not isinstance(amount, int) or amount == 0:
                    continue
                totals = out.counts.setdefault((key[0], who), {})
                totals[counter.name] = totals.get(counter.name, 0) + amount
    return out


def count_text(name: str, n: int, lang: str) -> str:
    """``3 captures`` / ``3 захвата``: the counter's label in the plural form of ``n``."""
    return tn(f"lifecycle.cu.{name}", lang, abs(n), n=n)  # CLDR form via bot.i18n (English "other" -> .many)


def summary_text(summary: Summary, seat_name: Callable[[int], str], side_name: Callable[[int], str],
                 lang: str) -> str:
    """The summary as a few lines (empty when nothing happened)."""
    if summary.empty:
        return ""
    lines = [t("lifecycle.cu.title", lang)]
    seats = sorted(set(summary.moves) | set(summary.timeouts) | {i for k, i in summary.counts if k == "seat"})
    for seat in seats:
        parts = []
        if summary.moves.get(seat):
            parts.append(count_text("moves", summary.moves[seat], lang))
        if summary.timeouts.get(seat):
            parts.append(count_text("timeouts", summary.timeouts[seat], lang))
        parts += _counts(summary.counts.get(("seat", seat), {}), lang)
        if parts:
            lines.append(f"• {seat_name(seat)}: " + ", ".join(parts))
    for kind, index in sorted(k for k in summary.counts if k[0] == "side"):
        parts = _counts(summary.counts[(kind, index)], lang)
        if parts:
            lines.append(f"• {side_name(index)}: " + ", ".join(parts))
    return "\n".join(lines)


def _counts(totals: Mapping[str, int], lang: str) -> list[str]:
    known = [n for n in ORDER if n in totals] + sorted(n for n in totals if n not in ORDER)
    return [count_text(n, totals[n], lang) for n in known if totals[n]]
