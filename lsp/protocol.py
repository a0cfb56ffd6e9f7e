"""The Language Server Protocol as the server reads and writes it, over standard input and
output: pygls's protocol, with a refusal the editor is shown (Refused), a message that cannot
be read answered rather than dropped, bounded reads, and a log of plain lines.
"""

from __future__ import annotations

import logging
import re
import sys
from typing import Any, BinaryIO

from lsprotocol.types import EXIT
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.protocol import LanguageServerProtocol

from cardrules.dsl.yaml_bounds import MAX_BYTES
from cardrules.errors import ProtocolError

MAX_HEADER = 1000  # bytes in one header line ("Content-Length: 1234" and the like)
# bytes in one message: the largest rule file, every character escaped as JSON may escape it
MAX_MESSAGE = 16 * MAX_BYTES
_LENGTH = re.compile(rb"Content-Length: (\d+)\r\n")  # the one header pygls reads (io_.py)


class Refused(JsonRpcException):
    """A request the server answers with an error that is no fault of its own (a rename the
    file does not allow, a request before `initialize`): the editor shows the message, and
    the server's log (standard error) says nothing of it."""


class RulesProtocol(LanguageServerProtocol):
    """pygls's protocol, but a request whose parameters cannot be read as the protocol's (a
    position of line -1, say) is answered with Invalid Params and the reason, and one after
    `shutdown` with Invalid Request: pygls drops them unanswered, and the editor waits for
    an answer that never comes."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if not ("id" in data and "method" in data and isinstance(data["id"], (int, str))):
                raise  # (a notification or a response: nobody waits for an answer)
            reason = _reason(exc)
            error = JsonRpcInvalidParams(f"{exc.message}: {reason}") \
                if isinstance(exc, JsonRpcInvalidParams) else exc
            self._send_response(data["id"], error=error.to_response_error())
            return _ANSWERED

    def handle_message(self, message: Any) -> None:
        """A message, but after `shutdown` a request is answered Invalid Request, as the
        protocol says (pygls leaves it unanswered), and a notification but `exit` dropped."""
        if message is _ANSWERED:
            return
        if self._shutdown and getattr(message, "method", EXIT) != EXIT:
            if isinstance(getattr(message, "id", None), (int, str)):
                refused = JsonRpcInvalidRequest("the server is shutting down: after "
                                                "`shutdown`, an editor sends only `exit`")
                self._send_response(message.id, error=refused.to_response_error())
            return
        super().handle_message(message)


_ANSWERED = object()  # a request refused as it was read: answered already
_PIECE = 1 << 16  # bytes of a message too long to keep, read at a time and let go
# what a message too long to read is read as: a notification of the server's own
PASSED_OVER = "$/cardrules/passedOver"
_PASSED_OVER = b'{"jsonrpc": "2.0", "method": "%s", "params": null}' % PASSED_OVER.encode()


class BoundedInput:
    """Standard input as pygls reads it (a line for each header, then the body of the length
    a header gave), each read bounded: a header line longer than MAX_HEADER, or a body longer
    than MAX_MESSAGE, cannot be an editor's, and is refused (ProtocolError) before anything is
    read into memory. pygls takes any length that is digits, 99999999999999999999 too."""

    def __init__(self, stream: BinaryIO):
        self.stream = stream
        self.length: int | None = None  # what the headers of the message being read gave

    def readline(self) -> bytes:
        line = self.stream.readline(MAX_HEADER + 1)
        if len(line) > MAX_HEADER:
            raise ProtocolError(f"a message header longer than {MAX_HEADER:,} bytes: not the "
                                "Language Server Protocol")
        self._header(line)
        return line

    def _header(self, line: bytes) -> None:
        """A header pygls would pass over, waiting for ever for the one it looks for, is
        refused: a Content-Length it cannot read (`content-length: 5`, `Content-Length: x`,
        a line without its \\r), of no bytes, or headers that end without one."""
        if not line:
            return  # (the end of the input: the server stops)
        if not line.strip():
            if self.length is None:
                raise ProtocolError("a message's headers end without a Content-Length: not "
                                    "the Language Server Protocol")
            return
        if line[:15].lower() != b"content-length:" or self.length is not None:
            return  # (another header; or a second Content-Length, which pygls passes over)
        found = _LENGTH.fullmatch(line)
        if found is None:
            shown = line.decode("utf-8", "replace").rstrip("\r\n")
            raise ProtocolError(f"a message header '{shown}' is not 'Content-Length: ' and a "
                                "number of bytes, ended by \\r\\n")
        if int(found.group(1)) == 0:
            raise ProtocolError("a message header gives Content-Length 0: a message has at "
                                "least one byte")
        self.length = int(found.group(1))

    def read(self, size: int) -> bytes:
        """A message's body. One longer than MAX_MESSAGE (a file of many megabytes opened in
        an editor that starts the server for every YAML file) is read through in pieces and
        passed over, with a line on standard error: the server goes on serving the other
        documents. If the input ends before the length the header gave, that is no editor's
        message, and the server stops (ProtocolError)."""
        self.length = None  # (the next message's headers follow its body)
        if size <= MAX_MESSAGE:
            return self.stream.read(size)
        passed = 0
        while passed < size:
            piece = self.stream.read(min(_PIECE, size - passed))
            if not piece:
                shown = str(size) if size < 10**30 else "a number of more than 30 digits"
                raise ProtocolError(f"a message header gives Content-Length {shown}, and the "
                                    f"input ends after {passed:,} bytes of it (a message has "
                                    f"at most {MAX_MESSAGE:,} bytes)")
            passed += len(piece)
        logging.getLogger("pygls").warning(
            "a message of %s bytes passed over: the server reads at most %s (a document "
            "that large is no rule file)", f"{size:,}", f"{MAX_MESSAGE:,}")
        return _PASSED_OVER


class PlainLog(logging.Handler):
    """pygls's log on standard error, a plain line for each thing worth saying, never a
    traceback: a message the protocol does not allow (a position of line -1) is dropped with
    its reason; a refusal (Refused) is the editor's to show, not the log's. (An error of the
    server's own is answered to the editor with its traceback.)"""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        said = record.getMessage().split("\n", 1)[0]
        if isinstance(error, Refused) or said == "Unable to deserialize message":
            return  # (a refusal; or the reason, which the next record gives in a line)
        if error is not None:
            said = f"{said}: {_reason(error)}"
        try:
            sys.stderr.write(f"cardrules lsp: {said}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def _reason(error: BaseException) -> str:
    """What an exception says in a line: the innermost cause (a ValueError behind cattrs's
    group behind pygls's Invalid Params), as its type and message."""
    while True:
        if isinstance(error, BaseExceptionGroup) and error.exceptions:
            error = error.exceptions[0]
        elif error.__cause__ is not None:
            error = error.__cause__
        else:
            break
    text = str(error).split("\n", 1)[0]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
