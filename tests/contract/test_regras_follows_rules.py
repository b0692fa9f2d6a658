"""docs/regras.md, the Portuguese version of docs/rules.md, keeps up with it: the same headings
in the same order, the same names in each section's tables, every option of rules.md, and every
name of its prose (options, values, JSON fields, reasons) in the matching section. Only the
prose is translated; the names are the API's, in English. A change to rules.md fails here until
regras.md follows it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*$", re.MULTILINE)
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE = re.compile(r"`([^`\n]+)`")


def _sections(text: str) -> list[tuple[str, str, str]]:
    """The document as (heading's level, heading, text up to the next heading), in order; what
    comes before the first heading (regras.md's one line about rules.md) is left out."""
    text = FENCE.sub("", text)
    found = list(HEADING.finditer(text))
    ends = [m.start() for m in found[1:]] + [len(text)]
    return [(m.group(1), m.group(2), text[m.end():end]) for m, end in zip(found, ends)]


def _table_names(section: str) -> set[str]:
    """The backticked names in the section's table rows."""
    return {name for line in section.splitlines() if line.lstrip().startswith("|")
            for name in CODE.findall(line)}


def _options(section: str) -> list[str]:
    """The options of a section's table: the backticked first cell of each row."""
    return [m.group(1) for m in re.finditer(r"^\|\s*`([^`]+)`\s*\|", section, re.MULTILINE)]


RULES = _sections((DOCS / "rules.md").read_text(encoding="utf-8"))
REGRAS = _sections((DOCS / "regras.md").read_text(encoding="utf-8"))
PAIRS = list(zip(RULES, REGRAS))
IDS = [heading for (_, heading, _), _ in PAIRS]


def test_regras_says_what_it_is_on_its_first_line() -> None:
    first = (DOCS / "regras.md").read_text(encoding="utf-8").splitlines()[0]
    assert "[rules.md](rules.md)" in first and "referência" in first


def test_the_same_headings_at_the_same_levels_in_the_same_order() -> None:
    assert [level for level, _, _ in REGRAS] == [level for level, _, _ in RULES], (
        [(level, heading) for level, heading, _ in RULES],
        [(level, heading) for level, heading, _ in REGRAS])


@pytest.mark.parametrize(("rules", "regras"), PAIRS, ids=IDS)
def test_each_sections_tables_have_the_same_names(
        rules: tuple[str, str, str], regras: tuple[str, str, str]) -> None:
    assert _table_names(regras[2]) == _table_names(rules[2]), (rules[1], regras[1])


@pytest.mark.parametrize(("rules", "regras"), PAIRS, ids=IDS)
def test_each_sections_names_are_kept(
        rules: tuple[str, str, str], regras: tuple[str, str, str]) -> None:
    missing = set(CODE.findall(rules[2])) - set(CODE.findall(regras[2]))
    assert not missing, f"{regras[1]!r} lacks {sorted(missing)} of {rules[1]!r}"


def test_every_option_of_rules_is_in_regras() -> None:
    (rules,) = [text for _, heading, text in RULES if heading == "Options"]
    options = _options(rules)
    assert "tie_leader" in options and len(options) >= 13  # (the table was read)
    regras = (DOCS / "regras.md").read_text(encoding="utf-8")
    assert [name for name in options if f"`{name}`" not in regras] == []
    (section,) = [text for (_, heading, _), (_, _, text) in PAIRS if heading == "Options"]
    assert _options(section) == options  # the same rows, in the same order
