"""SGF game collections as Renju and Gomoku programs write them, read into judged `Game`s.

c-gomoku-cli (`-sgf FILE`, src/game.cpp `export_sgf`) appends one game tree a game:

    (;FF[4]GM[4]GN[1]EV[A x B]DT[2021.05.01 12:00:00]RO[1.1]RU[4]SZ[15]PB[A]PW[B]RE[B+1]TE[Black win by five connection]
    ;B[hh]C[opening move];W[hi]C[opening move]
    ;B[ij]C[812ms];W[jk]C[95ms]...)

A point is two letters, the column (x) then the row (y), both from "a" = 0, rows counted from the
top: the Gomocup protocol's x,y, so "hh" is (7, 7). RU holds Gomocup's rule number (0 freestyle,
1 exact five, 4 renju; Yixin-Board and Rapfi also read 2 as renju); other writers spell the rule
("renju", "RIF", "freestyle"). RE is "B+...", "W+..." or "0" (a draw). c-gomoku-cli marks the
opening's stones with C[opening move] and never writes the losing move of a foul, an illegal move,
a time-out or a crash: its TE (a root property of its own) says which it was. Other writers lay an
opening as AB/AW setup stones. Both kinds of opening stone count as `Game.opening`.

The main line is read (the first variation at each branch); a record that cannot be laid out as
alternating stones from black (a pass or setup mid-game, two moves in one node, a colour out of
turn, a point off the board) is refused with a RecordError naming the game and move."""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from engine.board import Move, Rule
from engine.records.game import Game, RecordError, confirm, judge

Node = dict[str, list[str]]

_IDENT = re.compile(r"[A-Za-z0-9]+")
_VALUE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.DOTALL)
_ESCAPE = re.compile(r"\\(\r\n|\n\r|\n|\r|.)", re.DOTALL)
_SPACE = re.compile(r"\s*")
_POINT = re.compile(r"[a-zA-Z]{2}")

# Gomocup's rule numbers as c-gomoku-cli writes them (and 2, Yixin-Board's renju); any other number
# is a code this reader cannot decode, so it refuses the game rather than guess.
_RULE_CODES = {0: Rule.FREESTYLE, 1: Rule.STANDARD, 2: Rule.RENJU, 4: Rule.RENJU}
# Words in a spelled-out RU: renju's opening rules all play the renju rule.
_RENJU_WORDS = {"renju", "rif", "yamaguchi", "taraguchi", "soosyrv", "soosorv", "sakata", "tarannikov"}
_STANDARD_WORDS = {"standard", "exact", "exact5"}
_FREESTYLE_WORDS = {"freestyle", "free"}
# c-gomoku-cli's TE reasons (src/game.cpp `decode_state`), by a phrase each holds.
_REASONS = (("five connection", "five"), ("forbidden", "foul"), ("time forfeit", "timeout"),
            ("crash", "crash"), ("illegal", "illegal"), ("adjudication", "adjudication"),
            ("board", "full"))
# RE's reason after "B+"/"W+", as the SGF specification spells it.
_RE_REASONS = {"r": "resign", "resign": "resign", "t": "timeout", "time": "timeout",
               "f": "forfeit", "forfeit": "forfeit"}


class _Cut(ValueError):
    """The text ends inside a game tree."""


def parse(text: str) -> Iterator[list[Node] | RecordError]:
    """The main line of each game tree in a collection, its root node first; text between trees is
    skipped (writers put blank lines or separators there). A tree cut short or malformed comes as
    a RecordError, and ends the reading: past a syntax error nothing says where the next game
    starts, and guessing could read a variation as a game."""
    i, k = 0, 0
    while (i := text.find("(", i)) >= 0:
        k += 1
        start = i
        try:
            nodes, i = _tree(text, i)
        except _Cut as e:
            yield RecordError(f"game {k} (line {_line(text, start)}): cut short: {e}")
            return
        except ValueError as e:
            yield RecordError(f"game {k} (line {_line(text, start)}): {e}; the rest of the file is skipped")
            return
        yield nodes
    if k == 0:
        yield RecordError("no SGF game tree in the text")


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def _tree(text: str, i: int) -> tuple[list[Node], int]:
    """Reads the game tree opening at text[i] ("("): its main line, and the offset past its ")"."""
    main: list[Node] = []
    open_trees: list[list[bool]] = []  # per open tree: [on the main line, has had a child tree]
    n = len(text)
    while True:
        i = _SPACE.match(text, i).end()
        if i >= n:
            raise _Cut("no closing ')'")
        c = text[i]
        if c == "(":
            on_main = True
            if open_trees:
                parent = open_trees[-1]
                on_main = parent[0] and not parent[1]
                parent[1] = True
            open_trees.append([on_main, False])
            i += 1
        elif c == ")":
            open_trees.pop()
            i += 1
            if not open_trees:
                return main, i
        elif c == ";":
            node, i = _node(text, i + 1)
            if open_trees[-1][0] and not open_trees[-1][1]:
                main.append(node)
        else:
            raise ValueError(f"line {_line(text, i)}: {c!r} where a node, '(' or ')' belongs")


