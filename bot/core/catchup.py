"""Catch-up: what changed since a seat's last move, as a few counts (pure Python).

When a player's turn comes after others have moved, the DM panel starts with a short summary built
from the public events of the actions since that seat's own last action: how many moves each other
player made, how many turns ran out, and the things that matter in that game (its manifest's
:class:`bot.games.manifest.CatchUp`). Private events (with ``"to"``) are never read.

Each game's *counters* are a table ``event type -> counters`` (:class:`bot.games.manifest.Counter`:
name, who, amount): ``who`` names the event field that says whose it is (a seat, or a side for
``side:`` fields), ``amount`` the field to add (None: count one). A game without a table gets moves and
timeouts only.

Issue 25 (item 8): the summary *leads with what happened to the reader* (the game's ``losses``: e.g.
territories conquered from them, chips of theirs removed, groups destroyed, cards taken), each by whose
move it was; then the short count of the rest (an event told in the lead is not counted again). Public
events only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.core.i18n import t, tn
from bot.games.manifest import CatchUp, Counter, Loss
from bot.games.registry import GAMES

__all__ = ["Counter", "Loss", "Record", "Summary", "count_text", "rules_of", "summarise", "summary_text"]


def rules_of(game: str) -> CatchUp:
    """The catch-up table of ``game`` (an empty one for a game without, or an unknown key)."""
    manifest = GAMES.get(game)
    table = manifest.catchup_rules() if manifest is not None else None
    return table if table is not None else CatchUp()


@dataclass
class Summary:
    moves: dict[int, int] = field(default_factory=dict)
    """Moves by each other seat (automatic moves included; timeouts counted apart)."""
    timeouts: dict[int, int] = field(default_factory=dict)
    counts: dict[tuple[str, int], dict[str, int]] = field(default_factory=dict)
    """``(("seat" | "side"), index) -> counter -> total``."""
    losses: dict[tuple[str, int], dict[str, int]] = field(default_factory=dict)
    """What happened to the reader, by whose move: ``(("seat" | "side"), index) -> loss -> total``."""
    order: tuple[str, ...] = ()
    """The game's counters in the order they are listed (others follow, sorted)."""
    loss_order: tuple[str, ...] = ()
    """The game's losses in the order they are listed (others follow, sorted)."""

    @property
    def empty(self) -> bool:
        return not self.moves and not self.timeouts and not self.counts and not self.losses


class Record(NamedTuple):
    """What catch-up reads of a stored action: who made it, its events, and the action itself (an answer that
    only finishes the move before it, ``Game.continues``, is not a move of its own)."""

    seat: int
    events: list[dict[str, Any]]
    action: Any = None


def summarise(game: str, records: Iterable[Record], me: int, side: int | None = None) -> Summary:
    """The summary of ``records`` (the actions after ``me``'s last one) for seat ``me``, whose side is
    ``side`` (default: ``me``)."""
    rules = rules_of(game)
    out = Summary(order=rules.order, loss_order=rules.loss_order)
    mine = me if side is None else side
    lost = rules.losses
    manifest = GAMES.get(game)
    finishes = manifest.game_class().continues if manifest is not None else (lambda _action: False)
    for record in records:
        timed_out = any(e.get("type") == "platform.timeout" for e in record.events)
        if record.seat == me and not timed_out:
            continue  # the seat's own moves (a teammate's) are not news to catch up on
        counted = timed_out or not isinstance(record.action, dict) or not finishes(record.action)  # ✔, 🎲: no
        if record.seat >= 0 and record.seat != me and counted:
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
            for counter in rules.counters.get(kind, ()):
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
    """``3 captures`` / ``3 захвата``: the counter's label in the plural form of ``n`` (``lifecycle.cu.<name>``;
    a name with a dot is a key of the game's own strings)."""
    key = name if "." in name else f"lifecycle.cu.{name}"
    return tn(key, lang, abs(n), n=n)  # CLDR form via bot.core.i18n (English "other" -> .many)


def summary_text(summary: Summary, seat_name: Callable[[int], str], side_name: Callable[[int], str],
                 lang: str) -> str:
    """The summary as a few lines (empty when nothing happened)."""
    if summary.empty:
        return ""
    lines = [t("lifecycle.cu.title", lang)]
    for kind, index in sorted(summary.losses, key=lambda k: (k[0] != "seat", k[1] < 0, k[1])):
        told = summary.losses[(kind, index)]
        parts = [count_text(n, told[n], lang) for n in _ordered(told, summary.loss_order) if told[n]]
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
        parts += _counts(summary.counts.get(("seat", seat), {}), summary.order, lang)
        if parts:
            lines.append(f"• {seat_name(seat)}: " + ", ".join(parts))
    for kind, index in sorted(k for k in summary.counts if k[0] == "side"):
        parts = _counts(summary.counts[(kind, index)], summary.order, lang)
        if parts:
            lines.append(f"• {side_name(index)}: " + ", ".join(parts))
    return "\n".join(lines)


def _ordered(totals: Mapping[str, int], order: tuple[str, ...]) -> list[str]:
    return [n for n in order if n in totals] + sorted(n for n in totals if n not in order)


def _counts(totals: Mapping[str, int], order: tuple[str, ...], lang: str) -> list[str]:
    return [count_text(n, totals[n], lang) for n in _ordered(totals, order) if totals[n]]
