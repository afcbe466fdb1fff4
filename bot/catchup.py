"""Catch-up: what changed since a seat's last move, as a few counts (pure Python).

When a player's turn comes after others have moved, the DM panel starts with a short summary built
from the public events of the actions since that seat's own last action: how many moves each other
player made, how many turns ran out, and per game the things that matter (captures and victory
points in Cold War, lines and removed chips in Pobeda, conquests, temples and eliminations in
Godstorm, reputation in By All Means). Private events (with ``"to"``) are never read.

Each game's *counters* are a table ``event type -> (counter, who, amount)``: ``who`` names the
event field that says whose it is (a seat, or a side for ``side:`` fields), ``amount`` the field
to add (None: count one). A game without a table gets moves and timeouts only.

Issue 25 (item 8): the summary *leads with what happened to the reader* (:data:`LOSSES`): Godstorm
territories conquered from them and armies they lost, Pobeda chips of theirs removed and lines made by
the other sides, Cold War groups of theirs destroyed or taken (the points others scored follow in the
count of the rest), By All Means reputation, influence and trust they lost, their agents exposed and
their cards taken (a public ``bam.utility`` of a card of theirs that left their hand or an archive in
another seat's move: a discard the rival forced, cards milled), each by whose move it was; then the
short count of the rest (an event told in the lead is not counted again). Public events only.
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

Loss = tuple[str, str, int, int]
"""``(kind, name, who, amount)``: ``kind`` is "seat" or "side", ``who`` its index (-1: nobody's move)."""


def _loss(name: str, amount: Any, by: int, kind: str = "seat") -> list[Loss]:
    return [(kind, name, by, amount)] if isinstance(amount, int) and amount > 0 else []


def _godstorm(event: Mapping[str, Any], me: int, side: int, by: int) -> list[Loss]:
    kind = event.get("type")
    if kind == "conquered" and event.get("previous") == me:
        return _loss("your_territories", 1, by)
    if kind == "roll" and event.get("defender") == me:
        return _loss("your_armies", event.get("def_loss"), by)
    return []


def _pobeda(event: Mapping[str, Any], me: int, side: int, by: int) -> list[Loss]:
    kind = event.get("type")
    if kind == "played" and event.get("kind") in ("minus1", "swap") and event.get("victim") == side:
        return _loss("your_chips", 1, by)
    if kind == "line" and isinstance(event.get("side"), int) and event["side"] != side:
        return _loss("lines", 1, event["side"], "side")
    return []


def _coldwar(event: Mapping[str, Any], me: int, side: int, by: int) -> list[Loss]:
    kind = event.get("type")
    if kind == "destroyed" and event.get("owner") == side:
        return _loss("your_groups_destroyed", 1, by)
    if kind == "use" and event.get("owner") == side and event.get("effect") in ("destroy", "steal"):
        return _loss("your_groups_destroyed" if event["effect"] == "destroy" else "your_groups_taken", 1, by)
    return []  # the points others scored are in the count of the rest ("+5 victory points")


def _byallmeans(event: Mapping[str, Any], me: int, side: int, by: int) -> list[Loss]:
    kind = event.get("type")
    if kind == "bam.lose" and event.get("seat") == me and event.get("res") in ("rep", "inf", "trust"):
        return _loss(f"your_{event['res']}", event.get("n"), by)
    if kind == "bam.exposed" and event.get("seat") == me:
        return _loss("your_agents", 1, by)
    if kind == "bam.utility" and event.get("seat") == me and event.get("from") in TAKEN_FROM and by != me:
        return _loss("your_cards", 1, by)  # discarded from the reader's hand or milled from an archive
    return []


TAKEN_FROM = ("hand", "main", "extra")
"""By All Means zones a card is *taken from you* out of (a card leaving the field is another loss)."""


LOSSES: dict[str, Callable[[Mapping[str, Any], int, int, int], list[Loss]]] = {
    "godstorm": _godstorm, "pobeda": _pobeda, "coldwar": _coldwar, "byallmeans": _byallmeans,
}
"""Per game: what a public event did *to the reader* (``event, me, my side, whose move``)."""

LOSS_ORDER = ("your_territories", "your_armies", "your_chips", "your_groups_destroyed", "your_groups_taken",
              "your_rep", "your_inf", "your_trust", "your_agents", "your_cards", "lines")

ORDER = ("captures", "points", "lines", "removed", "conquests", "temples", "reputation", "eliminated")


@dataclass
class Summary:
    moves: dict[int, int] = field(default_factory=dict)
    """Moves by each other seat (automatic moves included; timeouts counted apart)."""
    timeouts: dict[int, int] = field(default_factory=dict)
    counts: dict[tuple[str, int], dict[str, int]] = field(default_factory=dict)
    """``(("seat" | "side"), index) -> counter -> total``."""
    losses: dict[tuple[str, int], dict[str, int]] = field(default_factory=dict)
    """What happened to the reader, by whose move: ``(("seat" | "side"), index) -> loss -> total``."""

    @property
    def empty(self) -> bool:
        return not self.moves and not self.timeouts and not self.counts and not self.losses


class Record(NamedTuple):
    """What catch-up reads of a stored action: who made it and its events."""

    seat: int
    events: list[dict[str, Any]]


def _counters_of(game: str, kind: str) -> list[Counter]:
    table = COUNTERS.get(game, {})
    names = ALIASES.get(game, {}).get(kind, [kind])
    return [table[n] for n in names if n in table]


def summarise(game: str, records: Iterable[Record], me: int, side: int | None = None) -> Summary:
    """The summary of ``records`` (the actions after ``me``'s last one) for seat ``me``, whose side is
    ``side`` (default: ``me``)."""
    out = Summary()
    mine = me if side is None else side
    lost = LOSSES.get(game)
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
            losses = lost(event, me, mine, record.seat) if lost is not None else []
            for where, loss, by, n in losses:
                told = out.losses.setdefault((where, by), {})
                told[loss] = told.get(loss, 0) + n
            if losses:
                continue  # told in the lead: not counted again among the rest
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
    for kind, index in sorted(summary.losses, key=lambda k: (k[0] != "seat", k[1] < 0, k[1])):
        parts = [count_text(n, summary.losses[(kind, index)][n], lang) for n in LOSS_ORDER
                 if summary.losses[(kind, index)].get(n)]
        if not parts:
            continue
        if index < 0:
            lines.append("⚔️ " + ", ".join(parts))
        else:
            who = seat_name(index) if kind == "seat" else side_name(index)
            lines.append(f"⚔️ {who}: " + ", ".join(parts))
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
