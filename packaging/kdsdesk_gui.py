"""Frozen entry point of the windowed executable ``KDS Desk`` (no console window on Windows)."""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # the parsing worker is a spawned child: re-enter here, not in main()
    from kdsdesk.app import main

    sys.exit(main())
