"""`sorry-play validate` through its cache (`authoring.validatecache`): a hit reports exactly
what a fresh check reports; a changed file, overlay base or `extends:` lookup, another code
fingerprint, or a damaged entry checks the file afresh."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sorry_rules.authoring import validate, validatecache
from sorry_rules.base import diskcache
from sorry_rules.base.resources import CACHE_ENV, variants_dir

TESTS = Path(__file__).parent
BASE = (variants_dir() / "standard.yaml").read_text(encoding="utf-8")


def _no_checks(monkeypatch) -> None:
    """From now on a file that is checked afresh fails the test (every result must be a hit)."""
    def refuse(path, *more):
        raise AssertionError(f"{path} was checked again")
    monkeypatch.setattr(validate, "validate_file_traced", refuse)


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"{validatecache.KIND}-*.json"))


def test_a_hit_reports_exactly_what_a_fresh_check_reports(cache, monkeypatch):
    """Every broken test file (errors and warnings of every stage), the test rule files and
    the bundled variants: the cached report equals the fresh one, problem for problem."""
    args = [str(TESTS / "broken"), str(TESTS / "rules"), str(variants_dir())]
    fresh = validate.validate_paths(args)
    first = validatecache.validate_paths(args)
    assert first == fresh
    assert fresh.warnings and fresh.errors
    assert _entries(cache)
    _no_checks(monkeypatch)
    again = validatecache.validate_paths(args)
    assert again == fresh
    assert [p.format() for p in again.problems] == [p.format() for p in fresh.problems]


def _write_pair(folder: Path, overlay_text: str = "extends: base.yaml\nname: overlay\n") -> tuple[Path, Path]:
    base, overlay = folder / "base.yaml", folder / "overlay.yaml"
    base.write_text(BASE, encoding="utf-8")
    overlay.write_text(overlay_text, encoding="utf-8")
    return base, overlay


def test_a_changed_base_or_overlay_is_checked_again(cache, tmp_path):
    base, overlay = _write_pair(tmp_path)
    assert validatecache.file_problems(overlay) == validate.validate_file(overlay) == []
    base.write_text(BASE.replace("side_length: 15", "side_length: 0"), encoding="utf-8")
    broken_base = validatecache.file_problems(overlay)
    assert broken_base and broken_base == validate.validate_file(overlay)
    base.write_text(BASE, encoding="utf-8")
    assert validatecache.file_problems(overlay) == []
    overlay.write_text("extends: base.yaml\nname: overlay\npawns: 0\n", encoding="utf-8")
    broken_overlay = validatecache.file_problems(overlay)
    assert broken_overlay and broken_overlay == validate.validate_file(overlay)
    assert any(p.file == "overlay.yaml" for p in broken_overlay)


def test_an_extends_name_that_now_finds_another_file_is_checked_again(cache, tmp_path):
    """`extends: standard` means the bundled variant until a file named `standard` appears
    beside the overlay: the cached result must not outlive that."""
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("extends: standard\nname: overlay\n", encoding="utf-8")
    assert validatecache.file_problems(overlay) == []
    (tmp_path / "standard").write_text(BASE.replace("side_length: 15", "side_length: 0"), encoding="utf-8")
    changed = validatecache.file_problems(overlay)
    assert changed and changed == validate.validate_file(overlay)


def test_a_damaged_or_foreign_entry_is_ignored_and_rewritten(cache, tmp_path, monkeypatch):
    _, overlay = _write_pair(tmp_path, "extends: base.yaml\nname: overlay\nplayers: {min: 3, max: 2}\n")
    expected = validate.validate_file(overlay)
    assert expected
    assert validatecache.file_problems(overlay) == expected
    [entry] = _entries(cache)
    stored = json.loads(entry.read_text(encoding="utf-8"))
    # a payload changed without its checksum: a wrong message would be reported if trusted
    tampered = dict(stored, payload=stored["payload"].replace("SR5", "SR9"))
    for damage in (json.dumps(tampered), "{not json", "", json.dumps(dict(stored, key="0" * 64)), "[]"):
        entry.write_text(damage, encoding="utf-8")
        assert validatecache.file_problems(overlay) == expected
        assert json.loads(entry.read_text(encoding="utf-8")) == stored  # rewritten whole
    _no_checks(monkeypatch)
    assert validatecache.file_problems(overlay) == expected


def test_other_code_does_not_reuse_a_result(cache, tmp_path, monkeypatch):
    _, overlay = _write_pair(tmp_path)
    validatecache.file_problems(overlay)
    monkeypatch.setattr(diskcache, "code_fingerprint", lambda: "another version of the code")
    checked = []
    real = validate.validate_file_traced
    monkeypatch.setattr(validate, "validate_file_traced", lambda path, *more: checked.append(path) or real(path, *more))
    assert validatecache.file_problems(overlay) == []
    assert checked == [overlay]
    assert len(_entries(cache)) == 2


def test_no_cache_folder_still_validates(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, "off")
    monkeypatch.chdir(tmp_path)
    _, overlay = _write_pair(tmp_path, "extends: base.yaml\nname: overlay\npawns: 0\n")
    assert validatecache.file_problems(overlay) == validate.validate_file(overlay) != []


def test_the_code_fingerprint_names_the_package_and_python():
    fingerprint = diskcache.code_fingerprint()
    assert len(fingerprint) == 64 and fingerprint == diskcache.code_fingerprint()


def test_the_command_prints_the_same_twice(cache):
    """`sorry-play validate` on the broken corpus: the second run (every result cached) prints
    the same bytes and exits the same way."""
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    runs = [CliRunner().invoke(main, ["validate", "--format", "json", str(TESTS / "broken")]) for _ in range(2)]
    assert runs[0].exit_code == runs[1].exit_code == 1
    assert runs[0].stdout == runs[1].stdout and '"warnings"' in runs[0].stdout


def test_a_file_whose_data_did_not_change_is_not_checked_again(cache, tmp_path, monkeypatch):
    """A comment or the layout edited in a clean base: the overlay is read again (its
    inputs changed) but merges to data checked clean before, so it is not checked again."""
    base, overlay = _write_pair(tmp_path)
    assert validatecache.file_problems(overlay) == validatecache.file_problems(base) == []
    assert len(sorted(cache.glob(f"{validatecache.CLEAN_KIND}-*.json"))) == 2
    real = validate.validate_file_traced
    _no_checks(monkeypatch)
    base.write_text("# a comment\n" + BASE + "\n\n# another\n", encoding="utf-8")
    assert validatecache.file_problems(overlay) == []
    assert validatecache.file_problems(base) == []
    reordered = BASE.replace('  "1": 5\n  "2": 4\n', '  "2": 4\n  "1": 5\n')  # the data changed, not in values only
    assert reordered != BASE
    base.write_text(reordered, encoding="utf-8")
    with pytest.raises(AssertionError, match="checked again"):
        validatecache.file_problems(overlay)
    monkeypatch.setattr(validate, "validate_file_traced", real)
    assert validatecache.file_problems(overlay) == validate.validate_file(overlay) == []


def test_a_file_with_problems_is_checked_again_after_any_edit(cache, tmp_path):
    """Only a result with no problem at all stands for its data: problems have places, and
    an edit that leaves the data alone can move them."""
    _, overlay = _write_pair(tmp_path, "extends: base.yaml\nname: overlay\nplayers: {min: 3, max: 2}\n")
    first = validatecache.file_problems(overlay)
    assert first and first == validate.validate_file(overlay)
    overlay.write_text("# moved down\n\nextends: base.yaml\nname: overlay\nplayers: {min: 3, max: 2}\n", encoding="utf-8")
    moved = validatecache.file_problems(overlay)
    assert moved == validate.validate_file(overlay)
    assert [p.line for p in moved] == [p.line + 2 for p in first]
    assert not sorted(cache.glob(f"{validatecache.CLEAN_KIND}-*.json"))


def test_a_damaged_clean_entry_is_not_trusted(cache, tmp_path):
    base, overlay = _write_pair(tmp_path)
    assert validatecache.file_problems(overlay) == []
    from sorry_rules.authoring import validatechecks

    checked = []
    real, real_checks = validate.validate_file_traced, validatechecks.variant_problems
    for damage in ('{"problems": 1}', "{not json", "", "[]"):
        for entry in sorted(cache.glob(f"{validatecache.CLEAN_KIND}-*.json")):
            entry.write_text(damage, encoding="utf-8")
        base.write_text(BASE + f"# edit {len(checked)}\n", encoding="utf-8")
        with pytest.MonkeyPatch.context() as patch:
            # checked afresh, or (the data validated before) as plain values: checked either way
            patch.setattr(validate, "validate_file_traced", lambda path, *more: checked.append(path) or real(path, *more))
            patch.setattr(validatechecks, "variant_problems", lambda v, *more, **kw: checked.append(v) or real_checks(v, *more, **kw))
            assert validatecache.file_problems(overlay) == []
    assert len(checked) == 4


def test_an_entry_is_written_whole_through_a_new_file(cache, monkeypatch):
    """`diskcache.write` writes a new file of its own (never an existing one) and renames it
    into place: only the entry is left, readable back; a folder that cannot be written
    costs only the entry."""
    import os

    diskcache.write("test", "a" * 64, {"x": [1, "é"]})
    diskcache.write("test", "a" * 64, {"x": [2]})
    assert [p.name for p in cache.iterdir()] == [f"test-{'a' * 40}.json"]
    assert diskcache.read("test", "a" * 64) == {"x": [2]}
    (cache / "blocker").write_text("", encoding="utf-8")
    real_open = os.open
    taken = []

    def crowded(name, flags, mode=0o777):
        if not taken:  # the first name is taken: another name is tried
            taken.append(name)
            raise FileExistsError(name)
        return real_open(name, flags, mode)
    monkeypatch.setattr(os, "open", crowded)
    diskcache.write("test", "b" * 64, {"y": 1})
    monkeypatch.setattr(os, "open", real_open)
    assert taken and diskcache.read("test", "b" * 64) == {"y": 1}
    assert sorted(p.name for p in cache.iterdir()) == ["blocker", f"test-{'a' * 40}.json", f"test-{'b' * 40}.json"]
    os.chmod(cache, 0o500)
    try:
        diskcache.write("test", "c" * 64, {"z": 1})  # quietly nothing
    finally:
        os.chmod(cache, 0o700)
    assert diskcache.read("test", "c" * 64) is None or os.geteuid() == 0


# ---- plain values decided without pydantic (rules.leafedit) ------------------------------------
def _all_rule_files() -> list[Path]:
    return sorted((TESTS / "rules").glob("*.yaml")) + sorted(variants_dir().rglob("*.yaml"))


@pytest.mark.parametrize("path", _all_rule_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_plain_values_are_checked_as_the_models_are(path):
    """The checks after the schema give the same problems for a validated variant and for
    its values as plain models (what an edit decided without pydantic is checked as)."""
    from sorry_rules.authoring.validatechecks import variant_problems
    from sorry_rules.rules import loadcache
    from sorry_rules.rules.loader import read_merged
    from sorry_rules.rules.model import Variant

    merged = read_merged(path, name_of=validatecache.shown_name)
    variant = Variant.model_validate(merged.data)
    plain = loadcache.decode(json.loads(json.dumps(loadcache.encode(variant))), None)
    with_models = variant_problems(variant, merged.origins, "x", analyse=True)
    with_plain = variant_problems(plain, merged.origins, "x", analyse=True)
    if with_plain is None:  # cross-field errors: left to the models
        assert any(p.severity == "error" for p in with_models)
    else:
        assert with_plain == with_models


EDITS = [('"12": 4', '"12": 7'), ("side_length: 15", "side_length: 16"), ("start_exit: 4 ", "start_exit: 40 "),
         ("safety_length: 5 ", "safety_length: 99 "), ("forward 3 ", "forward 4 "), ("forward 3 ", "fly 3 "),
         ("control: own", "control: team"), ("must_bump: false", "must_bump: true"), ("pawns: 4", "pawns: 0")]


def test_an_edited_value_reports_what_a_fresh_check_reports(cache, tmp_path, monkeypatch):
    """Values edited one after another, valid or not (a bound, a cross-field check, a DSL
    text): each report equals a fresh check's; the valid ones are checked without pydantic."""
    path = tmp_path / "mine.yaml"
    path.write_text(BASE, encoding="utf-8")
    assert validatecache.validate_paths([str(path)]) == validate.validate_paths([str(path)])
    assert sorted(cache.glob(f"{validatecache.PREVIOUS_KIND}-*.json"))
    from sorry_rules.rules import model

    for before, after in EDITS:
        assert before in BASE
        path.write_text(BASE.replace(before, after, 1), encoding="utf-8")
        fresh = validate.validate_paths([str(path)])
        with monkeypatch.context() as patch:
            if not fresh.errors:
                patch.setattr(model.Variant, "model_validate", _refuse)
            assert validatecache.validate_paths([str(path)]) == fresh, after


