"""Atomic writes.

A single file is written to a temporary name in its folder and renamed (:func:`write_atomic`). A whole folder
(a build, an imported game) is written into a hidden temporary sibling and swapped in at the end
(:class:`StagedFolder`), so that after an interruption at any moment the folder is either the old one or the new
one, never half of each.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import hashlib
import os
import re
import shutil
import signal
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import Any

from .errors import BuildError, quote

TMP_TAG = "wizprint-tmp"
OLD_TAG = "wizprint-old"
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def in_the_way(folder: Path) -> Path | None:
    """What stops ``folder`` from being made: the nearest existing one of it and its parents, when that is not a
    folder (a file, a link to one, a pipe); None when nothing is in the way."""
    p = folder
    try:
        while not os.path.lexists(p):
            if p == p.parent:
                return None
            p = p.parent
        return None if p.is_dir() else p
    except (OSError, ValueError):
        return None


def cannot_make(folder: Path, what: str, exc: OSError) -> BuildError:
    """The error for a folder that could not be made: a file in the way named as such (wizprint never moves or
    deletes it), else the system's reason."""
    blocker = in_the_way(folder)
    if blocker is not None:
        return BuildError(f"cannot create {what} {folder}: {blocker} is a file, not a folder, and it is in the way "
                          f"(wizprint leaves it alone: move it away or choose another place)")
    return BuildError(f"cannot create {what} {folder}: {exc.strerror or exc}")


def ensure_dir(path: Path) -> Path:
    """Create ``path`` (and parents) or raise a clear :class:`BuildError`."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cannot_make(path, "output folder", exc) from None
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


def name_problem(part: str) -> str | None:
    """Why ``part`` cannot be one part of a file name (a folder or file name built from data), or None."""
    if part in ("", ".", ".."):
        return "it is empty, '.' or '..'"
    bad = _CONTROL.search(part)
    if bad:
        return f"it holds a control character (U+{ord(bad.group()):04X})"
    if "/" in part or "\\" in part or ":" in part:
        return "it holds a '/', '\\' or ':'"
    if len(part.encode("utf-8", "surrogatepass")) > 240:
        return "it is longer than 240 bytes"
    return None


def safe_relpath(name: str) -> PurePosixPath:
    """A relative path (``svg/deck/id.svg``) checked to stay inside the folder it is written into: not absolute,
    no ``..``, ``.`` or empty part, no backslash, colon or control character (NUL included), no part longer than
    a file name may be. Raises :class:`BuildError` naming the path."""
    if not isinstance(name, str) or not name:
        raise BuildError(f"output file name {quote(name)} is empty")
    if name.startswith("/"):
        raise BuildError(f"output file name {quote(name)} is an absolute path; every output must stay inside the "
                         f"output folder")
    parts = name.split("/")
    for part in parts:
        why = name_problem(part)
        if why:
            raise BuildError(f"output file name {quote(name)} is not safe ({why}); every output must stay inside "
                             f"the output folder")
    return PurePosixPath(*parts)


def inside(root: Path, name: str) -> Path:
    """``root / name`` after :func:`safe_relpath`, resolved and checked to lie inside ``root``."""
    rel = safe_relpath(name)
    base = root.resolve()
    path = (base / rel).resolve()
    if path == base or not path.is_relative_to(base):
        raise BuildError(f"output file name {quote(name)} leaves the output folder")
    return path


HELD = ("SIGINT", "SIGTERM", "SIGHUP")  # the signals that wait for the end of a held block


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP while a folder is swapped or cleaned up: each that comes meanwhile takes
    effect when the block ends, so that Ctrl-C cannot leave a temporary folder (or half a swap) behind.

    The signals are blocked in this thread, and, in the main thread, their handlers are replaced for the time of
    the block by one that notes them, each noted one raised again at the end: blocking alone holds nothing once
    another thread runs (a progress bar's), since the system then hands the signal to that thread and Python runs
    its handler in the main thread all the same. A no-op where signals cannot be blocked or handled."""
    sigs = [getattr(signal, n) for n in HELD if hasattr(signal, n)]
    mask = getattr(signal, "pthread_sigmask", None)
    noted: list[int] = []
    replaced: dict[int, Any] = {}
    old_mask = None
    try:
        if mask is not None:
            old_mask = mask(signal.SIG_BLOCK, [])  # the mask as it is (a signal that came just before is raised here)
        if threading.current_thread() is threading.main_thread():
            for sig in sigs:
                handler = signal.getsignal(sig)
                if handler is None or handler == signal.SIG_IGN:
                    continue
                replaced[sig] = handler
                signal.signal(sig, lambda signum, frame: noted.append(signum))
        if mask is not None:
            mask(signal.SIG_BLOCK, sigs)
        yield
    finally:
        # every step is retried after a signal's handler raised in it (Python runs the handlers of signals that
        # just came before it changes a handler or a mask): the first exception is raised once all is restored
        first: BaseException | None = None
        steps: list[Callable[[], object]] = [functools.partial(signal.signal, sig, h) for sig, h in replaced.items()]
        if mask is not None and old_mask is not None:
            steps.append(functools.partial(mask, signal.SIG_SETMASK, old_mask))
        for step in steps:
            for _ in range(100):
                try:
                    step()
                    break
                except BaseException as exc:  # a handler's exception, kept for the end
                    first = first or exc
        if first is not None:
            raise first
        for sig in dict.fromkeys(noted):  # in the order they came, each once: its own handler now runs
            signal.raise_signal(sig)


