"""cardrules: card games described as data, played by one generic interpreter."""

from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"

# In a source checkout the sub-packages live beside this folder (dsl/, interpreter/,
# cli/, rulesets/); an installed copy has them inside. Let a checkout import itself.
_checkout = Path(__file__).resolve().parent.parent
if (_checkout / "dsl" / "grammar.lark").is_file() and (_checkout / "pyproject.toml").is_file():
    __path__.append(str(_checkout))  # noqa: F821 - __path__ is set for packages
