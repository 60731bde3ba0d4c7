"""What ``evalcore trec`` says when an option makes its numbers differ from trec_eval's
(issue 25 item 3; the project's rule of no silent differences).

``--ties`` other than ``score`` and ``--gain exponential`` make evalcore's numbers differ from
trec_eval's (``--format trec_eval`` refuses them, so its output stays trec_eval's byte for
byte). In the other formats each one given is said: a line on stderr per option, whatever the format; in
``table`` a ``#`` line per option before the values (the table is for reading: scripts read
``csv`` or ``json``); ``json`` carries them in ``options``; ``csv`` has no comment syntax (a
line there would be read as a row), so stderr is its only place. docs/trec_eval.md says so.
"""

from __future__ import annotations

from typing import Any, Dict, List, TextIO

from ..runs.ties import TIE_RULE_TEXT


def option_notes(options: Dict[str, Any]) -> List[str]:
    """One line per option in `options` (RunEvaluation.options) whose value is not trec_eval's
    and can change the numbers: the option as the command line spells it, and what it does."""
    notes: List[str] = []
    ties = options.get("ties", "score")
    if ties != "score":
        notes.append(f"--ties {ties} (not trec_eval's): {TIE_RULE_TEXT.get(ties, ties)}")
    if options.get("gain", "linear") != "linear":
        notes.append(f"--gain {options['gain']} (not trec_eval's): nDCG's gain is 2^grade - 1, not the grade")
    return notes


def stderr_lines(notes: List[str]) -> str:
    """The notes as ``evalcore trec`` writes them to stderr."""
    return "".join(f"evalcore trec: note: {note}\n" for note in notes)


def table_lines(notes: List[str]) -> str:
    """The notes as the first lines of ``--format table``."""
    return "".join(f"# {note}\n" for note in notes)


def say_options(options: Dict[str, Any], form: str, out: TextIO, err: TextIO) -> None:
    """Before the values of `form` ("table", "csv" or "json") go to `out`: the notes of
    `options` on `err`, and in table format as ``#`` lines on `out`."""
    notes = option_notes(options)
    err.write(stderr_lines(notes))
    if form == "table":
        out.write(table_lines(notes))
