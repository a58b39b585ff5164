"""Game records, read and written in one place: Piskvork `.psq` files (`psq`), SGF collections
(`sgf`), RenjuNet's XML database (`renjunet`), the match runner's
`results.json` games (`results`), the readable text record of a match game (`text`), and `Game`,
a record of any of them replayed under its rule (`game`). `load` reads files, folders and
archives of records into judged games, reporting the records it has to skip."""
from __future__ import annotations

import gzip
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from engine.board import Rule
from engine.records.game import Game, RecordError


def load(paths: list[str | Path], rule: Rule = Rule.RENJU) -> Iterator[Game | RecordError]:
    """Every game in the given files, folders (searched recursively) and archives (.tar, .tar.gz,
    .tgz, .zip, and one gzipped file: .sgf.gz, .xml.gz, .rif.gz), judged under `rule` where the
    record names none: Piskvork `.psq`, SGF collections `.sgf`, RenjuNet's database `.xml`/`.rif`.
    A record that cannot be read or replayed comes as its RecordError instead, so the caller can
    report it and go on."""
    for path in map(Path, paths):
        if path.is_dir():
            yield from load(sorted(p for p in path.rglob("*") if p.is_file()), rule)
        elif path.name.endswith((".tar.gz", ".tgz", ".tar", ".zip")):
            yield from _many(lambda: _archive(path, rule), str(path))
        elif path.suffix == ".gz" and record_kind(path.stem):
            yield from _many(lambda: _opened(lambda: gzip.open(path), path.stem, rule, str(path)), str(path))
        elif record_kind(path.name):
            yield from _many(lambda: _opened(lambda: open(path, "rb"), path.name, rule, str(path)), str(path))


def _archive(path: Path, rule: Rule) -> Iterator[Game | RecordError]:
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as archive:
            for name in sorted(archive.namelist()):
                if not name.endswith("/") and record_kind(name):
                    yield from _opened(lambda: archive.open(name), name, rule, f"{path}:{name}")
        return
    with tarfile.open(path) as tar:
        for member in sorted(tar.getmembers(), key=lambda m: m.name):
            if member.isfile() and record_kind(member.name):
                yield from _opened(lambda: tar.extractfile(member), member.name, rule, f"{path}:{member.name}")


def record_kind(name: str) -> str:
    """The reader a file's name calls for: "psq", "sgf", "renjunet", or "" (not a record)."""
    suffix = Path(name).suffix.lower()
    return {".psq": "psq", ".sgf": "sgf", ".xml": "renjunet", ".rif": "renjunet"}.get(suffix, "")


def _opened(open_: Callable[[], BinaryIO], name: str, rule: Rule, source: str) -> Iterator[Game | RecordError]:
    """The records of one file, opened by `open_`: RenjuNet's database is streamed (it is large),
    the others are read whole."""
    from engine.records import psq, renjunet, sgf

    kind = record_kind(name)
    with open_() as stream:
        if kind == "renjunet":
            yield from renjunet.games(stream, rule, source)
            return
        data = stream.read()
    if kind == "psq":
        text = data.decode("utf-8", errors="replace")
        yield from _one(lambda: psq.to_game(psq.loads(text), rule, source), source)
    elif kind == "sgf":
        yield from sgf.loads(sgf.decode(data), rule, source)


def _many(make, source: str) -> Iterator[Game | RecordError]:
    """The records a reader yields, with a failure to read the file at all (unreadable, a broken
    archive) reported as one RecordError."""
    try:
        yield from make()
    except (OSError, EOFError, ValueError, tarfile.TarError, zipfile.BadZipFile) as e:
        yield RecordError(f"{source}: {e}")


def _one(make, source: str) -> Iterator[Game | RecordError]:
    try:
        yield make()
    except RecordError as e:
        yield e
    except ValueError as e:  # psq's parse errors name the line, not the file
        yield RecordError(f"{source}: {e}")
