"""Where the engine's data files are, from source or frozen: managers choose the working
directory, so files are found from the program's own location, never the cwd."""
from __future__ import annotations

import sys
from pathlib import Path


def resource_root() -> Path:
    """The folder holding models/: PyInstaller's unpack folder when frozen, else the source tree."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen)
    return Path(__file__).resolve().parent.parent


def models_dir() -> Path:
    return resource_root() / "models"
