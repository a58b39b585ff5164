"""Drive a Gomocup engine process through its pipes, as a manager does (tests, benchmarks)."""
from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON_ENGINE = [sys.executable, "-m", "engine"]

# Every line an engine may print on stdout (docs/protocol.md, "Replies").
PROTOCOL_LINE = re.compile(
    r"^(OK|SWAP|UNKNOWN .*|ERROR .*|MESSAGE .*|DEBUG .*|\d+,\d+( \d+,\d+)*|FORBID (\d{4})*\.|name=\".*)$"
)


class EngineProcess:
    """One engine process; every stdout line is checked against the protocol grammar."""

    def __init__(self, command: list[str] | None = None, cwd: Path = ROOT, new_session: bool = False,
                 transcript: bool = False) -> None:
        self.started = time.monotonic()
        # A session of its own lets a referee suspend or kill the whole process tree.
        self.proc = subprocess.Popen(command or PYTHON_ENGINE, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
                                     errors="replace", start_new_session=new_session)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.bad: list[str] = []
        self.stderr: list[str] = []
        self.transcript: list[str] | None = [] if transcript else None
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout
        for line in self.proc.stdout:
            line = line.rstrip("\r\n")
            if not PROTOCOL_LINE.match(line):
                self.bad.append(line)
            if self.transcript is not None:
                self.transcript.append(f"{time.monotonic() - self.started:9.3f} < {line}")
            self.lines.put(line)
        self.lines.put(None)

    def _read_err(self) -> None:
        assert self.proc.stderr
        for line in self.proc.stderr:
            self.stderr.append(line)

    def send(self, *lines: str) -> None:
        assert self.proc.stdin
        for line in lines:
            if self.transcript is not None:
                self.transcript.append(f"{time.monotonic() - self.started:9.3f} > {line}")
            self.proc.stdin.write(line + "\r\n")  # managers end lines with CR LF
        self.proc.stdin.flush()

    def reply(self, timeout: float = 30.0, skip_messages: bool = True) -> str:
        """The next line (MESSAGE/DEBUG lines skipped, as managers do)."""
        end = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            if line is None:
                raise EOFError("engine closed its output; stderr:\n" + "".join(self.stderr[-20:]))
            if skip_messages and line.split(" ", 1)[0].upper() in ("MESSAGE", "DEBUG"):
                continue
            return line

    def wait_move(self, deadline: float) -> tuple[int, int] | str | None:
        """The first line that parses as `x,y` before `deadline` (monotonic), as GomocupJudge
        reads replies (every other line is ignored); "eof" if the engine closed its output,
        None on timeout."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return "eof"
            parts = line.strip().split(",")
            if len(parts) == 2:
                try:
                    return int(parts[0]), int(parts[1])
                except ValueError:
                    pass

    def ask(self, *lines: str, timeout: float = 30.0) -> str:
        self.send(*lines)
        return self.reply(timeout)

    def move(self, *lines: str, timeout: float = 30.0) -> tuple[tuple[int, int], float]:
        """Send lines that end in a move request; the move and the seconds it took."""
        t0 = time.monotonic()
        line = self.ask(*lines, timeout=timeout)
        dt = time.monotonic() - t0
        x, y = (int(v) for v in line.split(","))
        return (x, y), dt

    def memory(self) -> int | None:
        """Resident memory of the process and all its children now, in bytes, as GomocupJudge
        sums it (a one-file executable runs as a bootloader plus a child). Linux /proc only."""
        total, stack = 0, [self.proc.pid]
        try:
            while stack:
                pid = stack.pop()
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
                for task in Path(f"/proc/{pid}/task").iterdir():
                    stack += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            return None if total == 0 else total
        return total

    def close(self, timeout: float = 5.0) -> int:
        if self.proc.poll() is None:
            try:
                self.send("END")
                self.proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass
        try:
            return self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
        if self.proc.poll() is None:
            self.proc.kill()
