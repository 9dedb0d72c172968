"""One writer per library folder, any number of readers.

The writer holds ``writer.lock`` in the library folder: an operating-system lock on the open file (released by the
system when the process dies, even by ``kill -9``) plus the holder's pid and start time written inside, so a second
writer can say who is indexing, and so a file system without locks still refuses a second writer while the named
process lives (a pid reused by a new process does not count: its start time differs).

Readers never take it. Crash clean-up (rows left ``indexing``) runs only in the process that holds it: while it is
held, no other process can be half-way through a file.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kdsdesk.errors import KnownError
from kdsdesk.proc import same_process, start_time

log = logging.getLogger(__name__)

LOCK_NAME = "writer.lock"
_WIN_LOCK_OFFSET = 1 << 30


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds (or last held) the writer lock."""

    pid: int
    started: float | None
    since: str = ""

    def alive(self) -> bool:
        return same_process(self.pid, self.started)


def busy_message(holder: Holder | None) -> str:
    who = f" (프로세스 {holder.pid}, {holder.since}부터)" if holder is not None and holder.since else ""
    return (
        f"다른 색인 작업이 이 라이브러리에서 진행 중입니다{who}. 끝난 뒤 다시 시도하세요. "
        "검색과 질문은 그동안에도 됩니다."
    )


def _try_os_lock(fd: int) -> bool | None:
    """Lock the file without waiting: True taken, False held by another process, None if the system has no lock."""
    try:
        if sys.platform == "win32":  # pragma: no cover - Windows only
            import msvcrt

            os.lseek(fd, _WIN_LOCK_OFFSET, os.SEEK_SET)  # a byte past the text, so others can read it
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (BlockingIOError, PermissionError):
        return False
    except OSError as exc:
        import errno

        if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EDEADLK):
            return False
        return None  # ENOLCK and friends: a network share without locks
    return True


def _os_unlock(fd: int) -> None:
    try:
        if sys.platform == "win32":  # pragma: no cover - Windows only
            import msvcrt

            os.lseek(fd, _WIN_LOCK_OFFSET, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError:
        pass


class WriterLock:
    """The library's writer lock; re-entrant inside one process (the GUI's indexing and encoding share it)."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / LOCK_NAME
        self._fd: int | None = None
        self._depth = 0
        self._mutex = threading.RLock()

    @property
    def held(self) -> bool:
        return self._depth > 0

    def holder(self) -> Holder | None:
        """The pid and start time written by the last holder (``None`` when nobody wrote one)."""
        try:
            data: Any = json.loads(self.path.read_text(encoding="utf-8") or "null")
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("pid"), int):
            return None
        started = data.get("started")
        return Holder(data["pid"], float(started) if isinstance(started, int | float) else None,
                      str(data.get("since", "")))  # fmt: skip

    def writer_alive(self) -> bool:
        """Is another process writing now? (For readers: rows left ``indexing`` are leftovers when it is not.)"""
        if self.held:
            return True
        holder = self.holder()
        if holder is None or holder.pid == os.getpid():
            return False
        if not self.path.exists():
            return False
        try:
            fd = os.open(self.path, os.O_RDWR)
        except OSError:
            return holder.alive()  # a read-only folder: only the pid can tell
        try:
            got = _try_os_lock(fd)
            if got:
                _os_unlock(fd)
                return False
            return True if got is False else holder.alive()
        finally:
            os.close(fd)

    def acquire(self, wait_s: float = 0.0) -> None:
        """Take the lock (waiting up to ``wait_s``) or raise ``KnownError`` saying who holds it."""
        with self._mutex:
            if self._depth:
                self._depth += 1
                return
            deadline = time.monotonic() + wait_s
            while True:
                fd = self._open()
                got = _try_os_lock(fd)
                if got is None:  # no OS lock here: the pid and start time decide
                    holder = self.holder()
                    got = holder is None or holder.pid == os.getpid() or not holder.alive()
                if got:
                    break
                os.close(fd)
                if time.monotonic() >= deadline:
                    raise KnownError(busy_message(self.holder()), path=str(self.path.parent))
                time.sleep(0.2)
            self._fd = fd
            self._depth = 1
            self._write_holder(fd)

    def release(self) -> None:
        with self._mutex:
            if not self._depth:
                return
            self._depth -= 1
            if self._depth or self._fd is None:
                return
            fd, self._fd = self._fd, None
            try:
                os.ftruncate(fd, 0)
            except OSError:
                pass
            _os_unlock(fd)
            os.close(fd)

    def _open(self) -> int:
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise KnownError(
                "라이브러리 폴더에 쓸 수 없어 색인할 수 없습니다(읽기 전용이거나 권한이 없음). "
                "검색과 질문만 할 수 있습니다.",
                path=str(self.path.parent),
            ) from exc

    def _write_holder(self, fd: int) -> None:
        from datetime import datetime

        info = {
            "pid": os.getpid(),
            "started": start_time(os.getpid()),
            "since": datetime.now().astimezone().isoformat(timespec="seconds"),
        }
        data = json.dumps(info).encode()
        try:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, data)
            os.fsync(fd)
        except OSError as exc:
            log.warning("could not write the writer lock's holder: %s", exc)
