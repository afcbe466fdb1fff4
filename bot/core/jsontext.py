"""Compact JSON text of stored values (states, actions, events, settings), quickly.

Every move stores the game's whole state as JSON (a few kB), so encoding is a large part of a
move's CPU. With ``orjson`` installed (the ``pg`` and ``test`` extras pin it) it encodes; otherwise,
and for any value orjson would encode differently from :func:`json.dumps` (keys that are not
strings, integers beyond 64 bits, subclasses of the built-in types, lone surrogates), the standard
library does. Both give compact text with non-ASCII characters left as they are, and the text reads
back (``json.loads``) to the same value; floats may be spelled differently (``1e16`` against
``1e+16``). NaN and the infinities are not JSON and never belong in a stored value: orjson writes
them as ``null``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

orjson: Any
try:
    import orjson
except ImportError:  # without the pg or test extra
    orjson = None

Default = Callable[[Any], Any] | None

# dataclasses, dates and subclasses of str/int/dict/list go to ``default`` (as with json.dumps, whose
# own default raises for them, or which encodes the subclasses as their base type: the fallback does)
_OPTIONS = 0 if orjson is None else (orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
                                     | orjson.OPT_PASSTHROUGH_SUBCLASS)


def _stdlib(value: Any, default: Default) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=default)


def _refuse(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def compact(value: Any, default: Default = None) -> str:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=default)``, faster."""
    if orjson is None:
        return _stdlib(value, default)
    try:
        return orjson.dumps(value, default=default or _refuse, option=_OPTIONS).decode()
    except TypeError:  # orjson.JSONEncodeError: what it does not take, json.dumps may (or raises as before)
        return _stdlib(value, default)
