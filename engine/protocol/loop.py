"""The I/O loop: a reader thread hears every line at once (so STOP, YXSTOP and END reach a
thinking engine, which then answers at once), the main thread answers the lines in order, and
every reply is flushed. END ends the process without another word. A new position arriving
while the engine thinks (Yixin-Board's undo sends one, then drops the move it was waiting for)
also makes it answer at once, so that the new request is not kept waiting."""
from __future__ import annotations

import logging
import queue
import threading
import time
from typing import TextIO

from engine.protocol.commands import split_command
from engine.protocol.session import Session

log = logging.getLogger("pbrain.loop")
INTERRUPTS = {"STOP", "YXSTOP", "END", "START", "RESTART", "RECTSTART", "BOARD", "YXBOARD"}


def serve(session: Session, inp: TextIO, out: TextIO) -> int:
    """Run the protocol until END or end of input; returns the exit status (0)."""
    lines: queue.Queue[tuple[str, float] | None] = queue.Queue()
    write_lock = threading.Lock()

    def emit(text: str) -> None:
        """Realtime lines from a thinking player; a closed pipe is the reader's business."""
        with write_lock:
            try:
                out.write(text + "\n")
                out.flush()
            except (OSError, ValueError):
                pass

    session.emit = emit

    def reader() -> None:
        try:
            for raw in inp:
                line = raw.strip()
                cmd, _ = split_command(line)
                if cmd in INTERRUPTS:
                    session.stop.set()  # a thinking player stops at its next check
                lines.put((line, time.monotonic()))
        except (OSError, ValueError) as e:  # a closed or broken pipe ends the game like EOF
            log.info("input closed: %s", e)
        finally:
            session.stop.set()
            lines.put(None)

    threading.Thread(target=reader, name="protocol-reader", daemon=True).start()
    while True:
        item = lines.get()
        if item is None:
            return 0
        line, received = item
        replies = session.handle(line, received)
        if session.ended:
            return 0
        try:
            with write_lock:
                for reply in replies:
                    out.write(reply + "\n")
                out.flush()
        except (OSError, ValueError):
            return 0
