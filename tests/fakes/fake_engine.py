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

Only "forbidden" imports the engine's board (it needs the Renju rules): the others keep a bare
grid, so that they start in tens of milliseconds. The referee charges start-up to the first move,
and the engine's imports (numpy, cffi) can take most of a 700 ms first move on a loaded CI machine.
"""
import sys
import time

mode = sys.argv[1]


class Grid:
    """Stones in move order on a size x size board; black moves first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.moves: list[tuple[int, int]] = []

    def play(self, x: int, y: int) -> None:
        self.moves.append((x, y))

    def legal_moves(self) -> list[tuple[int, int]]:
        taken = set(self.moves)
        return [(x, y) for y in range(self.size) for x in range(self.size) if (x, y) not in taken]


if mode == "forbidden":
    sys.path.insert(0, sys.argv[2] if len(sys.argv) > 2 else ".")
    from engine.board import Board, Color, Rule  # noqa: E402

    def make_board(size, gomocup_rule):
        return Board(size, Rule.from_gomocup(gomocup_rule))
else:
    def make_board(size, gomocup_rule):
        return Grid(size)

board = None
rule_bits = 0
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
        board = make_board(int(cmd[1]), rule_bits)
        out("OK")
    elif word == "INFO" and len(cmd) > 1 and cmd[1].lower().startswith("rule"):
        rule_bits = int(cmd[1].split()[1])
        board = make_board(board.size if board else 15, rule_bits)
    elif word == "BOARD":
        stones = []
        for data in lines:
            if data.strip().upper() == "DONE":
                break
            x, y, f = (int(v) for v in data.strip().split(","))
            stones.append((x, y, f))
        board = make_board(board.size, rule_bits)
        for x, y, _ in stones:
            board.play(x, y)
        answer()
    elif word == "TURN":
        x, y = (int(v) for v in cmd[1].split(","))
        board.play(x, y)
        answer()
    elif word == "END":
        break
