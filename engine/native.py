"""The only importer of the compiled core: owns `ffi` and `lib`, and turns C status codes into
typed Python exceptions. Everything else goes through engine.board."""
from __future__ import annotations

import _cffi_backend  # noqa: F401  (explicit, so PyInstaller bundles it with the extension)

try:
    from engine._native import ffi, lib
except ImportError as exc:  # pragma: no cover - only on a broken install
    raise ImportError(
        "the native core engine._native is not built; run `make install` (or `pip install -e .`)"
    ) from exc


class BoardError(ValueError):
    """A request the board cannot honour; the board is left unchanged."""


class IllegalMove(BoardError):
    """A move that may not be played in this position."""


class OffBoard(IllegalMove):
    pass


class Occupied(IllegalMove):
    pass


class GameOver(IllegalMove):
    pass


class ForbiddenMove(IllegalMove):
    """A Renju foul: black's double three, double four or overline."""

    def __init__(self, message: str, foul: int) -> None:
        super().__init__(message)
        self.foul = foul


class NoHistory(BoardError):
    pass


_ERRORS: dict[int, tuple[type[BoardError], str]] = {
    lib.RJ_E_OFFBOARD: (OffBoard, "point is off the board"),
    lib.RJ_E_OCCUPIED: (Occupied, "point is occupied"),
    lib.RJ_E_GAMEOVER: (GameOver, "the game is over"),
    lib.RJ_E_NOHISTORY: (NoHistory, "no move to take back"),
    lib.RJ_E_BADSIZE: (BoardError, "bad board size"),
    lib.RJ_E_BADRULE: (BoardError, "bad rule"),
    lib.RJ_E_NOMEM: (BoardError, "out of memory"),
    lib.RJ_E_BADCOLOR: (BoardError, "bad colour"),
}


def check(status: int, what: str = "") -> None:
    """Raise the exception that matches a negative rj_status."""
    if status >= 0:
        return
    cls, text = _ERRORS.get(status, (BoardError, f"native error {status}"))
    raise cls(f"{what}: {text}" if what else text)


__all__ = [
    "ffi",
    "lib",
    "check",
    "BoardError",
    "IllegalMove",
    "OffBoard",
    "Occupied",
    "GameOver",
    "ForbiddenMove",
    "NoHistory",
]
