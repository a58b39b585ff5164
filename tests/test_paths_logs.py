import logging
import logging.handlers

from engine import paths
from engine.protocol import logs


def test_models_dir_in_source_tree():
    assert paths.models_dir().is_dir()
    assert (paths.models_dir() / "README.md").is_file()


def test_folder_log_is_capped_and_replaced(tmp_path):
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        logs.add_folder(tmp_path / "a")
        logs.add_folder(tmp_path / "b")  # a new folder replaces the old file handler
        files = [h for h in root.handlers if isinstance(h, logging.handlers.RotatingFileHandler)]
        assert len(files) == 1 and files[0].maxBytes == logs.LOG_FILE_BYTES and files[0].backupCount == 1
        logging.getLogger("pbrain.test").warning("hello")
        files[0].flush()
        assert "hello" in (tmp_path / "b" / "pbrain-renju" / "pbrain-renju.log").read_text()
        logs.add_folder(tmp_path / "bad\0name")  # refused quietly, never raised
    finally:
        for h in list(root.handlers):
            if h not in before:
                root.removeHandler(h)
                h.close()


def test_the_executable_bundles_only_the_shipped_pair_its_sidecars_and_the_book(tmp_path):
    from engine import paths
    from engine.book import SHIPPED_NAME

    assert paths.bundled_models(tmp_path) == []
    names = ["pbrain-renju-v9.onnx", "pbrain-renju-v9.json", "pbrain-renju-v10.onnx", "pbrain-renju-v10.json",
             "pbrain-renju-v10-int8.onnx", "pbrain-renju-v10-int8.json", "README.md", SHIPPED_NAME]
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "targets.npz").write_bytes(b"x")
    bundled = {p.name for p in paths.bundled_models(tmp_path)}
    assert bundled == set(names) - {"pbrain-renju-v9.onnx", "pbrain-renju-v9.json"}
    # the real tree: the pair the engine loads is among what travels
    from engine.search.player import shipped_model

    shipped = {p.name for p in paths.bundled_models()}
    assert {shipped_model(gpu=False).rsplit("/", 1)[-1], shipped_model(gpu=True).rsplit("/", 1)[-1]} <= shipped
