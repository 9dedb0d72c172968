"""The desktop window (PySide6). The only package besides ``kdsdesk.app`` that imports Qt."""
