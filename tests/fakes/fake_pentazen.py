"""A scripted stand-in for PentaZen in the labelling tests: answers START and RESTART with OK, and a
BOARD block with PentaZen-like search lines (a score, a +v win, a line that does not parse, a
shorter +v win), then the first free point from the centre. With --drop-restart it ignores the
first RESTART after each answer, as Rapfi drops a command that arrives as its search ends; with
--score-only it prints the score line alone; with --wins-at N,M,... it announces its win only at
positions of that many stones (a score elsewhere), and with --loses-at its loss (-v8) at those.
No engine imports: it starts in milliseconds."""
import sys

drop_restart = "--drop-restart" in sys.argv[1:]
score_only = "--score-only" in sys.argv[1:]


def counts(flag: str) -> set[int] | None:
    args = sys.argv[1:]
    return {int(n) for n in args[args.index(flag) + 1].split(",")} if flag in args else None


wins_at, loses_at = counts("--wins-at"), counts("--loses-at")
just_answered = False


def out(line: str) -> None:
    sys.stdout.write(line + "\r\n")
    sys.stdout.flush()


stones: list[tuple[int, int, int]] = []
in_board = False
for raw in sys.stdin:
    line = raw.strip()
    word = line.split(" ", 1)[0].upper()
    if in_board:
        if word == "DONE":
            in_board = False
            out("MESSAGE dep 5-9 ev 35 nd 12k tm 40 sp 300")
            if loses_at is not None and len(stones) in loses_at:
                out("MESSAGE dep 9-13 ev -v8 nd 90k tm 120 sp 700")
            elif not score_only and (wins_at is None or len(stones) in wins_at):
                out("MESSAGE dep 7-11 ev +v9 nd 50k tm 81 sp 600")
                out("MESSAGE dep ev nd tm")
                out("MESSAGE dep 9-13 ev +v7 nd 90k tm 120 sp 700")
            taken = {(x, y) for x, y, _ in stones}
            free = sorted(((x, y) for x in range(15) for y in range(15) if (x, y) not in taken),
                          key=lambda p: (abs(p[0] - 7) + abs(p[1] - 7), p))
            out(f"{free[0][0]},{free[0][1]}")
            just_answered = True
        else:
            x, y, c = (int(v) for v in line.split(","))
            stones.append((x, y, c))
    elif word == "RESTART" and drop_restart and just_answered:
        just_answered = False
    elif word in ("START", "RESTART"):
        out("OK")
    elif word == "BOARD":
        in_board, stones = True, []
    elif word == "END":
        break
