"""User settings: a dataclass stored as JSON in the library folder, with a schema version.

The settings file is untrusted input: unknown keys are ignored, wrong types fall back to the defaults.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Settings:
    schema_version: int = SCHEMA_VERSION
    llm_path: str = ""  # "" = find one in models/; "none" = extractive only
    encoder_dir: str = ""  # "" = models/bge-m3
    threads: int = 0  # 0 = from the CPU count
    dense_enabled: bool = True

    def effective_threads(self) -> int:
        return self.threads if self.threads > 0 else max(1, min(8, os.cpu_count() or 2))


def load(path: Path) -> Settings:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings()
    except (OSError, ValueError) as exc:
        log.warning("settings unreadable, using defaults: %s", exc)
        return Settings()
    if not isinstance(raw, dict):
        return Settings()
    defaults = Settings()
    values: dict[str, Any] = {}
    for f in fields(Settings):
        if f.name in raw and isinstance(raw[f.name], type(getattr(defaults, f.name))):
            values[f.name] = raw[f.name]
    return replace(defaults, **values)


def save(settings: Settings, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(settings), ensure_ascii=False, indent=2), encoding="utf-8")
    tmp.replace(path)
