"""Reading a file a user names (a saved game, a scenario, a CSV, a game folder's data, a build's manifest): only a
regular file, never more than a limit.

A named pipe (FIFO) blocks whoever opens it until a writer comes, a device such as ``/dev/zero`` never ends, and a
sparse file can claim terabytes: :func:`read_file` refuses each with one line, before reading a byte of it. The file
is checked before it is opened (``stat``, following links: a link to ``/dev/zero`` is a device), opened without
blocking (``O_NONBLOCK``: a FIFO put in its place meanwhile cannot hold the open), checked again on what was opened
(``fstat``), and read up to its limit and one byte more, so that a file that grows while it is read is refused too.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterator
from typing import BinaryIO

from wizprint.errors import WizprintError

# read-only, never blocking on a FIFO, never becoming the controlling terminal, not inherited by a child process
_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
          | getattr(os, "O_BINARY", 0))
_CHUNK = 1 << 20
STDIN = "-"  # the name of standard input, where a command reads it (import csv -)


class FileProblem(WizprintError):
    """A file that cannot be read: ``reason`` says why, as a predicate of the file (``is not a regular file (a
    named pipe)``, ``cannot be read: Permission denied``, ``is larger than 16 MiB, the limit for a saved game``);
    ``kind`` is ``"kind"`` (not a regular file), ``"size"`` (over the limit) or ``"os"`` (the system refused, or
    the name cannot be a file's); ``detail`` is the reason without its ``cannot be read:`` (for a message that says
    so in its own words). ``str()`` is ``NAME: REASON``."""

    def __init__(self, shown: str, reason: str, kind: str):
        self.shown, self.reason, self.kind = shown, reason, kind
        self.detail = reason.removeprefix("cannot be read: ")
        super().__init__(f"{shown}: {reason}")


def size_text(n: int) -> str:
    """A limit in bytes for a message: ``16 MiB``, ``64 KiB``, ``100 bytes``.

    >>> size_text(16 << 20), size_text(1 << 20), size_text(64 << 10), size_text(100)
    ('16 MiB', '1 MiB', '64 KiB', '100 bytes')
    """
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return f"{n >> 10} KiB"
    return f"{n:,} bytes"


def _not_regular(mode: int) -> str | None:
    """Why a file of this mode is not read (None: a regular file, which is)."""
    if stat.S_ISREG(mode):
        return None
    kind = ("a folder" if stat.S_ISDIR(mode) else "a named pipe" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "")
    return f"is not a regular file ({kind})" if kind else "is not a regular file"


def _os_problem(shown: str, exc: OSError | ValueError) -> FileProblem:
    if isinstance(exc, ValueError):  # a NUL byte in the name
        return FileProblem(shown, "cannot be read: its name holds a NUL byte", "os")
    return FileProblem(shown, f"cannot be read: {exc.strerror or exc}", "os")


@contextlib.contextmanager
def open_regular(path: str | os.PathLike[str], shown: str | None = None, limit: int | None = None,
                 what: str = "a file") -> Iterator[BinaryIO]:
    """A regular file, opened for reading in binary (raises :class:`FileProblem`: not a regular file, larger than
    ``limit`` bytes by its size, cannot be opened). The caller reads at most what it needs (:func:`read_file` reads
    it whole, up to a limit)."""
    shown = str(path) if shown is None else shown
    try:
        before = os.stat(path)  # before the open: opening a device or a FIFO is not harmless
        why = _not_regular(before.st_mode)
        if why is not None:
            raise FileProblem(shown, why, "kind")
        fd = os.open(path, _FLAGS)
    except (OSError, ValueError) as exc:
        raise _os_problem(shown, exc) from None
    try:
        st = os.fstat(fd)  # what was opened: another file may have been put at the name since
        why = _not_regular(st.st_mode)
        if why is not None:
            raise FileProblem(shown, why, "kind")
        if limit is not None and st.st_size > limit:
            raise too_large(shown, limit, what)
        fh = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with fh:
        yield fh


def too_large(shown: str, limit: int, what: str) -> FileProblem:
    return FileProblem(shown, f"is larger than {size_text(limit)}, the limit for {what}", "size")


def read_file(path: str | os.PathLike[str], limit: int, what: str = "a file", shown: str | None = None, *,
              stdin: bool = False) -> bytes:
    """The bytes of the file a user names, at most ``limit`` of them; ``what`` names the kind of file in the message
    of one that is larger (``a saved game``). With ``stdin``, the name ``-`` is standard input (read up to the same
    limit). Raises :class:`FileProblem` for a file that is not a regular one, cannot be read or is too large."""
    shown = str(path) if shown is None else shown
    if stdin and str(path) == STDIN:
        try:
            data = sys.stdin.buffer.read(limit + 1)
        except (OSError, ValueError, AttributeError) as exc:
            raise FileProblem(shown, f"cannot be read: {getattr(exc, 'strerror', None) or exc}", "os") from None
    else:
        with open_regular(path, shown, limit, what) as fh:
            try:
                data = _read(fh, limit + 1)
            except OSError as exc:
                raise _os_problem(shown, exc) from None
    if len(data) > limit:
        raise too_large(shown, limit, what)
    return data


def _read(fh: BinaryIO, n: int) -> bytes:
    """At most ``n`` bytes, in pieces (a read is never asked for more than a piece at once)."""
    parts = []
    while n > 0:
        got = fh.read(min(n, _CHUNK))
        if not got:
            break
        parts.append(got)
        n -= len(got)
    return b"".join(parts)
