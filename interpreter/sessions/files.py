"""Files written over whole: a saved game, a simulation's numbers or picture, an event log.

    with NewFile(path) as out:      # out: a new file of its own beside `path`
        out.write(text)             # on leaving, it takes `path`'s place at once

The new file is made under a name no file has (created exclusively: never a file or a link
someone put there beforehand, so nothing is written through a planted link), in the folder of
the file it replaces, and put in its place in one step once complete (os.replace): whoever reads
`path` finds the old file or the new one, never part of one. A write that fails (a full disk,
a size limit) removes the new file and leaves `path` as it was. A name that is no file to
replace (a device or a pipe: /dev/stdout) is written into as it is.

A file read as it is written (an event log, which a game that never ends keeps writing, and
whoever follows it reads as it grows) is made the same way but put in `path`'s place at once
(`at_once`): never written through a link either, but holding, whatever happens, what was
written so far.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from contextlib import suppress
from pathlib import Path
from types import TracebackType
from typing import IO, Any

PRIVATE = 0o600  # a saved game's: its seed deals every hidden card
SHARED = 0o666  # any other file's, less what the umask takes away (as any new file)
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) \
    | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_TRIES = 20  # new names tried before giving up (each one of 2^32)


class NewFile:
    """A file being written to take `path`'s place: `file` to write to, then `done()` (or
    leave a `with` block) to put it there, or `drop()` to remove it and leave `path` as it
    was (`at_once`: put there as soon as it is made). OSError if it cannot be made."""

    def __init__(self, path: Path, binary: bool = False, newline: str | None = None,
                 private: bool = False, at_once: bool = False):
        self.path = path
        self.temporary: Path | None = None
        encoding = None if binary else "utf-8"
        mode = "wb" if binary else "w"
        if _special(path):
            self.file: IO[Any] = open(path, mode, encoding=encoding,  # noqa: SIM115
                                      newline=newline)  # (closed by done or drop)
            return
        descriptor, temporary = _create(path, PRIVATE if private else SHARED)
        try:
            self.file = os.fdopen(descriptor, mode, encoding=encoding, newline=newline)
        except BaseException:
            os.close(descriptor)
            os.unlink(temporary)
            raise
        self.temporary = temporary
        if at_once:
            self.put_in_place()

    def put_in_place(self) -> None:
        """Put the new file in `path`'s place (OSError: removed, `path` as it was)."""
        try:
            if self.temporary is not None:
                os.replace(self.temporary, self.path)
                self.temporary = None
        except BaseException:
            self.drop()
            raise

    def done(self) -> None:
        """Close the file and put it in `path`'s place; OSError (the new file removed,
        `path` as it was) if that fails."""
        try:
            self.file.close()
        except BaseException:
            self.drop()
            raise
        self.put_in_place()

    def drop(self) -> None:
        """Close and remove the new file: `path` stays as it was."""
        with suppress(OSError):
            self.file.close()
        if self.temporary is not None:
            with suppress(OSError):
                os.unlink(self.temporary)
            self.temporary = None

    def __enter__(self) -> IO[Any]:
        return self.file

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is None:
            self.done()
        else:
            self.drop()


def _special(path: Path) -> bool:
    """Whether `path` names something other than a file to replace: a device, a pipe (a
    name that names nothing yet, or a file, is replaced)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _create(path: Path, mode: int) -> tuple[int, Path]:
    """A new, empty file beside `path` under a name no file had, opened for writing."""
    for _ in range(_TRIES):
        temporary = path.with_name(f".{path.name[:64]}.{secrets.token_hex(4)}.part")
        try:
            return os.open(temporary, _FLAGS, mode), temporary
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no new file could be made beside it")
