"""Find rule files: a name or path to a file, bundled names, how files are named in messages.

Light on purpose (no YAML, no pydantic): `sorry-play validate` checks its cached results
with it before anything heavy is imported. `rules.loader` re-exports these names.

Contract: `resolve(spec, relative_to)` is the one rule for finding a rule file (a path
relative to the including file first, then the working directory, then a bundled name with
or without `.yaml`); it never raises.

Where rule files may be read from (`rule_roots`, `outside_roots`): the bundled variants, the
working directory's tree, the folder of each file named on the command line, the folders of
`$SORRY_RULES_ROOTS` (separated by the system's path separator) and those given with
`allow_root` (the command line's `--rules-root`). A file is inside when its real path (every
symbolic link followed) is in one of those trees, so no link leads out of them. `TOP_FIELDS`
are the fields a rule file may have at its top level (a file with none of them is not a rule
file, and is reported by name only).
"""

from __future__ import annotations

import errno
import os
from contextlib import contextmanager
from pathlib import Path

from sorry_rules.base.resources import variants_dir
from sorry_rules.base.safeio import kind_of
from sorry_rules.base.suggest import close_names


#: Environment variable: more folders rule files may be read from (os.pathsep-separated).
ROOTS_ENV = "SORRY_RULES_ROOTS"
#: The top-level fields of a rule file (`rules.model.Variant`'s, and `extends`).
TOP_FIELDS = frozenset({
    "extends", "name", "description", "colours", "teams", "players", "seating", "pawns", "setup", "board", "deck",
    "cards", "unused_effects", "turn", "rules", "win", "scoring", "counters", "filters", "after", "geometry", "marks",
    "also", "places",
})
#: The fields of position files (docs/REFERENCE.md section 5, SEQUENCE.md section 5); a test keeps
#: them equal to the position models' fields (which this layer cannot import).
POSITION_FIELDS = frozenset({"players", "turn", "card", "hand", "pawns", "counters", "marks", "redraws", "chips",
                              "exchanged", "finished", "cards_due"})
_ALLOWED: list[Path] = []


def allow_root(folder) -> None:
    """Let rule files be read from the tree of `folder` too (for the rest of the process); a
    folder already inside the working directory's tree or an allowed one changes nothing."""
    folder = Path(folder).resolve()
    if outside_roots(folder, (Path.cwd().resolve(), *extra_roots())):
        _ALLOWED.append(folder)


@contextmanager
def allowed(folders):
    """`allow_root` for each of `folders` while the block runs (what `validate DIR` reads)."""
    before = list(_ALLOWED)
    try:
        for folder in folders:
            allow_root(folder)
        yield
    finally:
        _ALLOWED[:] = before


def extra_roots() -> tuple[Path, ...]:
    """The folders added by `$SORRY_RULES_ROOTS` and `allow_root`, resolved (part of cache keys)."""
    env = [Path(p).resolve() for p in os.environ.get(ROOTS_ENV, "").split(os.pathsep) if p.strip()]
    return tuple(env) + tuple(_ALLOWED)


def rule_roots(named=()) -> tuple[Path, ...]:
    """The trees rule files may be read from when `named` files were named on the command line."""
    roots = [variants_dir().resolve(), Path.cwd().resolve(), *extra_roots()]
    for item in named:
        try:
            roots.append(Path(item).absolute().parent.resolve())
        except (OSError, ValueError):
            continue
    return tuple(roots)


def outside_roots(path: Path, roots) -> bool:
    """Whether the real path of `path` (links followed) lies outside every tree of `roots`."""
    try:
        real = Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        return True
    return not any(real == root or real.is_relative_to(root) for root in roots)


