"""Files from a hostile author or a flaky machine: no file outside the rule roots is read or
shown, readers take regular files only and bound what they parse, and nothing but a game
record is replaced by a save (docs/REFERENCE.md sections 3 and 6, docs/LIMITS.md)."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from sorry_rules.base.errors import PositionError, SaveFileError
from sorry_rules.base.safeio import JsonLimitError, loads_json, read_regular, remove_stray_temporaries
from sorry_rules.cli.app import main
from sorry_rules.compiler import load_game
from sorry_rules.records.files import read_record, write_record
from sorry_rules.records.position import read_position_file
from sorry_rules.records.savefile import new_save
from sorry_rules.rules import locate
from sorry_rules.simulation import simfile

SYSTEM_FILE = Path("/etc/passwd")
SECRET = "s3cret-line-of-a-system-file"


def _invoke(*args, cwd=None):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def secret(tmp_path_factory):
    """A file outside every test's folder holding a line no output may show."""
    folder = tmp_path_factory.mktemp("system")
    path = folder / "shadow"
    path.write_text(f"root: {SECRET}\nname: {SECRET}\n")
    return path


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


def _validate(*args):
    result = _invoke("validate", "--format", "text", *args)
    return result.exit_code, result.output


@pytest.mark.parametrize("how", ["absolute", "dotdot", "symlink"])
def test_extends_never_reads_a_file_outside_the_roots(workdir, secret, how):
    if how == "absolute":
        target = str(secret)
    elif how == "dotdot":
        target = os.path.relpath(secret, workdir)
        assert target.startswith("..")
    else:
        (workdir / "rules").mkdir()
        (workdir / "rules" / "x.yaml").symlink_to(secret)
        target = "rules/x.yaml"
    (workdir / "mine.yaml").write_text(f"extends: {target}\nname: mine\n")
    for fmt in ("text", "github", "json"):
        result = _invoke("validate", "--format", fmt, "mine.yaml")
        assert result.exit_code == 1
        assert SECRET not in result.output and "SR403" in result.output
    result = _invoke("--variant", "mine.yaml", "--auto", "--seed", 1)
    assert result.exit_code == 1 and SECRET not in result.output and "SR403" in result.output


def test_rules_root_widens_where_rule_files_are_read_from(workdir, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "base.yaml").write_text("extends: standard\nname: shared base\n")
    (workdir / "mine.yaml").write_text(f"extends: {shared / 'base.yaml'}\n")
    assert "SR403" in _validate("mine.yaml")[1]
    with locate.allowed(()):  # the option's effect ends with the block
        code, output = _validate("--rules-root", shared, "mine.yaml")
    assert code == 0, output
    assert "SR403" in _validate("mine.yaml")[1]


def test_a_file_that_is_not_a_rule_file_is_named_never_shown(workdir):
    (workdir / "env.yaml").write_text(f"API_KEY: {SECRET}\nPASSWORD: {SECRET}\n")
    code, output = _validate("env.yaml")
    assert code == 1 and SECRET not in output and "API_KEY" not in output
    assert output.splitlines()[0].endswith("[SR404]")


def test_validate_a_folder_of_links_to_system_files_a_fifo_and_a_device(workdir):
    rules = workdir / "rules"
    rules.mkdir()
    (rules / "passwd.yaml").symlink_to(SYSTEM_FILE)
    (rules / "null.yaml").symlink_to("/dev/null")
    (rules / "zero.yaml").symlink_to("/dev/zero")
    os.mkfifo(rules / "pipe.yaml")
    started = time.monotonic()
    code, output = _validate("rules")
    assert time.monotonic() - started < 30
    lines = [line for line in output.splitlines() if ".yaml:" in line]
    assert code == 1
    assert [line.split(":")[0] for line in lines] == [f"rules/{n}.yaml" for n in ("null", "passwd", "pipe", "zero")]
    passwd = SYSTEM_FILE.read_text(errors="replace").splitlines()
    assert not any(entry and entry in output for entry in passwd)
    assert "SR403" in lines[1] and "FIFO" in lines[2] and "device" in lines[0] and "device" in lines[3]


