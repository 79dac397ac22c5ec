"""How the suite runs: one worker more than the cores, and the bytecode made once before the workers start
(tests/bytecode.py) is the bytecode they read."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from _pytest.assertion import rewrite

from tests.bytecode import is_test_module, link_installed_bytecode, main
from tests.conftest import pytest_xdist_auto_num_workers

TAG = f".{sys.implementation.cache_tag}.pyc"


def test_a_test_module_gets_pytests_rewritten_bytecode_and_a_module_pythons_own(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "prefix"))
    test_module = tmp_path / "tests" / "test_sample.py"
    module = tmp_path / "tests" / "helper.py"
    test_module.parent.mkdir()
    test_module.write_text("def test_it():\n    x = 1\n    assert x == 2\n")
    module.write_text("VALUE = 1\n")

    main([str(test_module), str(module)])

    pyc = rewrite.get_cache_dir(test_module) / (test_module.name[:-3] + rewrite.PYC_TAIL)
    code = rewrite._read_pyc(test_module, pyc)
    assert code is not None, "pytest would rewrite the module again"
    namespace: dict = {}
    exec(code, namespace)
    try:
        namespace["test_it"]()
    except AssertionError as failure:
        assert "assert 1 == 2" in str(failure), "the asserts were not rewritten"
    else:
        raise AssertionError("the rewritten test passed")
    compiled = importlib.util.cache_from_source(str(module))
    assert compiled.startswith(str(tmp_path / "prefix")) and Path(compiled).exists()


def test_only_pytests_test_modules_and_conftest_files_are_rewritten(tmp_path):
    assert is_test_module(tmp_path / "test_games.py")
    assert is_test_module(tmp_path / "conftest.py")
    assert is_test_module(tmp_path / "games_test.py")
    assert not is_test_module(tmp_path / "driver.py")


def test_the_installed_bytecode_is_found_under_the_prefix_but_not_that_of_skipped_folders(tmp_path):
    installed = tmp_path / "lib"
    for package in ("json", "test"):
        (installed / package / "__pycache__").mkdir(parents=True)
        (installed / package / "__pycache__" / f"decoder{TAG}").write_bytes(b"bytecode")
        (installed / package / "__pycache__" / "decoder.cpython-27.pyc").write_bytes(b"other")

    link_installed_bytecode(tmp_path / "prefix", [str(installed)])

    mirror = tmp_path / "prefix" / installed.relative_to("/")
    assert (mirror / "json" / f"decoder{TAG}").read_bytes() == b"bytecode"
    assert not (mirror / "json" / "decoder.cpython-27.pyc").exists(), "another Python's bytecode"
    assert not (mirror / "test").exists(), "the standard library's own tests are never imported"


def test_the_suite_runs_one_worker_more_than_the_cores_unless_told_otherwise(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1, 2, 3})
    assert pytest_xdist_auto_num_workers(None) == 5
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "2")
    assert pytest_xdist_auto_num_workers(None) is None, "pytest-xdist reads the count itself"
