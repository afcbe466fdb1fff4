"""Build ``data/palettes/<game>.txt``: each game's fixed 256-colour palette, from the game's own renders.

    python -m tests.render.build_palettes

The palette is built once, offline, and never re-quantised per image. It holds, first, exact slots
for the flat colours (the renderer's ``EXACT_COLOURS``, every player colour the training views use,
and every colour covering at least ``FLAT_PIXELS`` pixels of the training renders); the remaining
slots are a median cut of the other pixels (anti-aliased text and edges, weighted by how often
they occur). Pillow maps a colour through a cache of 4x4x4 boxes, so an adaptive colour that would
capture an exact colour's pixels (it is nearer to the corner of that colour's box) is dropped. Training renders are the full-colour ``reference``
images of ``tests/render/states.py`` in both languages.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageStat

from render.common import Colour, Palette
from tests.render.states import VIEWS

OUT = Path(__file__).resolve().parent.parent.parent / "data" / "palettes"
FLAT_PIXELS = 400
MAX_EXACT = 160
# How many palette entries each game may use (fewer shades of anti-aliasing compress better);
# chosen by the measurement printed below.
SIZES = {"pobeda": 256, "coldwar": 256, "godstorm": 256, "byallmeans": 256}


def training(game: str) -> list[Image.Image]:
    module = importlib.import_module(f"bot.games.{game}.render")
    images = [module.reference(view, lang) for _, view in VIEWS[game]() for lang in ("ru", "en")]
    hand = getattr(module, "reference_hand", None)  # a private picture drawn from a seat's own view
    if hand is not None:
        images += [hand(view, lang) for _, view in VIEWS[game]() if "me" in view for lang in ("ru", "en")]
    return images


def view_colours(game: str) -> list[Colour]:
    found: list[Colour] = []
    for _, view in VIEWS[game]():
        for player in view.get("players") or []:
            if player.get("colour"):
                found.append(tuple(player["colour"]))  # type: ignore[arg-type]
        neutral: Any = view.get("neutral") or {}
        if neutral.get("colour"):
            found.append(tuple(neutral["colour"]))
    return found


def _counts(images: list[Image.Image]) -> dict[Colour, int]:
    counts: dict[Colour, int] = {}
    for image in images:
        for n, colour in image.getcolors(1 << 24) or []:
            counts[colour] = counts.get(colour, 0) + n
    return counts


def _box(c: Colour) -> tuple[int, int, int]:
    return c[0] >> 2, c[1] >> 2, c[2] >> 2


def build(game: str, size: int = 256) -> bytes:
    module = importlib.import_module(f"bot.games.{game}.render")
    images = training(game)
    counts = _counts(images)
    exact: list[Colour] = []
    taken: set[tuple[int, int, int]] = set()
    declared = [*module.EXACT_COLOURS, *view_colours(game)]
    for colour in [*declared, *sorted((c for c, n in counts.items() if n >= FLAT_PIXELS), key=lambda c: -counts[c])]:
        if colour in exact or len(exact) >= MAX_EXACT:
            continue
        if _box(colour) in taken:  # Pillow could not tell the two apart
            if colour in declared:
                raise ValueError(f"{game}: {colour} shares a colour box with another exact colour")
            continue
        exact.append(colour)
        taken.add(_box(colour))
    rest = [(c, n) for c, n in counts.items() if c not in taken and _box(c) not in taken]
    pixels = sum(n for _, n in rest)
    strip = Image.new("RGB", (max(1, pixels), 1))
    strip.putdata([c for c, n in rest for _ in range(n)])
    adaptive: list[Colour] = []
    wanted = size - len(exact)
    if wanted > 0 and rest:
        quant = strip.quantize(colors=min(wanted, len(rest)), method=Image.Quantize.MEDIANCUT)
        flat = quant.getpalette() or []
        used = sorted({i for _, i in (quant.getcolors(256) or [])})
        adaptive = [tuple(flat[3 * i:3 * i + 3]) for i in used]  # type: ignore[misc]
        adaptive = [c for c in adaptive if _box(c) not in taken and c not in exact]
    entries = exact + adaptive
    while True:
        table = entries + [entries[0]] * (256 - len(entries))
        pal = Palette(bytes(v for c in table for v in c))
        probe = Image.new("RGB", (len(exact), 1))
        probe.putdata(exact)
        mapped = [probe_px for probe_px in _pixels(pal.quantize(probe).convert("RGB"))]
        wrong = [(e, m) for e, m in zip(exact, mapped, strict=True) if e != m]
        if not wrong:
            return bytes(v for c in table for v in c)
        for e, m in wrong:  # ``m`` is nearer than ``e`` to the corner of ``e``'s cache box: drop one
            if m in adaptive:
                adaptive.remove(m)
            elif m in exact and m not in declared:
                exact.remove(m)
            elif e in exact and e not in declared:
                exact.remove(e)
            elif e in exact:
                raise ValueError(f"{game}: exact colour {e} is mapped to {m}")
        entries = exact + adaptive


def _pixels(image: Image.Image) -> list[Colour]:
    return [image.getpixel((x, 0)) for x in range(image.width)]  # type: ignore[misc]


def fidelity(images: list[Image.Image], pal: Palette) -> tuple[float, float]:
    """Worst mean absolute difference and worst 8x8-block mean difference over the images."""
    worst_mean = worst_block = 0.0
    for image in images:
        diff = ImageChops.difference(image, pal.quantize(image).convert("RGB"))
        worst_mean = max(worst_mean, sum(ImageStat.Stat(diff).mean) / 3)
        worst_block = max(worst_block, max(hi for _, hi in diff.reduce(8).getextrema()))
    return worst_mean, worst_block


def main() -> None:
    import time

    for game in VIEWS:
        start = time.perf_counter()
        rgb = build(game, SIZES[game])
        print(f"{game}: built in {time.perf_counter() - start:.1f} s")
        mean, block = fidelity(training(game), Palette(rgb))
        print(f"{game}: worst mean abs diff {mean:.3f}, worst 8x8 block {block:.0f}")
        hexed = rgb.hex()  # data/palettes/<game>.txt, read by render.common.palette
        OUT.mkdir(exist_ok=True)
        (OUT / f"{game}.txt").write_text("\n".join(hexed[i:i + 96] for i in range(0, len(hexed), 96)) + "\n",
                                        encoding="ascii")


if __name__ == "__main__":
    main()
