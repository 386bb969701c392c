"""Shared fixtures of the Python tests (the repository's paths) and the marker CPMpy's tests use."""

import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def repo():
    return REPO


def pytest_configure(config):
    # The marker of CPMpy's own constraint tests (test_cpmpy_suite.py).
    config.addinivalue_line("markers", "generate_constraints: one test per constraint a CPMpy generator yields")
