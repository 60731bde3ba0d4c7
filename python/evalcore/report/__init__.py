"""HTML reports that need no network (issue 26): charts written as inline SVG from Python,
the numbers of the result they show, its JSON embedded for tools to read back, and where
the inputs came from. This room knows nothing of evalcore's result types: the rooms whose
results have ``to_html`` (runs, comparisons, spans) hand it plain data.

- :mod:`~evalcore.report.svg`: the charts (sorted per-query differences, distributions,
  curves, bars), each with a title and a text alternative;
- :mod:`~evalcore.report.page`: the page (styles inline, no script but the JSON data block,
  no external reference) and the provenance (evalcore version, inputs with their SHA-256,
  the command line).
"""

from .page import Section, provenance, write_page

__all__ = ["Section", "provenance", "write_page"]
