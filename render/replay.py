"""The animated board history of a finished game (``/game replay``): an animated GIF of public boards.

The caller picks the moments (``bot.core.replay.history``: the start, each turn's end, epochs, lines, the
end; at most a frame cap) and gives their public views; this module draws each with the game's own
renderer, scales it down, puts a caption strip on top ("Move 120 / 611") and encodes an animated GIF
whose frames share the game's fixed palette (so each frame after the first stores only the changed
rectangle). If the result is over ``max_bytes`` it is drawn again smaller, then with fewer frames.

A GIF, not an APNG: Discord plays GIF attachments inline but shows only the first frame of an
animated PNG. That first frame is also the still Discord previews, so the GIF opens on the final
position (:data:`PREVIEW_MS`), then plays the history from the start and ends on the final position
again (held :data:`LAST_FRAME_MS`) before it loops.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.games.registry import board_renderer
from render.common import Palette, font, palette

MAX_BYTES = 8 * 1024 * 1024
"""Default size cap (under Discord's upload limit, see ``bot.discord_app.limits.UPLOAD``)."""
MAX_FRAMES = 48
"""Moments drawn at most; the GIF has one more frame, the final position shown first as the preview."""
WIDTH = 720
MIN_WIDTH = 360
FRAME_MS = 900
PREVIEW_MS = 2000
"""How long the opening frame (the final position, Discord's preview) stays before the history plays."""
LAST_FRAME_MS = 4000
CAPTION_H = 34
CAPTION_BG = (30, 30, 36)
CAPTION_INK = (245, 245, 245)


@dataclass
class Animation:
    data: bytes
    frames: int
    width: int
    height: int
    format: str = "GIF"

    @property
    def moments(self) -> int:
        """Moments of the history shown: the frames but the opening preview (a copy of the last)."""
        return self.frames - 1 if self.frames > 1 else self.frames

    @property
    def filename(self) -> str:
        return "history.gif"


def _drawer(game_key: str) -> Callable[[dict[str, Any], str], Image.Image]:
    """The game's board as a Pillow image: its ``compose`` when the renderer has one, else its PNG."""
    drawer = board_renderer(game_key)
    compose = drawer.compose
    if compose is not None:
        return lambda view, lang: compose(view, lang)
    render = drawer.board

    def from_png(view: dict[str, Any], lang: str) -> Image.Image:
        image = Image.open(io.BytesIO(render(view, lang)))
        image.load()
        return image

    return from_png


def _palette_of(game_key: str) -> Palette | None:
    try:
        return palette(game_key)
    except KeyError:
        return None


def _frame(board: Image.Image, caption: str, width: int) -> Image.Image:
    rgb = board.convert("RGB")
    height = max(1, round(rgb.height * width / rgb.width))
    scaled = rgb.resize((width, height), Image.Resampling.BOX)
    out = Image.new("RGB", (width, height + CAPTION_H), CAPTION_BG)
    out.paste(scaled, (0, CAPTION_H))
    draw = ImageDraw.Draw(out)
    draw.text((10, CAPTION_H // 2), caption, font=font(18, "bold"), fill=CAPTION_INK, anchor="lm")
    return out


def _encode(frames: list[Image.Image], durations: list[int]) -> bytes:
    """An animated GIF, looping; Pillow stores each frame after the first as the rectangle that changed."""
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return buf.getvalue()


def animate(game_key: str, moments: Sequence[tuple[str, dict[str, Any]]], lang: str, *,
            max_bytes: int = MAX_BYTES, max_frames: int = MAX_FRAMES, width: int = WIDTH) -> Animation:
    """An animated GIF of ``moments`` (caption, public view with ``seat_names``) in order, at most
    ``max_frames`` of them (evenly thinned, the last kept), preceded by the last one (the preview
    Discord shows before it plays), at most ``max_bytes`` bytes."""
    if not moments:
        raise ValueError("no moments to animate")
    chosen = list(moments)
    if len(chosen) > max_frames:
        step = (len(chosen) - 1) / (max_frames - 1) if max_frames > 1 else 0
        chosen = [chosen[round(i * step)] for i in range(max_frames)] if max_frames > 1 else [chosen[-1]]
    draw = _drawer(game_key)
    boards = [(caption, draw(view, lang)) for caption, view in chosen]
    pal = _palette_of(game_key)
    while True:
        frames = [_frame(board, caption, width) for caption, board in boards]
        if pal is not None:
            frames = [pal.quantize(f) for f in frames]
        else:
            first = frames[0].quantize(colors=255, method=Image.Quantize.MEDIANCUT)
            frames = [first] + [f.quantize(palette=first, dither=Image.Dither.NONE) for f in frames[1:]]
        frames = [frames[-1], *frames] if len(frames) > 1 else frames
        durations = ([PREVIEW_MS] + [FRAME_MS] * (len(frames) - 2) + [LAST_FRAME_MS])[-len(frames):]
        data = _encode(frames, durations)
        if len(data) <= max_bytes:
            return Animation(data, len(frames), frames[0].width, frames[0].height)
        if width > MIN_WIDTH:
            width = max(MIN_WIDTH, int(width * 0.8))
        elif len(boards) > 2:
            boards = boards[::2] if boards[-1] is boards[::2][-1] else [*boards[::2], boards[-1]]
        else:
            raise ValueError(f"the history does not fit {max_bytes} bytes")
