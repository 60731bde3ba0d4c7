"""One self-contained HTML page: inline styles, inline SVG, the result's JSON in a data
block (``<script type="application/json" id="evalcore-data">``, which no browser runs), and
a provenance section. Nothing in it refers to anything outside the file, so it opens
offline and can be attached to a ticket."""

from __future__ import annotations

import hashlib
import html
import os
import shlex
import sys
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Union

from .._version import __version__

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222;padding:0 1em}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.2em .5em;text-align:right}
th:first-child,td:first-child,th:nth-child(2),td:nth-child(2){text-align:left}
h2{border-bottom:1px solid #ddd;margin-top:2em}svg.chart{display:block;margin:1em 0;font-family:sans-serif}
code{background:#f4f4f4;padding:0 .2em}
"""


class Section(NamedTuple):
    """A heading and its HTML (trusted: made by evalcore, every name in it escaped)."""

    title: str
    body: str


def _sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def provenance(inputs: Sequence[Any], command: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """The evalcore version, every input that is a file path with its SHA-256 (others
    described as in memory), and the command line (``sys.argv`` unless given)."""
    files = []
    for item in inputs:
        if isinstance(item, (str, os.PathLike)) and os.path.isfile(item):
            files.append({"name": os.fspath(item), "sha256": _sha256(os.fspath(item))})
        else:
            files.append({"name": f"(in memory: {type(item).__name__})", "sha256": None})
    return {"evalcore": __version__, "inputs": files,
            "command": shlex.join(list(command) if command is not None else sys.argv)}


def _json_block(data_json: str) -> str:
    # "</" cannot end the block early, nor "<!--" open a comment: both escaped as JSON allows.
    safe = data_json.replace("</", "<\\/").replace("<!--", "<\\!--")
    return f'<script type="application/json" id="evalcore-data">{safe}</script>'


def write_page(path: Optional[Union[str, "os.PathLike[str]"]], title: str, sections: List[Section], data_json: str,
               origin: Dict[str, Any]) -> str:
    """The page's HTML, written to `path` (UTF-8) unless it is None; returned either way."""
    e = html.escape
    rows = "".join(f"<tr><td>{e(f['name'])}</td><td><code>{e(f['sha256'] or 'n/a')}</code></td></tr>"
                   for f in origin["inputs"])
    origin_html = (f"<p>evalcore {e(origin['evalcore'])}</p><p>Command: <code>{e(origin['command'])}</code></p>"
                   f"<table><thead><tr><th>input</th><th>SHA-256</th></tr></thead><tbody>{rows}</tbody></table>")
    body = "".join(f"<section><h2>{e(s.title)}</h2>{s.body}</section>" for s in sections)
    page = (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>'
            f"<style>{_STYLE}</style></head><body><h1>{e(title)}</h1>{body}"
            f"<section><h2>Provenance</h2>{origin_html}</section>{_json_block(data_json)}</body></html>\n")
    if path is not None:
        with open(path, "w", encoding="utf-8") as out:
            out.write(page)
    return page