def test_links_that_loop_or_lead_nowhere_are_named_as_given_never_a_traceback(workdir):
    """A link to itself and a link to a missing file, in a folder, by name and by pattern:
    each is SR100 under its own name (the file it leads to is no file the user has)."""
    (workdir / "loop.yaml").symlink_to("loop.yaml")
    (workdir / "dangling.yaml").symlink_to("nowhere.yaml")
    (workdir / "ok.yaml").write_text("extends: standard\nname: ok\n")
    for args in ((".",), ("*.yaml",), ("loop.yaml", "dangling.yaml")):
        code, output = _validate(*args)
        assert code == 1 and "Traceback" not in output, output
        lines = sorted(line for line in output.splitlines() if ".yaml:" in line)
        assert [line.split(":")[0] for line in lines] == ["dangling.yaml", "loop.yaml"], output
        assert all(line.endswith("[SR100]") for line in lines), lines
    for spec in ("loop.yaml", "dangling.yaml"):
        result = _invoke("explain", "--variant", spec)
        assert result.exit_code != 0 and not isinstance(result.exception, (RuntimeError, OSError))
        assert f"no variant '{spec}': it is a link to" in result.output
        assert ("loop of links" in result.output) == (spec == "loop.yaml"), result.output


def test_extends_naming_a_fifo_a_folder_or_a_device_is_sr100_not_missing(workdir):
    """REFERENCE section 3: only regular files are read; a FIFO, a device or a folder named
    in `extends:` is SR100 at that entry (never opened for reading), not "no rule file"."""
    os.mkfifo(workdir / "pipe.yaml")
    (workdir / "folder.yaml").mkdir()
    for name, target in (("a", "pipe.yaml"), ("b", "folder.yaml"), ("c", "/dev/zero")):
        (workdir / f"{name}.yaml").write_text(f"extends: {target}\n")
    started = time.monotonic()
    code, output = _validate("a.yaml", "b.yaml", "c.yaml")
    assert time.monotonic() - started < 30 and code == 1
    lines = [line for line in output.splitlines() if ".yaml:" in line]
    assert [line.split(": error: ")[0] for line in lines] == ["a.yaml:1:10", "b.yaml:1:10", "c.yaml:1:10"]
    assert all(line.endswith("[SR100]") for line in lines), lines
    assert "FIFO" in lines[0] and "folder" in lines[1] and "device" in lines[2]


def test_a_variant_or_overlay_that_is_no_regular_file_is_named_for_what_it_is(workdir):
    """REFERENCE section 3: a FIFO or a folder named like a rule file is refused for what it
    is (never opened), on the command line as in `extends:`; an empty `extends:` name is said
    to be empty, not "a folder"."""
    os.mkfifo(workdir / "pipe.yaml")
    (workdir / "folder.yaml").mkdir()
    for option, what in (("--variant", "variant"), ("--rule", "rule overlay")):
        for name, kind in (("pipe.yaml", "a FIFO"), ("folder.yaml", "a folder")):
            result = _invoke("explain", option, name)
            assert result.exit_code == 2 and f"no {what} '{name}': it is {kind}" in result.output, result.output
    (workdir / "empty.yaml").write_text('extends: ""\nname: e\n')
    code, output = _validate("empty.yaml")
    assert code == 1 and "empty.yaml:1:10: error: extends: an empty name" in output, output


def test_readers_refuse_fifos_and_devices_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        with pytest.raises(OSError, match="not a regular file"):
            read_regular(path, 100)
        with pytest.raises(SaveFileError, match="not a regular file"):
            read_record(path)
        with pytest.raises(PositionError, match="not a regular file"):
            read_position_file(str(path))
        with pytest.raises(simfile.ResultsFileError, match="not a regular file"):
            simfile.read(path)


@pytest.mark.parametrize("text, said", [
    ("[" * 100_000, "nested too deep"), ("{\"a\":" * 1000 + "1" + "}" * 1000, "nested too deep"),
    ("9" * 5000, "too long"), ("1e999", "too large"), ("[NaN]", "not a JSON number"), ("-Infinity", "not a JSON number"),
])
def test_json_of_records_and_results_files_is_bounded(text, said):
    with pytest.raises(JsonLimitError, match=said):
        loads_json(text)
    assert loads_json('{"a": [1, 2.5, "[[[["], "b": -12345678901234567890}') == {"a": [1, 2.5, "[[[["],
                                                                                   "b": -12345678901234567890}