# -- swapping two folders -------------------------------------------------------------------------------------
# rename(2) cannot replace a folder that is not empty (ENOTEMPTY), so a plain swap takes two renames (old folder
# aside, new folder in) with a moment between them when the target is missing. Linux can swap two paths in one
# atomic step, renameat2(..., RENAME_EXCHANGE) (kernel 3.15+, glibc 2.28+; ext4, xfs, btrfs, tmpfs, ...): called
# through ctypes because Python has no binding for it. Elsewhere, or where a file system refuses it, the two
# renames are the fallback, and the next run puts a moved-aside old folder back if it finds the target missing.

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # a C library without renameat2 (glibc < 2.28, some musl)
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


def exchange(a: Path, b: Path) -> bool:
    """Swap the two existing paths ``a`` and ``b`` in one atomic step (Linux ``renameat2(RENAME_EXCHANGE)``).

    Returns False where the system cannot (another OS, an old kernel or C library, a file system without it);
    raises OSError for a real failure."""
    fn = _renameat2()
    if fn is None:
        return False
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _stale(entry: os.DirEntry[str], pid: int) -> bool:
    """Made by a process that has ended (elsewhere, where os.kill(pid, 0) would end the process: an hour old)."""
    if os.name != "posix":
        try:
            return time.time() - entry.stat(follow_symlinks=False).st_mtime > 3600
        except OSError:
            return False
    return not _alive(pid)


def _same_file(a: Path, b: Path) -> bool:
    """Whether the paths ``a`` and ``b`` (neither followed if a link) are one file (hard links to one inode)."""
    try:
        return os.path.samestat(os.lstat(a), os.lstat(b))
    except OSError:
        return False


