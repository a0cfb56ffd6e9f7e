"""Test-wide configuration."""

from __future__ import annotations

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