def _node(text: str, i: int) -> tuple[Node, int]:
    node: Node = {}
    while True:
        i = _SPACE.match(text, i).end()
        m = _IDENT.match(text, i)
        if not m:
            return node, i
        # FF[3] allowed lowercase letters inside identifiers ("AddBlack" is AB): only the rest counts.
        ident = "".join(ch for ch in m.group() if not ch.islower())
        i = m.end()
        values = []
        while True:
            i = _SPACE.match(text, i).end()
            if not text.startswith("[", i):
                break
            v = _VALUE.match(text, i)
            if not v:
                raise _Cut(f"line {_line(text, i)}: the value of {ident} is never closed")
            values.append(_ESCAPE.sub(_unescape, v.group(1)))
            i = v.end()
        if not values:
            raise ValueError(f"line {_line(text, i)}: property {m.group()} has no value")
        node.setdefault(ident, []).extend(values)


def _unescape(m: re.Match) -> str:
    """An escaped character stands for itself; an escaped line break is a soft one, removed."""
    return "" if m.group(1) in ("\r\n", "\n\r", "\n", "\r") else m.group(1)


def to_game(nodes: list[Node], rule: Rule, source: str = "") -> Game:
    """The main line as a judged Game. Its rule is RU's when RU names one, else `rule`. No stone
    cap applies (c-gomoku-cli stops at one only when asked), except that a Renju record drawn at
    exactly Gomocup's 200 stones ends "draw200"."""
    root = nodes[0]
    gm = _first(root, "GM")
    # GM[4] is Gomoku/Renju; ORC Game Center writes its renju records as GM[5] (realcore's tests).
    if gm not in ("", "4", "5"):
        raise RecordError(f"{source}: GM[{gm}] is not a Gomoku or Renju game")
    size = _size(_first(root, "SZ"), source)
    extra: dict = {}
    ru = _first(root, "RU")
    if ru:
        extra["RU"] = ru
        rule = _rule(ru, rule, source)
    result, reason = _result(_first(root, "RE"))
    if result:
        extra["result"] = result
    if _first(root, "RE"):
        extra["result_text"] = _first(root, "RE")
    te = _first(root, "TE").lower()
    reason = next((r for phrase, r in _REASONS if phrase in te), reason) if te else reason
    if reason:
        extra["reason"] = reason
    for key, name in (("EV", "event"), ("DT", "date"), ("GN", "name"), ("RO", "round"), ("AP", "application")):
        if _first(root, key):
            extra[name] = _first(root, key)

    black: list[Move] = []
    white: list[Move] = []
    moves: list[Move] = []
    setup: list[Move] = []
    to_play = ""
    marked = 0  # leading moves c-gomoku-cli marks as the opening's
    passes = 0
    for node in nodes:
        if "AE" in node:
            raise RecordError(f"{source}: AE (taking stones off) has no place in a game of stones")
        if "AB" in node or "AW" in node:
            if moves or passes:
                raise RecordError(f"{source}: setup stones after move {len(moves)}")
            black += [_point(v, size, source, "AB") for v in _points(node.get("AB", []))]
            white += [_point(v, size, source, "AW") for v in _points(node.get("AW", []))]
        if "PL" in node and not moves:
            to_play = _first(node, "PL").upper()[:1]
        colours = [c for c in ("B", "W") if c in node]
        if not colours:
            continue
        if len(colours) > 1 or len(node[colours[0]]) > 1:
            raise RecordError(f"{source}: two moves in one node after move {len(moves)}")
        colour, value = colours[0], node[colours[0]][0]
        if not moves and not passes:
            setup = _setup(black, white, to_play, source)
        number = len(setup) + len(moves) + passes + 1
        if value == "" or (value == "tt" and size <= 19):  # a pass, as the SGF specification writes it
            passes += 1
            continue
        if passes:
            raise RecordError(f"{source}: move {number} follows a pass (a Game holds stones only)")
        mover = "B" if (number - 1) % 2 == 0 else "W"
        if colour != mover:
            raise RecordError(f"{source}: move {number} is {colour}[{value}] but {mover} is to play")
        moves.append(_point(value, size, source, f"move {number}"))
        if marked == len(moves) - 1 and " ".join(node.get("C", [])).strip().lower() == "opening move":
            marked += 1
    if not moves and not passes:  # a position with no move after its setup
        setup = _setup(black, white, to_play, source)
    if passes:
        extra["passes"] = passes
    names = (_first(root, "PB"), _first(root, "PW"))
    game = Game(size, rule, setup + moves, opening=len(setup) + marked, names=names, source=source, extra=extra)
    game = judge(game, draw_stones=0)
    if game.end == "stopped" and result == "draw" and rule == Rule.RENJU and len(game.moves) == size * size - 25:
        game.end = "draw200"  # a draw exactly at Gomocup's cap (c-gomoku-cli's -drawafter 200) is that draw
    return confirm(game)


