"""Test-wide configuration."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from depth import PROBLEM  # (tests/depth.py)


@pytest.fixture(autouse=True, scope="session")
def wide_terminal() -> Iterator[None]:
    """The terminal's width, for what people read at it (cli/screen.py breaks longer
    lines): wide enough that no test's screen is broken unless the test says how wide it is
    (the programs a test starts inherit it)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", "1000")
        yield


def pytest_configure(config: pytest.Config) -> None:
    if PROBLEM:  # (the depth of the seeded searches, tests/depth.py)
        raise pytest.UsageError(PROBLEM)
    # When a Hypothesis test fails, its pytest plugin imports libcst to suggest a patch, and
    # libcst triggers a DeprecationWarning in mypy_extensions. With warnings as errors that
    # would turn a readable failure into an INTERNALERROR, so let that one warning pass.
    config.addinivalue_line(
        "filterwarnings", "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (the suite's default, pyproject.toml): one worker more than the machine has
    cores. Many tests wait on a program they started (a game at a pseudo-terminal, the
    browser, the language server, a cluster) and leave their core idle meanwhile; the worker
    over takes it (on 2 cores, 5 minutes where two workers took 6)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        os.cpu_count() or 1
    return cores + 1
