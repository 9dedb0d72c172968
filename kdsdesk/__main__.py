"""``python -m kdsdesk``."""

from kdsdesk.app import main

raise SystemExit(main())
