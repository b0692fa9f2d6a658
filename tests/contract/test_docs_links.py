"""The repository stands alone: every relative link of every tracked Markdown file resolves
to a file inside it, anchors name a heading of their target, and no file names the sibling
folder of upstream texts (``SHARED``)."""
from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.MULTILINE)
SHARED = re.compile(r"\.\./" + "shared" + r"\b|/work/" + "shared")
"""A path to the sibling folder that holds the upstream texts (split so this file passes)."""
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def _tracked(pattern: str) -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z", pattern], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return [ROOT / name for name in out.split("\0") if name]


MARKDOWN = _tracked("*.md")


def _links(text: str) -> list[str]:
    text = FENCE.sub("", text)
    return LINK.findall(text) + REFERENCE.findall(text)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = "".join(c for c in text if c in " -" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text())
    return {_slug(h) for h in re.findall(r"^#{1,6}\s+(.+?)\s*#*$", text, re.MULTILINE)}


def test_the_guides_are_tracked_and_linked_from_the_readme() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in MARKDOWN}
    assert {"README.md", "docs/api.md", "docs/rules.md"} <= names
    readme_links = _links((ROOT / "README.md").read_text())
    assert "docs/api.md" in readme_links and "docs/rules.md" in readme_links


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve_inside_the_repository(path: Path) -> None:
    for link in _links(path.read_text()):
        if re.match(r"^[a-z][a-z0-9+.-]*:", link, re.IGNORECASE):
            continue  # https:, mailto: ... are not files
        target, _, anchor = link.partition("#")
        resolved = (path.parent / target).resolve() if target else path
        assert resolved.is_relative_to(ROOT.resolve()), f"{link} leaves the repository"
        assert resolved.exists(), f"{link} in {path.name} does not exist"
        if anchor and resolved.suffix == ".md":
            assert anchor in _anchors(resolved), f"{link}: no heading #{anchor}"


def test_nothing_points_to_shared() -> None:
    files = _tracked("*")
    offenders = []
    for path in files:
        if path.suffix in (".png", ".ico") or not path.is_file():
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        if SHARED.search(text):
            offenders.append(path.relative_to(ROOT).as_posix())
    assert offenders == []


def test_slug_matches_github() -> None:
    assert _slug("`POST /v1/matches/{id}/actions`") == "post-v1matchesidactions"
    assert _slug("CORS (browser clients)") == "cors-browser-clients"
    assert _slug("Mão de onze (mão de dez in Mineiro)") == "mão-de-onze-mão-de-dez-in-mineiro"