def _results_file(tmp_path) -> Path:
    out = tmp_path / "run.jsonl"
    result = _invoke("simulate", "--games", 4, "--players", 2, "--jobs", 1, "--seed", 3, "--out", out)
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("damage", ["deep", "huge-number", "huge-float", "games"])
def test_damaged_results_files_are_refused_without_a_traceback(tmp_path, damage):
    out = _results_file(tmp_path)
    lines = out.read_text().splitlines()
    if damage == "deep":
        lines.insert(1, "[" * 200_000)
    elif damage == "huge-number":
        lines.insert(1, lines[1].replace('"game":0', '"game":' + "9" * 4400, 1))
    elif damage == "huge-float":
        lines.insert(1, lines[1].replace('"game":0', '"game":1e999', 1))
    else:
        head = json.loads(lines[0])
        for side in head["sides"].values():
            side["games"] = 10**30
        lines[0] = json.dumps(head)
    out.write_text("\n".join(lines) + "\n")
    size = out.stat().st_size
    for command in (("--from", out), ("--games", 4, "--players", 2, "--jobs", 1, "--seed", 3, "--continue", out)):
        result = _invoke("simulate", *command)
        assert result.exit_code == 1 and "Traceback" not in result.output and str(out) in result.output
        assert not isinstance(result.exception, (RecursionError, OverflowError, MemoryError, ValueError))
    assert out.stat().st_size == size  # nothing appended


# ---- writing --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def record():
    game = load_game("standard")
    state = game.new_game(5, players=2)
    return new_save(game, "standard", (), 5, state, ("bot:random", "bot:random"), 100)


def test_a_save_replaces_only_a_game_record(tmp_path, record):
    text = tmp_path / "notes.json"
    text.write_text("my notes\n")
    with pytest.raises(SaveFileError, match="notes.json: not replaced"):
        write_record(text, record)
    assert text.read_text() == "my notes\n"
    target = tmp_path / "target.json"
    write_record(target, record)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    before = target.read_bytes()
    with pytest.raises(SaveFileError, match="symbolic link"):
        write_record(link, record)
    assert link.is_symlink() and target.read_bytes() == before
    with pytest.raises(SaveFileError, match="folder"):
        write_record(tmp_path, record)
    write_record(target, record)  # a record is replaced
    assert read_record(target) == record


def test_no_save_or_picture_replaces_a_fifo_or_a_device(tmp_path, record):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(SaveFileError, match="FIFO"):
        write_record(fifo, record)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    result = _invoke("--auto", "--seed", 1, "--players", 2, "--max-plies", 3, "--save", fifo)
    assert result.exit_code == 1 and "FIFO" in result.output
    result = _invoke("render", "-o", fifo)
    assert result.exit_code == 1 and "FIFO" in result.output
    result = _invoke("render", "-o", "/dev/null")
    assert result.exit_code == 1 and "device" in result.output
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_stray_temporary_files_of_killed_writes_are_removed(tmp_path, record):
    target = tmp_path / "game.json"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stray = [tmp_path / f".game.json.{int(dead.stdout)}.abcd1234.tmp", tmp_path / ".game.json.k2j4h5g6.tmp"]
    live = tmp_path / f".game.json.{os.getpid()}.zzzz9999.tmp"  # a write in progress in this process
    other = tmp_path / ".other.json.k2j4h5g6.tmp"
    for path in (*stray, live, other):
        path.write_text("{")
    write_record(target, record)
    assert not any(p.exists() for p in stray) and live.exists() and other.exists()
    assert read_record(target) == record
    assert remove_stray_temporaries(target) == []


def test_kill_during_saves_leaves_a_whole_record_and_no_temporary_after_the_next_save(tmp_path, record):
    """A writer killed with SIGKILL while saving over and over: the save is always whole, and
    the next save removes what the killed one left."""
    target = tmp_path / "game.json"
    write_record(target, record)
    code = ("import sys, itertools\nfrom sorry_rules.records.files import read_record, write_record\n"
            f"r = read_record({str(target)!r})\nprint('go', flush=True)\n"
            f"for _ in itertools.count(): write_record({str(target)!r}, r)\n")
    for _ in range(5):
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "go"
        time.sleep(0.05)
        proc.kill()
        proc.wait()
        proc.stdout.close()
        assert read_record(target) == record
    write_record(target, record)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


# ---- saved games name their rules -----------------------------------------------------------------
def test_a_save_naming_rules_outside_the_roots_is_not_read(workdir, tmp_path, secret, record):
    forged = record.model_copy(deep=True)
    forged.variant.spec = str(secret)
    save = workdir / "forged.json"
    write_record(save, forged)  # a valid checksum: anyone can compute one
    for args in (("--resume", save, "--auto"), ("replay", save)):
        result = _invoke(*args)
        assert result.exit_code == 1 and SECRET not in result.output and "is not read" in result.output


