"""The Godstorm map renderer, driven by synthetic public views (independent of the rules engine)."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from bot.core.i18n import catalogue
from bot.games.godstorm import data as D
from bot.games.godstorm import render as R

PANTHEON_IDS = ["norse", "celtic", "greek", "babylonian", "egyptian"]
CLASSIC_PALETTE = [(200, 40, 40), (40, 90, 210), (30, 150, 60), (230, 200, 40), (140, 60, 170), (240, 130, 30)]


def synthetic_view(seed: int, n_players: int = 5, *, classic: bool = False, crowded: bool = True,
                   neutral: bool = False) -> dict[str, Any]:
    """A public view shaped like ``Godstorm.view(None)``; crowded = late game, big stacks, all markers."""
    rng = random.Random(seed)
    seats = list(range(n_players))
    players = []
    for seat in seats:
        pan = None if classic else PANTHEON_IDS[seat]
        colour = CLASSIC_PALETTE[seat] if classic else D.PANTHEONS[pan].colour
        cards = ({"territory": rng.randint(0, 5)} if classic else
                 {k: rng.randint(0, 6 if crowded else 1) for k in ("war", "magic", "sky", "death")})
        players.append({"seat": seat, "pantheon": pan, "colour": list(colour), "faith": rng.randint(0, 99),
                        "cards": cards, "territories": 0, "armies": 0, "heaven": rng.randint(0, 150),
                        "underworld": 0, "reserve": rng.randint(0, 40), "eliminated": False, "has_bid": None})
    owners: list[int] = seats + ([-2] if neutral else [])
    territories: dict[str, Any] = {}
    for tid in D.TERRITORIES:
        owner = rng.choice(owners)
        gods = []
        if not classic and owner >= 0 and crowded:
            gods = rng.sample(list(D.GOD_KINDS), rng.randint(0, 4))
        territories[tid] = {"owner": owner, "armies": rng.randint(1, 999 if crowded else 9), "gods": gods,
                            "temple": (not classic) and rng.random() < 0.3,
                            "plague": (not classic) and rng.random() < 0.1}
    underworld: dict[str, Any] = {}
    if not classic:
        for sid in D.UNDERWORLD:
            if crowded or rng.random() < 0.3:
                underworld[sid] = {"owner": rng.choice(seats), "armies": rng.randint(1, 99)}
            else:
                underworld[sid] = {"owner": None, "armies": 0}
    for p in players:
        mine = [st for st in territories.values() if st["owner"] == p["seat"]]
        p["territories"] = len(mine)
        p["armies"] = sum(st["armies"] for st in mine)
    order = seats[:]
    rng.shuffle(order)
    a = rng.choice(list(D.TERRITORIES))
    return {
        "ruleset": "classic" if classic else "godstorm",
        "epoch": None if classic else rng.randint(1, 5), "epochs": 5, "turn_order": order, "current": order[0],
        "step": "invade", "players": players,
        "phase": "turn",
        "neutral": {"colour": [150, 150, 150], "pantheon": PANTHEON_IDS[n_players], "heaven": 7} if neutral else None,
        "territories": territories, "underworld": underworld,
        "last": {"from": a, "to": D.TERRITORIES[a].neighbours[0]}, "outcome": None,
        "seat_names": [f"Игрок_с_длинным_именем_{i}" if i == 0 else f"Player {i}" for i in seats],
    }


def _decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("classic", [False, True])
def test_png_limits(lang: str, classic: bool) -> None:
    data = R.render(synthetic_view(1, classic=classic), lang)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) <= 1_500_000
    img = _decode(data)
    assert max(img.size) <= 2048


def test_badge_centre_has_owner_colour() -> None:
    for seed in (2, 3):
        view = synthetic_view(seed, 4, neutral=True)
        img = _decode(R.render(view, "en"))
        colours = {p["seat"]: tuple(p["colour"]) for p in view["players"]}
        colours[-2] = tuple(view["neutral"]["colour"])
        for tid, st in view["territories"].items():
            assert img.getpixel(R.owner_pixel(tid)) == colours[st["owner"]], tid
        for sid, st in view["underworld"].items():
            if st["owner"] is not None:
                assert img.getpixel(R.space_owner_pixel(sid)) == colours[st["owner"]], sid


def test_owner_change_changes_only_that_badge() -> None:
    view = synthetic_view(4, 3, crowded=False)
    view["last"] = None
    before = _decode(R.render(view, "en"))
    tid = "Egypt"
    view["territories"][tid]["owner"] = (view["territories"][tid]["owner"] + 1) % 3
    after = _decode(R.render(view, "en"))
    new = tuple(view["players"][view["territories"][tid]["owner"]]["colour"])
    assert after.getpixel(R.owner_pixel(tid)) == new
    assert before.getpixel(R.owner_pixel(tid)) != new
    other = R.territory_center("Thule")
    assert before.getpixel(other) == after.getpixel(other)


def test_last_attack_is_highlighted() -> None:
    view = synthetic_view(5, 3, crowded=False)
    view["last"] = {"from": "Roma", "to": "Liguria"}
    img = _decode(R.render(view, "en"))
    (x1, y1), (x2, y2) = R.territory_center("Roma"), R.territory_center("Liguria")
    # a point on the arrow between the two badges, outside both discs
    mx, my = (x1 + x2) // 2, (y1 + y2) // 2
    r, g, b = img.getpixel((mx, my))
    assert r > 150 and g < 90 and b < 90


def test_sparse_minimal_and_outcome_views_render() -> None:
    view = synthetic_view(6, 2, crowded=False, neutral=True)
    view.pop("seat_names")
    view["outcome"] = {"winners": [1], "scores": [20, 31]}
    view["last"] = None
    view["current"] = None
    view["players"][0]["eliminated"] = True
    view["players"][1]["has_bid"] = True
    assert R.render(view, "xx") == R.render(view, "en")  # an unknown language falls back to English
    img = _decode(R.render(view, "ru"))
    header = [img.getpixel((x, y)) for x in range(520, R.W, 2) for y in range(4, R.HEADER_H - 4, 2)]
    # the result (gold headline) replaces the turn order, whose chips (60, 54, 78) are gone
    assert header.count(R.GOLD) > 200
    assert (60, 54, 78) not in header
    running = dict(view, outcome=None, current=0)
    running_header = _decode(R.render(running, "ru")).crop((520, 0, R.W, R.HEADER_H))
    assert (60, 54, 78) in {c for _, c in running_header.getcolors(1 << 16) or []}
    empty = {"ruleset": "godstorm", "epoch": None, "epochs": 5, "turn_order": [], "current": None, "step": "setup",
             "players": [], "neutral": None, "territories": {}, "underworld": {}, "last": None, "outcome": None}
    blank = _decode(R.render(empty, "ru"))
    assert blank.size == (R.W, R.H)
    for tid in D.TERRITORIES:  # grey unowned badges and no army pill under them
        x, y = R.territory_center(tid)
        assert blank.getpixel((x, y)) == R.UNOWNED, tid
        assert blank.getpixel((x, y + R.NODE_R + 9)) != (255, 255, 255), tid


def test_renderer_strings_are_translated() -> None:
    cat = catalogue()
    keys = [k for k in cat if k.startswith("godstorm.map.")]
    assert len(keys) > 30
    for k in keys:
        assert cat[k].get("ru") and cat[k].get("en"), k


def test_heaven_boxes_follow_pantheons() -> None:
    view = synthetic_view(8, 2, crowded=False, neutral=True)
    img = _decode(R.render(view, "en"))
    used = {p["pantheon"]: tuple(p["colour"]) for p in view["players"]}
    used[view["neutral"]["pantheon"]] = tuple(view["neutral"]["colour"])
    for i, hid in enumerate(D.HEAVENS):
        pid = D.pantheon_of_heaven(hid)
        stripe = img.getpixel((R.HEAVEN_X + 8, R.UW_Y + 46 + i * 90 + 40))
        if pid in used:
            assert stripe == used[pid], hid
        else:
            assert stripe != D.PANTHEONS[pid].colour, hid


def test_descent_from_heaven_is_drawn() -> None:
    view = synthetic_view(9, 3, crowded=False)
    view["last"] = {"from": "heaven", "to": "uw4"}
    img = _decode(R.render(view, "en"))
    (x, y) = R.space_center("uw4")
    ring = img.getpixel((x + R.NODE_R + 6, y))
    assert ring[0] > 150 and ring[1] < 90


def test_renders_the_rules_engine_view() -> None:
    """The real ``view(None)`` of the rules engine's crowded benchmark state. (It used to be skipped
    while the rules package was being written; the package exists, and a failing import must fail.)"""
    from bot.games.godstorm import bench_state

    view = bench_state().view(None)
    view["seat_names"] = [f"P{i}" for i in range(len(view["players"]))]
    img = _decode(R.render(view, "ru"))
    colours = {p["seat"]: tuple(p["colour"]) for p in view["players"]}
    if view.get("neutral"):
        colours[-2] = tuple(view["neutral"]["colour"])
    for tid, st in view["territories"].items():
        if st["owner"] is not None:
            assert img.getpixel(R.owner_pixel(tid)) == colours[st["owner"]], tid
