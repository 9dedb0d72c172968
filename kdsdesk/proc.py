"""Facts about processes without extra packages: this process's resident memory, whether a pid is alive and
when a process started (so a lock file's pid is not mistaken for a new process that reuses the number).

Linux reads ``/proc``; Windows asks kernel32 through ctypes; elsewhere the answers degrade (``None``) and callers
fall back to what they can check.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def rss_bytes() -> int | None:
    """Resident memory of this process in bytes (``None`` where it cannot be read)."""
    if sys.platform.startswith("linux"):
        try:
            pages = int(Path("/proc/self/statm").read_text().split()[1])
        except (OSError, ValueError, IndexError):
            return None
        return pages * os.sysconf("SC_PAGE_SIZE")
    if sys.platform == "win32":  # pragma: no cover - Windows only
        return _win_rss()
    try:
        import resource

        return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)  # macOS: bytes (peak, not current)
    except (ImportError, OSError):  # pragma: no cover
        return None


def start_time(pid: int) -> float | None:
    """A number that identifies when process ``pid`` started (same process → same number), ``None`` if it is not
    running or cannot be asked."""
    if sys.platform.startswith("linux"):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return None
        try:  # the command name (field 2) may hold spaces and parentheses: split after its last ')'
            return float(stat.rsplit(")", 1)[1].split()[19])
        except (IndexError, ValueError):
            return None
    if sys.platform == "win32":  # pragma: no cover - Windows only
        return _win_start_time(pid)
    return 0.0 if alive(pid) else None  # pragma: no cover - no start time: a live pid is taken as the same


def alive(pid: int) -> bool:
    """Is a process with this pid running?"""
    if pid <= 0:
        return False
    if sys.platform == "win32":  # pragma: no cover - Windows only
        return _win_start_time(pid) is not None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def same_process(pid: int, started: float | None) -> bool:
    """Is ``pid`` still the process that started at ``started`` (as recorded by ``start_time``)?"""
    if not alive(pid):
        return False
    now = start_time(pid)
    return now is None or started is None or abs(now - started) < 1e-6


def _win_rss() -> int | None:  # pragma: no cover - Windows only
    import ctypes
    from ctypes import wintypes

    class Counters(ctypes.Structure):
        _fields_ = [
            ("cb", wintypes.DWORD), ("PageFaultCount", wintypes.DWORD), ("PeakWorkingSetSize", ctypes.c_size_t),
            ("WorkingSetSize", ctypes.c_size_t), ("QuotaPeakPagedPoolUsage", ctypes.c_size_t),
            ("QuotaPagedPoolUsage", ctypes.c_size_t), ("QuotaPeakNonPagedPoolUsage", ctypes.c_size_t),
            ("QuotaNonPagedPoolUsage", ctypes.c_size_t), ("PagefileUsage", ctypes.c_size_t),
            ("PeakPagefileUsage", ctypes.c_size_t),
        ]  # fmt: skip

    counters = Counters()
    counters.cb = ctypes.sizeof(Counters)
    k32 = ctypes.WinDLL("kernel32")  # type: ignore[attr-defined,unused-ignore]
    if not k32.K32GetProcessMemoryInfo(k32.GetCurrentProcess(), ctypes.byref(counters), counters.cb):
        return None
    return int(counters.WorkingSetSize)


def _win_start_time(pid: int) -> float | None:  # pragma: no cover - Windows only
    import ctypes
    from ctypes import wintypes

    k32 = ctypes.WinDLL("kernel32")  # type: ignore[attr-defined,unused-ignore]
    handle = k32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
    if not handle:
        return None
    try:
        code = wintypes.DWORD()
        if k32.GetExitCodeProcess(handle, ctypes.byref(code)) and code.value != 259:  # 259: STILL_ACTIVE
            return None
        created, exited, kernel, user = (wintypes.FILETIME() for _ in range(4))
        if not k32.GetProcessTimes(handle, *(ctypes.byref(t) for t in (created, exited, kernel, user))):
            return None
        return float((created.dwHighDateTime << 32) | created.dwLowDateTime)
    finally:
        k32.CloseHandle(handle)
