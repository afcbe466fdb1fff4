"""bot/discord_app/limits.py: Discord's size limits and the helpers that shorten or split long texts.

The limits are Discord's documented ones (message content 2000; embed title 256, description 4096,
field value 1024, 25 fields, 6000 in total; select 25 options with labels of 100; button label 80;
custom id 100; five action rows).
"""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord_app import limits

RU_WORDS = ("Армия Рима переходит через Альпы и занимает Галлию, пока Карфаген укрепляет "
            "побережье Испании и ждёт подкреплений из Африки").split()


def russian(n_words: int) -> str:
    return " ".join(RU_WORDS[i % len(RU_WORDS)] for i in range(n_words))


def test_size_counts_utf16_units() -> None:
    # Discord counts JavaScript string length: a Cyrillic letter is one unit, 🛑 (U+1F6D1) two
    assert limits.size("Рим") == 3
    assert limits.size("🛑") == 2


def test_shorten_cuts_long_russian_at_a_word_break() -> None:
    text = russian(600)
    out = limits.shorten(text, limits.CONTENT)
    assert limits.size(out) <= 2000
    assert out.endswith("…")
    head = out[:-1]
    assert text.startswith(head)
    # the cut falls between words: the last kept word is a whole word of the text
    assert head.split()[-1] in RU_WORDS
    assert text[len(head)] == " "
    assert limits.size(out) > 1000  # a word break near the end was used, not a tiny prefix


def test_shorten_keeps_short_text_and_hard_cuts_one_long_word() -> None:
    assert limits.shorten("Галлия", 80) == "Галлия"
    word = "Ы" * 300
    out = limits.shorten(word, 100)
    assert out == "Ы" * 99 + "…"


def test_shorten_never_splits_an_emoji() -> None:
    out = limits.shorten("🛑" * 100, 51)
    assert limits.size(out) <= 51
    assert out == "🛑" * 25 + "…"


def test_shorten_closes_a_code_block_and_bold() -> None:
    text = "**Журнал:\n```\n" + "\n".join(f"{i}. {russian(8)}" for i in range(200)) + "\n```**"
    out = limits.shorten(text, 500)
    assert limits.size(out) <= 500
    assert out.count("```") % 2 == 0
    assert out.count("**") % 2 == 0


def test_split_long_russian_text_into_message_sized_chunks() -> None:
    text = "\n\n".join(russian(40 + i) for i in range(60))
    chunks = limits.split(text, limits.CONTENT)
    assert len(chunks) > 1
    assert all(limits.size(c) <= 2000 for c in chunks)
    # nothing is lost or reordered: the words of the chunks are the words of the text
    assert " ".join(" ".join(chunks).split()) == " ".join(text.split())
    # every chunk ends at a paragraph end (all paragraphs here are far shorter than a chunk)
    paragraphs = set(text.split("\n\n"))
    assert all(c.split("\n\n")[-1] in paragraphs for c in chunks)


def test_split_reopens_a_code_block() -> None:
    body = "\n".join(f"{i:>3} {russian(10)}" for i in range(120))
    text = "Ходы:\n```text\n" + body + "\n```\nКонец."
    chunks = limits.split(text, 1000)
    assert len(chunks) > 2
    for chunk in chunks:
        assert limits.size(chunk) <= 1000
        assert chunk.count("```") % 2 == 0, chunk
    assert chunks[1].startswith("```text\n")
    lines = [ln for c in chunks for ln in c.splitlines() if not ln.startswith("```")]
    assert [ln for ln in lines if ln[:3].strip().isdigit()] == body.splitlines()


def test_tail_lines_drops_the_oldest_first() -> None:
    lines = [f"{i}: {russian(12)}" for i in range(100)]
    out = limits.tail_lines(lines, 1900)
    assert limits.size(out) <= 1900
    kept = out.split("\n")
    assert kept[-1] == lines[-1]
    assert kept == lines[-len(kept):]
    assert len(kept) < 100
    # one line that is too long alone is shortened rather than dropped
    assert limits.size(limits.tail_lines([russian(500)], 300)) <= 300


