"""The event list, the layout and the translations."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from bot.core.i18n import LANGS
from bot.games.pobeda.data import CORNERS, chrono_layout, events

ROOT = Path(__file__).resolve().parents[2]
FIRST, LAST = dt.date(1941, 6, 22), dt.date(1945, 9, 2)


def parse(value: str) -> dt.date:
    parts = [int(p) for p in value.split("-")]
    return dt.date(parts[0], parts[1], parts[2] if len(parts) == 3 else 1)


def test_140_events_with_both_languages() -> None:
    evs = events()
    assert len(evs) == 140
    assert sorted(evs) == [f"ev{i:03d}" for i in range(1, 141)]
    for lang in LANGS:
        titles = [e["title"][lang] for e in evs.values()]
        assert len(set(titles)) == 140
        assert all(0 < len(title) <= 40 for title in titles)
        for e in evs.values():
            text = e["description"][lang]
            assert text.endswith(".") and "\n" not in text and len(text) < 300


def test_dates_are_valid_and_within_the_war() -> None:
    previous = FIRST
    for key in sorted(events()):
        e = events()[key]
        start = parse(e["date"])
        assert e["date_precision"] == ("day" if e["date"].count("-") == 2 else "month")
        assert FIRST.replace(day=1) <= start <= LAST
        if e["date_end"]:
            assert parse(e["date_end"]) >= start.replace(day=1)
        # chronological ids: a month-only date sorts within its month
        assert (start.year, start.month) >= (previous.year, previous.month)
        previous = start


def test_layout_has_every_event_once_and_wild_corners() -> None:
    layout = chrono_layout()
    assert len(layout) == 144
    assert [layout[c] for c in CORNERS] == [None] * 4
    assert sorted(x for x in layout if x) == sorted(events())
    raw = json.loads((ROOT / "data/pobeda/layout.json").read_text(encoding="utf-8"))
    assert len(raw["chrono"]) == 12 and all(len(r) == 12 for r in raw["chrono"])


def test_i18n_file_is_complete_and_prefixed() -> None:
    data = json.loads((ROOT / "data/i18n/pobeda.json").read_text(encoding="utf-8"))
    for key, value in data.items():
        assert key.startswith("pobeda.")
        assert set(value) == {"ru", "en"} and all(value[lang].strip() for lang in LANGS)
    for key in ("pobeda.name", "pobeda.rules", "pobeda.opt.lines", "pobeda.opt.layout", "pobeda.opt.teams"):
        assert key in data
    assert all(len(data["pobeda.rules"][lang]) <= 1800 for lang in LANGS)
