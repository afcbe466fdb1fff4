"""Issue 23, items 5 and 6: user-controlled text in (bot/core/parse.py reads numbers and ids and never
raises) and out (names and user text repeated in a message cannot format, link or mention)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core import parse
from bot.discord_app import custom_ids
from bot.games.godstorm.cog import count_choices

# ---- reading ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "lo", "hi", "expected"), [
    ("3", 0, 9, 3), (" 3 ", 0, 9, 3), ("0", 0, 9, 0), ("10", 0, 9, None), ("-1", 0, 9, None), ("-1", -5, 5, -1),
    ("²", 0, 9, None),  # str.isdigit() says yes, int() raises: the /risk and /bam play tracebacks
    ("٣", 0, 9, None),  # an Arabic-Indic three: int() takes it, we do not
    ("３", 0, 9, None),  # full-width
    ("+3", 0, 9, None), ("3_0", 0, 99, None), ("0x1", 0, 99, None), ("", 0, 9, None), ("-", -9, 9, None),
    ("1e3", 0, 9999, None), ("3.0", 0, 9, None), ("--3", -9, 9, None),
])
def test_small_int_named_cases(text: str, lo: int, hi: int, expected: int | None) -> None:
    assert parse.small_int(text, lo, hi) == expected


def test_ids_stay_within_sqlite_integers() -> None:
    assert parse.db_id(str(parse.INT64_MAX)) == 2**63 - 1
    assert parse.db_id(str(2**63)) is None  # what raised OverflowError in the driver
    assert parse.db_id("9" * 20) is None
    assert parse.db_id("9" * 5000) is None  # no long int() either
    assert parse.index("2", 3) == 2 and parse.index("3", 3) is None and parse.index("0", 0) is None
    assert parse.index(None, 3) is None and parse.index(2, 3) is None  # only text is read


def test_id_fields_are_bare_digits() -> None:
    assert parse.id_field("42") == 42 and parse.id_field(str(parse.INT64_MAX)) == parse.INT64_MAX
    for odd in (" 42", "42 ", "4 2", "9" * 20, "²", "-1", "", None, 42):
        assert parse.id_field(odd) is None, odd


def test_fields_of_a_custom_id() -> None:
    assert parse.fields("ttb:l:5", "ttb", 2) == ["l", "5"]
    assert parse.fields("ttb:l", "ttb", 2) is None
    assert parse.fields("ttbx:l:5", "ttb", 2) is None
    assert parse.fields("ttb:" + "1" * 200, "ttb", 1) is None  # over Discord's 100 characters


@given(st.text(), st.integers(-(2**70), 2**70), st.integers(-(2**70), 2**70))
def test_small_int_never_raises_and_stays_in_bounds(text: str, lo: int, hi: int) -> None:
    value = parse.small_int(text, lo, hi)
    if value is not None:
        assert lo <= value <= hi
        assert re.fullmatch(r"-?[0-9]+", text.strip(), re.ASCII)


@given(st.text())
def test_ids_of_any_text_never_raise(text: str) -> None:
    value = parse.db_id(text)
    assert value is None or 0 <= value <= parse.INT64_MAX
    parse.index(text, 25)
    parse.fields(text, "tt", 3)


@given(st.text(alphabet=st.sampled_from("tt:apnblocxmd0123456789²٣-+ x9"), max_size=60) | st.text(max_size=100))
def test_custom_ids_of_any_text_parse_or_are_refused(text: str) -> None:
    try:
        control = custom_ids.parse(text)
    except custom_ids.MalformedId:
        return
    if control is not None:
        assert 0 <= control.game_id <= parse.INT64_MAX
        for name in ("seat", "stamp", "index"):
            assert 0 <= getattr(control, name, 0) <= parse.INT64_MAX


@pytest.mark.parametrize("text", ["tt:p:" + "9" * 20, "tt:p:²", "tt:a:1:²:0:ab", "tt:n:1:0:0:ab:٣",
                                  f"tt:x:{2**63}", "tt:p:5 "])
def test_odd_numbers_in_custom_ids_are_malformed(text: str) -> None:
    with pytest.raises(custom_ids.MalformedId):
        custom_ids.parse(text)
    assert custom_ids.game_of(text) in (None, 1, 5)


@given(st.text(max_size=30))
def test_risk_count_autocomplete_never_raises(current: str) -> None:
    choices = count_choices([1, 2, 3], current, "en", 1, 12)
    assert all(1 <= c.value <= 12 for c in choices)


def test_risk_count_autocomplete_named_cases() -> None:
    assert [c.value for c in count_choices([1, 2, 3], "²", "en", 1, 12)] == [1, 2, 3]  # raised ValueError
    assert [c.value for c in count_choices([1, 2, 3], "7", "en", 1, 12)] == [7]
    assert [c.value for c in count_choices([1, 2, 13], "1", "en", 1, 12)][:1] == [1]


# ---- repeating -------------------------------------------------------------------------------------
MASKED_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(")
"""A masked link as Discord reads one: an unescaped ``[``, text, an unescaped ``](``."""
AUTOLINK = re.compile(r"https?://")


@pytest.mark.parametrize(("name", "expected"), [
    ("[Claim prize](https://evil.example)", r"\[Claim prize\](https\://evil.example)"),
    ("**bold** _it_ ~~s~~ ||spoiler|| `code`", r"\*\*bold\*\* \_it\_ \~\~s\~\~ \|\|spoiler\|\| \`code\`"),
    ("<@123456789012345678>", r"\<@123456789012345678\>"),
    ("@everyone", "@\u200beveryone"),
    ("# Big", r"\# Big"), ("-# small", r"\-# small"), ("> quote", r"\> quote"), ("1. list", r"1\. list"),
    ("Anna", "Anna"), ("Жанна д'Арк", "Жанна д'Арк"), ("a\nb", "a b"), ("evil\u202eesrever", "evilesrever"),
    ("back\\slash", r"back\\slash"),
])
def test_escape_named_cases(name: str, expected: str) -> None:
    assert parse.escape(name) == expected
    assert parse.unescape(parse.escape(name)) == name.replace("\n", " ").replace("\u202e", "")


@given(st.text())
def test_escaped_text_cannot_link_mention_or_break_lines(text: str) -> None:
    out = parse.escape(text)
    assert MASKED_LINK.search(out) is None
    assert AUTOLINK.search(out) is None
    assert "\n" not in out and "<@" not in out and "@everyone" not in out and "@here" not in out
    assert not re.search(r"(?<!\\)[*_~|`\[\]<>]", out.replace("\\\\", "")), out  # every marker escaped