def test_echo_clips_user_text_and_defuses_mentions() -> None:
    out = limits.echo("@everyone " + "опция=" * 500)
    assert limits.size(out) <= limits.ECHO
    assert "@everyone" not in out
    assert "\n" not in limits.echo("строка\nвторая")


def test_fit_embed_respects_every_limit() -> None:
    embed = discord.Embed(title=russian(100), description=russian(1200))
    for i in range(30):
        embed.add_field(name=f"{i}. {russian(60)}", value=russian(300), inline=False)
    embed.set_footer(text=russian(500))
    limits.fit_embed(embed)
    assert limits.size(embed.title or "") <= 256
    assert limits.size(embed.description or "") <= 4096
    assert len(embed.fields) == 25
    assert all(limits.size(f.value or "") <= 1024 and limits.size(f.name or "") <= 256 for f in embed.fields)
    assert limits.embed_size(embed) <= 6000
    assert len(embed) <= 6000  # discord.py's own count agrees


def test_fit_view_shortens_labels_and_options() -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=russian(40), custom_id="tt:a:1:0:0:x"))
    select = discord.ui.Select(custom_id="tt:n:1:0:0:-:0", placeholder=russian(60),
                               options=[discord.SelectOption(label=russian(30), value=str(i), description=russian(30))
                                        for i in range(25)])
    view.add_item(select)
    limits.fit_view(view)
    button = view.children[0]
    assert isinstance(button, discord.ui.Button)
    assert limits.size(button.label or "") <= 80
    assert limits.size(select.placeholder or "") <= 150
    assert all(limits.size(o.label) <= 100 and limits.size(o.description or "") <= 100 for o in select.options)
    assert [o.value for o in select.options] == [str(i) for i in range(25)]


def test_fit_view_refuses_a_long_custom_id() -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="x", custom_id="tt:" + "9" * 98))
    with pytest.raises(ValueError):
        limits.fit_view(view)


async def test_a_panel_with_a_long_private_text_keeps_its_header_and_question(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.core.sessions import SessionManager, UserInfo
    from bot.core.store import Store
    from bot.discord_app.panels import build_panel
    from bot.games import registry
    from tests.platform.toy import Toy, toy_manifest

    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())
    monkeypatch.setattr(Toy, "private_text", lambda self, seat, lang: russian(900), raising=False)
    monkeypatch.setattr(Toy, "prompt_text", lambda self, seat, lang: "Ваш ход: сколько добавить?", raising=False)
    store = await Store.open(tmp_path / "p.sqlite3")
    try:
        sessions = SessionManager(store)
        session = await sessions.create(guild_id=1, channel_id=3, host=UserInfo(1, "Хозяин " * 5), game_key="toy",
                                        options={})
        await sessions.join(session.id, UserInfo(2, "Гость"))
        await sessions.start(session.id, 1, seed=3)
        assert session.game is not None
        seat = session.game.actors()[0]
        content, view = build_panel(session, seat, "ru", note="✅ " + russian(30))
        assert limits.size(content) <= limits.CONTENT
        assert content.startswith("✅ ")
        assert content.endswith("Ваш ход: сколько добавить?")  # the question survives whole
        assert "…" in content  # the long private text was the part shortened
        assert view.children
    finally:
        await store.close()


# ---- split: linear, and the same chunks as before ---------------------------------------------
def quadratic_split(text: str, limit: int) -> list[str] | None:
    """``limits.split`` as it was before it was made linear (it copied and measured the whole rest
    for every chunk): the reference the new one must match chunk for chunk. None where it cut inside a
    reopened code block's first line: there it reopened the block forever, or left a chunk of that line
    alone (``'```🛑x`\n```'``, found by Hypothesis); the new one cuts such a step hard instead."""
    chunks: list[str] = []
    rest = text
    reopen = ""
    while rest:
        if len(chunks) > len(text) + 2:
            return None
        rest = reopen + rest
        if limits.size(rest) <= limit:
            chunks.append(rest)
            break
        room = limit - (len(limits.FENCE) + 1 if limits.FENCE in rest else 0)
        cut = limits._cut_point(rest, room)
        head, rest = rest[:cut].rstrip(), rest[cut:]
        if 0 < cut <= len(reopen) and head.count(limits.FENCE) % 2 == 1:
            return None  # stuck in the reopened line (limits.split's ``stuck``)
        rest = rest.lstrip("\n") if rest.startswith("\n") else rest.removeprefix(" ")
        reopen = ""
        if head.count(limits.FENCE) % 2:
            opening = head[head.rindex(limits.FENCE):].split("\n", 1)[0]
            head += "\n" + limits.FENCE
            reopen = opening + "\n"
        chunks.append(head)
    return [c for c in chunks if c.strip()] or [""]


