"""bot/core/jsontext.py: the fast encoder reads back exactly as the standard library's text does."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core import jsontext
from bot.core.store import GameSettings, LobbyEntry, dumps


class Colour(IntEnum):
    RED = 1
    BLUE = 2


def stdlib(value: Any, default: Any = None) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=default)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_reads_back_as_the_standard_library_text(value: Any) -> None:
    text = jsontext.compact(value)
    assert json.loads(text) == json.loads(stdlib(value))


def test_orjson_is_used_when_installed() -> None:
    pytest.importorskip("orjson")
    assert jsontext.orjson is not None
    # the same compact form, Cyrillic and emoji unescaped, control characters escaped
    value = {"имя": "Победа 🎲", "n": [1, -2, 3.5, None, True], "s": "a\"b\\c\nd\te\x01"}
    assert jsontext.compact(value) == stdlib(value)


@pytest.mark.parametrize("value", [
    {1: "a", 2: "b"},             # keys that are not strings: json.dumps writes them as strings
    [2**70],                      # beyond 64 bits
    {"k": Colour.BLUE},           # a subclass of int
])
def test_what_orjson_refuses_is_encoded_as_json_dumps_does(value: Any) -> None:
    assert jsontext.compact(value) == stdlib(value)


def test_records_go_through_default_not_as_plain_dataclasses() -> None:
    settings_ = GameSettings(deadline_s=60, extra={"paused": 1})
    lobby = [LobbyEntry(user=5, name="Аня", lang="ru", team=None)]
    assert json.loads(dumps(settings_)) == {"deadline_s": 60, "paused": 1}
    assert json.loads(dumps(lobby)) == [{"user": 5, "name": "Аня", "lang": "ru", "team": None}]

    @dataclass
    class Other:
        x: int

    with pytest.raises(TypeError):
        dumps(Other(1))  # json.dumps refuses an unknown record; so does the fast path


def test_without_orjson_the_standard_library_encodes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsontext, "orjson", None)
    value = {"a": [1.5, "ё"], "b": None}
    assert jsontext.compact(value) == stdlib(value)


def test_floats_read_back_exactly() -> None:
    values = [1e16, 1e-7, 0.1, -0.0, 123456789.125, 5e-324, 1.7976931348623157e308]
    back = json.loads(jsontext.compact(values))
    assert [math.copysign(1, v) for v in back] == [math.copysign(1, v) for v in values]
    assert back == values
