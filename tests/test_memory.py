"""Memory and time stay bounded on hostile input, checked in a child process whose address
space is limited (resource.setrlimit), so that a regression fails here instead of taking
the machine: a game that never ends keeps no history, a size bomb in a rule file is refused
at validate, a YAML alias bomb and deep nesting are refused before anything is built.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"
MINI = DATA / "mini.yaml"
NEVER = DATA / "never_ends.yaml"
LIMIT = 400 * 2**20  # bytes of address space: cardrules needs about 50 MB of it
GROWTH = 16 * 2**20  # what a long game may add to its memory (once ~40 MB a second)
CLI = [sys.executable, "-c", "from cardrules.cli.main import main; main()"]

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(),
                                reason="reads the memory of a process from /proc")


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def status(pid: int, key: str) -> int:
    """A figure from /proc/PID/status, in bytes (VmRSS: the memory in use)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no {key} for process {pid}")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime, stime (in clock ticks)


def watch(args: list[str], cwd: Path, settle: float = 1.5, more: float = 1.5) -> tuple[int, int]:
    """Start `cardrules ARGS` limited; its memory after `settle` seconds of work and after
    `more` seconds after that, then stop it. It must still be running at both times."""
    child = subprocess.Popen([*CLI, *args], cwd=cwd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, preexec_fn=limited)
    try:
        samples = []
        for wait in (settle, more):
            start = cpu_seconds(child.pid)
            deadline = time.monotonic() + 30  # (a busy machine may lend it little time)
            while cpu_seconds(child.pid) - start < wait and time.monotonic() < deadline:
                assert child.poll() is None, child.stderr.read().decode() if child.stderr \
                    else child.returncode
                time.sleep(0.1)
            samples.append(status(child.pid, "VmRSS"))
        return samples[0], samples[1]
    finally:
        child.kill()
        child.wait()
        if child.stderr:
            child.stderr.close()


@pytest.mark.parametrize("extra", [[], ["--json"], ["--log", "events.jsonl"]],
                         ids=["plain", "json", "log"])
def test_a_game_that_never_ends_keeps_no_history(extra: list[str], tmp_path: Path) -> None:
    first, later = watch(["run", str(NEVER), *extra], tmp_path)
    assert later - first < GROWTH, (first, later)
    if extra[:1] == ["--log"]:  # written as it goes, not kept
        assert (tmp_path / "events.jsonl").stat().st_size > 100_000


def run_limited(args: list[str], cwd: Path,
                timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, preexec_fn=limited)


def bombs() -> dict[str, str]:
    """Rule files that once asked for unbounded memory, by name."""
    mini = MINI.read_text(encoding="utf-8")
    lol = "lol0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
        f"lol{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 10))
    return {
        "copies": mini.replace("  zone: stock\n", "  zone: stock\n  copies: "
                               "18446744073709551616\n"),
        "negative copies": mini.replace("  zone: stock\n", "  zone: stock\n  copies: "
                                        "-18446744073709551616\n"),
        "copies by text": mini.replace("  zone: stock\n", "  zone: stock\n  copies: "
                                       "\"player_count * 1000000000\"\n"),
        "rounds": mini.replace("rounds: 1", "rounds: 18446744073709551616"),
        "repeat": mini.replace("        - name: draw\n",
                               "        - name: draw\n          repeat: 1000000000\n"),
        "alias bomb": "cardrules: 1\nname: x\n" + lol,
        "brackets": "a: " + "[" * 100_000 + "]" * 100_000,
        "digits": mini.replace("rounds: 1", "rounds: " + "9" * 100_000),
    }


@pytest.mark.parametrize("name", list(bombs()))
def test_a_size_bomb_is_refused_at_validate(name: str, tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(bombs()[name], encoding="utf-8")
    result = run_limited(["validate", str(path)], tmp_path)
    assert result.returncode == 1, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr
    assert result.stderr.startswith(f"{path}:"), result.stderr[:500]


@pytest.mark.parametrize("growth", ["'set xs = xs + xs'",
                                    "'set xs = xs + xs', 'set xss = [xs, xs]'"],
                         ids=["joined", "held twice"])
def test_a_list_that_doubles_in_a_loop_is_a_located_fault_in_little_memory(
        growth: str, tmp_path: Path) -> None:
    """A list joined to itself again and again (or held twice by a list of lists, which a
    view or a save writes out twice) validates, as each step is small; the game stops at
    the list that passes the bound."""
    mini = MINI.read_text(encoding="utf-8")
    assert mini.count("variables:\n") == 1 and mini.count("    - shuffle stock\n") == 1
    text = mini.replace("variables:\n", "variables:\n  - {name: xs, scope: game, initial: "
                        "\"[1, 2]\"}\n  - {name: xss, scope: game, initial: \"[[1]]\"}\n")
    text = text.replace("    - shuffle stock\n", "    - shuffle stock\n    - while: 'true'\n"
                        f"      limit: 40\n      do: [{growth}]\n")
    path = tmp_path / "doubling.yaml"
    path.write_text(text, encoding="utf-8")
    checked = run_limited(["validate", str(path)], tmp_path)
    assert checked.returncode == 0, checked.stderr
    result = run_limited(["run", str(path)], tmp_path)
    assert result.returncode == 3, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr
    assert result.stderr.startswith(f"{path}:") and "100,000" in result.stderr, result.stderr


def test_simulate_a_billion_games_starts_in_little_memory(tmp_path: Path) -> None:
    first, later = watch(["simulate", "golf6-quick", "--games", "1000000000", "--workers", "1"],
                         tmp_path, settle=1.0, more=1.5)
    assert later < 200 * 2**20 and later - first < GROWTH, (first, later)