def file_sha256(path: Path, limit: int | None = None) -> str | None:
    """The sha256 (hex) of the bytes of ``path``, if it is a plain file (not a link, a folder, a pipe or a device)
    of at most ``limit`` bytes that can be read; None otherwise. Read without following a link in its last part and
    without waiting (on a pipe put there meanwhile), the file checked once opened."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with open(fd, "rb") as fh:
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or (limit is not None and st.st_size > limit):
                return None
            digest = hashlib.sha256()
            for block in iter(functools.partial(fh.read, 1 << 20), b""):
                digest.update(block)
        except OSError:
            return None
    return digest.hexdigest()


def _rmtree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


class StagedFolder:
    """A folder written whole beside ``target`` and swapped in by :meth:`commit`.

    The temporary sibling is hidden (``.<name>.wizprint-tmp-<pid>-<random>``) and in the same parent folder, so
    the swap is a rename on one file system. Leaving the ``with`` block without a commit (an error, Ctrl-C)
    removes it; one left by a killed process (SIGKILL, power cut) is removed by the next run for the same target,
    once the process that made it is gone.

    >>> out = Path(tempfile.mkdtemp()) / "build"
    >>> with StagedFolder(out) as stage:
    ...     _ = stage.write("a.txt", b"...")     # the temporary folder is made at the first write
    ...     stage.commit()
    >>> sorted(p.name for p in out.iterdir()), sorted(p.name for p in out.parent.iterdir())
    (['a.txt'], ['build'])
    >>> shutil.rmtree(out.parent)
    """

    def __init__(self, target: Path, what: str = "output folder"):
        self.target = target
        self.what = what
        # a symlinked output folder is replaced where it points, and the link is kept
        self.real = Path(os.path.realpath(target))
        self.parent = self.real.parent
        self.name = self.real.name
        self.path: Path | None = None
        self.committed = False
        self.made: list[Path] = []  # parent folders that this run created (removed again if it fails)
        self.base: Path | None = None  # the temporary folder, resolved
        self.folders: set[Path] = set()  # the (resolved) folders in it that files were written to
        # the target's files (relative names) that a write may take over when it would write the same bytes
        # (see _link_same): the files of an earlier build, which the swap would otherwise delete
        self.reusable: set[str] = set()
        self.old_folders: dict[Path, bool] = {}  # folders of the target: whether each resolves inside it
        if self.real == self.parent or not self.name:
            raise BuildError(f"{self.what} {target} cannot be replaced (it is the root of the file system)")

    # -- life cycle: with StagedFolder(...) as stage: ... stage.commit()
    def __enter__(self) -> StagedFolder:
        self.prepare()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if not self.committed:
            self.discard()

    def prepare(self) -> None:
        """Create the parent folder (remembering what it made) and check that the target is a folder or missing.
        Early, so that an unusable output folder is an error before the work starts."""
        missing = []
        folder = self.parent
        while not os.path.lexists(folder) and folder != folder.parent:
            missing.append(folder)
            folder = folder.parent
        try:
            self.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise cannot_make(self.target, self.what, exc) from None
        self.made.extend(m for m in missing if m not in self.made)
        if os.path.lexists(self.real) and not self.real.is_dir():
            raise BuildError(f"{self.what} {self.target} exists and is not a folder")

    def open(self) -> Path:
        """Make the temporary sibling (first removing stale ones); :meth:`write` calls it when needed."""
        if self.path is not None:
            return self.path
        self.prepare()
        self.remove_stale()
        with held_signals():
            try:
                self.path = Path(tempfile.mkdtemp(prefix=f".{self.name}.{TMP_TAG}-{os.getpid()}-",
                                                  dir=self.parent))
            except OSError as exc:
                raise BuildError(f"cannot create {self.what} {self.target}: cannot make a temporary folder in "
                                 f"{self.parent} ({exc.strerror or exc}); wizprint writes the whole folder "
                                 f"beside it and swaps it in") from None
        os.chmod(self.path, 0o755)
        return self.path

    def remove_stale(self) -> None:
        """Remove temporary siblings of the target left by killed runs. A sibling that holds the old folder
        (between the two renames of the fallback swap) is put back if the target is missing."""
        pattern = re.compile(rf"^\.{re.escape(self.name)}\.({TMP_TAG}|{OLD_TAG})-(\d+)-[A-Za-z0-9_]+$")
        try:
            entries = list(os.scandir(self.parent))
        except OSError:
            return
        for entry in entries:
            m = pattern.match(entry.name)
            if not m or not entry.is_dir(follow_symlinks=False) or not _stale(entry, int(m.group(2))):
                continue
            with held_signals():
                if m.group(1) == OLD_TAG and not os.path.lexists(self.real):
                    with contextlib.suppress(OSError):  # if it cannot be put back, leave it where it is
                        os.rename(entry.path, self.real)
                    continue
                _rmtree(Path(entry.path))

    def discard(self) -> None:
        """Remove the temporary folder, and the parent folders this run made if they are still empty."""
        with held_signals():
            if self.path is not None:
                _rmtree(self.path)
                self.path, self.base = None, None
                self.folders.clear()
            for folder in self.made:  # innermost first; rmdir never removes a folder that holds anything
                with contextlib.suppress(OSError):
                    os.rmdir(folder)
            self.made.clear()

    # -- filling the folder
    def check_folders(self, names: list[str]) -> None:
        """Refuse (BuildError, one line) a sub-folder to be made (``svg/cards``) where the current target holds a
        file of the user's under that name or a parent's: the file would be kept in the new folder, so the folder
        cannot be made; it is never deleted. A file of the earlier build (``reusable``) is not in the way."""
        for name in names:
            parts = safe_relpath(name).parts
            for i in range(1, len(parts) + 1):
                rel = "/".join(parts[:i])
                old = self.real / rel
                try:  # (a link to a folder is not in the way here; carry_over refuses to keep it over a folder)
                    blocked = os.path.lexists(old) and not old.is_dir()
                except (OSError, ValueError):
                    blocked = False
                if blocked:
                    if rel not in self.reusable:
                        raise BuildError(f"cannot make the folder {rel}/ in {self.what} {self.target}: "
                                         f"{self.target / rel} is a file of yours in the way (wizprint does not "
                                         f"delete it); move it away or rename it, and try again")
                    break  # nothing lies under a file

    def write(self, name: str, data: bytes | str) -> Path:
        """Write a new file ``name`` (a relative path, checked to stay inside the folder)."""
        path = self._inside(name)
        payload = data.encode("utf-8") if isinstance(data, str) else data
        try:
            if path.parent not in self.folders:
                if "/" in name:
                    self.check_folders([name.rsplit("/", 1)[0]])
                path.parent.mkdir(parents=True, exist_ok=True)
                self.folders.add(path.parent)
            if name in self.reusable and self._link_same(name, payload, path):
                return path
            with open(path, "xb") as fh:  # exclusive: two outputs with one name (or names equal but for case)
                fh.write(payload)
        except FileExistsError:
            raise BuildError(f"two files of the {self.what} have the name {quote(name)}") from None
        except OSError as exc:
            raise BuildError(f"cannot write {self.target / name}: {exc.strerror or exc}") from None
        return path

    def _link_same(self, name: str, payload: bytes, path: Path) -> bool:
        """Put the current target's file ``name`` at ``path`` as a hard link when it holds exactly ``payload`` (a
        file of an earlier build that comes out the same): no new file is made, and it keeps its time. Only a
        plain file (not a link) that nothing else links to, in a folder of the target that resolves inside it,
        and only if it did not change while it was compared; False (nothing done) otherwise."""
        old = self.real / name
        try:
            st = os.lstat(old)
            if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or st.st_size != len(payload):
                return False
            folder = old.parent
            ok = self.old_folders.get(folder)
            if ok is None:
                ok = self.old_folders[folder] = folder.resolve().is_relative_to(self.real.resolve())
            if not ok:
                return False
            # not through a link, never waiting (on a pipe put there meanwhile), and the very file looked at above
            fd = os.open(old, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
            with open(fd, "rb") as fh:
                now = os.fstat(fd)
                if (now.st_ino, now.st_dev) != (st.st_ino, st.st_dev):
                    return False
                if fh.read(len(payload) + 1) != payload:
                    return False
            os.link(old, path, follow_symlinks=False)
        except (OSError, ValueError, RuntimeError):
            return False  # written the ordinary way (which reports a name made twice)
        after = os.lstat(path)
        if (after.st_ino, after.st_dev, after.st_size, after.st_mtime_ns) != (st.st_ino, st.st_dev, st.st_size,
                                                                               st.st_mtime_ns):
            os.unlink(path)  # it changed meanwhile: write ours
            return False
        return True

    def _inside(self, name: str) -> Path:
        """:func:`inside` for the files of this folder, each sub-folder resolved once: the folder is new and only
        this run makes folders in it; a file's own name cannot lead out of it (it is opened exclusively, which
        fails on any existing entry, a link included)."""
        root = self.open()
        if self.base is None:
            self.base = root.resolve()
        rel = safe_relpath(name)
        path = self.base / rel
        if path.parent not in self.folders:
            return inside(root, name)  # a sub-folder not made yet: resolved (and so checked) the long way
        return path

    def carry_over(self, skip: Callable[[str], bool], why: Callable[[str], str] | None = None) -> list[str]:
        """Copy into the new folder every entry of the current target that ``skip`` does not claim (the user's
        own files in an earlier build or import), as hard links where possible. Returns their relative paths.
        Refuses (BuildError) when the new folder makes a file of the same name: nothing of the user's is lost;
        ``why(name)`` says in that message what the entry is (by default: not one of wizprint's files). An entry
        that the new folder already holds as the very same file (linked by :meth:`write`) is left as it is."""
        self.open()
        assert self.path is not None
        if not self.real.is_dir():
            return []
        kept: list[str] = []

        def unreadable(exc: OSError) -> None:
            raise BuildError(f"cannot read {exc.filename} in {self.what} {self.target} ({exc.strerror or exc}); "
                             f"wizprint keeps every file of yours there, so it stops")

        def in_the_way(rel: str) -> BuildError:
            what = why(rel) if why is not None else "is not one of wizprint's files there"
            return BuildError(f"{self.target / rel} {what}, and the new {self.what} has a file of that name; "
                              f"wizprint never replaces a file of yours: move it away (or delete it) first")

        for dirpath, dirnames, filenames in os.walk(self.real, onerror=unreadable):
            here = Path(dirpath)
            rel_dir = here.relative_to(self.real)
            mirror = self.path / rel_dir
            if rel_dir != Path(".") and os.path.lexists(mirror) and (mirror.is_symlink() or not mirror.is_dir()):
                raise in_the_way(rel_dir.as_posix())  # a folder of the user's where the new folder has a file
            links = [d for d in dirnames if (here / d).is_symlink()]
            dirnames[:] = [d for d in dirnames if d not in links]
            if not dirnames and not filenames and not links and rel_dir != Path("."):
                try:
                    (self.path / rel_dir).mkdir(parents=True, exist_ok=True)
                except OSError:  # the new folder has a file where this (empty) folder is
                    raise in_the_way(rel_dir.as_posix()) from None
                kept.append(rel_dir.as_posix() + "/")
                continue
            for f in sorted([*filenames, *links]):
                rel = (rel_dir / f).as_posix()
                src, dst = here / f, self.path / rel_dir / f
                if _same_file(src, dst) or skip(rel):
                    continue
                if os.path.lexists(dst) or not dst.resolve().is_relative_to(self.path.resolve()):
                    raise in_the_way(rel)
                try:
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    if src.is_symlink():
                        os.symlink(os.readlink(src), dst)
                    else:
                        try:
                            os.link(src, dst)
                        except OSError:
                            shutil.copy2(src, dst)
                except OSError as exc:
                    raise BuildError(f"cannot keep {self.target / rel}: {exc.strerror or exc}") from None
                kept.append(rel)
        return kept

    def _folder_of_yours(self, rel_dir: Path) -> None:
        """Refuse to keep a folder of the user's (``rel_dir`` of the target) where the new folder has a file of the
        same name (or of one of its parents' names)."""
        assert self.path is not None
        for i in range(1, len(rel_dir.parts) + 1):
            part = Path(*rel_dir.parts[:i])
            new = self.path / part
            if os.path.lexists(new) and (new.is_symlink() or not new.is_dir()):
                raise BuildError(f"{self.target / part} is a folder of yours, and the new {self.what} has a file of "
                                 f"that name; move the folder away or rename it, and try again (wizprint does not "
                                 f"delete it)")

    # -- the swap
    def commit(self) -> None:
        """Put the new folder in place of the target (or at it, if there is none) and remove the old one."""
        new = self.open()
        with held_signals():
            try:
                if not os.path.lexists(self.real):
                    os.rename(new, self.real)
                    old = None
                elif exchange(new, self.real):
                    old = new  # the temporary name now holds the old folder
                else:
                    # No atomic exchange here (not Linux, or a file system or C library without RENAME_EXCHANGE):
                    # two renames. Between them the target is missing for a moment; the old folder then waits
                    # under an OLD_TAG name that the next run puts back (remove_stale) if it finds no target.
                    old = Path(tempfile.mkdtemp(prefix=f".{self.name}.{OLD_TAG}-{os.getpid()}-", dir=self.parent))
                    os.rmdir(old)
                    os.rename(self.real, old)
                    try:
                        os.rename(new, self.real)
                    except OSError:
                        os.rename(old, self.real)
                        raise
            except OSError as exc:
                raise BuildError(f"cannot replace {self.what} {self.target}: {exc.strerror or exc}") from None
            self.committed = True
            self.path, self.base = None, None
            self.folders.clear()
            self.made.clear()
            if old is not None:
                _rmtree(old)
