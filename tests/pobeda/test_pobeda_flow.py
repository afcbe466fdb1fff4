"""Whole games through every text hook the Discord layer calls, in both languages."""

from __future__ import annotations

import io
import random
import statistics
import time

from PIL import Image

from bot.games.base import ADMIN
from bot.games.pobeda import Pobeda, bench_state
from bot.games.pobeda.render import SIDE_COLOURS, cell_center, render

LANGS = ("ru", "en")


def assert_text(text: str | None) -> None:
    assert text is None or (text and "pobeda." not in text and "{" not in text)


def assert_board(game: Pobeda, lang: str) -> None:
    """The final board decodes and shows every chip of the view in its side's colour."""
    view = game.view(None)
    image = Image.open(io.BytesIO(render(view, lang)))
    image.load()
    image = image.convert("RGB")
    assert view["chips"]
    for chip in view["chips"]:
        assert image.getpixel(cell_center(view, chip["cell"])) == SIDE_COLOURS[chip["side"]], chip


def run_game(seat_info: list[dict], options: dict, seed: int) -> Pobeda:
    game = Pobeda.new(seat_info, options, seed)
    rnd = random.Random(seed)
    penalised = False
    while game.outcome() is None:
        if game.admin_actions() and not penalised and game.s.turn > 20:
            action = game.admin_actions()[1]
            penalised = True
            assert game.action_path(ADMIN, action, "en") == ["Penalty: Team Blue"]
            events = game.apply(ADMIN, action)
        else:
            seat = rnd.choice(game.actors())
            legal = game.legal_actions(seat)
            for lang in LANGS:
                assert_text(game.prompt_text(seat, lang))
                assert_text(game.private_text(seat, lang))
                for action in legal[:40]:
                    path = game.action_path(seat, action, lang)
                    assert path and all(0 < len(label) <= 80 for label in path)
                    assert_text(" ".join(path))
            events = game.apply(seat, rnd.choice(legal))
        hidden = set(game.s.deck) | {c for hand in game.s.hands for c in hand}
        for event in events:
            if "to" not in event:
                assert event.get("card") not in hidden or event.get("card") is None
            for lang in LANGS:
                assert_text(game.event_text(event, lang))
        for lang in LANGS:
            for line in game.status_lines(lang):
                assert_text(line)
    return game


def test_three_player_game_to_a_result() -> None:
    game = run_game([{"side": 0}, {"side": 1}, {"side": 2}], {"lines": 1}, 31)
    outcome = game.outcome()
    assert outcome is not None and outcome["winners"]
    # the platform announces the result with names; the game's status keeps to the score and deck
    assert game.event_text({"type": "game_over", **outcome}, "ru")
    assert game.status_lines("en")[-1].startswith("Deck")
    assert_board(game, "ru")


def test_two_teams_of_three_to_a_result() -> None:
    seats = [{"side": k % 2} for k in range(6)]
    game = run_game(seats, {"teams": 2, "lines": 2, "layout": "shuffled"}, 8)
    assert game.outcome() is not None
    assert sum(len(h) for h in game.s.hands) + len(game.s.deck) + len(game.s.discard) == 151
    assert_board(game, "en")


def test_apply_is_fast() -> None:
    state = bench_state().to_json()
    probe = Pobeda.from_json(state)
    actions = probe.legal_actions(probe.actors()[0])
    times = []
    for i in range(200):
        game = Pobeda.from_json(state)
        seat = game.actors()[0]
        start = time.perf_counter()
        game.apply(seat, actions[i % len(actions)])
        times.append(time.perf_counter() - start)
    assert statistics.median(times) < 0.001