def slow_prefix_within(text: str, limit: int) -> str:
    if limits.size(text) <= limit:
        return text
    out = text[:limit]
    while limits.size(out) > limit:
        out = out[:-1]
    return out


PIECES = ["Рим", "Carthage", " ", "  ", "\n", "\n\n", "```", "```text\n", "**", "🛑", "é", "`12`", "x" * 40,
          "Армия" * 9, "    indented", "\t"]


@given(st.lists(st.sampled_from(PIECES), max_size=160), st.integers(min_value=16, max_value=120))
@settings(max_examples=400, deadline=None)
def test_split_matches_the_old_split_and_keeps_its_guarantees(pieces: list[str], limit: int) -> None:
    text = "".join(pieces)
    chunks = limits.split(text, limit)
    before = quadratic_split(text, limit)
    assert before is None or chunks == before
    assert all(limits.size(c) <= limit for c in chunks)
    assert all(c.count(limits.FENCE) % 2 == 0 for c in chunks[:-1])  # a code block cut is closed
    # nothing lost or reordered: only blanks at the cuts go, only fences (and their reopened first
    # lines) are added
    def solid(s: str) -> str:
        return "".join(s.split()).replace("`", "")
    if limits.FENCE not in text:
        assert "".join(solid(c) for c in chunks) == solid(text)
    else:
        added = iter("".join(solid(c) for c in chunks))
        assert all(ch in added for ch in solid(text))  # a subsequence


@given(st.text(alphabet="aЫ🛑\n ", max_size=300), st.integers(min_value=1, max_value=200))
@settings(max_examples=300, deadline=None)
def test_prefix_within_is_the_longest_fitting_prefix(text: str, limit: int) -> None:
    assert limits._prefix_within(text, limit) == slow_prefix_within(text, limit)


def test_split_of_a_cut_inside_a_reopened_fence_line_keeps_its_guarantees() -> None:
    """Hypothesis's example (seen once in a full run): a fence opened mid-line, then a cut inside its
    reopened first line. No chunk is only that line; every chunk fits, every cut block is closed."""
    pieces = ["Рим", "Рим", "Carthage", "Carthage", "Армия" * 9, "```", "🛑", "Carthage", "```text\n", " ",
              *["Рим"] * 6]
    chunks = limits.split("".join(pieces), 31)
    assert quadratic_split("".join(pieces), 31) is None
    assert all(limits.size(c) <= 31 for c in chunks)
    assert all(c.count(limits.FENCE) % 2 == 0 for c in chunks[:-1])
    assert "```🛑Carthage`\n```" not in chunks  # the old split's chunk of the reopened line alone


def test_split_of_a_long_log_matches_the_old_split() -> None:
    body = "\n".join(f"`{i:>5}` {russian(6 + i % 9)}" + (" 🛑" if i % 7 == 0 else "") for i in range(3000))
    text = "Начало\n```text\n" + body[:20_000] + "\n```\n" + body
    assert limits.split(text, 1800) == quadratic_split(text, 1800)


def test_split_ends_where_the_old_split_reopened_a_code_block_forever() -> None:
    text = "```text\n" + "x " * 50
    assert quadratic_split(text, 16) is None
    chunks = limits.split(text, 16)
    assert all(limits.size(c) <= 16 for c in chunks)
    assert "".join("".join(c.split()) for c in chunks).replace("`", "").replace("text", "") == "x" * 50
