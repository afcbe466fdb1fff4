"""User-controlled text, in and out: the one place that reads numbers and ids out of what a user or a
client sent (slash options given as text, autocomplete values, select values, custom ids), and that
makes a name or any user text safe to repeat in a message (issue 23).

Reading never raises: every function returns None for text it does not accept. Only ASCII digits
count as digits (``"²".isdigit()`` is true but ``int("²")`` raises; ``int`` would also take signs,
spaces, underscores and other scripts' digits), and every number is bounded, ids within SQLite's
signed 64-bit integer (a 20-digit id raised ``OverflowError`` in the driver).

Pure Python with no imports from the bot or discord, so rules, text helpers and cogs can all use it.
"""

from __future__ import annotations

import re

INT64_MAX = 2**63 - 1
"""The largest integer SQLite (and PostgreSQL's BIGINT) stores: every id the bot reads is at most this."""

_DIGITS = re.compile(r"[0-9]+", re.ASCII)


def small_int(text: object, lo: int, hi: int) -> int | None:
    """The integer ``text`` spells, when it is ASCII digits (after an optional ``-`` when ``lo`` is
    negative; surrounding spaces ignored) and within ``lo..hi``; else None."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    negative = text.startswith("-") and lo < 0
    digits = text[1:] if negative else text
    # a bound on the length first: int() of a huge string is slow (and limited), and nothing we read is long
    if not digits or len(digits) > 19 or _DIGITS.fullmatch(digits) is None:
        return None
    value = -int(digits) if negative else int(digits)
    return value if lo <= value <= hi else None


def index(text: object, count: int) -> int | None:
    """A position in a list of ``count`` items (``0..count-1``), e.g. a select's value; else None."""
    return small_int(text, 0, count - 1) if count > 0 else None


def db_id(text: object) -> int | None:
    """A stored id (a game, a user, a channel): ``0..INT64_MAX``; else None."""
    return small_int(text, 0, INT64_MAX)


def id_field(text: object) -> int | None:
    """A stored id written into a custom id by the bot itself: :func:`db_id`, and nothing around
    the digits (the bot never writes a space there, so a field with one is forged)."""
    return db_id(text) if isinstance(text, str) and text == text.strip() else None


def fields(custom_id: object, prefix: str, count: int) -> list[str] | None:
    """The ``count`` fields after ``prefix`` of a ``prefix:a:b:...`` custom id; None when it is not
    one of that prefix or has another number of fields."""
    if not isinstance(custom_id, str) or len(custom_id) > 100 or not custom_id.startswith(prefix + ":"):
        return None
    parts = custom_id.split(":")[1:]
    return parts if len(parts) == count else None


# ---- repeating user text --------------------------------------------------------------------
_ALWAYS = re.compile(r"([\\*_~|`\[\]<>])")
"""Markdown that works anywhere in a line: emphasis, strike, spoilers, code, masked links ``[x](y)``
(a bracket escaped cannot open one), and ``<@id>``/``<#id>``/``<t:…>``/``<:emoji:id>`` mentions and tags."""
_LINE_START = re.compile(r"^(\s*)([#>+\-]|\d+(?=\.))")
"""Markdown that works at the start of a line (headings, quotes, lists, ``-#`` subtext): a name may
begin a line."""
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
"""Direction overrides: a name must not reverse the rest of the line it is put in."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


def escape(text: object) -> str:
    """``text`` as it should be shown literally inside a Discord message: markdown escaped (no masked
    or bare links, no formatting, no headings), mentions and ``@everyone``/``@here`` defused, line
    breaks and direction overrides removed. Discord drops a backslash before punctuation when it
    renders, so the reader sees the name as typed."""
    out = _CONTROL.sub(" ", str(text))
    out = _BIDI.sub("", out)
    out = _ALWAYS.sub(r"\\\1", out)
    out = _LINE_START.sub(lambda m: m.group(1) + (m.group(2) + "\\" if m.group(2)[0].isdigit() else "\\" + m.group(2)),
                          out)
    out = out.replace("://", "\\://")  # no autolink: https\://… renders as plain text
    return re.sub(r"@(everyone|here)", "@\u200b\\1", out)


def unescape(text: str) -> str:
    """Inverse of :func:`escape` for places that draw the text instead of posting it (board images):
    the backslashes and the defusing zero-width space removed."""
    return re.sub(r"\\(.)", r"\1", text.replace("@\u200b", "@"))
