"""Issue 26, item 6: the report in a real browser. Headless Chromium (Debian's ``chromium``;
.ci/run installs it) opens the page from a file URL: no console error and no failed request
in its log, the table cells carry the comparison's numbers in the DOM it built, every chart
has a title and a text alternative there, and a screenshot is not blank. Skipped where
Chromium is absent, except under CI (CI=true), where that is a failure."""

from __future__ import annotations

import html
import json
import os
import re
import pathlib
import shutil
import struct
import subprocess
import zlib

import pytest

import evalcore
from evalcore.comparisons.html_report import CURVE_MEASURES
from test_report import NAMES, QRELS, RUNS, read

BROWSER = os.environ.get("EVALCORE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.fixture(scope="module")
def browser():
    if BROWSER is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium is needed under CI (apt-get install -y chromium; .ci/run does it)")
        pytest.skip("no chromium on PATH (apt-get install -y chromium)")
    return BROWSER


def _chromium(browser, *arguments, profile):
    # --no-sandbox: CI containers run as root, where Chromium's sandbox refuses to start.
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
               f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=90)


def _png_pixels(data: bytes):
    """(width, height, distinct colours of the decoded rows): enough PNG to tell a blank shot."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, colour = header[:4]
    channels = {2: 3, 6: 4}[colour]
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels + 1
    distinct = {raw[y * stride + 1 + x * channels:y * stride + 1 + (x + 1) * channels]
                for y in range(0, height, 7) for x in range(0, width, 5)}  # filtered bytes vary where pixels do
    return width, height, len(distinct)


# Added to a copy of the page (the report itself runs no script): every resource the page
# loaded or tried to load, and every load error, written into the DOM that --dump-dom prints.
PROBE = """<script>
const failed = [];
addEventListener("error", e => failed.push(String((e.target && (e.target.src || e.target.href)) || e.message)), true);
addEventListener("load", () => {
  document.body.dataset.resources = JSON.stringify(performance.getEntriesByType("resource").map(r => r.name));
  document.body.dataset.failed = JSON.stringify(failed);
});
</script>"""


def _requests(browser, page, tmp_path):
    """(resources requested, load errors) of `page` opened in Chromium with the probe."""
    probe = tmp_path / f"probe-{page.name}"
    probe.write_text(page.read_text(encoding="utf-8").replace("<body>", "<body>" + PROBE, 1), encoding="utf-8")
    dom = _chromium(browser, "--dump-dom", probe.resolve().as_uri(), profile=tmp_path / "profile").stdout
    found = {key: json.loads(html.unescape(value)) for key, value in
             re.findall(r'data-(resources|failed)="([^"]*)"', dom)}
    return found["resources"], found["failed"]


def test_the_probe_sees_a_failed_request(browser, tmp_path):
    # The check below can fail: a page with a missing image is caught.
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html><head></head><body><img src="missing.png" alt="x"></body></html>')
    resources, failed = _requests(browser, page, tmp_path)
    assert any(name.endswith("missing.png") for name in resources + failed)


def test_the_report_in_chromium(browser, tmp_path):
    measures = ["nDCG@10", "AP@100", *CURVE_MEASURES]  # the curves' points too, as evalcore report evaluates
    evaluations = {name: evalcore.evaluate_run(QRELS, run, measures) for name, run in zip(NAMES, RUNS)}
    comparison = evalcore.compare(None, evaluations, ["nDCG@10", "AP@100"], tukey="randomized", resamples=300)
    page = tmp_path / "report.html"
    comparison.to_html(str(page), inputs=[QRELS, *RUNS], command=["test"])
    url = page.resolve().as_uri()
    dom = _chromium(browser, "--dump-dom", url, profile=tmp_path / "profile")
    assert dom.returncode == 0, dom.stderr[-2000:]
    log = dom.stderr
    assert "CONSOLE" not in log and "Uncaught" not in log, log[-2000:]
    assert "net::ERR" not in log and "Failed to load resource" not in log, log[-2000:]
    assert _requests(browser, page, tmp_path) == ([], [])  # nothing loaded, nothing failed
    built = read(dom.stdout)  # the DOM as Chromium built it, not the file's text
    cells = "".join(built.cells)
    for row in comparison.to_dict()["summary"]:
        assert f"{row['sharedMean']:.4f}" in cells
    for row in comparison.to_dict()["comparisons"]:
        assert f"| {row['run']} | {row['baseline']} |" not in cells and f"{row['delta']:.4f}" in cells
    assert len(built.charts) == 2 * 3 + 2 + 1  # differences per measure and pair, distributions, curves
    assert all(c["title"] and c["desc"] for c in built.charts)
    assert json.loads(built.scripts[0]["text"]) == json.loads(comparison.to_json())

    shot = tmp_path / "shot.png"
    taken = _chromium(browser, f"--screenshot={shot}", "--window-size=1000,1400", url, profile=tmp_path / "profile")
    assert taken.returncode == 0 and shot.exists(), taken.stderr[-2000:]
    width, height, distinct = _png_pixels(shot.read_bytes())
    assert (width, height) == (1000, 1400) and distinct > 20  # text, bars and lines, not one colour
