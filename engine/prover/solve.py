"""`python -m engine solve`: prove a position from the command line and print one JSON object.

    python -m engine solve --rule renju --moves h8,h9,i7 [--kind vcf|utss|utss-exact|dfpn|vct] [--budget-nodes N]
                           [--budget-ms T] [--depth D] [--threat-depth K]
    python -m engine solve --black h8,i8 --white j8,k9 [--to-move black|white]

Points are letter-number (a = x 0, number = y + 1, either case) or "x,y" pairs separated by ";".
Bad input exits with status 2 and a message on stderr."""
from __future__ import annotations

import argparse
import json
import sys

from engine.board import Board, Color, Rule
from engine.board.coords import format_point, parse_points
from engine.native import BoardError
from engine.prover import Prover


def build(args: argparse.Namespace) -> Board:
    rule = Rule.parse(args.rule)
    if args.moves is not None:
        if args.black is not None or args.white is not None:
            raise BoardError("give either --moves or --black/--white, not both")
        board = Board.from_moves(parse_points(args.moves), size=args.size, rule=rule)
    else:
        black = parse_points(args.black or "")
        white = parse_points(args.white or "")
        to_move = {"black": Color.BLACK, "white": Color.WHITE, None: None}[args.to_move]
        board = Board.from_stones(black, white, to_move=to_move, size=args.size, rule=rule)
    if board.game_over:
        raise BoardError(f"the position is already decided ({board.result.name.lower().replace('_', ' ')})")
    return board


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine solve", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rule", default="renju", help="freestyle, standard, renju, caro, caro-exact or a Gomocup number")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--moves", help="moves in order, black first")
    ap.add_argument("--black", help="black stones (a position as it stands)")
    ap.add_argument("--white", help="white stones")
    ap.add_argument("--to-move", choices=["black", "white"], help="side to move for --black/--white")
    ap.add_argument("--kind", choices=["vcf", "utss", "utss-exact", "dfpn", "vct", "vct-direct", "vct3"], default="vcf",
                    help="utss-exact also tells a draw (no threat wins for either side) from unknown; "
                         "dfpn proves wins by proof-number search (win or unknown); vct proves a victory by "
                         "continuous fours and threes (win or unknown); vct-direct is that search with the "
                         "defender's delaying fours left out (a win is not a full proof; a complete unknown rules "
                         "one out); vct3 adds quiet threats, moves after which a VCT would win were the defender "
                         "to pass (--threat-depth: how many a line may hold, default 1)")
    ap.add_argument("--depth", type=int,
                    help="VCF: attacking moves (default 60); UTSS: plies (default 9); df-pn: longest line "
                         "(default 40); VCT: longest line (default 120)")
    ap.add_argument("--threat-depth", type=int, help="UTSS: longest VCF a quiet attack may threaten (default 3); "
                                                   "VCT3: quiet threats a line may hold (default 1)")
    ap.add_argument("--budget-nodes", type=int, default=0)
    ap.add_argument("--budget-ms", type=float, default=0.0)
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0) if e.code in (0, None) else 2
    try:
        board = build(args)
    except BoardError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    proof = Prover().solve(board, args.kind, args.depth, args.budget_nodes, args.budget_ms, args.threat_depth)
    print(json.dumps(proof.as_json(format_point)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
