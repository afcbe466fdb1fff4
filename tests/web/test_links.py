"""The web links' signing (issue 29): forged, expired, revoked, wrong game, another seat's link."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.store import Store
from bot.web import links
from bot.web.links import LINK_TTL_S, Link, LinkError, Signer

KEY = bytes(range(32))
NOW = 1_800_000_000.0


def kind_of(signer: Signer, token: str, *, now: float = NOW, epoch: int = 0) -> str:
    try:
        Signer.check(signer.parse(token), now=now, epoch=epoch)
    except LinkError as exc:
        return exc.kind
    return "ok"


def test_a_link_opens_what_it_names() -> None:
    signer = Signer(KEY)
    public = signer.parse(signer.make(42, now=NOW))
    assert public == Link(42, None, 0, 0, int(NOW) + LINK_TTL_S)
    assert not public.private
    seat = signer.parse(signer.make(42, now=NOW, seat=1, user_id=777, epoch=3))
    assert (seat.game_id, seat.seat, seat.user_id, seat.epoch) == (42, 1, 777, 3)
    assert kind_of(signer, signer.make(42, now=NOW, seat=1, user_id=777, epoch=3), epoch=3) == "ok"


def test_a_week_by_default_then_expired() -> None:
    signer = Signer(KEY)
    token = signer.make(5, now=NOW)
    assert kind_of(signer, token, now=NOW + 7 * 24 * 3600 - 1) == "ok"
    assert kind_of(signer, token, now=NOW + 7 * 24 * 3600) == "expired"


def test_revoked_by_a_new_generation() -> None:
    signer = Signer(KEY)
    token = signer.make(5, now=NOW, epoch=0)
    assert kind_of(signer, token, epoch=1) == "revoked"
    assert kind_of(signer, signer.make(5, now=NOW, epoch=1), epoch=1) == "ok"


def swap(token: str, index: int, value: str) -> str:
    parts = token.split(".")
    parts[index] = value
    return ".".join(parts)


@pytest.mark.parametrize(("index", "value", "why"), [
    (0, "43", "another game"),
    (1, "0", "another seat"),
    (1, "p", "a seat's link made public"),
    (2, "778", "another user"),
    (3, "9", "a newer generation"),
    (4, str(int(NOW) + 10 * LINK_TTL_S), "a later expiry"),
    (5, "0" * 32, "a made-up MAC"),
])
def test_any_changed_field_is_forged(index: int, value: str, why: str) -> None:
    signer = Signer(KEY)
    token = signer.make(42, now=NOW, seat=1, user_id=777)
    assert kind_of(signer, swap(token, index, value)) == "forged", why


@pytest.mark.parametrize("token", [
    "", "42", "42.p.0.0.1", "42.p.0.0.1.x.y", "042.p.0.0.1800604800.00", "４２.p.0.0.1.ab",
    "42.p.5.0.1800604800." + "a" * 32,  # a public link naming a user
    "42.-1.0.0.1800604800." + "a" * 32, " 42.p.0.0.1.aa", "42.p.0.0.1.aa" + "a" * 200,
])
def test_malformed_tokens_are_forged(token: str) -> None:
    assert kind_of(Signer(KEY), token) == "forged"


def test_canonical_numbers_only() -> None:
    """"007" is not "7": a token has one spelling, so a MAC never covers two addresses."""
    signer = Signer(KEY)
    token = signer.make(7, now=NOW)
    assert kind_of(signer, "0" + token) == "forged"


def test_another_install_key_is_forged() -> None:
    token = Signer(KEY).make(42, now=NOW)
    assert kind_of(Signer(bytes(32)), token) == "forged"


def test_the_mac_is_not_a_control_tag() -> None:
    """Domain separation: the web MAC is over ``web|…``, never the ``a|``/``p|`` messages of the controls."""
    import hashlib
    import hmac

    signer = Signer(KEY)
    link = signer.parse(signer.make(42, now=NOW))
    assert signer.mac(link) != hmac.new(KEY, link.fields().encode(), hashlib.sha256).hexdigest()[:32]


async def test_the_store_keeps_the_key_and_the_generation(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "w.sqlite3")
    try:
        key = await links.store_key(store)
        assert key == await links.store_key(store) and len(key) == 32
        assert await store.get_meta("control_key") == key.hex()  # the controls' own secret
        assert await links.epoch_of(store, 9) == 0
        assert await links.revoke(store, 9) == 1
        assert await links.epoch_of(store, 9) == 1 and await links.epoch_of(store, 10) == 0
    finally:
        await store.close()
