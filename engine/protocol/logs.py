"""Logging: stderr (until a GUI that never reads it is known to be the manager), and a capped
file in the `INFO folder` directory when the manager gives one (Gomocup fails an engine whose
folder grows past 70 MB). Never stdout."""
from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_FILE_BYTES = 1_000_000  # two files of this at most


def setup(level: str = "WARNING") -> None:
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(level.upper())
    handler.setFormatter(logging.Formatter(FORMAT))
    root.addHandler(handler)


def leave_stderr() -> None:
    """Stop logging to stderr (the folder's file, if any, goes on): Yixin-Board never reads the
    engine's stderr, and a line there makes it spin, a full pipe would block the engine."""
    root = logging.getLogger()
    for h in [h for h in root.handlers if type(h) is logging.StreamHandler]:
        root.removeHandler(h)
    root.addHandler(logging.NullHandler())  # else logging's last resort writes warnings to stderr


def add_folder(folder: Path, name: str = "pbrain-renju") -> None:
    """Log to <folder>/<name>/<name>.log, rotating at LOG_FILE_BYTES; failures only warn."""
    try:
        target = folder / name
        target.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(target / f"{name}.log", maxBytes=LOG_FILE_BYTES,
                                                       backupCount=1, encoding="utf-8")
    except (OSError, ValueError) as e:
        logging.getLogger("pbrain").warning("cannot log to %s: %s", folder, e)
        return
    handler.setLevel(logging.INFO)
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, logging.handlers.RotatingFileHandler)]:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
