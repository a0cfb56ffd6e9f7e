"""`cardrules lsp`: the language server for rule files, for an editor to start (docs/editors.md).

It speaks the Language Server Protocol on standard input and output, and needs the `lsp` extra
(pygls): `pip install 'cardrules[lsp]'`.
"""

from __future__ import annotations

import importlib.util
import sys

import click

from cardrules.errors import ProtocolError

from .errors import EXIT_USAGE
from .params import Seconds


def lsp_installed() -> bool:
    """Whether the lsp extra (pygls) is installed."""
    return importlib.util.find_spec("pygls") is not None


@click.command("lsp")
@click.option("--delay", type=Seconds(5), default=0.3, show_default=True,
              help="Seconds of quiet after a change before the text is checked again.")
def lsp_cmd(delay: float) -> None:
    """Serve rule files to an editor: the Language Server Protocol over stdio."""
    if not lsp_installed():
        click.echo("error: cardrules lsp needs the lsp extra (pygls): "
                   "pip install 'cardrules[lsp]' (in a checkout: pip install '.[lsp]')", err=True)
        sys.exit(EXIT_USAGE)
    from cardrules.lsp.server import serve

    try:
        serve(delay)
    except ProtocolError as exc:  # the stream cannot be read on: no message ends where
        click.echo(f"error: cardrules lsp: {exc}", err=True)  # this one would
        sys.exit(EXIT_USAGE)
