"""The README and docs/ say true things about the repository.

  * every markdown link `[text](target)` in README.md and docs/*.md resolves to a file or
    folder inside the repository (anchors `#...` to a heading of the target), and no path
    anywhere in them climbs out of the repository (`../shared/...`);
  * every path in backticks that starts with a top-level folder of the repository
    (`sorry_rules/...`, `variants/...`, `tests/...`, ...; glob patterns allowed), every
    bundled overlay name (`house/NAME.yaml`, `options/NAME.yaml`) and every other file name
    (`layout.py`, `dsl/parser.py`, `RULES.md`: the end of some file's path) names something
    that exists;
  * every dotted name `sorry_rules.x.y` in README.md, docs/*.md and the package's own source
    (docstrings and comments) is a module, or a module and attributes, that exist, and every
    repository path in the package's source (`grammar/sorry.lark`) exists;
  * README's layout table lists exactly the layer packages of `sorry_rules/` (in the order
    of the import-linter layer contract in pyproject.toml) and exactly their modules.
"""

from __future__ import annotations

import importlib
import os
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sorry_rules"
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
MARKDOWN = [README, *DOCS]

LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^\s*```")
TOP_LEVEL = ("sorry_rules", "variants", "grammar", "tests", "docs", "schema", "bench", "tools", ".ci")
#: Names in the docs that are examples of the reader's own files, not files of the repository.
EXAMPLES = {"house/x.yaml", "my-rule.yaml", "my-rules/*.yaml", ".pre-commit-config.yaml", "*.sorry.yaml", "*.yaml"}
#: Files the docs name before they exist (docs/SEQUENCE.md describes the Sequence rule file to come).
#: Once such a file exists, take it out of this list (a test says so).
PLANNED: set[str] = set()
DOTTED = re.compile(r"\bsorry_rules(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
BARE_FILE = re.compile(r"^[\w.-]+(?:/[\w.-]+)*\.(?:py|md|yaml|json|lark)$")
SKIP_DIRS = {"__pycache__", "build", "dist", "node_modules"}


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _prose(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of the lines outside fenced code blocks."""
    lines, inside = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            lines.append((number, line))
    return lines


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    return {_slug(line.lstrip("#")) for _, line in _prose(path) if line.startswith("#")}


def _inside(path: Path) -> bool:
    return path.resolve().is_relative_to(ROOT)


def _files() -> list[str]:
    """Every file of the repository (relative, posix), without hidden folders such as .venv."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS]
        found.extend(Path(folder, name).relative_to(ROOT).as_posix() for name in files)
    return found


def _exists(pattern: str, base: Path = ROOT) -> bool:
    if any(ch in pattern for ch in "*?["):
        return any(base.glob(pattern.rstrip("/")))
    return (base / pattern).exists()


@pytest.mark.parametrize("doc", MARKDOWN, ids=_rel)
def test_markdown_links_resolve_inside_the_repository(doc):
    bad = []
    for number, line in _prose(doc):
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
                continue
            where, _, anchor = target.partition("#")
            path = (doc.parent / where) if where else doc
            if not _inside(path) or not path.exists():
                bad.append(f"{_rel(doc)}:{number}: link to {target}: no such file in the repository")
            elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
                bad.append(f"{_rel(doc)}:{number}: link to {target}: no heading with that anchor")
    assert bad == []


@pytest.mark.parametrize("doc", MARKDOWN, ids=_rel)
def test_paths_named_in_the_text_exist(doc):
    bad, files = [], _files()
    for number, line in _prose(doc):
        if "../" in line and ("$schema=" not in line or "../schema/" not in line):
            bad.append(f"{_rel(doc)}:{number}: a path that leaves the repository: {line.strip()}")
        for code in CODE.findall(line):
            token = code.strip()
            if token in EXAMPLES or token in PLANNED or " " in token:
                continue
            where = f"{_rel(doc)}:{number}: `{token}`"
            first = token.split("/", 1)[0]
            if first in TOP_LEVEL and "/" in token:
                module, dot, attribute = token.rpartition(".")
                if not _exists(token) and not (dot and _exists(module + ".py") and attribute.isidentifier()):
                    bad.append(f"{where} does not exist")
            elif first in ("house", "options") and "/" in token:
                if not _exists(token, ROOT / "variants"):
                    bad.append(f"{where} is not a bundled overlay (variants/{token})")
            elif BARE_FILE.match(token):
                if not any(path == token or path.endswith("/" + token) for path in files):
                    bad.append(f"{where}: no file of that name in the repository")
    assert bad == []


def test_planned_files_do_not_exist_yet():
    assert [name for name in PLANNED if (ROOT / name).exists()] == [], "it exists now: take it out of PLANNED"


def _resolves(name: str) -> bool:
    """A module (file or package) and then attributes of it."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        stem = ROOT.joinpath(*parts[:cut])
        if stem.with_suffix(".py").is_file() or (stem / "__init__.py").is_file():
            obj = importlib.import_module(".".join(parts[:cut]))
            for attribute in parts[cut:]:
                if not hasattr(obj, attribute):
                    return False
                obj = getattr(obj, attribute)
            return True
    return False


def _dotted_names():
    sources = MARKDOWN + sorted(PACKAGE.rglob("*.py"))
    for path in sources:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for name in DOTTED.findall(line):
                yield path, number, name.rstrip(".")


def test_dotted_module_names_resolve():
    bad = [f"{_rel(path)}:{number}: {name}" for path, number, name in _dotted_names() if not _resolves(name)]
    assert bad == []


SOURCE_PATH = re.compile(r"\b(?:%s)/[\w./*-]*[\w*/]" % "|".join(re.escape(d) for d in TOP_LEVEL))
BUILT = ("sorry_rules/_data/",)  # made when the wheel is built (pyproject.toml force-include)


def test_paths_named_in_the_source_exist():
    """Paths such as `grammar/sorry.lark` or `docs/LIMITS.md` in the package's docstrings and comments."""
    bad, seen = [], 0
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for name in SOURCE_PATH.findall(line):
                seen += 1
                if not name.startswith(BUILT) and not _exists(name.rstrip(".")):
                    bad.append(f"{_rel(path)}:{number}: {name}")
    assert bad == [] and seen >= 5


def test_dotted_names_are_found():
    """The check above sees the names it must check (it cannot pass by finding none)."""
    names = {name for _, _, name in _dotted_names()}
    assert "sorry_rules.compiler" in names and len(names) > 20
    assert not _resolves("sorry_rules.semantics") and not _resolves("sorry_rules.engine.game.NoSuchThing")


# ---- the layout table ----------------------------------------------------------------------------
def _layout_rows() -> list[tuple[str, list[str]]]:
    """(package path, [module names]) of README's table of packages, in order."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Layout", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0].startswith("`sorry_rules/"):
            modules = [name for name in CODE.findall(cells[-1]) if re.fullmatch(r"[a-z_]+", name)]
            rows.append((cells[0].strip("`"), modules))
    return rows


def _tree() -> dict[str, list[str]]:
    tree = {}
    for init in sorted(PACKAGE.rglob("__init__.py")):
        folder = init.parent
        tree[_rel(folder) + "/"] = sorted(p.stem for p in folder.glob("*.py") if p.name != "__init__.py")
    return tree


def test_readme_layout_table_matches_the_package_tree():
    rows = _layout_rows()
    listed = {package: sorted(modules) for package, modules in rows}
    assert len(listed) == len(rows), "a package is listed twice"
    tree = _tree()
    assert sorted(listed) == sorted(tree), "README's layout table and the packages of sorry_rules/ differ"
    for package, modules in tree.items():
        assert listed[package] == modules, f"README's layout table, {package}: lists {listed[package]}, the tree has {modules}"


def test_readme_layout_table_follows_the_layer_contract():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    layers = [name.strip() for layer in contract["layers"] for name in layer.split("|")]
    order = [package.strip("/").replace("/", ".") for package, _ in _layout_rows() if package != "sorry_rules/"]
    assert order == layers
