"""The palette PNG writer (render.common.palette_png): a valid PNG by the format's own rules (chunk
CRCs, one zlib stream whose adler32 checks), decoding to exactly the pixels and palette it was given,
whether deflated in one piece or in parallel bands, and no bigger than Pillow's own encoding."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image, ImageDraw

from render import common
from render.common import encode_png, palette_png

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """(type, data) of every chunk, checking each CRC (PNG spec: CRC-32 over type and data)."""
    assert png.startswith(SIGNATURE)
    pos, out = len(SIGNATURE), []
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        kind, data = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", png[pos + 8 + length:pos + 12 + length])
        assert crc == zlib.crc32(kind + data), kind
        out.append((kind, data))
        pos += 12 + length
    return out


def board_like(width: int, height: int, seed: int = 1) -> Image.Image:
    """A palette image with flat areas, lines, text and noise (the mix a board has)."""
    rng = random.Random(seed)
    image = Image.new("P", (width, height), 3)
    image.putpalette(bytes(rng.randrange(256) for _ in range(768)))
    draw = ImageDraw.Draw(image)
    for _ in range(60):
        x, y = rng.randrange(width), rng.randrange(height)
        draw.rectangle((x, y, x + rng.randrange(1, 200), y + rng.randrange(1, 120)), fill=rng.randrange(256))
        draw.text((rng.randrange(width), rng.randrange(height)), "Победа 1941", fill=rng.randrange(256))
    for _ in range(2000):
        image.putpixel((rng.randrange(width), rng.randrange(height)), rng.randrange(256))
    return image


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("bands", [1, 2, 3, 4, 7, 8])
@pytest.mark.parametrize("size", [(1, 1), (5, 3), (641, 480), (1888, 700)])
def test_the_same_pixels_and_palette_come_back(size: tuple[int, int], bands: int) -> None:
    image = board_like(*size, seed=size[0] + bands)
    png = palette_png(image, bands=bands)
    parts = chunks(png)
    assert [k for k, _ in parts] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    width, height, depth, colour, comp, filt, interlace = struct.unpack(">IIBBBBB", parts[0][1])
    assert (width, height, depth, colour, comp, filt, interlace) == (*size, 8, 3, 0, 0, 0)
    # zlib.decompress checks the adler32 at the end of the stream; every row: filter 0, then indices
    rows = zlib.decompress(parts[2][1])
    pixels = image.tobytes()
    assert rows == b"".join(b"\0" + pixels[y * size[0]:(y + 1) * size[0]] for y in range(size[1]))
    back = decode(png)
    assert back.mode == "P" and back.size == size
    assert back.tobytes() == pixels
    # the palette is written up to the highest index used, each entry the image's own colour
    top = max(pixels)
    assert len(parts[1][1]) == 3 * (top + 1)
    assert back.getpalette()[:3 * (top + 1)] == image.getpalette()[:3 * (top + 1)]
    assert back.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_bands_cost_no_bytes_against_one_pass_and_pillow() -> None:
    """Each band is primed with the 32 KB before it, so splitting loses (almost) no matches."""
    image = board_like(1888, 2028, seed=7)
    one = palette_png(image, bands=1)
    eight = palette_png(image, bands=8)
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=6)
    # a band boundary costs an empty stored block (5 bytes) and a fresh block header with its
    # Huffman code tables (at most ~60 bytes), never the matches themselves
    assert len(eight) <= len(one) + 7 * 70
    assert len(one) <= len(buf.getvalue()) * 1.01
    assert decode(eight).tobytes() == decode(buf.getvalue()).tobytes()


def test_encode_png_uses_it_for_palette_images_only() -> None:
    image = board_like(300, 200)
    png = encode_png(image)
    assert decode(png).tobytes() == image.tobytes()
    assert [k for k, _ in chunks(png)] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    rgb = encode_png(image.convert("RGB"))  # the full-colour fallback keeps its colours
    assert decode(rgb).mode == "RGB" and decode(rgb).tobytes() == image.convert("RGB").tobytes()
    with pytest.raises(ValueError):
        palette_png(image.convert("RGB"))


def test_a_short_palette_is_padded_so_every_index_is_defined() -> None:
    image = Image.new("P", (4, 2), 0)
    image.putpalette(bytes((10, 20, 30, 40, 50, 60)))  # two colours
    image.putpixel((3, 1), 1)
    back = decode(palette_png(image))
    assert back.convert("RGB").getpixel((0, 0)) == (10, 20, 30)
    assert back.convert("RGB").getpixel((3, 1)) == (40, 50, 60)


def test_the_stream_checksum_is_combined_from_the_bands() -> None:
    """The adler32 of the rows is put together from each band's own (kept with the band), never taken
    over the whole image again: the same value as zlib's over the joined bytes."""
    rng = random.Random(3)
    for _ in range(200):
        first = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
        second = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 3000)))
        combined = common._adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
        assert combined == zlib.adler32(first + second)
    long = b"\xff" * 5_000_000  # lengths and sums past the modulus
    assert common._adler32_combine(zlib.adler32(b"\xfe" * 7), zlib.adler32(long), len(long)) == \
        zlib.adler32(b"\xfe" * 7 + long)


@pytest.mark.parametrize("window_bits", [9, 12, 15])
def test_a_smaller_window_and_brief_bands_give_the_same_pixels(window_bits: int) -> None:
    image = board_like(1888, 700, seed=window_bits)
    png = palette_png(image, level=8, window_bits=window_bits, brief=[(100, 180), (650, 700)], brief_level=3)
    rows = zlib.decompress(chunks(png)[2][1])  # the adler32 checks
    assert rows[1:1889] == image.tobytes()[:1888]
    assert decode(png).tobytes() == image.tobytes()


def test_brief_bands_take_the_brief_level_and_settings_never_share_a_kept_band(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The bands holding ``brief`` rows are deflated at ``brief_level``, the others at ``level``; a band
    kept for one level or window is not taken for another (the key holds both)."""
    calls: list[tuple[int, int, int]] = []
    real = common._deflate_band

    def counting(data: bytes, start: int, end: int, last: bool, level: int, window_bits: int) -> bytes:
        calls.append((start // 1889, level, window_bits))
        return real(data, start, end, last, level, window_bits)

    monkeypatch.setattr(common, "_deflate_band", counting)
    common.clear_deflated()
    image = board_like(1888, 1000, seed=11)
    palette_png(image, level=8, window_bits=12, brief=[(400, 450)], brief_level=4)
    quick = [row for row, level, _ in calls if level == 4]
    assert quick and all(level == 8 for row, level, _ in calls if row not in quick)
    assert min(quick) <= 400 < 450 <= max(quick) + 40  # the bands over rows 400-449, no others
    assert all(window == 12 for _, _, window in calls)
    count = len(calls)
    palette_png(image, level=8, window_bits=12, brief=[(400, 450)], brief_level=4)
    assert len(calls) == count  # all kept
    del calls[:]
    palette_png(image, level=8, window_bits=15)  # bands of 64 KB with the 32 KB window: fewer
    assert calls and all(window == 15 for _, _, window in calls)
    assert len(calls) == len({row for row, _, _ in calls})
    del calls[:]
    palette_png(image, level=6, window_bits=12)  # the same bands as the first encode, all deflated again
    assert len(calls) == count and all(level == 6 for _, level, _ in calls)
    common.clear_deflated()
