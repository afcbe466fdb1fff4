"""The fake Discord reads uploads (``multipart/form-data``) itself; it must read what aiohttp's own reader reads.

Bodies are written the way discord.py writes them (aiohttp's ``FormData`` without quoting), plus forms only
other clients write (quoted fields, escapes, ``filename*``), which take aiohttp's parser.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from aiohttp import FormData, MultipartReader
from multidict import CIMultiDict

from tests.fake_discord.server import multipart_parts


class _Body:
    def __init__(self) -> None:
        self.data = b""

    async def write(self, chunk: bytes) -> None:
        self.data += bytes(chunk)


class _Stream:
    """What :class:`MultipartReader` reads from: the whole body, a line or a chunk at a time."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    async def readline(self, **_: Any) -> bytes:
        line, sep, self.data = self.data.partition(b"\n")
        return line + sep

    async def read(self, size: int = -1, **_: Any) -> bytes:
        size = len(self.data) if size < 0 else size
        chunk, self.data = self.data[:size], self.data[size:]
        return chunk

    def at_eof(self) -> bool:
        return not self.data

    def unread_data(self, data: bytes) -> None:
        self.data = data + self.data


async def _encode(form: FormData) -> tuple[str, bytes]:
    payload = form()
    body = _Body()
    await payload.write(body)  # type: ignore[arg-type]
    return payload.headers["Content-Type"], body.data


async def _aiohttp_parts(content_type: str, body: bytes) -> list[tuple[str, str | None, bytes]]:
    reader = MultipartReader(CIMultiDict({"Content-Type": content_type}), _Stream(body))  # type: ignore[arg-type]
    parts = []
    async for part in reader:
        parts.append((part.name or "", part.filename, bytes(await part.read())))  # type: ignore[union-attr]
    return parts


def _discord_form(names: list[str]) -> FormData:
    form = FormData(quote_fields=False)  # as discord.http.HTTPClient.request builds it
    form.add_field("payload_json", json.dumps({"content": "ход\r\n--не граница", "attachments": []}))
    for index, name in enumerate(names):
        data = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4 + b"\r\n\r\n--" + name.encode()
        form.add_field(f"files[{index}]", data, filename=name, content_type="application/octet-stream")
    return form


@pytest.mark.parametrize("names", [
    ["pobeda-3-17.png"],
    ["godstorm-12-40-seat2.png", "replay-1.gif"],
    ["доска é.png"],             # UTF-8 as it is, in the plain form
    ["a;b.png", "x\\y.png"],       # a separator and an escape: aiohttp's parser
    ["/etc/board.png"],           # aiohttp strips leading slashes
])
def test_reads_what_aiohttp_reads(names: list[str]) -> None:
    content_type, body = asyncio.run(_encode(_discord_form(names)))
    expected = asyncio.run(_aiohttp_parts(content_type, body))
    assert multipart_parts(content_type, body) == expected
    assert [p[0] for p in expected] == ["payload_json"] + [f"files[{i}]" for i in range(len(names))]


def test_quoted_fields_and_extended_filenames() -> None:
    form = FormData(quote_fields=True)
    form.add_field("payload_json", "{}")
    form.add_field("files[0]", b"data", filename="доска.png", content_type="image/png")
    content_type, body = asyncio.run(_encode(form))
    expected: Any = asyncio.run(_aiohttp_parts(content_type, body))
    assert multipart_parts(content_type, body) == expected
    assert [(p[0], p[2]) for p in expected] == [("payload_json", b"{}"), ("files[0]", b"data")]


def test_a_preamble_and_an_epilogue_are_not_parts() -> None:
    content_type = 'multipart/form-data; boundary="b0"'
    body = (b"preamble\r\n--b0\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{}\r\n"
            b"--b0--\r\nepilogue --b0\r\n")
    assert multipart_parts(content_type, body) == [("payload_json", None, b"{}")]
