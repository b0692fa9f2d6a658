"""The guides of ``docs/`` as HTML pages (``/docs/<name>``), rendered with markdown-it-py.

Every ``docs/*.md`` is a guide. Headings get GitHub's anchors, so ``api.md#cors-browser-clients``
works here as on the repository's site; a link to another guide points at its page,
``../openapi.yaml`` at ``/openapi.yaml``, and a link to any other file of the repository (not
served) keeps its text without the link. Pages are rendered once per process.

A guide is in English (``<html lang="en">``) unless its name is in :data:`PORTUGUESE`: then it
is in Brazilian Portuguese (``lang="pt-BR"``), and the list of guides says so on its link
(``regras.md``, the Portuguese version of ``rules.md``). A new Portuguese guide is added there.
"""
from __future__ import annotations

import functools
import html
import posixpath
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.token import Token

DOCS_DIR = Path(__file__).resolve().parents[2] / "docs"
SERVED = {"openapi.yaml": "/openapi.yaml"}
"""Repository files the server serves, beside the guides: their URLs."""
PORTUGUESE = frozenset({"regras"})
"""The guides written in Brazilian Portuguese; every other guide is in English."""
GUIDE_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; "
                "base-uri 'none'; form-action 'none'")
"""A guide page loads nothing and runs nothing; its one style element is inline."""


def guide_names() -> list[str]:
    """The guides there are: the names of ``docs/*.md``, without ``.md``."""
    return sorted(path.stem for path in DOCS_DIR.glob("*.md"))


def language(name: str) -> str:
    """The language of guide ``name``, as ``<html lang>`` names it."""
    return "pt-BR" if name in PORTUGUESE else "en"


def slug(text: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def link_target(href: str) -> str | None:
    """Where a link of a guide points on this server; None for a repository file that is
    not served. Absolute URLs and anchors of the same page are kept."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path:
        return href
    path = posixpath.normpath(posixpath.join("docs", parts.path))
    fragment = f"#{parts.fragment}" if parts.fragment else ""
    name = path.removeprefix("docs/").removesuffix(".md")
    if path == f"docs/{name}.md" and "/" not in name and (DOCS_DIR / f"{name}.md").is_file():
        return f"/docs/{name}{fragment}"
    return SERVED.get(path)


def _anchors_and_links(state: Any) -> None:
    """A core rule: ids on headings (``-1``, ``-2`` for repeats) and links rewritten."""
    seen: dict[str, int] = {}
    tokens: list[Token] = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            inline = tokens[index + 1].children or []
            base = slug("".join(t.content for t in inline if t.type in ("text", "code_inline")))
            count = seen.get(base, 0)
            seen[base] = count + 1
            token.attrSet("id", base if count == 0 else f"{base}-{count}")
        if token.type != "inline":
            continue
        opened: list[Token] = []
        for child in token.children or []:
            if child.type == "link_open":
                target = link_target(str(child.attrGet("href") or ""))
                child.meta["unlinked"] = target is None
                if target is not None:
                    child.attrSet("href", target)
                opened.append(child)
            elif child.type == "link_close" and opened:
                child.meta["unlinked"] = opened.pop().meta["unlinked"]


def _link(tag: str) -> Any:
    def render(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        if tokens[idx].meta.get("unlinked"):
            return tag
        return str(self.renderToken(tokens, idx, options, env))
    return render


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table").enable("strikethrough")
    md.core.ruler.push("anchors_and_links", _anchors_and_links)
    md.add_render_rule("link_open", _link("<span>"))
    md.add_render_rule("link_close", _link("</span>"))
    return md


PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} - Truco server</title>
  <style>
    body {{ font-family: system-ui, sans-serif; max-width: 52em; margin: 2em auto;
           padding: 0 1em; line-height: 1.5; }}
    code, pre {{ background: #f3f3f3; }} pre {{ padding: .6em; overflow-x: auto; }}
    table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: .2em .5em; }}
    nav {{ font-size: .9em; }}
  </style>
</head>
<body>
  <nav lang="en"><a href="/">Truco server</a> | <a href="/docs/">guides</a> | <a href="/docs">API
    reference</a> | <a href="/openapi.yaml">openapi.yaml</a></nav>
  <main>
{body}
  </main>
</body>
</html>
"""


def title(name: str) -> str:
    """The guide's first heading, or its name."""
    text = (DOCS_DIR / f"{name}.md").read_text(encoding="utf-8")
    found = re.search(r"^#\s+(.+)$", text, flags=re.M)
    return found.group(1).strip().replace("`", "") if found else name


@functools.cache
def page(name: str) -> str:
    """The HTML page of guide ``name`` (one of :func:`guide_names`)."""
    text = (DOCS_DIR / f"{name}.md").read_text(encoding="utf-8")
    return PAGE.format(lang=language(name), title=html.escape(title(name)),
                       body=_markdown().render(text))


@functools.cache
def index() -> str:
    """The page that lists every guide."""
    items = "\n".join(f'    <li><a href="/docs/{name}"{_other_language(name)}>'
                      f"{html.escape(title(name))}</a> (<code>docs/{name}.md</code>)</li>"
                      for name in guide_names())
    return PAGE.format(lang="en", title="Guides",
                       body=f"<h1>Guides</h1>\n<ul>\n{items}\n</ul>")


def _other_language(name: str) -> str:
    """A link's attributes, on the English list of guides, for a guide in another language."""
    lang = language(name)
    return "" if lang == "en" else f' hreflang="{lang}" lang="{lang}"'
