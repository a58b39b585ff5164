"""What a Gomocup engine says of a position while it thinks: the evaluation lines of alpha-beta
engines such as PentaZen (`MESSAGE dep D ev E nd N tm T sp S`) and Rapfi (`MESSAGE Speed S | Depth
D | Eval E | Node N | Time Tms`, or with message_mode = "ucilike" `MESSAGE depth D ev E n N tm T`),
and the BOARD block that puts a position in front of one."""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.board import Move


@dataclass
class Eval:
    """One `MESSAGE dep ... ev E nd ... tm T ...` line, or Rapfi's `... | Eval E | Node N | Time T`."""

    ev: str  # as written: "+v17", "-v5", "123" (Rapfi: "+M17", "-M5", "123")
    win: int | None = None  # +vN: a forced win in N plies
    loss: int | None = None  # -vN: a forced loss in N plies
    score: int | None = None
    tm: int | None = None  # ms into the move
    nodes: int | None = None  # nd, with its k / m / g suffix applied


# PentaZen writes its search depth after "dep " as raw character codes, and one of them can be a
# carriage return: "MESSAGE dep \r-$ ev +v23 nd 176k tm 158 sp 1116". Pipes read in text mode (the
# match runner's EngineProcess, and so its --log-io transcripts) split that into "MESSAGE dep " and
# "-$ ev +v23 ...". So every non-move line an engine prints while thinking is kept and parsed, a
# MESSAGE prefix or not: parse_message finds "ev" wherever it is.
_EV = re.compile(r"(?:^|\s)ev\s+(\S+)")
_TM = re.compile(r"(?:^|\s)tm\s+(\d+)")
_ND = re.compile(r"(?:^|\s)nd\s+(\d+)([kmgt]?)(?:\s|$)")
# Rapfi with message_mode = "ucilike" writes "depth 13-19 ev +M21 n 37K n/ms 548 tm 69 pv ...":
# the ev and tm fields as PentaZen's, its nodes after "n", at every depth (its normal mode gives
# the nodes only at the end of the search).
_N = re.compile(r"(?:^|\s)n\s+(\d+)([kmgtKMGT]?)(?:\s|$)")
_MATE = re.compile(r"([+-])[vM](\d+)")
_SUFFIX = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
# Rapfi's fields, separated by "|": its node counts end in K, M or G, its times in ms (a search of
# a second and more reads "1.2s", which is left unread).
_RAPFI_EV = re.compile(r"(?:^|\|)\s*Eval\s+(\S+)")
_RAPFI_TM = re.compile(r"(?:^|\|)\s*Time\s+(\d+)ms(?:\s|$)")
_RAPFI_ND = re.compile(r"(?:^|\|)\s*Node\s+(\d+)([KMGT]?)(?:\s|$)")


def parse_message(line: str) -> Eval | None:
    """An engine's search line (with or without its MESSAGE prefix); None for any other line or
    one that does not parse."""
    text = line.strip()
    if text[:8].upper() == "MESSAGE ":
        text = text[8:]
    m, tm, nd = _EV.search(text), _TM.search(text), _ND.search(text) or _N.search(text)
    if not m:
        m, tm, nd = _RAPFI_EV.search(text), _RAPFI_TM.search(text), _RAPFI_ND.search(text)
    if not m:
        return None
    ev = m.group(1)
    out = Eval(ev, tm=int(tm.group(1)) if tm else None,
               nodes=int(nd.group(1)) * _SUFFIX[nd.group(2).lower()] if nd else None)
    mate = _MATE.fullmatch(ev)
    if mate:
        if mate.group(1) == "+":
            out.win = int(mate.group(2))
        else:
            out.loss = int(mate.group(2))
    elif re.fullmatch(r"[+-]?\d+", ev):
        out.score = int(ev)
    else:
        return None
    return out


def board_block(moves: list[Move]) -> list[str]:
    """The stones of a BOARD block, in move order: `x,y,1` for the side to move's, `x,y,2` for
    the opponent's (PentaZen reads the colours from the order, other engines from the field)."""
    to_move = len(moves) % 2  # 0: black to move
    return [f"{x},{y},{1 if i % 2 == to_move else 2}" for i, (x, y) in enumerate(moves)]
