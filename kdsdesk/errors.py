"""Error kinds: ``KnownError`` (the user's environment; a Korean message to show) and ``Cancelled``.

Anything else raised is a bug: logged with its traceback, and shown in the GUI's crash dialog.
"""

from __future__ import annotations


class KdsError(Exception):
    """Base of the errors this application raises on purpose."""


class KnownError(KdsError):
    """A problem of the user's environment (bad file, missing model, locked library).

    ``message`` is Korean and says what happened, which file (and page) and what to do.
    """

    def __init__(self, message: str, *, path: str | None = None, page: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.page = page  # 1-based, for display

    def __str__(self) -> str:
        where = ""
        if self.path:
            where = f" ({self.path}" + (f", {self.page}쪽" if self.page else "") + ")"
        return f"{self.message}{where}"


class Cancelled(KdsError):
    """The user cancelled a long operation."""


REPAIR_HINT = "'kdsdesk doctor --repair'(또는 프로그램의 복구 안내)로 복구하세요. 원래 파일은 백업 폴더에 남습니다."


class LibraryDamaged(KnownError):
    """The library's catalog or search index is damaged. ``kind`` names the damage (``kdsdesk.index.health``):
    ``catalog_corrupt``, ``catalog_blank``, ``lexical_missing``, ``lexical_corrupt``, ``lexical_mismatch``."""

    def __init__(self, kind: str, message: str, *, path: str | None = None) -> None:
        super().__init__(message, path=path)
        self.kind = kind
