"""Translations: every user-facing string lives in ``data/i18n/*.json`` in Russian and English.

Each JSON file maps a dotted key to ``{"ru": "...", "en": "..."}``; the file name is only a
namespace for humans (``core.json``, ``pobeda.json``...), keys must be unique across files.
A game registered from another package brings its own catalogues (``i18n_files`` of its manifest,
:mod:`bot.games.manifest`), each key within the game's domains (``i18n_domains``: its key prefixes).
This module knows nothing of games: the registry, as it loads, hands it a source of those catalogues
(:func:`add_source`), read whenever the catalogue is built again (``catalogue.cache_clear()``), so strings
sit below the rules that use them and nothing here imports a game.
Strings use ``str.format`` placeholders: ``t("lobby.players", "en", n=3, min=2, max=4)``.

Grammar (CLDR rules through Babel), written inside a string so each language keeps its own forms:

* ``{n:plural:игрок|игрока|игроков}`` picks the form of ``n``'s CLDR plural category, forms listed
  in the language's category order: Russian ``one|few|many`` (an optional 4th ``other`` form is
  for fractions, which otherwise take the ``few`` form: "1,5 секунды"), English ``one|other``.
  ``"{n} {n:plural:army|armies}"`` -> "1 army", "2 armies"; ``"{n} {n:plural:армия|армии|армий}"``.
* ``{side:select:n=выбрало|f=выбрала|other=выбрал}`` picks by the value's grammatical gender
  (a :class:`Named` string carries it, see :func:`named`; ``other`` is the fallback).
* Older count keys with ``key.one`` / ``key.few`` / ``key.many`` variants still work through
  :func:`tn`: Russian one/few/many use their variant, English "one" uses ``.one`` and English
  "other" uses ``.many`` (``.few`` is Russian-only). New texts prefer the inline form above.

Lists shown to a user are sorted with :func:`sort_key` (Russian: ё with е, Cyrillic before Latin;
case-insensitive in both languages).
"""

from __future__ import annotations

import json
import string
import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, TypeVar

from babel import Locale

from bot.core.paths import DATA_DIR

LANGS = ("ru", "en")
DEFAULT_LANG = "en"
I18N_DIR = DATA_DIR / "i18n"


Catalogue = tuple[str, tuple[str, ...], str]
"""A catalogue a game brings: (where, for errors; its key prefixes, without the dot; its JSON text)."""
CatalogueSource = Callable[[], Iterable[Catalogue]]

_SOURCES: list[CatalogueSource] = []


def add_source(source: CatalogueSource) -> None:
    """Read ``source``'s catalogues too whenever the catalogue is built (:mod:`bot.games.registry` adds the
    registered games' ``i18n_files``); every key of one must start with one of its prefixes."""
    if source not in _SOURCES:
        _SOURCES.append(source)
    catalogue.cache_clear()


@lru_cache(maxsize=1)
def catalogue() -> dict[str, dict[str, str]]:
    """Every string by key: ``data/i18n/*.json`` and the games' own catalogues (:func:`add_source`)."""
    merged: dict[str, dict[str, str]] = {}
    sources: list[Catalogue] = [
        (path.name, (), path.read_text(encoding="utf-8")) for path in sorted(I18N_DIR.glob("*.json"))]
    sources += [(where, tuple(f"{d}." for d in domains), text)
                for source in _SOURCES for where, domains, text in source()]
    for where, domains, text in sources:
        for key, value in json.loads(text).items():
            if key in merged:
                raise ValueError(f"duplicate i18n key {key!r} in {where}")
            if domains and not key.startswith(domains):
                raise ValueError(f"i18n key {key!r} of {where} is outside its game's domains {domains}")
            merged[key] = value
    return merged


def lang_of(locale: str | None) -> str:
    """Map a Discord locale ('ru', 'en-US', 'uk'...) to one of our languages."""
    if locale and str(locale).lower().startswith("ru"):
        return "ru"
    return "en"


