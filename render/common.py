"""Shared drawing helpers: bundled fonts (full Cyrillic), PNG encoding, text fitting.

Boards are encoded as 8-bit palette PNGs with a palette fixed per game (``data/palettes/<game key>.txt``,
built once from the game's own renders by ``python -m tests.render.build_palettes``; a game from another
package builds its :class:`Palette` from bytes of its own), mapped
without dithering. Anything that cannot be shown exactly by the game's palette (a colour the
palette does not hold, such as a player colour from an unknown data file) falls back to a
full-colour PNG. See ``PNG_LEVEL`` for how the zlib level was chosen. Palette PNGs are written by
``palette_png`` (not Pillow), which deflates a big board in bands on several threads (with zlib-ng) and
keeps the deflated bands, so that the next board of a game re-deflates only what a move changed: the
same pixels as Pillow, in fewer bytes and a fraction of the time.

Also here: ``text``, Pillow's text drawing with the glyph coverage cached (most of a board's
drawing time is rasterising text that repeats from render to render), ``wrap`` with its lines kept,
and ``rendered_once``, which reuses the PNG of a view already rendered in the same language. Every
cache is bounded.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import math
import os
import struct
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache, wraps
from typing import Any, TypeVar, cast

from PIL import Image, ImageDraw, ImageFont
from zlib_ng import zlib_ng

from bot.core.parse import unescape
from bot.core.paths import DATA_DIR

log = logging.getLogger(__name__)

FONT_DIR = DATA_DIR / "fonts"
FONT_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed.ttf",
    "condensed-bold": "DejaVuSansCondensed-Bold.ttf",
}


@lru_cache(maxsize=64)
def font(size: int, style: str = "regular") -> ImageFont.FreeTypeFont:
    """A bundled DejaVu font, so every machine and the Docker image render identically."""
    return ImageFont.truetype(str(FONT_DIR / FONT_FILES[style]), size)


Colour = tuple[int, int, int]

# zlib level for palette PNGs, chosen by measurement on each game's crowded bench state (fixed
# palette, Pillow 12, zlib 1.2.13, median CPU ms of 15 encodes on the shared 2-core machine):
#   level      1         3         4         5         6         7         8          9
#   godstorm   256/12    233/17    212/22    205/20    200/32    198/40    191/77     186/192  KB/ms
#   coldwar     59/4      54/5      49/8      48/7      45/9      44/11     41/22      41/53
#   pobeda     248/13    211/15    198/20    188/23    171/36    167/48    155/100    153/210
# Level 6 is the knee for all three: level 7 saves 1-2.5 % for 20-35 % more time, level 5 costs
# 3-10 % more bytes. (Filters: Pillow writes palette rows unfiltered, which suits them; the zlib
# strategies FILTERED and RLE were larger or slower.)
# Since then the bands are deflated by zlib-ng (the ``zlib-ng`` package: zlib's format and API, other
# matchers), which keeps these levels. The same bench boards' bands, deflated whole in one run (median of 7):
#   level 6, zlib -> zlib-ng        godstorm 197.6 -> 186.7 KB, 47 -> 32 ms; pobeda 165.4 -> 159.6 KB, 57 -> 31 ms
#   level 3 (Cold War's), same      coldwar 52.6 -> 47.3 KB, 5.4 -> 3.9 ms
#   zlib-ng, level  5 / 6 / 7       godstorm 189/187/194 KB, pobeda 166/160/160 KB: 6 is still the knee
PNG_LEVEL = 6


class Palette:
    """A fixed 256-colour palette: exact slots for the flat colours, the rest for anti-aliasing."""

    def __init__(self, rgb: bytes) -> None:
        if len(rgb) != 768:
            raise ValueError("a palette is 256 RGB triples")
        self.holder = Image.new("P", (1, 1))
        self.holder.putpalette(rgb)
        self.index: dict[Colour, int] = {}
        for i in range(256):
            self.index.setdefault((rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]), i)
        # Pillow maps through a cache of 4x4x4 colour boxes, so a palette colour is only kept
        # exactly if it is the entry nearest its box's corner: keep the ones that survive.
        probe = Image.new("RGB", (len(self.index), 1))
        for x, colour in enumerate(self.index):
            probe.putpixel((x, 0), colour)
        mapped = self.quantize(probe).convert("RGB")
        self.exact = {c for x, c in enumerate(self.index) if mapped.getpixel((x, 0)) == c}

    def __contains__(self, colour: object) -> bool:
        """Whether pixels of this colour keep it exactly once mapped onto the palette."""
        return isinstance(colour, tuple) and colour in self.exact

    def ix(self, colour: Colour) -> int:
        """The palette index of an exact colour (for drawing straight onto a palette image)."""
        return self.index[colour]

    def quantize(self, image: Image.Image) -> Image.Image:
        """Map a full-colour image onto this palette, nearest colour, no dithering."""
        rgb = image if image.mode == "RGB" else image.convert("RGB")  # convert() would copy an RGB image
        return rgb.quantize(palette=self.holder, dither=Image.Dither.NONE)


PALETTE_DIR = DATA_DIR / "palettes"
"""A game's fixed palette: ``<game key>.txt``, 768 bytes as hex (whitespace ignored)."""


