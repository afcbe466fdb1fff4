"""Translations: every user-facing string lives in ``data/i18n/*.json`` in Russian and English.

Each JSON file maps a dotted key to ``{"ru": "...", "en": "..."}``; the file name is only a
namespace for humans (``core.json``, ``pobeda.json``...), keys must be unique across files.
Strings use ``str.format`` placeholders: ``t("lobby.players", "en", n=3, min=2, max=4)``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from bot.paths import DATA_DIR

LANGS = ("ru", "en")
DEFAULT_LANG = "en"
I18N_DIR = DATA_DIR / "i18n"


@lru_cache(maxsize=1)
def catalogue() -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for path in sorted(I18N_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, value in data.items():
            if key in merged:
                raise ValueError(f"duplicate i18n key {key!r} in {path.name}")
            merged[key] = value
    return merged


def lang_of(locale: str | None) -> str:
    """Map a Discord locale ('ru', 'en-US', 'uk'...) to one of our languages."""
    if locale and str(locale).lower().startswith("ru"):
        return "ru"
    return "en"


def t(key: str, lang: str = DEFAULT_LANG, /, **params: Any) -> str:
    """Translate ``key`` into ``lang``; an unknown key is returned as-is (and caught by tests)."""
    entry = catalogue().get(key)
    if entry is None:
        return key
    text = entry.get(lang) or entry.get(DEFAULT_LANG) or key
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def plural_form(n: int, lang: str) -> str:
    """CLDR plural category of a whole ``n``: Russian one/few/many (1, 21 / 2–4, 22–24 / 5–20, 25...),
    English one/many. Keys with counts have ``.one``/``.few``/``.many`` variants."""
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "many"


def has(key: str) -> bool:
    return key in catalogue()
