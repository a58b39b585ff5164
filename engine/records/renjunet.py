"""RenjuNet's game database (renju.net's download, `renjunet_v10_YYYYMMDD.rif`, an XML file),
read as a stream of judged `Game`s.

No specification is published; the layout below is the one the file's readers rely on (wind23's
whr_renju, which rates players from it, and other public parsers): tables first, then the games.

    <database version="1.0" date="...">
    <rules><rule id="1" name="RIF" category="1" />...</rules>         category 1 renju, 2 gomoku
    <openings><opening id="21" abbr="D1" name="..." />...</openings>
    <players><player id="7" name="Ando" surname="Meritee" country="1" ... />...</players>
    <tournaments><tournament id="3" name="..." rule="1" start="2005-08-01" ... />...</tournaments>
    <games>
    <game id="171548" tournament="3" round="8" rule="1" black="7" white="9" bresult="1"
          btime="8" wtime="8" opening="19" alt="51" swap="R--R-">
    <move>h8 h9 i8 g8 ...</move><info>...</info>
    </game>...
    </games></database>

Moves are renju notation on the 15x15 board: a column letter a..o (x from 0) and a row number
1..15 counted from the bottom, so row r is y = 15 - r ("h8" is the centre, (7, 7)). bresult is
black's score: 1, 0 or 0.5. The first three stones are the opening (26 standard shapes, laid by
one player under every opening rule RenjuNet lists, or swapped for), not black's and white's own
choices, so they count as `Game.opening`. Gomoku (category 2) is RIF's: exactly five wins."""
from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from engine.board import Move, Rule
from engine.records.game import Game, RecordError, confirm, judge

SIZE = 15
OPENING = 3
_CATEGORIES = {"1": Rule.RENJU, "2": Rule.STANDARD}
_RESULTS = {"1": "black", "0": "white", "0.5": "draw"}
_POINT = re.compile(r"([a-oA-O])(\d{1,2})")


def games(stream: BinaryIO, rule: Rule = Rule.RENJU, source: str = "") -> Iterator[Game | RecordError]:
    """Every game in the database, judged under its rule's category (else `rule`), as the file is
    read: memory holds the tables, not the games. A bad game comes as its RecordError; a file
    that breaks off (or is no XML) ends with one naming where."""
    players: dict[str, str] = {}
    rules: dict[str, tuple[str, str]] = {}  # id: (name, category)
    tournaments: dict[str, tuple[str, str]] = {}  # id: (name, rule id)
    openings: dict[str, str] = {}
    open_elements: list[ET.Element] = []
    seen = 0
    try:
        for event, elem in ET.iterparse(stream, events=("start", "end")):
            if event == "start":
                open_elements.append(elem)
                continue
            open_elements.pop()
            tag = elem.tag
            if tag == "game":
                seen += 1
                try:
                    yield _game(elem, players, rules, tournaments, openings, rule, source)
                except RecordError as e:
                    yield e
            elif tag == "player":
                players[elem.get("id", "")] = f"{elem.get('name', '')} {elem.get('surname', '')}".strip()
            elif tag == "rule":
                rules[elem.get("id", "")] = (elem.get("name", ""), elem.get("category", ""))
            elif tag == "tournament":
                tournaments[elem.get("id", "")] = (elem.get("name", ""), elem.get("rule", ""))
            elif tag == "opening":
                openings[elem.get("id", "")] = elem.get("name", "") or elem.get("abbr", "")
            else:
                continue
            if open_elements:  # the record is read: drop it (and its read siblings) from the tree
                open_elements[-1].clear()
    except ET.ParseError as e:
        yield RecordError(f"{source}: the XML breaks ({e}); the games after it are skipped")
        return
    if seen == 0:
        yield RecordError(f"{source}: no RenjuNet <game> in the file")


def _game(elem: ET.Element, players: dict[str, str], rules: dict[str, tuple[str, str]],
          tournaments: dict[str, tuple[str, str]], openings: dict[str, str], default: Rule, source: str) -> Game:
    where = f"{source} game {elem.get('id', '?')}"
    tokens = (elem.findtext("move") or "").split()
    if not tokens:
        raise RecordError(f"{where}: no moves")
    moves = [_point(t, k, where) for k, t in enumerate(tokens, start=1)]
    tournament, tournament_rule = tournaments.get(elem.get("tournament", ""), ("", ""))
    rule_id = elem.get("rule") or tournament_rule
    rule, rule_name = default, ""
    if rule_id and rules:
        if rule_id not in rules:
            raise RecordError(f"{where}: rule {rule_id} is not in the database's rules")
        rule_name, category = rules[rule_id]
        if category not in _CATEGORIES:
            raise RecordError(f"{where}: rule {rule_id} ({rule_name}) is of category {category!r},"
                              " neither renju (1) nor gomoku (2)")
        rule = _CATEGORIES[category]
    extra = {key: elem.get(key) for key in ("id", "round", "alt", "swap", "btime", "wtime") if elem.get(key)}
    bresult = elem.get("bresult", "").strip()
    if bresult:
        extra["result_text"] = bresult
    if bresult in _RESULTS:
        extra["result"] = _RESULTS[bresult]
    if tournament:
        extra["tournament"] = tournament
    if rule_name:
        extra["rule_name"] = rule_name
    if elem.get("opening"):
        extra["opening_name"] = openings.get(elem.get("opening"), elem.get("opening"))
    if elem.findtext("info"):
        extra["info"] = elem.findtext("info")
    names = (players.get(elem.get("black", ""), ""), players.get(elem.get("white", ""), ""))
    game = Game(SIZE, rule, moves, opening=min(OPENING, len(moves)), names=names, source=where, extra=extra)
    return confirm(judge(game, draw_stones=0))  # human play has no 200-stone cap


def _point(token: str, k: int, where: str) -> Move:
    m = _POINT.fullmatch(token)
    if not m or not 1 <= int(m.group(2)) <= SIZE:
        raise RecordError(f"{where}: move {k} {token!r} is not a point of the {SIZE}x{SIZE} board")
    return ord(m.group(1).lower()) - ord("a"), SIZE - int(m.group(2))


def loads(data: bytes | str, rule: Rule = Rule.RENJU, source: str = "") -> Iterator[Game | RecordError]:
    yield from games(io.BytesIO(data.encode() if isinstance(data, str) else data), rule, source)


def read(path: str | Path, rule: Rule = Rule.RENJU) -> Iterator[Game | RecordError]:
    with open(path, "rb") as f:
        yield from games(f, rule, str(path))
