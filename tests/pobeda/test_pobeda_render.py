"""The board PNG: decodes, fits the limits, shows chips in their side's colour."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.pobeda import Pobeda, bench_state
from bot.games.pobeda.render import (
    BG,
    CAPTION,
    CHIP_R,
    HEIGHT,
    MARGIN,
    SIDE_COLOURS,
    WIDTH,
    cell_center,
    render,
)
from tests.pobeda.pobeda_helpers import make, play_event, put, row


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def test_crowded_board_renders_within_limits_in_both_languages() -> None:
    game = bench_state()
    view = game.view(None)
    view["seat_names"] = ["Алексей", "A very long display name indeed", "Eve"]
    assert len(view["chips"]) > 100 and view["lines"]
    for lang in ("ru", "en"):
        data = render(view, lang)
        assert len(data) <= 800_000
        image = decode(data)
        assert max(image.size) <= 2048
        for chip in view["chips"]:
            assert image.getpixel(cell_center(view, chip["cell"])) == SIDE_COLOURS[chip["side"]]


def test_locked_chips_differ_and_keep_their_centre_colour() -> None:
    game = make(3, lines=3)
    put(game, 1, *row("A", "E", 6))
    play_event(game, 1, "F6")
    put(game, 2, "K10")
    view = game.view(None)
    image = decode(render(view, "en"))
    locked, loose = cell_center(view, "C6"), cell_center(view, "K10")
    assert image.getpixel(locked) == SIDE_COLOURS[1]
    assert image.getpixel(loose) == SIDE_COLOURS[2]
    # a locked chip wears a gold ring just outside its disc; a loose one does not
    # (above the chip, clear of the row's bar: side 1's square reaches 0.89 r, its ring 0.89 (r + 6))
    ring_locked = image.getpixel((locked[0], locked[1] - CHIP_R))
    ring_loose = image.getpixel((loose[0], loose[1] - CHIP_R))
    assert ring_locked != ring_loose and ring_locked[0] > 200 and ring_locked[2] < 100


def test_empty_and_finished_games_render() -> None:
    """An empty board shows no chip anywhere and a turn marker in the caption; a finished game
    shows its chips and line, and no turn marker (the result stands in its place)."""
    game = Pobeda.new([{"side": 0}, {"side": 1}], {"layout": "shuffled", "teams": 2, "undo_window": 0}, 3)
    view = game.view(None)
    empty = decode(render(view, "ru"))
    assert empty.size == (WIDTH, HEIGHT)
    cells = [f"{letter}{number}" for letter in "ABCDEFGHIJKL" for number in range(1, 13)]
    assert all(empty.getpixel(cell_center(view, cell)) not in SIDE_COLOURS for cell in cells)
    marker = (MARGIN + 17, HEIGHT - CAPTION + 89)  # centre of the caption's "to move" disc
    side = view["seat_sides"][view["current"]]
    assert empty.getpixel(marker) == SIDE_COLOURS[side]
    put(game, 0, *row("A", "E", 2))
    game.s.current = 0
    play_event(game, 0, "F2")
    assert game.outcome() is not None
    view = game.view(None)
    done = decode(render(view, "en"))
    assert all(done.getpixel(cell_center(view, cell)) == SIDE_COLOURS[0] for cell in row("A", "F", 2))
    assert done.getpixel(marker) == BG


