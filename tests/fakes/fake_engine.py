"""A scripted Gomocup engine for the referee's tests. Mode (argv[1]):
  good       answers the free point nearest the centre
  timeout    sleeps past every deadline instead of answering a move
  crash      exits when asked for a move
  silent     reads everything, answers nothing
  garbage    prints garbage lines and never a move
  occupied   answers a point that is already taken
  offboard   answers 99,99
  forbidden  as black in Renju, plays a forbidden point when there is one (else like good)
  memory     holds 300 MB, then answers like good
  slow=MS    sleeps MS milliseconds, then answers like good
"""
import sys
import time

sys.path.insert(0, sys.argv[2] if len(sys.argv) > 2 else ".")
from engine.board import Board, Color, Rule  # noqa: E402

mode = sys.argv[1]
board = None
rule = Rule.FREESTYLE
ballast = None


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def answer():
    global ballast
    if mode == "timeout":
        time.sleep(3600)
    if mode == "crash":
        sys.exit(3)
    if mode == "silent":
        return
    if mode == "garbage":
        for junk in ("hello", "7;7", "x,y", "MOVE 7 7", "\x00\x01"):
            out(junk)
        return
    if mode == "offboard":
        return out("99,99")
    if mode == "occupied":
        x, y = board.moves[0]
        return out(f"{x},{y}")
    if mode == "memory" and ballast is None:
        ballast = bytearray(300 * 1024 * 1024)
        for i in range(0, len(ballast), 4096):
            ballast[i] = 1
    if mode.startswith("slow="):
        time.sleep(int(mode.split("=")[1]) / 1000)
    if mode == "forbidden" and board.to_move == Color.BLACK:
        bad = board.forbidden_list()
        if bad:
            x, y = bad[0]
            board.put(x, y, Color.BLACK)
            return out(f"{x},{y}")
    c = board.size // 2
    x, y = min(board.legal_moves(), key=lambda m: (max(abs(m[0] - c), abs(m[1] - c)), m[1], m[0]))
    board.play(x, y)
    out(f"{x},{y}")


lines = iter(sys.stdin)
for raw in lines:
    cmd = raw.strip().split(" ", 1)
    word = cmd[0].upper()
    if word == "START":
        board = Board(int(cmd[1]), rule)
        out("OK")
    elif word == "INFO" and len(cmd) > 1 and cmd[1].lower().startswith("rule"):
        rule = Rule.from_gomocup(int(cmd[1].split()[1]))
        board = Board(board.size if board else 15, rule)
    elif word == "BOARD":
        stones = []
        for data in lines:
            if data.strip().upper() == "DONE":
                break
            x, y, f = (int(v) for v in data.strip().split(","))
            stones.append((x, y, f))
        board = Board(board.size, rule)
        for x, y, _ in stones:
            board.play(x, y)
        answer()
    elif word == "TURN":
        x, y = (int(v) for v in cmd[1].split(","))
        board.play(x, y)
        answer()
    elif word == "END":
        break