@lru_cache(maxsize=8)
def palette(game: str) -> Palette:
    """The fixed palette of game ``game`` (its file in :data:`PALETTE_DIR`); KeyError when it has none."""
    path = PALETTE_DIR / f"{game}.txt"
    if not path.is_file():
        raise KeyError(game)
    return Palette(bytes.fromhex("".join(path.read_text(encoding="ascii").split())))


def encode_png(image: Image.Image, pal: Palette | None = None, *, level: int = PNG_LEVEL,
               window_bits: int | None = None, brief: Sequence[tuple[int, int]] = (),
               brief_level: int | None = None) -> bytes:
    """PNG bytes: a palette image as it is (see :func:`palette_png`, which takes ``window_bits``,
    ``brief`` and ``brief_level``); a full-colour one mapped onto ``pal`` when given, otherwise kept in
    full colour (the fallback, encoded by Pillow)."""
    if image.mode != "P" and pal is not None:
        image = pal.quantize(image)
    if image.mode == "P" and not image.info.get("transparency"):
        return palette_png(image, level=level, window_bits=window_bits or WINDOW_BITS, brief=brief,
                           brief_level=brief_level)
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=level)
    return buf.getvalue()


# Deflating a big board is most of its render time, and zlib releases the GIL: the rows are cut
# into bands of about ``BAND_BYTES`` deflated at once on several threads, each band primed with the
# window's worth of bytes before it (its preset dictionary, as pigz does), so the joined stream is the
# one a single pass would find matches in, at about the same size. Each band but the last ends on a
# byte boundary (Z_SYNC_FLUSH), so the raw deflate streams simply concatenate. The stream's adler32 is
# combined from the bands' own (``_adler32_combine``) and the palette is cut at the bands' highest
# index, so no pass over the whole image is left besides the hashing below.
#
# A band's deflated bytes are a function of its rows, its dictionary, the level and the window only,
# so they are kept (``_deflated``, keyed by a SHA-256 of these; bounded by bytes) with the band's adler32
# and highest index: the next board of the same game re-deflates only the bands a move changed
# (Pobeda: about a fifth, Godstorm a sixth), and the rest, the static board, costs a hash (SHA-256 runs
# on the CPU's SHA instructions, about 1.5 GB/s, also on the band threads). The output is the same
# bytes either way.
#
# Two settings let a renderer spend less on what a move changes (Pobeda uses both, see
# ``bot.games.pobeda.render.encode_board``): ``window_bits`` (a board whose matches are all a row or two up can
# use a 4 KB window: its bands are then 32 KB, each primed with 4 KB instead of 32, and a change near a
# band's end seldom reaches the next band's dictionary; the zlib header still says 32 KB, which is
# valid for any shorter distances), and ``brief`` rows (what the next move redraws anyway, such as a
# last-move frame or a caption: their bands are deflated at the faster ``brief_level``, as they will
# not be reused).
ENCODE_THREADS = max(1, min(4, os.cpu_count() or 1))
BAND_BYTES = 64 * 1024  # rows per band: about this many bytes with the default window (two windows)
BAND_MIN_WINDOWS_BYTES = 32 * 1024  # ... and with a smaller window, two windows but at least this many
_MEM_LEVEL = 8  # zlib's default; shorter deflate blocks than Pillow's 9, so codes adapt more (smaller)
BAND_MIN_BYTES = 256 * 1024  # smaller images are deflated on the calling thread (bands still cached)
DEFLATED_MAX_BYTES = 6 * 1024 * 1024  # deflated bands kept (about 30 Pobeda boards' worth)
WINDOW_BITS = 15
"""The deflate window by default (32 KB); a renderer may ask for a smaller one (``window_bits``)."""
_ADLER_BASE = 65521
_encoder_pool: ThreadPoolExecutor | None = None
_encoder_pool_lock = threading.Lock()
Band = tuple[bytes, int, int]
"""A band as encoded: its raw deflate bytes, the adler32 of its rows, its highest palette index."""
_deflated: OrderedDict[bytes, Band] = OrderedDict()
_deflated_bytes = 0
_deflated_lock = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    global _encoder_pool
    with _encoder_pool_lock:
        if _encoder_pool is None:
            _encoder_pool = ThreadPoolExecutor(max_workers=ENCODE_THREADS, thread_name_prefix="png")
        return _encoder_pool


