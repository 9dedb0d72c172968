"""Parse a file in a worker process with a time and memory budget, so a hostile file can neither crash nor hang
the app nor fill its memory.

The worker uses the ``spawn`` start method (safe with threads and Qt in the parent) and returns the pickled
``ParsedDoc``; ``KnownError`` raised in the worker is re-raised here with its Korean message. Long steps inside a
file (OCR of outline lettering and scans) send progress messages on the same pipe (``progress``); setting
``cancel`` ends the worker at once (``Cancelled``).

Budgets are enforced twice: the parent stops waiting after ``timeout_s`` and kills the worker; inside the worker a
watchdog thread ends the process when its resident memory passes ``memory_mb``, when ``timeout_s`` has passed, or
when the parent is gone (its end of a "lifeline" pipe closes — a parent killed with ``kill -9`` leaves no orphan
parsing on). The worker's exit code tells the parent which budget ended it. The worker's stdout is its stderr, so
native libraries' messages (MuPDF) never mix with a command's JSON.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

from kdsdesk.errors import Cancelled, KnownError
from kdsdesk.records import ParsedDoc

DEFAULT_TIMEOUT_S = 300.0
DEFAULT_MEMORY_MB = 1536  # the worker's resident memory; the app with its parent stays under 2 GB
EXIT_MEMORY, EXIT_TIME, EXIT_ORPHAN = 86, 87, 88
WATCH_INTERVAL_S = 0.1
POLL_S = 0.2  # how often the parent looks at the cancel flag while it waits

Parser = Callable[[Path], ParsedDoc]
OnProgress = Callable[[str, int, int], None]  # (stage, done, total) of a long step inside the file


def memory_message(memory_mb: int) -> str:
    return (
        f"파일 분석에 필요한 메모리가 한도({memory_mb:,} MB)를 넘어 중단했습니다. "
        "파일이 비정상적으로 크거나 손상되었습니다."
    )


def time_message(timeout_s: float) -> str:
    return f"파일 분석이 제한 시간({timeout_s:.0f}초)을 넘어 중단했습니다. 파일이 손상되었거나 너무 복잡합니다."


CRASH_MESSAGE = "파일을 분석하던 작업 프로세스가 비정상 종료했습니다. 파일이 손상되었을 수 있습니다."


def _watchdog(lifeline: Connection, timeout_s: float, memory_mb: int) -> None:
    """Runs in the worker: exit when the parent is gone or a budget is spent (``os._exit``: no clean-up to hang)."""
    from kdsdesk.proc import rss_bytes

    deadline = time.monotonic() + timeout_s
    limit = memory_mb * 1024 * 1024

    def parent_gone() -> None:
        try:
            lifeline.recv()  # the parent never sends: this returns only by EOF when its end closes
        except (EOFError, OSError):
            pass
        os._exit(EXIT_ORPHAN)

    threading.Thread(target=parent_gone, name="kdsdesk-lifeline", daemon=True).start()
    while True:
        time.sleep(WATCH_INTERVAL_S)
        rss = rss_bytes()
        if rss is not None and rss > limit:
            os._exit(EXIT_MEMORY)
        if time.monotonic() > deadline:
            os._exit(EXIT_TIME)


def _send(conn: Connection, message: tuple[str, object]) -> None:
    try:
        conn.send(message)
    except (BrokenPipeError, EOFError, OSError):
        os._exit(EXIT_ORPHAN)  # the parent is gone: nobody to tell, nothing to print


def _worker(
    path: str,
    conn: Connection,
    target: Parser | None = None,
    report: bool = False,
    lifeline: Connection | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    memory_mb: int = DEFAULT_MEMORY_MB,
) -> None:
    try:  # native libraries (MuPDF) print warnings on stdout: the worker's stdout is its parent's stderr
        os.dup2(2, 1)
    except OSError:
        pass
    if lifeline is not None:
        threading.Thread(
            target=_watchdog, args=(lifeline, timeout_s, memory_mb), name="kdsdesk-watchdog", daemon=True
        ).start()

    def progress(stage: str, done: int, total: int) -> None:
        _send(conn, ("progress", (stage, done, total)))

    try:
        if target is None:
            from kdsdesk.ingest.dispatch import parse_file

            result: tuple[str, object] = ("ok", parse_file(Path(path), progress if report else None))
        else:
            result = ("ok", target(Path(path)))
    except KnownError as exc:
        result = ("known", exc.message)
    except MemoryError:
        result = ("known", memory_message(memory_mb))
    except RecursionError:
        result = ("known", "문서 구조가 비정상적으로 깊어 분석할 수 없습니다. 파일이 손상되었을 수 있습니다.")
    except Exception as exc:  # noqa: BLE001 — reported to the parent, which logs it as a bug
        import traceback

        result = ("bug", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")
    try:
        _send(conn, result)
    finally:
        conn.close()


def parse_isolated(
    path: Path,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    *,
    memory_mb: int = DEFAULT_MEMORY_MB,
    target: Parser | None = None,
    progress: OnProgress | None = None,
    cancel: threading.Event | None = None,
) -> ParsedDoc:
    """``parse_file`` in a child process; ``KnownError`` on a crash, a spent budget or a file we cannot read;
    ``Cancelled`` (the child killed) once ``cancel`` is set. ``progress`` hears the child's long steps.

    ``target`` replaces ``parse_file`` (a module-level function, so the spawned child can import it; tests use it
    to simulate a hang, a crash or a memory hog).
    """
    path = Path(path).resolve()
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    life_r, life_w = ctx.Pipe(duplex=False)
    proc = ctx.Process(
        target=_worker,
        args=(str(path), child, target, progress is not None, life_r, timeout_s, memory_mb),
        daemon=True,
    )
    proc.start()
    child.close()
    life_r.close()
    deadline = time.monotonic() + timeout_s + 2.0  # the worker's own watchdog ends it first
    try:
        while True:
            if cancel is not None and cancel.is_set():
                raise Cancelled()
            left = deadline - time.monotonic()
            if left <= 0:
                raise KnownError(time_message(timeout_s), path=str(path))
            if not parent.poll(min(POLL_S, left) if cancel is not None else left):
                continue
            try:
                status, payload = parent.recv()
            except (EOFError, OSError, queue.Empty) as exc:
                proc.join(5)
                code = proc.exitcode
                if code == EXIT_MEMORY:
                    raise KnownError(memory_message(memory_mb), path=str(path)) from exc
                if code == EXIT_TIME:
                    raise KnownError(time_message(timeout_s), path=str(path)) from exc
                raise KnownError(CRASH_MESSAGE, path=str(path)) from exc
            if status != "progress":
                break
            if progress is not None:
                progress(*payload)
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        parent.close()
        life_w.close()
    if status == "ok":
        assert isinstance(payload, ParsedDoc)
        return payload
    if status == "known":
        raise KnownError(str(payload), path=str(path))
    raise RuntimeError(f"parser bug on {path}: {payload}")
