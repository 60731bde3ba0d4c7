"""The run's tag as trec_eval prints it in the ``runid`` line."""

from __future__ import annotations

from typing import Optional


def run_tag(path: str, block: int = 1 << 16) -> Optional[str]:
    """The run's tag as trec_eval prints it: the 6th field of the file's last data line,
    the last that is neither blank nor a comment (its first byte after spaces is '#'), read
    from the end; bytes that are not UTF-8 are kept as they are. None if the file has no
    data line (trec_eval then prints memory it never wrote: the caller decides)."""
    with open(path, "rb") as handle:
        position = handle.seek(0, 2)
        tail = b""
        while position > 0:
            step = min(block, position)
            position -= step
            handle.seek(position)
            tail = handle.read(step) + tail
            lines = tail.split(b"\n")
            whole = lines if position == 0 else lines[1:]  # the first may have begun earlier
            for text in reversed(whole):
                fields = text.split()  # C's isspace: space, \t, \n, \v, \f, \r
                if fields and not fields[0].startswith(b"#"):
                    return fields[5].decode("utf-8", "surrogateescape") if len(fields) > 5 else None
            tail = lines[0]
    return None