def _setup(black: list[Move], white: list[Move], to_play: str, source: str) -> list[Move]:
    """Setup stones in turn order, black first, as Board replays them."""
    if not len(white) <= len(black) <= len(white) + 1:
        raise RecordError(f"{source}: {len(black)} black and {len(white)} white setup stones cannot be laid in turn")
    setup = [p for pair in zip(black, white) for p in pair] + black[len(white):]
    if to_play and to_play != ("B" if len(setup) % 2 == 0 else "W"):
        raise RecordError(f"{source}: PL[{to_play}] after {len(setup)} setup stones")
    return setup


def _first(node: Node, key: str) -> str:
    return node.get(key, [""])[0].strip()


def _size(sz: str, source: str) -> int:
    if not sz:
        return 15  # the specification leaves Gomoku's default open; 15 is the Renju board
    parts = sz.split(":")
    if not all(p.strip().isdigit() for p in parts) or len(set(int(p) for p in parts)) != 1:
        raise RecordError(f"{source}: SZ[{sz}] is not a square board")
    size = int(parts[0])
    if not 5 <= size <= 22:
        raise RecordError(f"{source}: SZ[{sz}] is outside the boards of 5..22 this engine plays")
    return size


def _rule(ru: str, default: Rule, source: str) -> Rule:
    if ru.isdigit():
        if int(ru) not in _RULE_CODES:
            raise RecordError(f"{source}: RU[{ru}] is no rule number Gomocup or c-gomoku-cli writes")
        return _RULE_CODES[int(ru)]
    words = set(re.sub(r"[^a-z0-9]+", " ", ru.lower()).split())
    if words & _RENJU_WORDS:
        return Rule.RENJU
    if "caro" in words:
        return Rule.CARO
    if words & _STANDARD_WORDS:
        return Rule.STANDARD
    if words & _FREESTYLE_WORDS:
        return Rule.FREESTYLE
    return default  # a label this reader does not know ("gomoku" alone says nothing of overlines)


def _result(re_: str) -> tuple[str | None, str]:
    """RE as ("black" | "white" | "draw" | None, the reason it gives or "")."""
    m = re.fullmatch(r"([BW])(?:\+(.*))?", re_.strip(), re.IGNORECASE)
    if m:
        winner = "black" if m.group(1).upper() == "B" else "white"
        return winner, _RE_REASONS.get((m.group(2) or "").strip().lower(), "")
    if re_.strip().lower() in ("0", "draw", "d", "jigo"):
        return "draw", ""
    return None, ""


def _points(values: list[str]) -> list[str]:
    """Point lists, with FF[4]'s compressed rectangles ("aa:cc") expanded."""
    out = []
    for v in values:
        if ":" not in v:
            out.append(v)
            continue
        a, b = v.split(":", 1)
        if not (_POINT.fullmatch(a) and _POINT.fullmatch(b)):
            out.append(v)  # refused by _point with its text
            continue
        xs, ys = sorted((a[0], b[0])), sorted((a[1], b[1]))
        out += [x + y for x in _span(*xs) for y in _span(*ys)]
    return out


def _span(a: str, b: str) -> list[str]:
    return [chr(c) for c in range(ord(a), ord(b) + 1)]


def _point(value: str, size: int, source: str, where: str) -> Move:
    if not _POINT.fullmatch(value):
        raise RecordError(f"{source}: {where}: {value!r} is not a point")
    x, y = (ord(c) - ord("a") if c.islower() else ord(c) - ord("A") + 26 for c in value)
    if not (x < size and y < size):
        raise RecordError(f"{source}: {where}: {value!r} is off the {size}x{size} board")
    return x, y


def loads(text: str, rule: Rule = Rule.RENJU, source: str = "") -> Iterator[Game | RecordError]:
    """Every game of a collection, judged; a bad one comes as its RecordError."""
    for k, tree in enumerate(parse(text), start=1):
        if isinstance(tree, RecordError):
            yield RecordError(f"{source}: {tree}")
            continue
        try:
            yield to_game(tree, rule, f"{source} game {k}")
        except RecordError as e:
            yield e


def decode(data: bytes) -> str:
    """SGF text from a file's bytes: UTF-8 as c-gomoku-cli writes it, else ISO-8859-1 (the SGF
    specification's default charset), which decodes any byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read(path: str | Path, rule: Rule = Rule.RENJU) -> Iterator[Game | RecordError]:
    yield from loads(decode(Path(path).read_bytes()), rule, str(path))
