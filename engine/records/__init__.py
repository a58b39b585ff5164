"""Game records, read and written in one place: Piskvork `.psq` files (`psq`), the match runner's
`results.json` games (`results`), the readable text record of a match game (`text`), and `Game`,
a record of any of them replayed under its rule (`game`). `load` reads files, folders and
archives of records into judged games, reporting the records it has to skip."""
from __future__ import annotations

import tarfile
from collections.abc import Iterator
from pathlib import Path

from engine.board import Rule
from engine.records.game import Game, RecordError


def load(paths: list[str | Path], rule: Rule = Rule.RENJU) -> Iterator[Game | RecordError]:
    """Every game in the given files, folders (searched recursively) and .tar.gz archives, judged
    under `rule`; a record that cannot be read or replayed comes as its RecordError instead, so
    the caller can report it and go on."""
    from engine.records import psq

    for path in map(Path, paths):
        if path.is_dir():
            yield from load(sorted(p for p in path.rglob("*") if p.is_file()), rule)
        elif path.name.endswith((".tar.gz", ".tgz", ".tar")):
            with tarfile.open(path) as tar:
                for member in sorted(tar.getmembers(), key=lambda m: m.name):
                    if member.isfile() and member.name.endswith(".psq"):
                        text = tar.extractfile(member).read().decode("utf-8", errors="replace")
                        yield from _one(lambda: psq.to_game(psq.loads(text), rule, f"{path}:{member.name}"))
        elif path.suffix == ".psq":
            yield from _one(lambda: psq.to_game(psq.read(path), rule, str(path)))


def _one(make) -> Iterator[Game | RecordError]:
    try:
        yield make()
    except RecordError as e:
        yield e
    except ValueError as e:
        yield RecordError(str(e))