class Named(str):
    """A name that knows its grammatical gender in its language (``m``, ``f``, ``n`` or ``pl``)."""

    gender: str

    def __new__(cls, text: str, gender: str = "m") -> Named:
        obj = super().__new__(cls, text)
        obj.gender = gender
        return obj


class _Formatter(string.Formatter):
    """``str.format`` plus the ``plural:`` and ``select:`` specs described in the module doc."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("plural:"):
            return plural_choice(value, self.lang, format_spec[len("plural:"):].split("|"))
        if format_spec.startswith("select:"):
            return select_choice(value, format_spec[len("select:"):].split("|"))
        return str(super().format_field(value, format_spec))


@lru_cache(maxsize=4)
def _formatter(lang: str) -> _Formatter:
    return _Formatter(lang)


def fill(text: str, lang: str, /, **params: Any) -> str:
    """Format ``text`` (a string of ``lang``) with ``params``, plural and select specs included."""
    if ":plural:" not in text and ":select:" not in text:
        return text.format(**params)  # the common case, at str.format's speed
    # string.Formatter runs in Python, ten times slower than str.format, and the same counts and names
    # come back from panel to panel: kept per text and parameters, told apart by type and gender too
    # (a Named "Ливия" of gender f is not the plain string "Ливия", nor 1.0 the integer 1)
    items = tuple((name, value, type(value), getattr(value, "gender", None)) for name, value in params.items())
    try:
        return _fill_special(text, lang, items)
    except TypeError:  # a parameter that cannot be hashed
        return _formatter(lang).vformat(text, (), params)


@lru_cache(maxsize=8192)
def _fill_special(text: str, lang: str, items: tuple[tuple[str, Any, type, str | None], ...]) -> str:
    return _formatter(lang).vformat(text, (), {name: value for name, value, _, _ in items})


def t(key: str, lang: str = DEFAULT_LANG, /, **params: Any) -> str:
    """Translate ``key`` into ``lang``; an unknown key is returned as-is (and caught by tests)."""
    entry = catalogue().get(key)
    if entry is None:
        return key
    text = entry.get(lang) or entry.get(DEFAULT_LANG) or key
    if params:
        try:
            return fill(text, lang, **params)
        except (KeyError, IndexError, ValueError, AttributeError):
            return text
    return text


def named(key: str, lang: str = DEFAULT_LANG, /, **params: Any) -> Named:
    """The text of ``key`` with the gender stored under ``key + ".gender"`` (default masculine)."""
    gender = t(key + ".gender", lang) if has(key + ".gender") else "m"
    return Named(t(key, lang, **params), gender)


def _lang(lang: str) -> str:
    return lang if lang in LANGS else DEFAULT_LANG


@lru_cache(maxsize=8)
def _locale(lang: str) -> Locale:
    return Locale.parse(_lang(lang))


@lru_cache(maxsize=8)
def categories(lang: str) -> tuple[str, ...]:
    """The CLDR plural categories of ``lang`` in the order forms are written (one, few, many, other)."""
    tags = set(_locale(lang).plural_form.tags) | {"other"}
    return tuple(c for c in ("zero", "one", "two", "few", "many", "other") if c in tags)


@lru_cache(maxsize=1024)
def plural_form(n: float, lang: str) -> str:
    """CLDR plural category of ``n`` in ``lang``, from Babel: Russian one (1, 21, 101), few (2–4,
    22–24), many (0, 5–20, 25...), other (fractions); English one (1) and other (the rest)."""
    return str(_locale(lang).plural_form(n))


def _number(value: Any) -> float:
    if isinstance(value, (int, float)):
        return value
    text = str(value).strip().lstrip("+").replace(",", ".")
    return float(text) if "." in text else int(text)


def plural_choice(value: Any, lang: str, forms: list[str]) -> str:
    """The one of ``forms`` (written in :func:`categories` order) that fits the number ``value``."""
    category = plural_form(_number(value), lang)
    order = categories(lang)
    index = order.index(category) if category in order else len(order) - 1
    if category == "other" and _lang(lang) == "ru" and len(forms) < len(order):
        index = order.index("few")    # Russian fractions without their own form: "1,5 секунды"
    return forms[min(index, len(forms) - 1)]


def select_choice(value: Any, options: list[str]) -> str:
    """``m=...|n=...|other=...``: the option named by the value's gender (or by its text)."""
    choices = dict(o.split("=", 1) for o in options if "=" in o)
    wanted = getattr(value, "gender", None) or str(value)
    return choices.get(wanted, choices.get("other", ""))


