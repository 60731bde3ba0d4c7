"""Where evaluate_run's TREC files come from, shared by the native core and its reference
twin: regular files only, gzip-compressed files (``*.gz``) decompressed on the way in, and
streams (the CLI's stdin) copied to a file first. Nothing here imports the compiled core.

A compressed file or a stream is copied, in chunks of :data:`CHUNK_BYTES`, to a temporary
file that the cores then read like any other (both read a file twice when its queries are
not grouped, which a stream cannot be), so memory stays bounded whatever the size; the
copy is deleted afterwards. Messages name the original file, never the copy.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import zlib
from typing import IO, Any, Iterator, Optional, Tuple, Union

from ..errors import RunInputError

#: How much is decompressed or copied at a time (bytes).
CHUNK_BYTES = 1 << 20

_GZIP_MAGIC = b"\x1f\x8b"
# Magic bytes of compressed formats. None can start a TREC file: each makes the first ID
# invalid UTF-8, so a file that starts with one is named for what it is, not a bad line.
_MAGICS = ((_GZIP_MAGIC, "gzip"), (b"\xfd7zXZ", "xz"), (b"\x28\xb5\x2f\xfd", "zstd"))

_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def compressed_fault(head: bytes) -> Optional[str]:
    """The fault of a file whose first bytes are `head` if they are a compressed format's
    magic (line 1's message), else None. The native core's twin: runs/records.cpp."""
    for magic, name in _MAGICS:
        if head.startswith(magic):
            advice = "name it *.gz and evalcore decompresses it" if name == "gzip" else "decompress it first"
            return f"the file looks {name}-compressed (it starts with {name}'s magic bytes): {advice}"
    return None


def open_regular(file: Union[str, bytes], flags: int) -> int:
    """open()'s opener: O_NONBLOCK, since a FIFO without a writer would block in open;
    then, on the descriptor itself, regular files only (a directory: IsADirectoryError;
    a FIFO or device: OSError EINVAL, "Not a regular file (a FIFO)")."""
    nonblocking = getattr(os, "O_NONBLOCK", 0)  # POSIX (the native core is POSIX too)
    fd = os.open(file, flags | nonblocking)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), file)
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _KINDS if test(mode)), "another kind of file")
            raise OSError(errno.EINVAL, f"Not a regular file ({kind})", file)
        if nonblocking:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def is_gzip_path(path: Any) -> bool:
    """A path (str or bytes, as os.fspath gives it) whose name ends in ``.gz``."""
    return path.endswith(b".gz") if isinstance(path, bytes) else isinstance(path, str) and path.endswith(".gz")


def _decompress_fault(name: str, exc: BaseException) -> RunInputError:
    detail = str(exc) or type(exc).__name__
    return RunInputError(f"cannot decompress it as gzip: {detail}", name, None)


def spool(stream: IO[bytes], out: IO[bytes], name: str, decompress: bool, path: Any = None) -> None:
    """Copies `stream` to `out` in chunks, decompressing it first if `decompress` (a fault
    there is a RunInputError naming `name`). A fault reading `stream` is an OSError naming
    `path` (None: `name`), as open() names the files it cannot read."""
    import gzip  # (here: plain files, the usual input, need neither it nor tempfile; 7 ms of `evalcore trec`'s start)

    source: Any = gzip.GzipFile(fileobj=stream, mode="rb") if decompress else stream
    while True:
        try:
            chunk = source.read(CHUNK_BYTES)
        except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
            raise _decompress_fault(name, exc) from None
        except OSError as exc:
            if exc.errno is None:
                raise
            raise OSError(exc.errno, os.strerror(exc.errno), name if path is None else path) from None
        if not chunk:
            return
        out.write(chunk)


def _peek(stream: IO[bytes], count: int) -> bytes:
    peek = getattr(stream, "peek", None)
    return peek(count)[:count] if peek is not None else b""


@contextlib.contextmanager
def spooled_copy(stream: IO[bytes], name: str, decompress: Optional[bool] = None, path: Any = None) -> Iterator[str]:
    """A temporary file holding `stream`'s bytes (decompressed if `decompress`; None: if they
    start with gzip's magic), deleted on exit. Yields its path."""
    if decompress is None:
        decompress = _peek(stream, 2) == _GZIP_MAGIC
    import tempfile

    handle = tempfile.NamedTemporaryFile(prefix="evalcore-", suffix=".trec", delete=False)
    try:
        with handle:
            spool(stream, handle, name, decompress, path)
        yield handle.name
    finally:
        with contextlib.suppress(OSError):
            os.unlink(handle.name)


def _decompressed_copy(stack: contextlib.ExitStack, path: Union[str, bytes]) -> str:
    """Enters a decompressed copy of the gzip file `path` on `stack`; returns its path. A
    fault opening or reading `path` is open()'s OSError, naming it as given."""
    compressed = stack.enter_context(open(path, "rb", opener=open_regular))
    return stack.enter_context(spooled_copy(compressed, os.fsdecode(path), decompress=True, path=path))


@contextlib.contextmanager
def readable(qrels: Any, run: Any) -> Iterator[Tuple[Any, Optional[str], Any, Optional[str]]]:
    """The two sources as the cores read them: a ``*.gz`` path becomes a decompressed
    temporary copy (the qrels first, as the cores read them first). Yields (qrels, the name
    messages give it, run, its name); a name is None for a source that is not a copy."""
    with contextlib.ExitStack() as stack:
        qrels_name = run_name = None
        if is_gzip_path(qrels):
            qrels_name, qrels = os.fsdecode(qrels), _decompressed_copy(stack, qrels)
        if is_gzip_path(run):
            run_name, run = os.fsdecode(run), _decompressed_copy(stack, run)
        yield qrels, qrels_name, run, run_name
