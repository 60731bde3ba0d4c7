"""What :func:`evalcore.read_conll` and :func:`evalcore.evaluate_conll` share with their
reference twins (python/evalcore/reference/tags/conll_*.py): the checks of the arguments, how a
source is opened (a path, a ``.gz`` path, or the file's bytes), and the result's shape. Nothing
here imports the compiled core. The file format is docs/conll.md's."""

from __future__ import annotations

import contextlib
import io
import os
import zlib
from typing import IO, Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, cast

from ..result_types import ConllCorpus, ConllEvaluation, ConllTypeCounts
from .display import tags_result

#: The longest line read (bytes before its newline): a longer one is an error naming it, so that
#: a file that is not CoNLL text (one huge line) is refused in bounded memory.
MAX_LINE_BYTES = 1_048_576
#: conlleval's convention: the last two columns of each line are the true and the predicted tag.
ONE_FILE_COLUMNS = (-2, -1)
#: Two files: the last column of each (the gold file's true tags, the pred file's predicted ones).
TWO_FILE_COLUMNS = (-1, -1)
#: What read() asks for at a time: the native reader's chunk, and its twin's.
CHUNK_BYTES = 1 << 20


def check_columns(columns: Any, count: Optional[int], what: str = "columns") -> List[int]:
    """`columns` as a list of ints (`count` of them, when given); TypeError or ValueError."""
    if isinstance(columns, (str, bytes)) or not isinstance(columns, (list, tuple)):
        raise TypeError(f"{what} must be a list or tuple of column numbers (from 0; -1 is the last); "
                        f"got {type(columns).__name__}")
    for k, c in enumerate(columns):
        if type(c) is not int:
            raise TypeError(f"{what}[{k}] must be an int column number; got {type(c).__name__}")
    if count is not None and len(columns) != count:
        raise ValueError(f"{what} must hold {count} column numbers here; got {len(columns)}")
    if count is None and not columns:
        raise ValueError(f"{what} must hold at least one column number")
    return list(columns)


def check_max_line_bytes(value: Any) -> int:
    if type(value) is not int or value < 1:
        raise ValueError(f"max_line_bytes must be a positive int; got {value!r}")
    return value


def is_conll_source(value: Any) -> bool:
    """Whether evaluate_tags' y_true is a CoNLL source (a path or bytes) rather than tag lists."""
    return isinstance(value, (str, bytes, bytearray, os.PathLike))


def source_name(source: Any, what: str = "source") -> str:
    if isinstance(source, (bytes, bytearray)):
        return "<bytes>"
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        if isinstance(name, str):
            return name
    raise TypeError(f"{what} must be a path (str or os.PathLike) or the file's bytes; got {type(source).__name__}")


@contextlib.contextmanager
def opened(source: Any, what: str = "source") -> Iterator[Tuple[IO[bytes], str]]:
    """A binary file object of the source and the name messages use. A path ending in ``.gz``
    is decompressed as it is read; gzip's faults become ValueError naming the file."""
    name = source_name(source, what)
    if isinstance(source, (bytes, bytearray)):
        yield io.BytesIO(bytes(source)), name
        return
    with open(name, "rb") as raw:
        if not name.endswith(".gz"):
            yield raw, name
            return
        import gzip  # (here: `import evalcore` need not import it)

        try:
            with gzip.GzipFile(fileobj=raw, mode="rb") as unzipped:
                yield cast(IO[bytes], unzipped), name
        except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
            raise ValueError(f"{name}: cannot decompress it as gzip: {exc}") from None


def corpus(core: Tuple[List[List[str]], List[List[List[str]]], List[int], List[int]]) -> ConllCorpus:
    tokens, tags, lines, documents = core
    return {"tokens": tokens, "tags": tags, "lines": lines, "documents": documents}


def evaluation(report: Dict[str, Dict[str, Any]], accuracy: float, types: Sequence[str], supports: Sequence[int],
               predicted: Sequence[int], matched: Sequence[int], tokens: int, correct_tokens: int, sentences: int,
               documents: int, other_prefix_tags: int) -> ConllEvaluation:
    """The core's numbers as evaluate_conll returns them."""
    per_type: Dict[str, ConllTypeCounts] = {
        name: {"phrases": s, "found": p, "correct": m} for name, s, p, m in zip(types, supports, predicted, matched)}
    result: ConllEvaluation = {
        "tokens": tokens, "correctTokens": correct_tokens, "sentences": sentences, "documents": documents,
        "phrases": sum(supports), "found": sum(predicted), "correct": sum(matched), "types": per_type,
        "report": report, "accuracy": accuracy, "otherPrefixTags": other_prefix_tags}
    return tags_result(result)


def conll_tag_options(scheme: Any, mode: Any, suffix: Any) -> Tuple[int, bool]:
    """check_tag_options, refusing ``scheme="auto"`` in strict mode: a stream chunks each
    sentence as it is read, before the tags auto_detect reads are all known."""
    from .options import check_tag_options

    scheme_code, strict = check_tag_options(scheme, mode, suffix)
    if strict and scheme == "auto":
        raise ValueError("scheme='auto' is not taken for a CoNLL file in strict mode: the file is chunked as it is "
                         "read, before every tag is known; pass the scheme it is tagged in (such as 'IOB2' or 'IOBES')")
    return scheme_code, strict


def pair_columns(columns: Any, two_files: bool) -> List[int]:
    """The true and the predicted tag columns, defaults filled in."""
    if columns is None:
        return list(TWO_FILE_COLUMNS if two_files else ONE_FILE_COLUMNS)
    return check_columns(columns, 2)


def tags_result_of_conll(evaluate: Callable[..., ConllEvaluation], y_true: Any, y_pred: Any, output: Any,
                         threads: Any, **options: Any) -> Dict[str, Any]:
    """evaluate_tags on a CoNLL source (`evaluate`: evaluate_conll, native or reference): its
    checks, then the report (or Hugging Face's shape) of the stream."""
    from .options import check_evaluate_options, huggingface_shape

    if not is_conll_source(y_true):
        raise ValueError("columns goes with a CoNLL file as y_true; tag lists have no columns")
    check_evaluate_options(output, threads)
    if not (y_pred is None or is_conll_source(y_pred)):
        raise TypeError(f"with a CoNLL file as y_true, y_pred is None or the CoNLL file of the predictions; got "
                        f"{type(y_pred).__name__}")
    result = evaluate(y_true, y_pred, **options)
    if output == "huggingface":
        return tags_result(huggingface_shape(result["report"], result["accuracy"]))
    return tags_result({"report": result["report"], "accuracy": result["accuracy"]})
