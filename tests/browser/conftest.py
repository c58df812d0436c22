"""The web client in a real browser: Playwright for Python driving Debian's Chromium
(``/usr/bin/chromium``; no browser is ever downloaded).  Every test here is marked
``browser`` and skipped, in one line, where Chromium or Playwright is missing (``.ci/run``
installs Debian's ``chromium`` where it can)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "app"))  # tables_net: the server helpers

CHROMIUM = os.environ.get("LAUGH_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for a module's tests."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"no Chromium at {CHROMIUM}: the browser tests need Debian's chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install '.[test]')")
    # Chromium keeps a socket in its temporary folder, and a socket's path has at most 107
    # bytes: under CI's long TMPDIR it would not start, so it gets a short folder of its own.
    short = tempfile.mkdtemp(
        prefix="laugh-chromium-", dir="/tmp" if os.path.isdir("/tmp") else None
    )
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(
                executable_path=CHROMIUM,
                args=ARGS,
                headless=True,
                env={**os.environ, "TMPDIR": short},
            )
            try:
                yield b
            finally:
                b.close()
    finally:
        shutil.rmtree(short, ignore_errors=True)


@pytest.fixture
def pages(browser):
    """New pages (each in a context of its own: its own session storage), closed after the
    test; every console error and page error of each is kept in ``page.laugh_errors``."""
    made = []

    def new(width: int = 1280, height: int = 800):
        ctx = browser.new_context(viewport={"width": width, "height": height})
        page = ctx.new_page()
        page.laugh_errors = []
        page.on("pageerror", lambda e: page.laugh_errors.append(str(e)))
        page.on("console", lambda m: m.type == "error" and page.laugh_errors.append(m.text))
        page.set_default_timeout(20_000)
        made.append(ctx)
        return page

    yield new
    for ctx in made:
        ctx.close()
