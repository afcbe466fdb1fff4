"""Every message exists in Russian and English with the same placeholders (issue 13)."""

from __future__ import annotations

import re
import string

from bot.core.i18n import catalogue

_PARSE = string.Formatter()


def placeholders(text: str, lang: str) -> set[str]:
    """Field names; ``team_ru`` in Russian matches ``team_en`` in English (parameters computed per
    language, as Pobeda's refusal of unbalanced teams does)."""
    names = {name for _, name, _, _ in _PARSE.parse(text) if name is not None}
    return {name.removesuffix("_" + lang) for name in names}


def test_every_key_has_both_languages() -> None:
    for key, value in catalogue().items():
        assert set(value) >= {"ru", "en"}, key
        assert value["ru"].strip() and value["en"].strip(), key


def test_both_languages_take_the_same_placeholders() -> None:
    """A parameter missing in one language would silently drop (or break) that language's text."""
    differ = {key: (sorted(placeholders(v["ru"], "ru")), sorted(placeholders(v["en"], "en")))
              for key, v in catalogue().items() if placeholders(v["ru"], "ru") != placeholders(v["en"], "en")}
    assert not differ, differ


def test_one_name_for_each_thing() -> None:
    """Issue 13: names differ between texts and the board ("подземье" / "Подземный мир"). The
    rulebook says «Подземный мир» (risk-godstorm.ru.txt: "вторжение в Подземный мир") and
    Cold War's Russian edition calls Live Benefit «Акция протеста» (cold-war-kgb-vs-cia.ru.txt:
    "события «Акция протеста»")."""
    texts = [v["ru"] for v in catalogue().values()]
    assert not any("подземь" in text.lower() for text in texts)
    assert catalogue()["godstorm.map.underworld"]["ru"] == "Подземный мир"
    assert catalogue()["coldwar.target.protest"] == {"ru": "Акция протеста", "en": "Live Benefit"}
    assert all("Live Benefit" not in text for text in texts)


GENDER_HACK = re.compile(r"[а-яё]\(-?[а-яё]{1,3}\)|[а-яё]/-?(?:а|ла|ась|ось|ся|ой|ая|ое)\b|\(-?а\)", re.IGNORECASE)
"""A gendered ending bolted on: "решил(а)", "вернул(ла)", "сдался(-ась)", "сделал/а", "(а)"."""


def gender_hacks(texts: dict[str, dict[str, str]]) -> dict[str, str]:
    return {key: value["ru"] for key, value in texts.items() if GENDER_HACK.search(value.get("ru", ""))}


def test_russian_texts_have_no_gender_hacks() -> None:
    """Issue 25 (item 10): players' genders are unknown, so a Russian text about a player is worded
    without a gendered past tense ("Часы игры остановлены (alice)", "alice: ход сделан") instead of
    "alice остановил(а)"."""
    assert gender_hacks({"a": {"ru": "alice решил(а) сдаться"}, "b": {"ru": "bob сделал/а ход"},
                         "c": {"ru": "сдался(-ась)"}}) == {
        "a": "alice решил(а) сдаться", "b": "bob сделал/а ход", "c": "сдался(-ась)"}
    assert not gender_hacks({"d": {"ru": "КГБ (м), армии (3), «Партизаны» (Военные, 1)"}})
    assert not gender_hacks(catalogue())
