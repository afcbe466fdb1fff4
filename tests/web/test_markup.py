"""Discord-formatted texts become safe HTML (issue 29: no user input echoed unescaped)."""

from __future__ import annotations

from bot.core.parse import escape
from bot.web.markup import to_html


def test_user_text_is_escaped() -> None:
    out = to_html("**" + escape("<img src=x onerror=alert(1)>") + "** marks X")
    assert "<img" not in out and "&lt;img src=x onerror=alert(1)&gt;" in out
    assert out.startswith("<strong>") and out.endswith(" marks X")


def test_a_name_escaped_for_discord_reads_as_typed() -> None:
    name = "[Claim prize](https://evil.example) *star* `tick` @everyone"
    out = to_html(escape(name))
    assert "<a" not in out and "<em>" not in out and "<code>" not in out
    assert "[Claim prize](https://evil.example) *star* `tick` @everyone" in out.replace("&#x27;", "'")


def test_the_forms_the_texts_use() -> None:
    assert to_html("`3` ~~no~~ *it*\nnext") == "<code>3</code> <s>no</s> <em>it</em><br>next"
    stamp = to_html("until <t:1700000000:R>")
    assert '<time datetime="2023-11-14T22:13:20Z" data-ts="1700000000">' in stamp
    assert to_html("<@123> and <#456>") == "@… and @…"


def test_quotes_cannot_leave_an_attribute() -> None:
    assert '"' not in to_html('" onmouseover="x')
