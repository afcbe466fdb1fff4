"""Lists shown to a user are in the alphabetical order of the user's language (issue 13: "Russian
autocomplete lists are sorted by the English names")."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import sort_key, sorted_by_label
from bot.games.godstorm import data

RU_ALPHABET = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
"""The Russian alphabet; in dictionaries ё is filed with е (Е and Ё are one letter when sorting)."""


def reference_ru(word: str) -> list[int]:
    """Independent of ``bot.core.i18n``: each Cyrillic letter's place in the alphabet (ё as е), case
    ignored, spaces first, other characters after the alphabet."""
    out = []
    for ch in word.lower().replace("ё", "е"):
        if ch == " ":
            out.append(-1)
        elif ch in RU_ALPHABET:
            out.append(RU_ALPHABET.index(ch))
        elif ch.isalpha():
            out.append(100 + ord(ch))
    return out


def test_russian_order_files_yo_with_ye_and_ignores_case() -> None:
    words = ["ёлка", "Елена", "ель", "Ежевика", "яблоко", "Абрикос", "йод", "иглы", "Ёж", "жук"]
    assert sorted(words, key=lambda w: sort_key(w, "ru")) == [
        "Абрикос", "Ёж", "Ежевика", "Елена", "ёлка", "ель", "жук", "иглы", "йод", "яблоко"]


def test_russian_puts_cyrillic_before_latin_and_english_the_other_way() -> None:
    words = ["Zeus", "Арес", "apollo", "Один"]
    assert sorted(words, key=lambda w: sort_key(w, "ru")) == ["Арес", "Один", "apollo", "Zeus"]
    assert sorted(words, key=lambda w: sort_key(w, "en")) == ["apollo", "Zeus", "Арес", "Один"]


def test_english_ignores_case_accents_and_quotes() -> None:
    words = ["Éire", "egypt", "«Atlantis»", "Crete", "delos"]
    assert sorted(words, key=lambda w: sort_key(w, "en")) == ["«Atlantis»", "Crete", "delos", "egypt", "Éire"]


def test_every_godstorm_territory_list_sorts_as_the_alphabet_says() -> None:
    names = [t.name["ru"] for t in data.TERRITORIES.values()]
    ours = sorted(names, key=lambda w: sort_key(w, "ru"))
    assert [reference_ru(w) for w in ours] == sorted(reference_ru(w) for w in names)
    english = sorted((t.name["en"] for t in data.TERRITORIES.values()), key=lambda w: sort_key(w, "en"))
    assert [w.casefold() for w in english] == sorted(w.casefold() for w in english)


def test_risk_autocomplete_lists_places_in_the_callers_alphabet() -> None:
    from bot.games.godstorm.cog import place_choices, place_name

    ids = list(data.TERRITORIES)
    for lang in ("ru", "en"):
        labeller: Any = lambda game, where, language: place_name(where, language)  # noqa: E731
        shown = [c.name for c in place_choices(object(), ids, "", lang, labeller)]  # type: ignore[arg-type]
        assert len(shown) == min(25, len(ids))
        full = sorted_by_label(ids, lambda w, lg=lang: place_name(w, lg), lang)
        assert shown == [place_name(w, lang) for w in full][:25]
    ru = [c.name for c in place_choices(object(), ids, "", "ru", labeller)]  # type: ignore[arg-type]
    assert [reference_ru(w) for w in ru] == sorted(reference_ru(w) for w in ru)


def test_godstorm_panel_lists_places_in_the_readers_alphabet() -> None:
    """The DM panel's selects (continents, then territories to claim) read alphabetically in both
    languages, and reordering neither adds nor drops a legal action."""
    from bot.discord_app.panels import Choice, level_labels
    from bot.games.godstorm.game import Godstorm

    game = Godstorm.new([{} for _ in range(3)], {"ruleset": "godstorm", "placement": "choose"}, 7)
    while game.s.phase != "claim":
        seat = game.actors()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    seat = game.actors()[0]
    for lang in ("ru", "en"):
        actions = game.panel_actions(seat, lang)
        assert sorted(map(repr, actions)) == sorted(map(repr, game.legal_actions(seat)))
        choices = [Choice(a, game.action_path(seat, a, lang)) for a in actions]
        continents = level_labels(choices, 1)
        assert len(continents) > 3 and continents == sorted(continents, key=lambda w: sort_key(w, lang))
        for continent in continents:
            names = level_labels([c for c in choices if c.path[1] == continent], 2)
            assert names == sorted(names, key=lambda w: sort_key(w, lang)), (lang, continent)
            if lang == "ru":
                assert [reference_ru(w) for w in names] == sorted(reference_ru(w) for w in names)
