"""Helpers of the picture tests: parse SVG and HTML pages and find the elements they mark."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser

SVG_NS = "http://www.w3.org/2000/svg"


def svg_root(text: str):
    """The parsed SVG document (well-formed XML, root <svg> in the SVG namespace)."""
    root = ET.fromstring(text)
    assert root.tag == f"{{{SVG_NS}}}svg"
    return root


def with_class(root, name: str) -> list:
    return [el for el in root.iter() if name in (el.get("class") or "").split()]


def assert_self_contained_svg(text: str) -> None:
    """No external references: the only `http:` is the SVG namespace of the root."""
    assert text.count("http:") == 1 and f'xmlns="{SVG_NS}"' in text
    assert "https:" not in text and "href" not in text and "url(" not in text and "<script" not in text


class Page(HTMLParser):
    """A parsed HTML page: its tags (with attributes), its scripts, and every id."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list = []
        self.scripts: list = []   # (attributes, text)
        self.ids: Counter = Counter()
        self._script = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if "id" in attrs:
            self.ids[attrs["id"]] += 1
        if tag == "script":
            self._script = (attrs, [])

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            self.scripts.append((self._script[0], "".join(self._script[1])))
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self._script[1].append(data)

    def json(self, element_id: str):
        return next(json.loads(text) for attrs, text in self.scripts if attrs.get("id") == element_id)

    def code(self) -> str:
        return "".join(text for attrs, text in self.scripts if "type" not in attrs)


def assert_self_contained_page(text: str, page: Page) -> None:
    """No network: no http(s) at all, no script, style or image from elsewhere; links only
    within the page (`#move=N`)."""
    assert "http:" not in text and "https:" not in text and "url(" not in text
    for tag, attrs in page.tags:
        assert "src" not in attrs, (tag, attrs)
        assert "href" not in attrs or attrs["href"].startswith("#"), (tag, attrs)  # links within the page only
        assert tag not in ("link", "iframe", "img", "object", "embed"), tag
    for element_id in re.findall(r"getElementById\('([\w-]+)'\)", page.code()):
        assert page.ids[element_id] == 1, f"the script looks for #{element_id}, which the page has {page.ids[element_id]} times"


def placements_of(steps: list, colours: int) -> list:
    """Every step's placement, rebuilt from the page's changes as its script does."""
    current: list = [[] for _ in range(colours)]
    out = []
    for step in steps:
        if "p" in step:
            current = list(current)
            for c, squares in step["p"].items():
                current[int(c)] = squares
        out.append(tuple(tuple(squares) for squares in current))
    return out
