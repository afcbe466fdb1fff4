"""Deadline presets, the reminder schedule and the arithmetic of a paused clock (pure Python).

A seat's deadline row holds ``due_at`` and the time of its *next* reminder (``remind_at``). When a
reminder fires, the row gets the time of the one after it (or None), in the same tick and before
anything is posted, so each reminder fires once and a restart never repeats one. The schedule of a
turn of ``span`` seconds: one at half time, one shortly before the end (see :func:`final_before`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

PRESETS: dict[str, int] = {"live": 120, "casual": 12 * 3600, "slow": 48 * 3600}
"""Deadline presets offered at creation, in seconds per move."""

MAX_CUSTOM_S = 14 * 24 * 3600
"""The longest custom deadline (two weeks)."""

DEADLINE_MIN_S = 30
"""The shortest turn deadline, whichever way it is set (the timer ticks every 20 s): the default of
``bot.core.config.Limits.deadline_min_s``, which ``TABLETOP_DEADLINE_MIN_S`` lowers (tests)."""


def deadline_seconds(seconds: float, min_s: int = DEADLINE_MIN_S, max_s: int = MAX_CUSTOM_S) -> int | None:
    """``seconds`` as a turn deadline: 0 (none), or a whole number of seconds within ``min_s..max_s``;
    None for anything else (a value that is not finite, a fraction that rounds to nothing). The one
    range check of every way of setting a deadline: :func:`parse_duration` and
    ``SessionManager.check_deadline`` (which passes the configured bounds)."""
    if seconds == 0:
        return 0
    if not math.isfinite(seconds):
        return None
    value = int(round(seconds))
    if value == 0:
        return None  # a fraction of a second is no deadline (and "none" is spelled 0), whatever the floor
    return value if min_s <= value <= max_s else None


HALF = "half"
FINAL = "final"


def final_before(span: float) -> float:
    """How long before the end the last reminder comes: a tenth of the turn but at least 30 s (the
    timer ticks every 20 s) and at most an hour, and never before three quarters of the turn (a
    2-minute live turn: 30 s before; 12 or 48 hours: an hour before)."""
    return min(max(span * 0.1, 30.0), 3600.0, span / 4)


def reminder_times(due: float, span: float) -> list[tuple[float, str]]:
    """Every reminder of a deadline ``due`` for a turn of ``span`` seconds, in order, with its kind."""
    if span <= 0:
        return []
    return [(due - span / 2, HALF), (due - final_before(span), FINAL)]


def kind_of(due: float, span: float, remind_at: float) -> str:
    """Which reminder is due at ``remind_at`` (a stored time may have been shifted with its
    deadline, so it is matched by its distance from the end, not exactly)."""
    if span > 0 and due - remind_at <= final_before(span) + 1e-6:
        return FINAL
    return HALF


def next_reminder(due: float, span: float, fired: float) -> float | None:
    """The reminder after the one due at ``fired`` (None: that was the last)."""
    for at, _kind in reminder_times(due, span):
        if at > fired + 1e-6 and at < due:
            return at
    return None


class Timer(NamedTuple):
    due_at: float
    remind_at: float | None


def resumed(timer: Timer, span: float, paused_at: float, now: float) -> Timer:
    """A deadline after its game's clock was paused at ``paused_at`` and resumed at ``now``.

    A deadline that ran before the pause gets the paused time back; one set during the pause (a
    move made meanwhile) starts counting only now, so it gets back the time since it was set. Both
    are ``now - max(paused_at, set_at)`` where ``set_at = due - span``; a deadline of a shorter
    forced span (a decision with its own timeout) is treated as set at the pause at the latest,
    which can only be in the player's favour."""
    set_at = timer.due_at - span if span > 0 else paused_at
    shift = max(0.0, now - max(paused_at, set_at))
    remind = None if timer.remind_at is None else timer.remind_at + shift
    return Timer(timer.due_at + shift, remind)


def parse_duration(text: str, min_s: int = DEADLINE_MIN_S, max_s: int = MAX_CUSTOM_S) -> int | None:
    """A custom deadline typed by a host: a preset name, or a number with a unit (``90m``, ``12h``,
    ``2d``, ``1h30m``; a bare number is hours). None when it does not read as one (only ASCII digits
    count) or is out of ``min_s..max_s`` (:func:`deadline_seconds`); 0 means no deadline. Never raises."""
    raw = text.strip().lower().replace(" ", "")
    if not raw:
        return None
    if raw in PRESETS:
        return PRESETS[raw]
    if raw in ("0", "none", "off", "нет"):
        return 0
    units = {"s": 1, "с": 1, "m": 60, "м": 60, "min": 60, "мин": 60, "h": 3600, "ч": 3600, "d": 86400, "д": 86400}
    total = 0.0
    number = ""
    unit = ""
    parts: list[tuple[str, str]] = []
    for ch in raw:
        if ch in "0123456789.,":  # not str.isdigit(): "²" and other scripts' digits are no number here
            if unit:
                parts.append((number, unit))
                number, unit = "", ""
            number += "." if ch == "," else ch
        else:
            unit += ch
    parts.append((number, unit))
    for num, name in parts:
        if not num:
            return None
        try:
            value = float(num)
        except ValueError:
            return None
        factor = units.get(name or "h")
        if factor is None:
            return None
        total += value * factor
    if not total <= max_s:  # also inf: a run of hundreds of digits
        return None
    return deadline_seconds(total, min_s, max_s)
