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
