"""Discord's size limits, checked in one place, and the helpers that make texts fit them.

Discord refuses a whole message (HTTP 400) when one part is too long: 2000 characters of content,
an embed over 6000 characters in total, a select with 26 options, a button label of 81
characters... Everything the bot builds goes through these helpers, so a long player name, a long
game log or a long Russian translation is shortened or split instead of losing the post.

Lengths are counted in UTF-16 code units, as Discord's JavaScript does: an emoji outside the basic
plane counts twice (a Cyrillic letter once), so a text that fits here also fits there.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

import discord

CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FIELDS = 25
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000
SELECT_OPTIONS = 25
OPTION_LABEL = 100
OPTION_DESCRIPTION = 100
OPTION_VALUE = 100
PLACEHOLDER = 150
BUTTON_LABEL = 80
CUSTOM_ID = 100
ROWS = 5
ROW_WIDTH = 5
"""Components per action row (buttons); a select fills a row on its own."""
UPLOAD = 10 * 1024 * 1024
"""Bytes of attachments a bot may send in a server without boosts (Discord's limit since 2024)."""
ANIMATION = 8 * 1024 * 1024
"""Our own cap for an animated board history: under :data:`UPLOAD` with room for the message."""
ECHO = 60
"""How much of a user's own text a refusal may quote back."""

DM_CHANNELS = 2000
"""DM channels remembered (least recently used dropped; a dropped one is opened again on use)."""
NOTICES = 5000
"""(game, user) pairs remembered as already told to use /game hand (the database remembers all)."""

ELLIPSIS = "…"
FENCE = "```"


def size(text: str) -> int:
    """Length as Discord counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def _prefix_within(text: str, limit: int) -> str:
    """The longest prefix of ``text`` of at most ``limit`` units (never splits a surrogate pair)."""
    if size(text) <= limit:
        return text
    out = text[:limit]
    if size(out) <= limit:
        return out
    low, high = 0, len(out) - 1  # size(out[:low]) fits, size(out[:high + 1]) does not: bisect
    while low < high:
        mid = (low + high + 1) // 2
        if size(out[:mid]) <= limit:
            low = mid
        else:
            high = mid - 1
    return out[:low]


def _cut_point(text: str, limit: int) -> int:
    """Where to cut ``text`` so the head fits ``limit``: at a paragraph, line or word break when one
    lies in the second half of the allowed span, else hard at the limit."""
    head = _prefix_within(text, limit)
    if len(head) == len(text):
        return len(text)
    floor = len(head) // 2
    for sep in ("\n\n", "\n", " "):
        at = head.rfind(sep)
        if at > floor:
            return at
    return len(head)


def _balance(text: str) -> str:
    """Close a code block or bold run that a cut left open (so the rest of a post is not code)."""
    if text.count(FENCE) % 2:
        text += "\n" + FENCE
    if text.replace(FENCE, "").count("**") % 2:
        text += "**"
    return text


def _closers(text: str) -> int:
    """How many units :func:`_balance` may add to a prefix of ``text`` (reserved before cutting)."""
    return (len(FENCE) + 1 if FENCE in text else 0) + (2 if "**" in text else 0)


def shorten(text: str, limit: int, *, ellipsis: str = ELLIPSIS) -> str:
    """``text`` if it fits, else its head cut at a word break and marked with ``ellipsis``."""
    if size(text) <= limit:
        return text
    if limit <= size(ellipsis):
        return _prefix_within(text, limit)
    room = limit - size(ellipsis) - _closers(text)
    if room <= 0:
        return _prefix_within(text, limit - size(ellipsis)) + ellipsis
    cut = _cut_point(text, room)
    head = text[:cut].rstrip()
    result = _balance(head + ellipsis) if _closers(text) else head + ellipsis
    return result if size(result) <= limit else _prefix_within(result, limit)


def split(text: str, limit: int = CONTENT) -> list[str]:
    """``text`` as consecutive chunks of at most ``limit`` units, cut at paragraph, line or word
    breaks where possible; a code block cut in two is closed and reopened.

    Linear in the text's length: the rest still to split is never copied, only a window of
    ``limit + 1`` characters at the current position (a cut never looks further), with a short
    ``carry`` in front (a reopened code block's first line)."""
    if limit < 16:
        raise ValueError("limit too small to split sensibly")
    chunks: list[str] = []
    end = len(text)
    pos = 0  # the rest is carry + text[pos:]
    last_fence = text.rfind(FENCE)
    carry = ""
    reopen = ""
    while carry or pos < end:
        carry = reopen + carry
        if len(carry) + end - pos <= limit and size(rest := carry + text[pos:]) <= limit:
            chunks.append(rest)  # the whole rest fits (only checked when it is short: units >= chars)
            break
        window = carry + text[pos:pos + limit + 1]  # _cut_point never reads past limit + 1 characters
        fenced = FENCE in carry + text[pos:pos + len(FENCE) - 1] or last_fence >= pos
        room = limit - (len(FENCE) + 1 if fenced else 0)
        cut = _cut_point(window, room)
        head = window[:cut].rstrip()
        stuck = 0 < cut <= len(reopen) and head.count(FENCE) % 2 == 1
        if stuck:
            # only (part of) the reopened fence line would make this chunk, and reopening it again
            # would never end (the old loop hung here): cut hard, and do not reopen it a third time
            cut = len(_prefix_within(window, room))
            head = window[:cut].rstrip()
        if cut <= len(carry):
            carry = carry[cut:]
        else:
            pos += cut - len(carry)
            carry = ""
        # after the cut: drop the newlines (or one space) it left in front, keeping code indents
        if (carry or text[pos:pos + 1]).startswith("\n"):
            carry = carry.lstrip("\n")
            if not carry:
                while pos < end and text[pos] == "\n":
                    pos += 1
        elif carry:
            carry = carry.removeprefix(" ")
        elif text.startswith(" ", pos):
            pos += 1
        reopen = ""
        if head.count(FENCE) % 2:
            # the block goes on in the next chunk: close it here, reopen it there (same language tag)
            opening = head[head.rindex(FENCE):].split("\n", 1)[0]
            head += "\n" + FENCE
            reopen = "" if stuck else opening + "\n"
        chunks.append(head)
    return [c for c in chunks if c.strip()] or [""]


def tail_lines(lines: Iterable[str], limit: int = CONTENT) -> str:
    """The newest lines that fit ``limit`` (older lines dropped first, as in a running log); a single
    line that is too long on its own is shortened."""
    kept: list[str] = []
    total = 0
    for line in reversed(list(lines)):
        extra = size(line) + (1 if kept else 0)
        if total + extra > limit:
            if not kept:
                kept.append(shorten(line, limit))
            break
        kept.append(line)
        total += extra
    return "\n".join(reversed(kept))


def content(text: str) -> str:
    """A message's content, shortened to Discord's 2000."""
    return shorten(text, CONTENT)


def echo(text: object, limit: int = ECHO) -> str:
    """User-supplied text quoted in a reply: one line, at most ``limit`` units, no mentions."""
    flat = " ".join(str(text).split()).replace("@", "@\u200b")
    return shorten(flat, limit)


# ---- embeds ----------------------------------------------------------------------------
def embed_size(embed: discord.Embed) -> int:
    total = size(embed.title or "") + size(embed.description or "")
    total += size(embed.footer.text or "") if embed.footer else 0
    total += size(embed.author.name or "") if embed.author else 0
    return total + sum(size(f.name or "") + size(f.value or "") for f in embed.fields)


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Shorten every part of ``embed`` to its limit, keep at most 25 fields, and trim the longest
    parts until the whole is within 6000 (in place; returned for chaining)."""
    if embed.title:
        embed.title = shorten(embed.title, EMBED_TITLE)
    if embed.description:
        embed.description = shorten(embed.description, EMBED_DESCRIPTION)
    if embed.footer and embed.footer.text:
        embed.set_footer(text=shorten(embed.footer.text, EMBED_FOOTER), icon_url=embed.footer.icon_url)
    if embed.author and embed.author.name:
        embed.set_author(name=shorten(embed.author.name, EMBED_AUTHOR), url=embed.author.url,
                         icon_url=embed.author.icon_url)
    fields = [(shorten(f.name or "", EMBED_FIELD_NAME) or "\u200b", shorten(f.value or "", EMBED_FIELD_VALUE) or "—",
               bool(f.inline)) for f in embed.fields[:EMBED_FIELDS]]
    embed.clear_fields()
    for name, value, inline in fields:
        embed.add_field(name=name, value=value, inline=inline)
    while embed_size(embed) > EMBED_TOTAL:
        # trim the largest part by the excess (or as far as it goes) until the whole fits
        excess = embed_size(embed) - EMBED_TOTAL
        parts: list[tuple[int, str, int]] = [(size(embed.title or ""), "title", -1),
                                             (size(embed.description or ""), "description", -1),
                                             (size(embed.footer.text or "") if embed.footer else 0, "footer", -1)]
        for i, f in enumerate(embed.fields):
            parts += [(size(f.value or ""), "value", i), (size(f.name or ""), "name", i)]
        largest, kind, index = max(parts)
        if largest <= 1:
            raise ValueError("embed cannot be made to fit")
        target = max(1, largest - excess)
        if kind == "title":
            embed.title = shorten(embed.title or "", target)
        elif kind == "description":
            embed.description = shorten(embed.description or "", target)
        elif kind == "footer":
            embed.set_footer(text=shorten(embed.footer.text or "", target), icon_url=embed.footer.icon_url)
        else:
            f = embed.fields[index]
            new_name = shorten(f.name or "", target) if kind == "name" else f.name
            new_value = shorten(f.value or "", target) if kind == "value" else f.value
            embed.set_field_at(index, name=new_name, value=new_value, inline=bool(f.inline))
    return embed


# ---- components ------------------------------------------------------------------------
def button_label(text: str) -> str:
    return shorten(text, BUTTON_LABEL)


def option_label(text: str) -> str:
    return shorten(text, OPTION_LABEL)


def placeholder(text: str) -> str:
    return shorten(text, PLACEHOLDER)


def custom_id(text: str) -> str:
    """A custom id the bot built: too long is a bug (it would be cut and then misrouted), so refuse."""
    if size(text) > CUSTOM_ID:
        raise ValueError(f"custom id over {CUSTOM_ID} characters: {text[:40]}…")
    return text


def fit_view(view: discord.ui.View | None) -> discord.ui.View | None:
    """Check and fix a view before sending: labels, placeholders and options shortened, at most 25
    options per select, custom ids within 100, at most five rows of at most five buttons."""
    if view is None:
        return None
    rows: dict[int, int] = {}
    for item in view.children:
        if isinstance(item, discord.ui.Button):
            if item.label:
                item.label = button_label(item.label)
            if item.custom_id:
                custom_id(item.custom_id)
        elif isinstance(item, discord.ui.Select):
            item.options = [
                discord.SelectOption(label=option_label(o.label), value=_prefix_within(o.value, OPTION_VALUE),
                                     description=shorten(o.description, OPTION_DESCRIPTION) if o.description else None,
                                     emoji=o.emoji, default=o.default)
                for o in item.options[:SELECT_OPTIONS]
            ]
            if item.placeholder:
                item.placeholder = placeholder(item.placeholder)
            custom_id(item.custom_id)
        row = item.row if item.row is not None else -1
        rows[row] = rows.get(row, 0) + (ROW_WIDTH if isinstance(item, discord.ui.Select) else 1)
    explicit = {r: n for r, n in rows.items() if r >= 0}
    if any(n > ROW_WIDTH for n in explicit.values()) or any(r >= ROWS for r in explicit):
        raise ValueError(f"view rows over Discord's limits: {sorted(explicit.items())}")
    if sum(rows.values()) > ROWS * ROW_WIDTH:
        raise ValueError("view has more components than five rows hold")
    return view


# ---- memory ----------------------------------------------------------------------------
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A mapping that keeps only its ``size`` most recently used keys: a per-user cache that must
    not grow with every user the bot ever met over months of uptime. ``add``/``discard`` let it
    serve as a bounded set too."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("size must be positive")
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, default: V | None = None) -> V | None:
        if key not in self._items:
            return default
        self._items.move_to_end(key)
        return self._items[key]

    def __setitem__(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def __getitem__(self, key: K) -> V:
        value = self._items[key]
        self._items.move_to_end(key)
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def pop(self, key: K, default: V | None = None) -> V | None:
        return self._items.pop(key, default)

    def add(self, key: K) -> None:
        self[key] = None  # type: ignore[assignment]

    def discard(self, key: K) -> None:
        self._items.pop(key, None)
