"""Issue 25, item 10: a one-line game's channel post said "0 of 1 lines" for every side."""

from __future__ import annotations

from tests.pobeda.pobeda_helpers import make


def test_one_line_game_says_no_line_yet() -> None:
    game = make(2, lines=1)
    en = game.status_lines("en")
    ru = game.status_lines("ru")
    assert not any("0 of 1" in line for line in en) and not any("0 из 1" in line for line in ru)
    assert sum("no line of victory yet" in line for line in en) == 2
    assert sum("линии победы пока нет" in line for line in ru) == 2


def test_longer_game_counts_lines_with_a_plural() -> None:
    game = make(2, lines=2)
    assert any(line.endswith(": 0 of 2 lines") for line in game.status_lines("en"))
    assert any(line.endswith(": 0 линий победы из 2") for line in game.status_lines("ru"))


def test_line_event_of_a_one_line_game_has_no_count() -> None:
    game = make(2, lines=1)
    text = game.event_text({"type": "line", "side": 0, "cells": ["A1", "F1"], "count": 1}, "en")
    assert text is not None and "1 of 1" not in text and "A1–F1" in text
