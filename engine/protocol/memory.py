"""The engine's memory: what it uses now, and what a search may still allocate under the
manager's max_memory (Gomocup: 350 MB for the process and its children, sampled after every
move)."""
from __future__ import annotations

import sys
from pathlib import Path

SAFETY = 0.85  # keep 15% of the limit free for Python's own growth and fragmentation


def rss_bytes() -> int:
    """Resident memory of this process now (0 when the platform gives no answer)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows builds only
        import ctypes
        from ctypes import wintypes

        class Counters(ctypes.Structure):
            _fields_ = [("cb", wintypes.DWORD), ("PageFaultCount", wintypes.DWORD)] + [
                (name, ctypes.c_size_t) for name in ("PeakWorkingSetSize", "WorkingSetSize",
                                                     "QuotaPeakPagedPoolUsage", "QuotaPagedPoolUsage",
                                                     "QuotaPeakNonPagedPoolUsage", "QuotaNonPagedPoolUsage",
                                                     "PagefileUsage", "PeakPagefileUsage")]
        c = Counters()
        c.cb = ctypes.sizeof(c)
        if ctypes.windll.psapi.GetProcessMemoryInfo(ctypes.windll.kernel32.GetCurrentProcess(),
                                                     ctypes.byref(c), c.cb):
            return int(c.WorkingSetSize)
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(peak if sys.platform == "darwin" else peak * 1024)
    except (ImportError, OSError):
        return 0


def search_allowance(max_memory: int, used: int | None = None) -> int:
    """Bytes a search tree and hash may take: the safe share of the limit minus what the process
    already holds. Never negative."""
    used = rss_bytes() if used is None else used
    return max(0, int(max_memory * SAFETY) - used)