def clear_deflated() -> None:
    """Forget the deflated bands (tests and the bench's cold figures)."""
    global _deflated_bytes
    with _deflated_lock:
        _deflated.clear()
        _deflated_bytes = 0


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _adler32_combine(first: int, second: int, second_len: int) -> int:
    """The adler32 of two byte strings joined, from each one's adler32 and the second's length (zlib's
    adler32_combine): s1 = s1a + s1b - 1, s2 = s2a + s2b + len(b) * (s1a - 1), modulo 65521."""
    s1a, s2a = first & 0xFFFF, first >> 16
    s1b, s2b = second & 0xFFFF, second >> 16
    s1 = (s1a + s1b - 1) % _ADLER_BASE
    s2 = (s2a + s2b + second_len % _ADLER_BASE * (s1a - 1)) % _ADLER_BASE
    return (s2 << 16) | s1


def _deflate_band(data: bytes, start: int, end: int, last: bool, level: int, window_bits: int = WINDOW_BITS
                  ) -> bytes:
    view = memoryview(data)
    if start:
        z = zlib_ng.compressobj(level, zlib_ng.DEFLATED, -window_bits, _MEM_LEVEL, zlib_ng.Z_DEFAULT_STRATEGY,
                                bytes(view[max(0, start - (1 << window_bits)):start]))
    else:
        z = zlib_ng.compressobj(level, zlib_ng.DEFLATED, -window_bits, _MEM_LEVEL)
    return z.compress(view[start:end]) + z.flush(zlib_ng.Z_FINISH if last else zlib_ng.Z_SYNC_FLUSH)


Span = tuple[int, int, bool, int]
"""A band to deflate: its first and end byte in the rows, whether it is the last, its zlib level."""


def _deflate_bands(data: bytes, bands: list[Span], window_bits: int = WINDOW_BITS) -> list[Band]:
    """Each band deflated, from the kept bands where its rows and dictionary were deflated before."""
    global _deflated_bytes
    view = memoryview(data)
    out = []
    for start, end, last, level in bands:
        low = max(0, start - (1 << window_bits))
        digest = hashlib.sha256(struct.pack(">BBBQQ", level, window_bits, last, start - low, end - start))
        digest.update(view[low:end])
        key = digest.digest()
        with _deflated_lock:
            band = _deflated.get(key)
            if band is not None:
                _deflated.move_to_end(key)
        if band is None:
            rows = view[start:end]
            band = (_deflate_band(data, start, end, last, level, window_bits), zlib.adler32(rows), _highest(rows))
            with _deflated_lock:
                if key not in _deflated:
                    _deflated[key] = band
                    _deflated_bytes += len(band[0]) + len(key)
                    while _deflated_bytes > DEFLATED_MAX_BYTES:
                        old_key, old = _deflated.popitem(last=False)
                        _deflated_bytes -= len(old[0]) + len(old_key)
        out.append(band)
    return out


