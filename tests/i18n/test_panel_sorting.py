"""Panel lists of names come out in the reader's alphabet (issue 13, item 3: "locale-aware sorting of
every list shown to a user"): Cold War event cards, groups and targets; By All Means cards; Pobeda
events (by date, as their label starts with it, then by title). Orders that carry meaning (action kinds,
dice, cells, rows) are not checked here beyond "nothing is added or dropped"."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.discord_app.panels import Choice, level_labels
from bot.games.base import Action, Game
from bot.games.byallmeans.game import ByAllMeans, card_name
from bot.games.coldwar.game import ColdWar
from bot.games.coldwar.text import group_name, target_name
from bot.games.pobeda.data import card_kind
from bot.games.pobeda.data import events as pobeda_events
from bot.games.pobeda.game import Pobeda
from bot.games.pobeda.text import event_title
from tests.i18n.test_i18n_sorting import reference_ru

LANGS = ("ru", "en")


def reference(word: str, lang: str) -> list[int]:
    """Independent of ``bot.core.i18n``: Russian by the alphabet's letter places (ё as е); English by the
    Latin letters' places; case, punctuation and quotes ignored, digits first, spaces before letters."""
    if lang == "ru":
        return reference_ru(word)
    out = []
    for ch in word.lower():
        if ch == " ":
            out.append(-1)
        elif ch.isdigit():
            out.append(-50 + int(ch))
        elif "a" <= ch <= "z":
            out.append(ord(ch) - ord("a"))
        elif ch.isalpha():
            out.append(100 + ord(ch))
    return out


def in_order(names: list[str], lang: str) -> bool:
    keys = [reference(n, lang) for n in names]
    return keys == sorted(keys)


def states(cls: type[Game], seats: int, seeds: range, steps: int) -> Iterator[tuple[Game, int]]:
    """Positions of random games (seat to act), for each seed."""
    for seed in seeds:
        info: list[dict[str, Any]] = [{"side": i} if cls is Pobeda else {} for i in range(seats)]
        game = cls.new(info, {}, seed)
        rnd = random.Random(seed)
        for _ in range(steps):
            actors = game.actors()
            if not actors:
                break
            seat = actors[0]
            legal = game.legal_actions(seat)
            if not legal:
                break
            yield game, seat
            game.apply(seat, rnd.choice(legal))


def runs(ordered: list[Action], kind: str, name: Callable[[Action], str]) -> list[str]:
    """Names of the consecutive actions of ``kind``, each name once, in panel order."""
    out: list[str] = []
    for a in ordered:
        if a.get("type") == kind and (not out or out[-1] != name(a)):
            out.append(name(a))
    return out


def same_multiset(a: list[Action], b: list[Action]) -> bool:
    return sorted(map(repr, a)) == sorted(map(repr, b))


@pytest.mark.parametrize("lang", LANGS)
def test_cold_war_events_groups_and_targets_are_in_the_readers_alphabet(lang: str) -> None:
    checked = {"event": 0, "discard": 0, "use": 0, "target": 0}
    for game, seat in states(ColdWar, 2, range(1, 7), 250):
        assert isinstance(game, ColdWar)
        legal = game.legal_actions(seat)
        ordered = game.panel_actions(seat, lang)
        assert same_multiset(ordered, legal)
        cards = runs(ordered, "event", lambda a: target_name(a["card"], lang))
        discards = runs(ordered, "discard", lambda a: group_name(a["group"], lang))
        uses = runs(ordered, "use", lambda a: group_name(a["group"], lang))
        for names, kind in ((cards, "event"), (discards, "discard"), (uses, "use")):
            assert in_order(names, lang), (kind, names)
            checked[kind] += len(names) > 1
        # the panel's first level shows the event cards in the same order
        root = level_labels([Choice(a, game.panel_path(seat, a, lang)) for a in ordered], 0)
        assert len(root) == len(dict.fromkeys(root))
        for group in dict.fromkeys(a["group"] for a in ordered if a["type"] == "use"):
            targets = [a["target"] for a in ordered if a["type"] == "use" and a["group"] == group and "target" in a]
            names = [target_name(x, lang) if x in game.engine.c.targets else group_name(x, lang) for x in targets]
            assert in_order(names, lang), names
            checked["target"] += len(names) > 1
    assert checked["event"] and checked["use"], checked


def namer(cards: dict[str, str], lang: str) -> Callable[[Action], str]:
    return lambda a: card_name(cards[a["uid"]], lang)


