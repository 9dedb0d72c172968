"""KDS Desk: offline answers about Korean design standards with verified evidence."""

__version__ = "0.1.0"
