"""The few Discord markdown forms the bot's texts use, as safe HTML (issue 29).

Game texts are written for Discord: ``**bold**``, ``*italics*``, ``` `code` ```, ``~~struck~~``,
``<t:UNIX:R>`` timestamps, and players' names escaped with backslashes by :func:`bot.core.parse.escape`.
:func:`to_html` escapes everything first (``html.escape``) and only then turns those forms into
tags, so nothing a user typed (a display name like ``<script>``) reaches the page as markup.
"""

from __future__ import annotations

import html
import re
import time

_PRIVATE = re.compile("[\ue000-\uf8ff]")
_HELD = _PRIVATE
_BACKSLASHED = re.compile(r"\\(.)", re.DOTALL)
_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_STRUCK = re.compile(r"~~(.+?)~~")
_ITALIC = re.compile(r"(?<![\w*])\*([^*\n]+)\*(?![\w*])")
_UNDERLINE = re.compile(r"__(.+?)__")
_STAMP = re.compile(r"&lt;t:(\d{1,12})(?::([tTdDfFR]))?&gt;")
_MENTION = re.compile(r"&lt;(?:@[!&]?|#)(\d{1,20})&gt;")
_BASE = 0xE000


def stamp_html(ts: int) -> str:
    """A ``<time>`` the page's script shows in the reader's time zone (UTC without the script)."""
    shown = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ts))
    return f'<time datetime="{time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))}" data-ts="{ts}">{shown}</time>'


def to_html(text: str) -> str:
    """One Discord-formatted text as HTML (line breaks as ``<br>``), with every character of user
    text escaped."""
    held: list[str] = []

    def hold(match: re.Match[str]) -> str:
        held.append(match.group(1))
        return chr(_BASE + len(held) - 1)

    plain = _BACKSLASHED.sub(hold, _PRIVATE.sub("\ufffd", text))
    out = html.escape(plain, quote=True)
    out = _CODE.sub(r"<code>\1</code>", out)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    out = _UNDERLINE.sub(r"<u>\1</u>", out)
    out = _STRUCK.sub(r"<s>\1</s>", out)
    out = _ITALIC.sub(r"<em>\1</em>", out)
    out = _STAMP.sub(lambda m: stamp_html(int(m.group(1))), out)
    out = _MENTION.sub("@…", out)
    out = out.replace("\u200b", "")
    if held:
        out = _HELD.sub(lambda m: html.escape(held[ord(m.group(0)) - _BASE]) if ord(m.group(0)) - _BASE < len(held)
                        else m.group(0), out)
    return out.replace("\n", "<br>")


def plain(text: str) -> str:
    """The text without markdown, for a title or an attribute (still to be escaped by the caller)."""
    out = _BACKSLASHED.sub(r"\1", text)
    return re.sub(r"\*\*|__|~~|`", "", out)