@pytest.mark.parametrize("lang", LANGS)
def test_by_all_means_cards_are_in_the_readers_alphabet(lang: str) -> None:
    checked = 0
    for game, seat in states(ByAllMeans, 2, range(1, 5), 120):
        assert isinstance(game, ByAllMeans)
        ordered = game.panel_actions(seat, lang)
        legal = game.legal_actions(seat)
        assert all(a in legal for a in ordered)
        cards = game.s.cards
        for kind in ("play", "utilise", "discard", "activate", "neutral"):
            names = runs(ordered, kind, namer(cards, lang))
            assert len(names) == len(set(names)), (kind, names)  # each card once: kinds are not split up
            assert in_order(names, lang), (kind, names)
            checked += len(names) > 2
    assert checked


@pytest.mark.parametrize("lang", LANGS)
def test_pobeda_events_are_listed_by_date_then_title(lang: str) -> None:
    checked = 0
    data: dict[str, Any] = pobeda_events()
    for game, seat in states(Pobeda, 2, range(1, 4), 80):
        ordered = game.panel_actions(seat, lang)
        assert same_multiset(ordered, game.legal_actions(seat))
        plays = [a["card"] for a in ordered if a.get("type") == "play" and card_kind(a["card"]) == "event"]
        dates = [data[c]["date"] for c in plays]
        assert dates == sorted(dates)
        for date in set(dates):
            same_day = [event_title(c, lang) for c in plays if data[c]["date"] == date]
            assert in_order(same_day, lang), same_day
        checked += len(plays) > 2
    assert checked


def test_godstorm_panels_with_miracles_list_every_legal_action() -> None:
    """Every Godstorm position with miracle cards in hand gives a panel (the CI run of 2026-11-26 saw a
    crash: a card aimed at a player next to cards aimed at territories made the sort compare a name
    with a number); the panel holds exactly the legal actions, in both languages."""
    from bot.games.godstorm import Godstorm
    from bot.games.godstorm.playout import choose

    mixed = 0
    for seed in range(3):
        game = Godstorm.new([{} for _ in range(2 + seed)], {"miracles": "on"}, seed)
        rnd = random.Random(seed)
        for _ in range(400):
            if game.outcome() is not None:
                break
            seat = game.actors()[0]
            legal = game.legal_actions(seat)
            plays = [a for a in legal if a["type"] == "play_card"]
            if plays and len({frozenset(a) for a in plays}) > 1:
                mixed += 1
                for lang in LANGS:
                    assert same_multiset(game.panel_actions(seat, lang), legal)
            game.apply(seat, choose(game, seat, legal, rnd))
    assert mixed  # positions where cards of different shapes were playable at once were reached


def test_the_two_languages_give_different_orders_somewhere() -> None:
    """The Russian and English panels are each sorted in their own alphabet, so they differ."""
    differ = False
    for game, seat in states(ColdWar, 2, range(1, 7), 250):
        ru = [repr(a) for a in game.panel_actions(seat, "ru")]
        en = [repr(a) for a in game.panel_actions(seat, "en")]
        differ = differ or ru != en
    assert differ


# ---- autocomplete lists ----------------------------------------------------------------------------
class _Locale:
    def __init__(self, value: str) -> None:
        self.value = value


class _Interaction:
    """Just what an autocomplete callback reads: the caller's locale (and a namespace)."""

    def __init__(self, locale: str) -> None:
        self.locale = _Locale(locale)
        self.namespace = object()


@pytest.mark.parametrize(("lang", "locale"), [("ru", "ru"), ("en", "en-US")])
async def test_by_all_means_preset_autocomplete_is_in_the_readers_alphabet(lang: str, locale: str) -> None:
    from bot.core.i18n import t
    from bot.games.byallmeans.cog import ByAllMeansCog

    complete: Any = ByAllMeansCog.export_preset  # a plain function under discord.py's typing
    choices = await complete(None, _Interaction(locale), "")
    names = [c.name for c in choices]
    assert sorted(names) == sorted(t(f"bam.deckname.{d}", lang) for d in ("press", "syndicate", "cityhall",
                                                                          "underground"))
    assert in_order(names, lang), names


@pytest.mark.parametrize(("lang", "locale"), [("ru", "ru"), ("en", "en-US")])
async def test_godstorm_card_autocomplete_is_in_the_readers_alphabet(lang: str, locale: str) -> None:
    from bot.games.godstorm.cog import RiskCog
    from bot.games.godstorm.miracles import CARDS

    legal = [{"type": "play_card", "card": cid} for cid in CARDS]

    class Cog(RiskCog):
        def __init__(self) -> None:
            pass

        async def legal(self, interaction: Any) -> tuple[Game | None, list[Action]]:
            return None, legal

    complete: Any = Cog.play_card
    choices = await complete(Cog(), _Interaction(locale), "")
    names = [CARDS[c.value].name.get(lang, CARDS[c.value].name["en"]) for c in choices]
    assert len(names) == min(len(CARDS), 25)
    assert in_order(names, lang), names
