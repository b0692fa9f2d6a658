"""How answers are encoded: JSON bytes, timestamps, and the ETags that name one viewer's
representation with the cache headers that go with them (every front uses these)."""
from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

import orjson
from flask import current_app

PRIVATE_CACHE_CONTROL = "private, no-cache"
"""Every answer that is one player's (a view, its 304, a list, events): kept by no shared
cache, revalidated before reuse."""


def json_bytes(body: Any) -> bytes:
    """`body` as the API sends JSON: keys sorted, compact, a final newline (as Flask's own
    encoder does, several times faster; non-ASCII characters stay UTF-8 rather than
    `\\u` escapes, the same JSON). Anything orjson refuses (an integer beyond 64 bits, a
    non-string key) goes through Flask's encoder."""
    try:
        return orjson.dumps(body, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE)
    except TypeError:
        return (current_app.json.dumps(body) + "\n").encode()


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def etag_of(match_id: str, version: int, seat: int | None) -> str:
    """The ETag of version `version` of `match_id` as `seat` (None: a spectator) sees it:
    everything a view shows changes only with the version, so this names it exactly."""
    viewer = "spectator" if seat is None else f"seat{seat}"
    return f'"{match_id}.v{version}.{viewer}"'


def content_etag(data: bytes) -> str:
    """A strong ETag naming the encoded body `data` itself, for an answer that no version
    names (a finished match's replay, an inbox page: what they show of a player, their name,
    may change; whose they are shows in them, `you`, so two viewers' different bodies never
    share one)."""
    return f'"c.{hashlib.sha256(data).hexdigest()[:32]}"'


def etag_matches(header: str | None, current: str) -> bool:
    """If-None-Match / If-Match comparison; weak validators and `*` are honoured."""
    if not header:
        return False
    tags = [t.strip().removeprefix("W/") for t in header.split(",")]
    return "*" in tags or current in tags


def tagged(tag: str) -> dict[str, str]:
    """The headers of one viewer's representation `tag` names (a view or its 304)."""
    return {"ETag": tag, "Cache-Control": PRIVATE_CACHE_CONTROL}