def _refuse(*args, **kwargs):
    raise AssertionError("validated with pydantic")


def test_a_damaged_previous_entry_is_checked_afresh(cache, tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text(BASE, encoding="utf-8")
    validatecache.validate_paths([str(path)])
    [entry] = sorted(cache.glob(f"{validatecache.PREVIOUS_KIND}-*.json"))
    stored = json.loads(entry.read_text(encoding="utf-8"))
    for n, damage in enumerate(("{not json", "", "[]", json.dumps(dict(stored, payload=stored["payload"][:-2])))):
        entry.write_text(damage, encoding="utf-8")
        path.write_text(BASE.replace("side_length: 15", f"side_length: {16 + n}"), encoding="utf-8")
        assert validatecache.validate_paths([str(path)]) == validate.validate_paths([str(path)])
        assert json.loads(entry.read_text(encoding="utf-8"))["payload"] != stored["payload"]  # checked and kept again


def test_an_edited_number_is_validated_without_pydantic(tmp_path, monkeypatch):
    """In fresh processes: `validate` after a number of the file changed imports neither
    pydantic nor lark, and prints what a run without any cache prints (that run is made in
    this process: what it prints does not depend on the process, only what it imports does)."""
    import os
    import subprocess
    import sys

    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    path = tmp_path / "mine.yaml"
    script = ("import sys\n"
              "from sorry_rules.cli.app import main\n"
              "try:\n"
              f"    main(['validate', {str(path)!r}])\n"
              "except SystemExit:\n"
              "    pass\n"
              "print(sorted(m for m in ('pydantic', 'lark') if m in sys.modules))\n")

    def in_a_fresh_process(text: str) -> str:
        """What `validate` prints in a new process with the cache of this test, its imports last."""
        path.write_text(text, encoding="utf-8")
        env = dict(os.environ, **{CACHE_ENV: str(tmp_path / "cache")})
        return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True).stdout

    def without_cache() -> list[str]:
        """The lines `validate` prints with no cache at all (standard output only, as above)."""
        with monkeypatch.context() as patch:
            patch.setenv(CACHE_ENV, "off")
            return CliRunner().invoke(main, ["validate", str(path)]).stdout.splitlines()

    cold = in_a_fresh_process(BASE)
    assert "'pydantic'" in cold
    edited = in_a_fresh_process(BASE.replace('"12": 4', '"12": 6'))
    assert edited.splitlines()[-1] == "[]" and edited.splitlines()[:-1] == without_cache()
    broken = in_a_fresh_process(BASE.replace("start_exit: 4 ", "start_exit: 40 "))
    assert "SR505" in broken and broken.splitlines()[:-1] == without_cache()
