"""The library's writer lock: one writing process; the holder's pid and start time written inside; a dead
holder (even killed with -9) frees it; a pid reused by another process does not count as the holder."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kdsdesk.errors import KnownError
from kdsdesk.index import writer_lock
from kdsdesk.index.writer_lock import WriterLock
from kdsdesk.proc import start_time

HOLD = """
import sys, time
from pathlib import Path
from kdsdesk.index.writer_lock import WriterLock
lock = WriterLock(Path(sys.argv[1]))
lock.acquire()
print("held", flush=True)
time.sleep(600)
"""


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the lock of ``tmp_path``."""
    repo = Path(__file__).resolve().parents[3]
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path)], cwd=repo, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    yield proc
    if proc.poll() is None:
        proc.kill()
    proc.wait(30)


def test_a_second_writer_is_told_who_writes(tmp_path: Path, holder: subprocess.Popen[str]) -> None:
    lock = WriterLock(tmp_path)
    assert lock.writer_alive()
    with pytest.raises(KnownError, match="다른 색인 작업") as info:
        lock.acquire()
    assert str(holder.pid) in info.value.message
    info_file = json.loads((tmp_path / "writer.lock").read_text())
    assert info_file["pid"] == holder.pid
    assert info_file["started"] == start_time(holder.pid)


def test_a_holder_killed_with_sigkill_frees_the_lock(tmp_path: Path, holder: subprocess.Popen[str]) -> None:
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(30)
    lock = WriterLock(tmp_path)
    assert not lock.writer_alive()
    lock.acquire()
    assert json.loads((tmp_path / "writer.lock").read_text())["pid"] == os.getpid()
    lock.release()
    assert (tmp_path / "writer.lock").read_text() == ""


def test_reentrant_inside_one_process(tmp_path: Path) -> None:
    lock = WriterLock(tmp_path)
    lock.acquire()
    lock.acquire()
    lock.release()
    assert lock.held
    lock.release()
    assert not lock.held


def test_without_os_locks_the_pid_and_start_time_decide(
    tmp_path: Path, holder: subprocess.Popen[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer_lock, "_try_os_lock", lambda fd: None)  # a share without file locks
    lock = WriterLock(tmp_path)
    with pytest.raises(KnownError, match="다른 색인 작업"):
        lock.acquire()  # the live holder named in the file
    data = json.loads((tmp_path / "writer.lock").read_text())
    data["started"] = (data["started"] or 0) + 12345  # same pid, another start: a reused pid
    (tmp_path / "writer.lock").write_text(json.dumps(data))
    lock.acquire()
    lock.release()
    (tmp_path / "writer.lock").write_text(json.dumps({"pid": 2**22 + 7, "started": 1.0}))  # a pid not running
    lock.acquire()
    lock.release()
