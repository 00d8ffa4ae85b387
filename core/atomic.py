"""Atomic file writes: write to a temporary name in the same folder, then rename."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from .errors import BuildError


def ensure_dir(path: Path) -> Path:
    """Create ``path`` (and parents) or raise a clear :class:`BuildError`."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BuildError(f"cannot create output folder {path}: {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise BuildError(f"output folder {path} is not writable")
    return path


def write_atomic(path: Path, data: bytes | str) -> Path:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    ensure_dir(path.parent)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise BuildError(f"cannot write in {path.parent}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise BuildError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path