_VARIANT = {"ru": {"one": "one", "few": "few", "many": "many", "other": "few"},
            "en": {"one": "one", "other": "many"}}


def variant(n: float, lang: str) -> str:
    """The ``.one``/``.few``/``.many`` key suffix for ``n`` in ``lang`` (see the module doc)."""
    return _VARIANT[_lang(lang)].get(plural_form(n, lang), "many")


def tn(key: str, lang: str, n: float, /, **params: Any) -> str:
    """Count + noun: ``key`` itself (with inline ``{n:plural:...}`` forms) when it exists, else its
    ``key.one``/``key.few``/``key.many`` variant for ``n``. ``n`` reaches the text as ``{n}``."""
    params.setdefault("n", n)
    if key in catalogue():
        return t(key, lang, **params)
    return t(f"{key}.{variant(n, lang)}", lang, **params)


def has(key: str) -> bool:
    return key in catalogue()


_T = TypeVar("_T")
_SCRIPT_ORDER = {"ru": {"digit": 0, "cyrillic": 1, "latin": 2},
                 "en": {"digit": 0, "latin": 1, "cyrillic": 2}}
_BREVE = "\u0306"


def _script(ch: str) -> str:
    if ch.isdigit():
        return "digit"
    if "\u0400" <= ch <= "\u04ff":
        return "cyrillic"
    return "latin" if ch.isalpha() else "other"


SortKey = tuple[tuple[tuple[int, str], ...], str, str]


@lru_cache(maxsize=8192)
def sort_key(label: str, lang: str) -> SortKey:
    """A collation key good enough for the lists we show (Babel has no collation and ICU is a heavy
    native dependency): case-insensitive; accents ignored at first (é with e) while Russian ё sorts
    with е and й stays a letter of its own; quotes, dashes and brackets are ignored; a space sorts
    before any letter; digits first, then the language's own script (Cyrillic in Russian, Latin in
    English), then the other one. Ties fall back to the accented, then the exact text."""
    order = _SCRIPT_ORDER[_lang(lang)]
    folded = label.casefold()
    decomposed = unicodedata.normalize("NFD", folded.replace("ё", "е"))
    kept = [ch for i, ch in enumerate(decomposed)
            if not unicodedata.combining(ch) or (ch == _BREVE and i > 0 and decomposed[i - 1] == "и")]
    primary: list[tuple[int, str]] = []
    for ch in unicodedata.normalize("NFC", "".join(kept)):
        if ch.isspace():
            if primary and primary[-1] != (-1, " "):
                primary.append((-1, " "))
            continue
        script = _script(ch)
        if script != "other":
            primary.append((order[script], ch))
    while primary and primary[-1] == (-1, " "):
        primary.pop()
    return tuple(primary), folded, label


def sorted_by_label(items: Iterable[_T], label: Callable[[_T], str], lang: str) -> list[_T]:
    """``items`` sorted by their localised ``label`` with :func:`sort_key`."""
    return sorted(items, key=lambda item: sort_key(label(item), lang))


def join_or(items: list[str], lang: str) -> str:
    """``a, b or c`` in ``lang`` (CLDR list patterns through Babel: "a, b, or c" in English)."""
    from babel.lists import format_list

    return format_list(items, style="or", locale=_locale(lang)) if items else ""