def _highest(rows: memoryview) -> int:
    """The highest byte of some rows (their filter bytes are 0): the band's highest palette index."""
    if not rows:
        return 0
    # any buffer will do (Pillow reads it through the buffer protocol), so no copy into bytes
    extrema = Image.frombuffer("L", (len(rows), 1), cast(bytes, rows), "raw", "L", 0, 1).getextrema()
    return int(extrema[1]) if isinstance(extrema[1], (int, float)) else 255


def palette_png(image: Image.Image, *, level: int = PNG_LEVEL, bands: int | None = None,
                window_bits: int = WINDOW_BITS, brief: Sequence[tuple[int, int]] = (),
                brief_level: int | None = None) -> bytes:
    """An 8-bit palette image as PNG (IHDR, PLTE, IDAT, IEND; every row unfiltered, as Pillow writes
    palette rows), deflated in bands (``bands``: how many; by default about ``BAND_BYTES`` each), on
    several threads when it is big; the palette is written up to the highest index the pixels use (a
    fixed game palette ends in unused padding). Decodes to exactly the same pixels and colours.

    ``brief``: spans of rows (first, end) whose pixels will change again on the next board (a
    last-move frame, a caption): the bands holding them are deflated at ``brief_level``, faster,
    since they will not be reused; the rest at ``level``. The bytes are a function of the pixels and
    these arguments only."""
    if image.mode != "P":
        raise ValueError("palette_png encodes palette (mode P) images")
    width, height = image.size
    # each row is preceded by its filter type, 0 (none): the pixels pasted right of a zero column
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))  # palette onto palette: the indices are copied as they are
    data = rows.tobytes()
    stride = width + 1
    if bands is None:
        per = BAND_BYTES if window_bits == WINDOW_BITS else max(BAND_MIN_WINDOWS_BYTES, 2 << window_bits)
        bands = -(-len(data) // per)
    bands = max(1, min(bands, height))
    per_band = -(-height // bands)
    cuts = [min(height, i * per_band) * stride for i in range(bands)] + [len(data)]
    quick = brief_level if brief_level is not None else level
    spans = [(cuts[i], cuts[i + 1], i == bands - 1,
              quick if any(cuts[i] < end * stride and first * stride < cuts[i + 1] for first, end in brief) else level)
             for i in range(bands) if cuts[i] < cuts[i + 1] or i == bands - 1]
    jobs = min(len(spans), 2 * ENCODE_THREADS) if len(data) >= BAND_MIN_BYTES and ENCODE_THREADS > 1 else 1
    if jobs == 1:
        done = _deflate_bands(data, spans, window_bits)
    else:
        pool = _pool()
        step = -(-len(spans) // jobs)
        parts = [pool.submit(_deflate_bands, data, spans[i:i + step], window_bits) for i in range(0, len(spans), step)]
        done = [band for part in parts for band in part.result()]
    adler, top = 1, 0
    for (start, end, _, _), (_, band_adler, band_top) in zip(spans, done, strict=True):
        adler = _adler32_combine(adler, band_adler, end - start)
        top = max(top, band_top)
    body = b"".join(band[0] for band in done)
    rgb = bytes(image.getpalette("RGB") or b"")
    rgb = (rgb + bytes(768 - len(rgb)))[:3 * (top + 1)]  # padded, so every index used is defined
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        _png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
        _png_chunk(b"PLTE", rgb),
        # zlib header: deflate, 32 KB window (valid for the 4 KB one used), default compression, check bits
        _png_chunk(b"IDAT", b"\x78\x9c" + body + struct.pack(">I", adler)),
        _png_chunk(b"IEND", b""),
    ))


ViewT = TypeVar("ViewT", bound=Mapping[str, Any])
"""A game's view type (a TypedDict): a renderer keeps its own signature through ``rendered_once``."""
PngT = TypeVar("PngT", bound=bytes | None)
"""A renderer's result: a PNG, or None where there is nothing to draw (a personal board of no seat)."""
Renderer = Callable[[ViewT, str], PngT]
RENDERED_MAX = 48  # boards kept, all games and languages together (a Godstorm board is about 200 KB)
_rendered: OrderedDict[tuple[str, str, bytes], bytes] = OrderedDict()
_rendered_lock = threading.Lock()
_rendering: dict[tuple[str, str, bytes], threading.Lock] = {}
"""A lock per view being rendered: a second request for it waits and takes the first one's bytes."""


def _view_key(view: Mapping[str, Any]) -> bytes | None:
    try:
        text = json.dumps(view, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):  # not a plain JSON view: do not cache it
        return None
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def rendered_once(game: str) -> Callable[[Renderer[ViewT, PngT]], Renderer[ViewT, PngT]]:
    """Reuse the PNG of a view already rendered in this language (a repeated board command, the
    channel post and its retries, a panel's personal board sent in a DM and shown by ``/game hand``): a
    renderer is a pure function of (view, lang), so the bytes are the same. The cache is a bounded LRU
    shared by all games; ``render.uncached`` skips it. A None result (nothing to draw) is not kept."""

    def decorate(render: Renderer[ViewT, PngT]) -> Renderer[ViewT, PngT]:
        @wraps(render)
        def cached(view: ViewT, lang: str) -> PngT:
            digest = _view_key(view)
            if digest is None:
                return render(view, lang)
            key = (game, lang, digest)
            with _rendered_lock:
                kept = _rendered.get(key)
                if kept is not None:
                    _rendered.move_to_end(key)
                    return cast(PngT, kept)
                busy = _rendering.setdefault(key, threading.Lock())
            with busy:
                with _rendered_lock:
                    kept = _rendered.get(key)
                if kept is not None:  # drawn by the request this one waited for
                    return cast(PngT, kept)
                try:
                    started = time.perf_counter()
                    data = render(view, lang)
                    if data is None:
                        return data
                    # one DEBUG line per real render (the end-to-end tests count them)
                    log.debug("rendered a %s board (%s): %d bytes in %.0f ms", game, lang, len(data),
                              (time.perf_counter() - started) * 1000)
                    with _rendered_lock:
                        _rendered[key] = data
                        while len(_rendered) > RENDERED_MAX:
                            _rendered.popitem(last=False)
                finally:
                    with _rendered_lock:
                        _rendering.pop(key, None)
            return data

        cached.uncached = render  # type: ignore[attr-defined]
        return cached

    return decorate


def to_png(image: Image.Image, *, max_bytes: int = 800_000) -> bytes:
    """Encode as PNG; quantise to a palette when the plain encoding is over ``max_bytes``."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=6)
    data = buf.getvalue()
    if len(data) <= max_bytes:
        return data
    buf = io.BytesIO()
    image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(
        buf, format="PNG", optimize=True
    )
    return buf.getvalue()


def seat_label(view: Mapping[str, Any], seat: int, fallback: str, limit: int | None = None) -> str:
    """The display name the session put in ``view["seat_names"]`` for ``seat``, cut to ``limit``
    characters (the last one an ellipsis) when given; ``fallback`` when the seat has no name.
    The session escapes names for Discord markdown (``Session.seat_name``); a picture draws the name
    as typed, so the escaping is undone here (:func:`bot.core.parse.unescape`)."""
    names = view.get("seat_names") or []
    if 0 <= seat < len(names) and names[seat]:
        name = unescape(str(names[seat]))
        return name if limit is None or len(name) <= limit else name[:limit - 1] + "…"
    return fallback


@lru_cache(maxsize=2048)  # small masks: a few MB at most
def _text_mask(text: str, path: str, size: int, anchor: str | None, fx: float, fy: float, stroke: int = 0
               ) -> tuple[Image.Image, int, int]:
    """The anti-aliased coverage of ``text`` as an "L" image, and its offset from the anchor point; with
    ``stroke``, of its outline ``stroke`` pixels wide (Pillow's filled stroke, drawn under the text)."""
    fnt = _font_by_path(path, size)
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    x0, y0, _, _ = probe.textbbox((fx, fy), text, font=fnt, anchor=anchor, stroke_width=stroke)
    # Draw far enough from the mask's corner that every coordinate Pillow truncates is positive,
    # so the glyphs land on the same sub-pixel phase as on the board.
    pad = math.ceil(max(0.0, -x0, -y0)) + 4
    origin = (pad + fx, pad + fy)
    x0, y0, x1, y1 = probe.textbbox(origin, text, font=fnt, anchor=anchor, stroke_width=stroke)
    canvas = Image.new("L", (math.ceil(x1) + 2, math.ceil(y1) + 2), 0)
    # the stroke's ink equal to the text's: Pillow draws the stroke pass alone, which is this mask
    ImageDraw.Draw(canvas).text(origin, text, font=fnt, fill=255, anchor=anchor, stroke_width=stroke,
                                stroke_fill=255 if stroke else None)
    box = (math.floor(x0) - 1, math.floor(y0) - 1, canvas.width, canvas.height)
    mask = canvas.crop(box)
    left, top = box[0] - pad, box[1] - pad
    return mask, left, top


@lru_cache(maxsize=64)
def _font_by_path(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], label: str, fnt: ImageFont.FreeTypeFont,
         fill: Colour | int, anchor: str | None = None, *, stroke_width: int = 0,
         stroke_fill: Colour | int | None = None) -> None:
    """``draw.text`` with the glyph coverage cached (text rasterising is most of a board's drawing
    time, and labels, numbers and names repeat from render to render). Same pixels as draw.text, an
    outline (``stroke_width``, ``stroke_fill``) included: drawn first, then the text over it, as Pillow does."""
    if not label:
        return
    x, y = xy
    ix, iy = math.floor(x), math.floor(y)
    fx, fy = round(x - ix, 2), round(y - iy, 2)
    if stroke_width:
        outline = fill if stroke_fill is None else stroke_fill
        mask, left, top = _text_mask(label, str(fnt.path), int(fnt.size), anchor, fx, fy, stroke_width)
        draw.bitmap((ix + left, iy + top), mask, fill=outline)
        if outline == fill:
            return
    mask, left, top = _text_mask(label, str(fnt.path), int(fnt.size), anchor, fx, fy)
    draw.bitmap((ix + left, iy + top), mask, fill=fill)


@lru_cache(maxsize=2048)  # small masks, most of them pills a few dozen pixels across
def _rounded_mask(box: tuple[float, float, float, float], radius: float, width: int, outline: bool
                  ) -> tuple[Image.Image, int, int]:
    """Pillow's rounded rectangle at ``box`` (its corner a little way from the origin, as
    :func:`rounded_rectangle` moves it) as a two-level "L" mask: its fill, or with ``outline`` its outline ``width``
    pixels wide; and the mask's offset from the origin."""
    room = _outline_room(width)
    canvas = Image.new("L", (math.ceil(box[2]) + room, math.ceil(box[3]) + room), 0)
    ImageDraw.Draw(canvas).rounded_rectangle(box, radius, fill=None if outline else 255,
                                             outline=255 if outline else None, width=width)
    bounds = canvas.getbbox()
    if bounds is None:
        return canvas.crop((0, 0, 1, 1)), 0, 0
    return canvas.crop(bounds), bounds[0], bounds[1]


def _outline_room(width: int) -> int:
    """Pixels kept free around a rounded rectangle's box in its mask: even (see :func:`rounded_rectangle`), and
    enough for a wide outline on a thin box, which reaches past the box."""
    return 2 * width + 4


def _opaque(ink: tuple[int, ...] | int | None) -> bool:
    return ink is None or isinstance(ink, int) or len(ink) == 3 or (len(ink) == 4 and ink[3] == 255)


def rounded_rectangle(draw: ImageDraw.ImageDraw, xy: Sequence[float], radius: float, *,
                      fill: tuple[int, ...] | int | None = None, outline: tuple[int, ...] | int | None = None,
                      width: int = 1) -> None:
    """``draw.rounded_rectangle`` with its shape cached (Pillow draws each corner as pie slices and arcs, in
    Python: the pills of counts and names were a sixth of a Godstorm personal board's drawing). Same pixels:
    the shape is moved by an even number of pixels, which Pillow's rounding (half to even) does not see,
    and drawn as a mask in the ink, the fill first and then the outline, as Pillow does."""
    x0, y0, x1, y1 = (float(v) for v in xy)
    d = min(x1 - x0, y1 - y0, radius * 2)
    wide = d >= round(x1) - round(x0) - 1  # as Pillow decides: all four corners joined make an ellipse
    joined = wide and round(x1) - round(x0) >= round(y1) - round(y0) - 1
    if d <= 0 or joined or x1 < x0 or y1 < y0 or not (_opaque(fill) and _opaque(outline)):
        draw.rounded_rectangle((x0, y0, x1, y1), radius, fill=fill, outline=outline, width=width)
        return
    pad = _outline_room(width)
    sx, sy = 2 * math.floor(x0 / 2) - pad, 2 * math.floor(y0 / 2) - pad
    box = (x0 - sx, y0 - sy, x1 - sx, y1 - sy)
    if fill is not None:
        mask, left, top = _rounded_mask(box, radius, width, False)
        draw.bitmap((sx + left, sy + top), mask, fill=fill)
    if outline is not None and outline != fill and width != 0:
        mask, left, top = _rounded_mask(box, radius, width, True)
        draw.bitmap((sx + left, sy + top), mask, fill=outline)


def text_width(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont) -> float:
    """``draw.textlength``, kept per text, font file and size (as :func:`text` keeps masks) and the draw's
    font mode (names and counts repeat)."""
    if not isinstance(fnt.path, str):  # a font read from bytes: nothing names it for sure
        return draw.textlength(text, font=fnt)
    return _text_width(text, fnt.path, int(fnt.size), draw.fontmode)


@lru_cache(maxsize=8192)
def _text_width(text: str, path: str, size: int, mode: str) -> float:
    return _measuring_draw(mode).textlength(text, font=_font_by_path(path, size))


@lru_cache(maxsize=4)
def _measuring_draw(mode: str) -> ImageDraw.ImageDraw:
    draw = ImageDraw.Draw(Image.new("L", (1, 1)))
    draw.fontmode = mode  # what textlength measures by (Pillow sets "1" on bilevel images, else "L")
    return draw


def wrap(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont, width: float,
         max_lines: int) -> list[str]:
    """Greedy word wrap into at most ``max_lines`` lines; the last line ends with '…' if cut.
    The lines are kept (``_wrapped``) per text, font file, size, face and layout engine, width, line
    count and the draw's mode, which is what Pillow measures text by: measuring text was most of a
    board's drawing time after the glyphs, and the same texts come back from render to render."""
    path = fnt.path
    if not isinstance(path, str):  # a font read from bytes: nothing names it for sure
        return _wrap_lines(draw, text, fnt, width, max_lines)
    key = (text, path, fnt.size, fnt.index, int(fnt.layout_engine), width, max_lines, draw.mode)
    with _wrapped_lock:
        lines = _wrapped.get(key)
        if lines is not None:
            _wrapped.move_to_end(key)
            return list(lines)
    lines = tuple(_wrap_lines(draw, text, fnt, width, max_lines))
    with _wrapped_lock:
        _wrapped[key] = lines
        while len(_wrapped) > WRAPPED_MAX:
            _wrapped.popitem(last=False)
    return list(lines)


WRAPPED_MAX = 4096  # short lists of short strings: a few hundred KB at most
_wrapped: OrderedDict[tuple[Any, ...], tuple[str, ...]] = OrderedDict()
_wrapped_lock = threading.Lock()


def _wrap_lines(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont, width: float,
                max_lines: int) -> list[str]:
    words = text.split()
    lines: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}".strip()
        if text_width(draw, candidate, fnt) <= width or not current:
            current = candidate
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        while last and text_width(draw, last + "…", fnt) > width:
            last = last[:-1]
        lines[-1] = last.rstrip() + "…"
    # a single word wider than the box: shorten it
    fitted = []
    for line in lines:
        while len(line) > 1 and text_width(draw, line, fnt) > width:
            line = line[:-2] + "…"
        fitted.append(line)
    return fitted