# ---- a service that is not Dask ---------------------------------------------------------------------
@contextlib.contextmanager
def _loopback_service(answer: bytes | None):
    """The `tcp://` address of a service on loopback that takes every connection and, when
    `answer` is given, reads a request and sends `answer` (else stays silent, holding it)."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(0.2)
    done, held = threading.Event(), []

    def serve():
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            held.append(conn)
            if answer is not None:
                try:
                    conn.settimeout(2)
                    conn.recv(65536)
                    conn.sendall(answer)
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        done.set()
        thread.join(5)
        for conn in held:
            conn.close()
        server.close()


HTTP_REPLY = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"


def test_a_scheduler_address_where_another_service_answers_is_a_clear_error():
    """An HTTP server on the scheduler's address made `simulate --engine dask` fail with a
    MemoryError traceback (its reply read as a frame of exabytes). Loopback only, bounded."""
    with _loopback_service(HTTP_REPLY * 4) as address:
        result = _invoke("simulate", "--games", 2, "--players", 2, "--engine", "dask", "--scheduler", address,
                         "--connect-timeout", 3)
    assert result.exit_code == 1 and "does not answer as a Dask scheduler" in result.output
    assert isinstance(result.exception, SystemExit)


@pytest.mark.slow  # a process each, waiting out the connect timeout: 13 s together
@pytest.mark.parametrize("answer", [None, HTTP_REPLY])
def test_a_scheduler_address_that_takes_the_connection_and_never_answers_is_no_hang(answer):
    """A service that accepts and stays silent (an HTTP server waiting for a request) kept the
    Dask handshake waiting past --connect-timeout for ever; one that answers HTTP left a
    half-made client to print a TimeoutError traceback at exit. Loopback only, bounded."""
    with _loopback_service(answer) as address:
        started = time.monotonic()
        done_run = subprocess.run([sys.executable, "-m", "sorry_rules", "simulate", "--games", "2", "--players", "2",
                                   "--engine", "dask", "--scheduler", address, "--connect-timeout", "2"],
                                  capture_output=True, text=True, timeout=120)
        took = time.monotonic() - started
    assert done_run.returncode == 1 and "cannot reach the Dask scheduler" in done_run.stderr, done_run.stderr
    assert "Traceback" not in done_run.stderr and "Exception ignored" not in done_run.stderr, done_run.stderr
    assert took < 60


def test_a_save_never_replaces_a_device(tmp_path, record):
    """Run as root, `--save /dev/null` turned the null device into a plain file. A null device
    made in the test's folder (root may make one) stands in for it; elsewhere /dev/null is
    only checked, never written to."""
    from sorry_rules.base.safeio import check_replaceable

    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        device = Path("/dev/null")
        with pytest.raises(OSError, match="device"):
            check_replaceable(device)
        return
    for args in (("--auto", "--seed", 1, "--players", 2, "--max-plies", 3, "--save", device),
                 ("render", "-o", device), ("replay", tmp_path / "missing.json", "--html", device)):
        result = _invoke(*args)
        assert result.exit_code != 0 and "Traceback" not in result.output
    with pytest.raises(SaveFileError, match="device"):
        write_record(device, record)
    assert stat.S_ISCHR(os.lstat(device).st_mode)


@pytest.mark.parametrize("version", [["0.1"], {"v": 1}])
def test_a_results_header_whose_version_is_not_text_is_damaged(tmp_path, version):
    """Fuzzing (results files): a side's `sorry_rules` version as a list or mapping raised
    TypeError when the file was summarised."""
    out = _results_file(tmp_path)
    lines = out.read_text().splitlines()
    head = json.loads(lines[0])
    for side in head["sides"].values():
        side["sorry_rules"] = version
    out.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    result = _invoke("simulate", "--from", out)
    assert result.exit_code == 1 and "header is damaged" in result.output


def test_a_record_whose_format_is_not_text_is_not_a_record(tmp_path, record):
    """Fuzzing (saves): `"format": [...]` raised TypeError."""
    path = tmp_path / "save.json"
    path.write_text(json.dumps({"format": ["sorry-rules-game"], "version": 2}))
    with pytest.raises(SaveFileError, match="not a sorry-rules game record"):
        read_record(path)
    with pytest.raises(SaveFileError, match="not replaced"):
        write_record(path, record)


def test_a_refused_output_file_is_refused_for_what_it_is(workdir):
    """A file the program will not write over is named for what it is: a text is no game
    record (not "another game": --resume would fail on it), a link or a FIFO is no regular
    file (not "continue it with --continue"), and a dangling link is a link; none is changed."""
    (workdir / "notes.txt").write_text("my notes\n")
    (workdir / "gone.jsonl").symlink_to(workdir / "nowhere.jsonl")
    (workdir / "gone.svg").symlink_to(workdir / "nowhere.svg")
    os.mkfifo(workdir / "pipe.jsonl")
    said = {
        "save": _invoke("--auto", "--seed", "3", "--players", "2", "--save", "notes.txt"),
        "link": _invoke("simulate", "--games", "2", "--jobs", "1", "--out", "gone.jsonl"),
        "fifo": _invoke("simulate", "--games", "2", "--jobs", "1", "--out", "pipe.jsonl"),
        "picture": _invoke("render", "-o", "gone.svg"),
    }
    assert all(result.exit_code == 1 for result in said.values()), {k: r.output for k, r in said.items()}
    assert "notes.txt exists and is not a game record" in said["save"].output
    assert "gone.jsonl is a symbolic link, not a regular file" in said["link"].output
    assert "pipe.jsonl is a FIFO (named pipe), not a regular file" in said["fifo"].output
    assert "gone.svg: it is a symbolic link" in said["picture"].output
    assert not any("--continue" in result.output or "--resume" in result.output for result in said.values())
    assert (workdir / "notes.txt").read_text() == "my notes\n" and not (workdir / "nowhere.jsonl").exists()


def test_written_files_get_the_usual_permissions(workdir):
    """A picture, page or save is written whole under a temporary name, then put in place;
    it gets the permissions any new file gets (the umask's), not the temporary file's private
    ones, and a picture written again keeps its own."""
    mask = os.umask(0o022)
    try:
        assert _invoke("render", "-o", "new.svg").exit_code == 0
        assert stat.S_IMODE(os.stat(workdir / "new.svg").st_mode) == 0o644
        os.chmod(workdir / "new.svg", 0o640)
        assert _invoke("render", "-o", "new.svg").exit_code == 0
        assert stat.S_IMODE(os.stat(workdir / "new.svg").st_mode) == 0o640
        assert _invoke("--auto", "--seed", "3", "--players", "2", "--max-plies", "5", "--save", "g.json").exit_code == 0
        assert stat.S_IMODE(os.stat(workdir / "g.json").st_mode) == 0o644
    finally:
        os.umask(mask)


def test_an_output_or_input_name_the_system_refuses_is_one_message(workdir):
    """A file name longer than the system allows (300 characters) to render -o, replay --html,
    --plot and validate: one error line, never an OSError traceback."""
    long = "x" * 300
    assert _invoke("--auto", "--seed", "1", "--players", "2", "--max-plies", "5", "--save", "g.json").exit_code == 0
    for args in (["render", "-o", f"{long}.svg"], ["replay", "g.json", "--html", f"{long}.html"],
                 ["simulate", "--games", "1", "--jobs", "1", "--plot", f"{long}.svg"], ["validate", f"{long}.yaml"]):
        result = _invoke(*args)
        assert result.exit_code in (1, 2) and isinstance(result.exception, SystemExit), (args, result.exception)
        assert "name too long" in result.output.lower(), result.output


def test_a_folder_given_where_a_file_is_read_is_a_message_and_exit_1(workdir):
    """README: a bad position file gets a message and exit code 1; so does a folder given
    as the position, the saved game to replay, resume or draw (it was a usage error, 2,
    where a missing file was 1)."""
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    folder = workdir / "games"
    folder.mkdir()
    for args, said in ((["moves", "--state", str(folder)], "cannot read position file"),
                       (["render", "--state", str(folder)], "cannot read position file"),
                       (["replay", str(folder)], "cannot read the game record"),
                       (["--resume", str(folder), "--auto"], "cannot read the game record"),
                       (["render", "--game", str(folder)], "cannot read the game record")):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, (args, result.output)
        assert said in result.stderr and "it is a folder, not a regular file" in result.stderr, (args, result.stderr)


def test_the_loader_knows_the_fields_of_position_files():
    """`rules.loader` names a position file given as a rule file by its fields; the rules
    layer cannot import the position models, so this keeps its list equal to theirs."""
    from sorry_rules.records.gridposition import GridPositionModel
    from sorry_rules.records.positionmodel import PositionModel
    from sorry_rules.rules.loader import POSITION_FIELDS

    assert POSITION_FIELDS == set(PositionModel.model_fields) | set(GridPositionModel.model_fields)
