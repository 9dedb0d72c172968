"""Parse a file in a worker process with a time limit, so a hostile file can neither crash nor hang the app.

The worker uses the ``spawn`` start method (safe with threads and Qt in the parent) and returns the pickled
``ParsedDoc``; ``KnownError`` raised in the worker is re-raised here with its Korean message. Long steps inside a
file (OCR of outline lettering and scans) send progress messages on the same pipe (``progress``); setting
``cancel`` ends the worker at once (``Cancelled``).
"""

from __future__ import annotations

import multiprocessing as mp
import queue
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

from kdsdesk.errors import Cancelled, KnownError
from kdsdesk.records import ParsedDoc

DEFAULT_TIMEOUT_S = 300.0


Parser = Callable[[Path], ParsedDoc]
OnProgress = Callable[[str, int, int], None]  # (stage, done, total) of a long step inside the file
POLL_S = 0.2  # how often the parent looks at the cancel flag while it waits


def _worker(path: str, conn: Connection, target: Parser | None = None, report: bool = False) -> None:
    def progress(stage: str, done: int, total: int) -> None:
        conn.send(("progress", (stage, done, total)))

    try:
        if target is None:
            from kdsdesk.ingest.dispatch import parse_file

            conn.send(("ok", parse_file(Path(path), progress if report else None)))
        else:
            conn.send(("ok", target(Path(path))))
    except KnownError as exc:
        conn.send(("known", exc.message))
    except Exception as exc:  # noqa: BLE001 — reported to the parent, which logs it as a bug
        import traceback

        conn.send(("bug", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))
    finally:
        conn.close()


def parse_isolated(
    path: Path,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    *,
    target: Parser | None = None,
    progress: OnProgress | None = None,
    cancel: threading.Event | None = None,
) -> ParsedDoc:
    """``parse_file`` in a child process; ``KnownError`` on a crash, a time-out or a file we cannot read;
    ``Cancelled`` (the child killed) once ``cancel`` is set. ``progress`` hears the child's long steps.

    ``target`` replaces ``parse_file`` (a module-level function, so the spawned child can import it; tests use it
    to simulate a hang or a crash).
    """
    path = Path(path).resolve()
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_worker, args=(str(path), child, target, progress is not None), daemon=True)
    proc.start()
    child.close()
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            if cancel is not None and cancel.is_set():
                raise Cancelled()
            left = deadline - time.monotonic()
            if left <= 0:
                raise KnownError(
                    f"파일 분석이 제한 시간({timeout_s:.0f}초)을 넘어 중단했습니다. "
                    "파일이 손상되었거나 너무 복잡합니다.",
                    path=str(path),
                )
            if not parent.poll(min(POLL_S, left) if cancel is not None else left):
                continue
            try:
                status, payload = parent.recv()
            except (EOFError, OSError, queue.Empty) as exc:
                raise KnownError(
                    "파일을 분석하던 작업 프로세스가 비정상 종료했습니다. 파일이 손상되었을 수 있습니다.",
                    path=str(path),
                ) from exc
            if status != "progress":
                break
            if progress is not None:
                progress(*payload)
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        parent.close()
    if status == "ok":
        assert isinstance(payload, ParsedDoc)
        return payload
    if status == "known":
        raise KnownError(str(payload), path=str(path))
    raise RuntimeError(f"parser bug on {path}: {payload}")
