"""Shared helpers: the repository's paths and the csp command line, the oracle of the
node-count tests. In CI (.ci/run) CSP_BIN and CSP_AUSTRALIA name the binaries built by
`cargo test --workspace`; elsewhere they are looked for under target/, and the tests that
need them are skipped when they are not built."""

import json
import os
import pathlib
import subprocess

import pytest

TESTS = pathlib.Path(__file__).resolve().parent
REPO = TESTS.parent.parent
# The shared data beside the clone (as CI lays it), or where CSP_SHARED says.
SHARED = pathlib.Path(os.environ.get("CSP_SHARED", REPO.parent / "shared"))


def built(env: str, relative: str) -> pathlib.Path:
    """A binary of the workspace: $env if set (it must exist), else target/*/relative."""
    given = os.environ.get(env)
    if given:
        path = pathlib.Path(given)
        assert path.is_file(), f"{env}={given} does not exist"
        return path
    for profile in ("release", "debug"):
        path = REPO / "target" / profile / relative
        if path.is_file():
            return path
    pytest.skip(f"{relative} is not built (cargo build) and {env} is not set")


@pytest.fixture(scope="session")
def cli():
    """Runs the csp command line with arguments, returning its standard output."""
    binary = built("CSP_BIN", "csp")

    def run(*args: str) -> str:
        done = subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=600)
        assert done.returncode in (0, 1), done.stderr
        return done.stdout

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    """Runs the csp command line and reads its JSON lines."""

    def run(*args: str) -> list:
        return [json.loads(line) for line in cli(*args, "--format", "json").splitlines() if line.strip()]

    return run


@pytest.fixture(scope="session")
def australia_example():
    """The path of the Rust example examples/australia.rs, built."""
    return built("CSP_AUSTRALIA", "examples/australia")
