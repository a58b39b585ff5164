"""Entry point of the frozen executable (PyInstaller needs a script, not a package)."""
from engine.__main__ import main

raise SystemExit(main())
