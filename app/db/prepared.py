"""Server-side prepared statements for the hot paths, each planned once per connection.

The app's connections ask for generic plans (`plan_cache_mode=force_generic_plan`,
app/infra/config.py), so every statement here is written to have a good generic plan (index
lookups by parameter), which a test checks on tables of realistic size. They are SQL's
`PREPARE` / `EXECUTE`: a :class:`Statement` is written with psycopg2's named parameters and
their SQL types. The names a connection has prepared are kept in the pool's per-connection
``info``; a missing statement's `PREPARE` travels in the same round trip as its first
`EXECUTE`. Prepared statements outlive transactions and end with their connection.
"""
from __future__ import annotations

import re
from typing import Any

import psycopg2

_PARAM = re.compile(r"%\((\w+)\)s")
_INFO_KEY = "truco_prepared"


class Statement:
    """One statement to prepare as `name`; `types` gives each parameter's SQL type (declared,
    so that a parameter used in several places never gets two types deduced)."""

    def __init__(self, name: str, sql: str, types: dict[str, str]) -> None:
        self.name = name
        self.params: list[str] = list(dict.fromkeys(_PARAM.findall(sql)))
        assert set(self.params) == set(types), "every parameter has a type, and only they"
        position = {p: i + 1 for i, p in enumerate(self.params)}
        body = _PARAM.sub(lambda m: f"${position[m.group(1)]}", sql)
        assert "%" not in body, "a literal % would be read by psycopg2"
        declared = f" ({', '.join(types[p] for p in self.params)})" if self.params else ""
        self.prepare = f"PREPARE {name}{declared} AS {body}"
        self.execute = (f"EXECUTE {name}(" + ", ".join(f"%({p})s" for p in self.params) + ")"
                        if self.params else f"EXECUTE {name}")


AFTER_COMMIT = ["BEGIN", "SET LOCAL synchronous_commit TO off"]
"""How the statements run after a commit (:func:`run`'s `after_commit`) begin their own
transaction: one whose commit does not wait for the disk."""


def run(conn: Any, statements: list[Statement], params: dict[str, Any],
        begin: bool = False, commit: bool = False,
        after_commit: list[Statement] | None = None) -> Any:
    """Execute `statements` in one round trip on the pooled connection `conn` (SQLAlchemy's
    ``_ConnectionFairy``: it has ``info`` and ``cursor()``); the cursor, holding the last
    statement's rows. `begin`: a `BEGIN` first, in the same message (on a connection in
    autocommit, whose transaction the caller then ends); `commit`: a `COMMIT` last, in the
    same message (when a statement fails, PostgreSQL runs none after it: the transaction
    is left aborted, for the caller to roll back).

    `after_commit` (with `commit`): statements run, still in the same message, once that
    `COMMIT` is done, in a transaction of their own (:data:`AFTER_COMMIT`) committed without
    waiting for the disk: what must happen only after the commit and need not survive a
    crash (the notifications of a change: app/db/hot_sql.py)."""
    assert commit or not after_commit, "what runs after the commit needs one"
    prepared: set[str] | None = conn.info.get(_INFO_KEY)
    cursor = conn.cursor()
    if prepared is None:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        prepared = {name for (name,) in cursor.fetchall()}
        conn.info[_INFO_KEY] = prepared
    parts: list[str] = ["BEGIN"] if begin else []
    named = set(prepared)  # (and those this message prepares)
    _append(parts, statements, named)
    if commit:
        parts.append("COMMIT")
    if after_commit:
        parts.extend(AFTER_COMMIT)
        _append(parts, after_commit, named)
        parts.append("COMMIT")
    try:
        cursor.execute(";\n".join(parts), params)
    except psycopg2.Error:
        # (a PREPARE of this message may or may not have taken: read them again next time)
        conn.info.pop(_INFO_KEY, None)
        cursor.close()
        raise
    prepared.update(named)
    return cursor


def _append(parts: list[str], statements: list[Statement], named: set[str]) -> None:
    """The `EXECUTE` of each of `statements`, after its `PREPARE` where the name is not in
    `named` (then added)."""
    for statement in statements:
        if statement.name not in named:
            parts.append(statement.prepare)
            named.add(statement.name)
        parts.append(statement.execute)
