"""`python -m engine` / `pbrain-renju`: a Gomocup protocol engine on stdin/stdout."""
from __future__ import annotations

import argparse
import io
import os
import signal
import sys
import time

# One core (Gomocup's rule): numpy's BLAS must not start threads of its own beside the search.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from engine.protocol.timeman import loading_charge

# When loading started, on both clocks (the interpreter's own start is in the CPU reading).
_LOAD_T0 = time.monotonic()
_LOAD_CPU0 = time.process_time()
# When a manager resumed the process while it was loading (SIGCONT; see startup_seconds).
_RESUMED: list[float] = []


def _note_resume(signum: int, frame: object) -> None:
    _RESUMED.append(time.monotonic())


if hasattr(signal, "SIGCONT"):
    signal.signal(signal.SIGCONT, _note_resume)


def protocol_stdout() -> io.TextIOWrapper:
    """A private handle on the real stdout for protocol lines; file descriptor 1 itself is pointed
    at stderr, so nothing else (a library's print, a C warning) can reach the manager."""
    sys.stdout.flush()
    fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return io.TextIOWrapper(os.fdopen(fd, "wb", buffering=0), encoding="ascii", errors="replace",
                            newline="\n", write_through=True)


# A one-file executable unpacks itself in a bootloader process before Python starts; that time is
# not in our CPU clock. Measured here: 0.67 s cold start one-file against 0.12 s one-folder
# (docs/benchmarks.md, make bench-protocol); rounded up for slower disks.
ONEFILE_UNPACK_S = 0.7


def queued_seconds(path: str = "/proc/self/schedstat") -> float:
    """Time the main thread has spent runnable but waiting for a core (Linux's schedstat: CPU
    time, run-queue wait, slices; nanoseconds); 0 where the platform does not say."""
    try:
        with open(path) as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def startup_seconds() -> float:
    """Loading time the first move's clock may already have paid (the referee freezes the engine
    right after START, before the interpreter has even started): timeman.loading_charge of our
    clocks, plus the unpacking of a one-file executable. Later resumes are no longer noted."""
    now = time.monotonic()
    since_resume = now - _RESUMED[-1] if _RESUMED else None
    if hasattr(signal, "SIGCONT"):
        signal.signal(signal.SIGCONT, signal.SIG_DFL)
    spent = loading_charge(time.process_time(), _LOAD_CPU0 + now - _LOAD_T0, queued_seconds(), since_resume)
    meipass = getattr(sys, "_MEIPASS", None)
    if meipass and os.path.basename(meipass).startswith("_MEI"):
        spent += ONEFILE_UNPACK_S
    return spent


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["solve"]:  # `python -m engine solve ...`: a prover on the command line
        from engine.prover.solve import main as solve_main

        return solve_main(argv[1:])
    if argv[:1] == ["review"]:  # `python -m engine review GAME`: where a game turned
        try:
            from engine.review.cli import main as review_main
        except ImportError as e:  # the one-file executable leaves the review out
            print(f"error: no review in this build ({e}); run python -m engine review", file=sys.stderr)
            return 2
        return review_main(argv[1:])
    ap = argparse.ArgumentParser(prog="pbrain-renju", description=__doc__)
    ap.add_argument("--player", default="mcts", help="which player answers (default: %(default)s)")
    ap.add_argument("--model", default=None,
                    help="ONNX model for the search player, or 'heuristic' (default: the shipped model)")
    ap.add_argument("--search", default=None, metavar="KEY=VALUE,...",
                    help="search settings for tuning matches, e.g. verify_ms=400,c_puct=2 (see MCTSConfig)")
    ap.add_argument("--book", default=None,
                    help="opening book for the search player, or 'none' (default: models/book-renju.json.gz, if any)")
    ap.add_argument("--log-level", default="WARNING", help="stderr log level (default: %(default)s)")
    args = ap.parse_args(argv)
    out = protocol_stdout()

    from engine.players.registry import make_player
    from engine.protocol import logs
    from engine.protocol.loop import serve
    from engine.protocol.session import Session

    logs.setup(args.log_level)
    try:
        player = make_player(args.player, model=args.model, search=args.search, book=args.book)
    except ValueError as e:
        ap.error(str(e))
    session = Session(player, startup=startup_seconds(), on_folder=logs.add_folder, on_gui=logs.leave_stderr)
    sys.stdin.reconfigure(errors="replace")
    return serve(session, sys.stdin, out)


if __name__ == "__main__":
    raise SystemExit(main())