def real_path(path) -> Path:
    """`path` with every link followed, or made absolute only when its links lead round in
    a loop (`Path.resolve` raises then)."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(path))


def display_name(path: Path) -> str:
    """How a rule file is named in messages: bundled files relative to the bundle."""
    try:
        return path.resolve().relative_to(variants_dir().resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):  # elsewhere, or a link that leads round in a loop
        return str(path)


def resolve(spec: str, relative_to: Path | None = None) -> Path | None:
    """Find a rule file: a path (relative to `relative_to` first, then the working
    directory), else a bundled name with or without `.yaml`. None when there is none,
    also for names the operating system refuses (too long, embedded NUL)."""
    candidates: list[Path] = []
    raw = Path(spec)
    if relative_to is not None and not raw.is_absolute():
        candidates.append(relative_to / raw)
    candidates.append(raw)
    bundled = variants_dir()
    candidates.append(bundled / spec)
    if not spec.endswith((".yaml", ".yml")):
        candidates.append(bundled / f"{spec}.yaml")
        if relative_to is not None:
            candidates.append(relative_to / f"{spec}.yaml")
    for candidate in candidates:
        try:
            if candidate.is_file():
                return candidate
        except OSError:  # a name the system refuses (too long, ...): not a rule file
            continue
    return None


def bundled_names() -> list[str]:
    root = variants_dir()
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.yaml"))


def _short(name: str) -> str:
    return name.removesuffix(".yaml")


def bundled_kind(raw) -> str:
    """"variant" or "overlay": what a bundled rule file is, from its own YAML data `raw`: a
    game of its own (no `extends:`, or a `name:` of its own over its bases) or an overlay."""
    raw = raw if isinstance(raw, dict) else {}
    return "variant" if raw.get("extends") is None or "name" in raw else "overlay"


def _bundled_of_kind(kind: str) -> list[str]:
    """The bundled names of `kind` ("variant" or "overlay"; a file that does not read: by its folder)."""
    from sorry_rules.base.errors import SorryRulesError
    from sorry_rules.rules.yamlsafe import load_yaml_file  # lazy: YAML only to say what is bundled

    names = []
    for name in bundled_names():
        try:
            found = bundled_kind(load_yaml_file(variants_dir() / name, name)[0])
        except SorryRulesError:
            found = "overlay" if "/" in name else "variant"
        if found == kind:
            names.append(_short(name))
    return names


def close_bundled(spec: str) -> str:
    """"; did you mean 'house/x'?" for the bundled names whose file name (without folder and
    `.yaml`) is close to the one in `spec`, or "" (the shared folder does not count)."""
    by_base: dict[str, list[str]] = {}
    for name in bundled_names():
        by_base.setdefault(_short(name).rpartition("/")[2], []).append(_short(name))
    found = [full for base in close_names(_short(spec).rpartition("/")[2], by_base) for full in by_base[base]]
    return "; did you mean " + " or ".join(f"'{name}'" for name in found) + "?" if found else ""


def not_found(spec: str, what: str) -> str:
    """The message for a variant or overlay name that names no file: the close bundled
    names ("did you mean") and the bundled names of that kind (variants are the top-level
    files, overlays the ones in folders)."""
    try:
        link = os.readlink(spec) if os.path.islink(spec) else None
    except OSError:  # a name the system refuses (too long): no such file
        link = None
    kind = kind_of(spec)
    if link is not None and kind == "missing":
        try:
            os.stat(spec)
            where = "which leads to no file"
        except OSError as error:
            where = "which leads round in a loop of links" if error.errno == errno.ELOOP else "which leads to no file"
        return f"no {what} {spec!r}: it is a link to {link!r}, {where}"
    if kind not in (None, "missing"):  # a FIFO, a device, a folder: named for what it is (SR100's words)
        return f"no {what} {spec!r}: it is {kind}, not a regular file"
    kind = _bundled_of_kind("variant" if what == "variant" else "overlay")
    return (f"no {what} {spec!r}: not a file, and not a bundled name{close_bundled(spec)} "
            f"(bundled {what}s: {', '.join(kind)}; see `sorry-play variants`)")
