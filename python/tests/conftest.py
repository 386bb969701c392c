"""Shared fixtures of the Python tests: the repository's paths."""

import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def repo():
    return REPO
