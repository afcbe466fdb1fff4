"""Issue 25, item 4: a label never loses its deciding words to Discord's 80 characters, and no panel shows
two identical labels. Checked over random legal states of every game, in Russian and English."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.discord_app import limits, panels
from bot.games.base import Game, Player, Rng
from bot.games.registry import game_class

NAMES = ["Алиса Длинноимённая", "bob", "carol", "dave", "eve"]
SEATS = {"pobeda": 2, "coldwar": 2, "godstorm": 3, "byallmeans": 2}


def new_game(key: str, seed: int) -> Game:
    cls = game_class(key)
    options = cls.default_options()
    players = [Player(i + 1, None) for i in range(SEATS[key])]
    arrangement = cls.arrange_seats(players, options, Rng(seed))
    game = cls.new(arrangement.seat_info, options, seed)
    game.seat_names = NAMES[:len(arrangement.seat_users)]
    return game


def shown_labels(game: Game, seat: int, lang: str) -> list[tuple[list[str], list[str], int]]:
    """(full labels, shown labels, limit) of every level of the seat's panel."""
    out: list[tuple[list[str], list[str], int]] = []
    for prefix in panels.prefixes(game, seat, lang):
        choices, chosen = panels.choices_under(game, seat, lang, prefix)
        prefix, choices, chosen = panels.skip_single_levels(prefix, choices, chosen)
        depth = len(prefix)
        if len(choices) <= panels.MAX_BUTTONS and not panels.as_select(game, seat, choices, depth):
            full = [panels.SEP.join(c.path[depth:] or c.path[-1:]) for c in choices]
            out.append((full, panels.button_labels(choices, depth), limits.BUTTON_LABEL))
        else:
            level = panels.level_labels(choices, depth)
            out.append((level, panels.option_labels(level), limits.OPTION_LABEL))
    return out


def walk(key: str, seed: int, steps: int) -> list[tuple[Game, int]]:
    """Random legal play, yielding each (game, acting seat) before the move."""
    game = new_game(key, seed)
    rng = random.Random(seed)
    seen: list[tuple[Game, int]] = []
    for _ in range(steps):
        if game.outcome() is not None or not game.actors():
            break
        seat = game.actors()[0]
        seen.append((game.from_json(game.to_json()), seat))
        seen[-1][0].seat_names = game.seat_names
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return seen


@pytest.mark.parametrize("key", sorted(SEATS))
def test_no_cut_or_twin_labels_in_any_panel(key: str) -> None:
    panels_seen = 0
    for seed in (1, 2):
        for game, seat in walk(key, seed, 120 if key != "godstorm" else 60):
            for lang in ("ru", "en"):
                for full, shown, limit in shown_labels(game, seat, lang):
                    panels_seen += 1
                    assert len(set(shown)) == len(shown), (key, lang, [x for x in shown if shown.count(x) > 1])
                    for whole, label in zip(full, shown, strict=True):
                        assert limits.size(label) <= limit, (key, lang, label)
                        assert not label.endswith(limits.ELLIPSIS), (key, lang, whole, label)
    assert panels_seen > 100


def use_group_labels(lang: str) -> list[tuple[dict[str, Any], str, str]]:
    out = []
    for seed in (1, 2, 3):
        for game, seat in walk("coldwar", seed, 200):
            choices = [panels.Choice(a, game.panel_path(seat, a, lang)) for a in game.panel_actions(seat, lang)]
            targeted = [c for c in choices if c.action["type"] == "use" and "target" in c.action]
            for c, label in zip(choices, panels.button_labels(choices, 0), strict=True):
                if c in targeted:
                    out.append((c.action, c.path[-1], label))
    return out


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_cold_war_use_group_names_whose_group_first(lang: str) -> None:
    """«→ «Партизаны» (Военные, 1) у…»: the owner was cut off. Now the owner leads the target's part and
    the label ends whole."""
    from bot.games.coldwar.text import side

    found = use_group_labels(lang)
    assert found
    for _action, target, label in found:
        assert target.startswith("→ " + str(side(0, lang)) + ":") or target.startswith("→ " + str(side(1, lang)) + ":")
        assert not label.endswith(limits.ELLIPSIS) and limits.size(label) <= limits.BUTTON_LABEL
        assert target.split(":")[0] in label  # whose group it is survives any shortening


def test_fit_labels_shortens_by_rule_and_parts_twins() -> None:
    long = "«Общественные организации» (Общество, 2)"
    paths = [["Применить группу", long, "→ КГБ: «Ополчение» (Военные, 2) и ещё очень длинное пояснение"],
             ["Применить группу", long, "→ ЦРУ: «Ополчение» (Военные, 2) и ещё очень длинное пояснение"]]
    labels = panels.fit_labels(paths, 80)
    assert all(limits.size(x) <= 80 and not x.endswith(limits.ELLIPSIS) for x in labels)
    assert "КГБ" in labels[0] and "ЦРУ" in labels[1]
    twins = panels.fit_labels([["Play", "x" * 90], ["Play", "x" * 90]], 80)
    assert twins[0] != twins[1] and all(limits.size(x) <= 80 for x in twins)
    # the parts where twins differ are kept whole when the first shortening made them equal
    a = ["Use", "A " + "common words " * 6 + "end", "tail one"]
    b = ["Use", "A " + "common words " * 6 + "END", "tail one"]
    fitted = panels.fit_labels([a, b], 60)
    assert fitted[0] != fitted[1]
    assert panels.squeeze("«Банкиры» (Экономика, 6)", 12) == "«Банкиры»"
    assert panels.fit_labels([["short"]], 80) == ["short"]
