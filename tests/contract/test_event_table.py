"""The event table of docs/api.md lists exactly the event types the engine and the app write,
each with every field its schema in openapi.yaml declares."""
from __future__ import annotations

import re

import yaml

from tests.support.spec import ROOT, event_types_written

COMMON = {"seq", "version", "type", "at"}


def _table() -> dict[str, set[str]]:
    """Each row of the "Event types" table: its types (a row may name two) and the names in
    backticks in its fields column."""
    text = (ROOT / "docs/api.md").read_text()
    section = text.split("\n## Event types\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("type", "---"):
            continue
        for kind in re.findall(r"`(\w+)`", cells[0]):
            rows[kind] = set(re.findall(r"`(\w+)", cells[1]))
    return rows


def test_the_table_lists_every_event_type_written() -> None:
    table = _table()
    assert {"hand_dealt", "deadline_set", "turn_timed_out", "illegal_call"} <= set(table)
    assert set(table) == event_types_written()


def test_each_row_names_every_field_of_its_schema() -> None:
    schemas = yaml.safe_load((ROOT / "openapi.yaml").read_text())["components"]["schemas"]
    mapping = schemas["Event"]["discriminator"]["mapping"]
    missing = {kind: set(schemas[ref.rsplit("/", 1)[1]]["properties"]) - COMMON - names
               for kind, names in _table().items() for ref in [mapping[kind]]}
    assert {kind: fields for kind, fields in missing.items() if fields} == {}
    assert "hands" in _table()["hand_dealt"]
