"""SHA-256 of files: ``sha256_of`` (streamed) and ``HashCache`` (kept while a file's size and mtime are unchanged).

A bottom-layer helper with no project imports, shared by ingest (a document's identity), index (catalog and packs)
and models (checking model files).
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def sha256_of(path: Path, block: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with Path(path).open("rb") as f:
        while chunk := f.read(block):
            h.update(chunk)
    return h.hexdigest()


class HashCache:
    """SHA-256 of files keyed by resolved path, valid while (size, mtime_ns) are unchanged. A JSON file."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._data: dict[str, dict[str, Any]] = {}
        self._dirty = False
        if path is not None:
            try:
                raw = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(raw, dict):
                    self._data = {k: v for k, v in raw.items() if isinstance(v, dict)}
            except (OSError, ValueError):
                pass

    def sha256(self, file: Path, deep: bool = False) -> str:
        st = file.stat()
        key = str(file.resolve())
        hit = self._data.get(key)
        if not deep and hit and hit.get("size") == st.st_size and hit.get("mtime_ns") == st.st_mtime_ns:
            cached = hit.get("sha256")
            if isinstance(cached, str):
                return cached
        digest = sha256_of(file)
        self._data[key] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": digest}
        self._dirty = True
        return digest

    def save(self) -> None:
        """Write the cache if it changed; a read-only folder only costs speed next time."""
        if not self._dirty or self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text(json.dumps(self._data, indent=1), encoding="utf-8")
            tmp.replace(self.path)
            self._dirty = False
        except OSError as exc:
            log.info("hash cache not written: %s", exc)
