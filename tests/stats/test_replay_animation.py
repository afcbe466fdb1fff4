"""The animated board history (render.replay) and the stats tables (render.stats): limits and legibility."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.core.replay import history
from bot.core.store import ActionRow
from bot.discord_app import limits
from bot.games.godstorm.playout import random_playout
from render.replay import MAX_FRAMES, animate
from render.stats import MAX_ROWS, WIDTH, render_table

NAMES = ["Anna", "Boris", "Clara", "Dima", "Eve"]


def godstorm_moments(seed: int, players: int, frames: int) -> list[tuple[str, dict[str, Any]]]:
    playout = random_playout(seed, players)
    rows = [ActionRow(i + 1, seat, None, action, [], 0.0) for i, (seat, action) in enumerate(playout.log)]
    story = history("godstorm", [{} for _ in range(players)], {"ruleset": "godstorm", "placement": "random"}, seed,
                    rows, names=NAMES[:players], lang="en", frames=frames)
    return [(f"Move {seq}", {**view, "seat_names": NAMES[:players]}) for seq, view in story.frames]


def open_gif(data: bytes) -> Image.Image:
    """The animation as Discord gets it: a GIF (which it plays inline; an APNG shows as a still)."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF" and data[:6] == b"GIF89a"
    return image


def frame_rgb(image: Image.Image, index: int) -> bytes:
    image.seek(index)
    return image.convert("RGB").tobytes()


def test_a_whole_godstorm_game_fits_the_frame_and_size_caps() -> None:
    moments = godstorm_moments(1, 5, MAX_FRAMES + 10)
    animation = animate("godstorm", moments, "ru", max_bytes=limits.ANIMATION)
    assert len(animation.data) <= limits.ANIMATION < limits.UPLOAD
    assert animation.moments == MAX_FRAMES  # more moments than the cap: thinned to it
    assert animation.frames == MAX_FRAMES + 1  # and the final position first, as the preview
    assert animation.filename.endswith(".gif") and animation.format == "GIF"
    image = open_gif(animation.data)
    assert getattr(image, "n_frames", 1) == animation.frames
    assert image.size == (animation.width, animation.height)
    assert 400 <= animation.width <= 800
    assert image.info.get("loop") == 0  # plays on and on


def test_the_preview_frame_is_the_final_position_then_the_game_plays_from_the_start() -> None:
    """Discord shows a GIF's first frame before it plays: a five-player Godstorm game's GIF opens on
    its final position (the same picture as its last frame), then starts again from the empty board."""
    moments = godstorm_moments(7, 5, MAX_FRAMES)
    animation = animate("godstorm", moments, "en", max_bytes=limits.ANIMATION)
    assert len(animation.data) <= limits.ANIMATION
    image = open_gif(animation.data)
    assert image.n_frames == animation.frames == len(moments) + 1 > 1
    first, second, last = frame_rgb(image, 0), frame_rgb(image, 1), frame_rgb(image, image.n_frames - 1)
    assert first == last != second
    # the final position as drawn from the last moment alone (caption included)
    alone = open_gif(animate("godstorm", moments[-1:], "en").data)
    assert alone.n_frames == 1 and frame_rgb(alone, 0) == first
    start = open_gif(animate("godstorm", moments[:1], "en").data)
    assert frame_rgb(start, 0) == second  # the history proper starts at the start


def test_a_tight_size_cap_shrinks_the_frames_then_drops_some() -> None:
    moments = godstorm_moments(4, 3, 12)
    roomy = animate("godstorm", moments, "en")
    tight = animate("godstorm", moments, "en", max_bytes=len(roomy.data) // 3)
    assert len(tight.data) <= len(roomy.data) // 3
    assert tight.width < roomy.width or tight.frames < roomy.frames
    assert tight.frames > 1
    image = open_gif(tight.data)
    assert frame_rgb(image, 0) == frame_rgb(image, image.n_frames - 1)  # still opening on the end


def test_each_frame_is_a_different_moment() -> None:
    moments = godstorm_moments(5, 3, 6)
    animation = animate("godstorm", moments, "en")
    image = open_gif(animation.data)
    seen = [frame_rgb(image, index) for index in range(1, image.n_frames)]  # after the preview
    assert len(set(seen)) == len(seen)


def test_stats_table_is_legible_at_400_px_in_both_languages() -> None:
    for title, headers in (("Anna: statistics", ["Game", "Played", "Won", "Rating"]),
                           ("Анна: статистика", ["Игра", "Партий", "Побед", "Рейтинг"])):
        rows = [[f"Игрок с очень длинным именем номер {i}", str(i), str(i // 2), f"{i / 3:.1f}"] for i in range(60)]
        png = render_table(title, headers, rows, numeric=[False, True, True, True], highlight=2, footer="μ − 3σ")
        image = Image.open(io.BytesIO(png))
        assert image.width == WIDTH
        # all rows drawn up to the cap; at 400 px wide the 24 px text is still 13 px
        scale = 400 / image.width
        assert 24 * scale >= 13
        assert image.height > 38 * (MAX_ROWS + 1)
