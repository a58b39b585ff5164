"""Where the engine's data files are, from source or frozen: managers choose the working
directory, so files are found from the program's own location, never the cwd."""
from __future__ import annotations

import re
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


def version_order(path: Path) -> list[tuple[int, int | str]]:
    """A file name's key with its numbers read as numbers, so that v10 comes after v9."""
    return [(1, int(part)) if part.isdigit() else (0, part) for part in re.split(r"(\d+)", path.name)]


def newest_net(folder: Path | None = None) -> tuple[Path | None, Path | None]:
    """The newest float net in `folder` (models/ by default) and its int8 twin (`NAME-int8.onnx`),
    either None where absent; with only int8 nets there, the newest of those as the twin."""
    nets = sorted((folder or models_dir()).glob("*.onnx"), key=version_order)
    floats = [n for n in nets if not n.stem.endswith("-int8")]
    if not floats:
        return None, (nets[-1] if nets else None)
    twin = floats[-1].with_name(floats[-1].stem + "-int8.onnx")
    return floats[-1], (twin if twin.exists() else None)


def bundled_models(folder: Path | None = None) -> list[Path]:
    """What the executable carries of models/: the shipped pair, their sidecars, the opening book (if
    any) and the README. The older nets (teachers, ablations) and the training data stay in the source
    tree only."""
    folder = folder or models_dir()
    nets = [n for n in newest_net(folder) if n is not None]
    extra = [n.with_suffix(".json") for n in nets] + sorted(folder.glob("book-*.json.gz")) + [folder / "README.md"]
    return nets + [f for f in extra if f.exists()]
