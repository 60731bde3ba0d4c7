"""Arrow data as a hostile or failing producer hands it over (issue 21, items 5, 7, 11): a
stream taken out of its capsule is released whatever fails after that; an interrupt raised
by a producer reaches the caller as itself, and an endless qrels stream is cut at its bound,
in both cores; structs that break the C data interface's rules are a RunInputError, never
a read out of bounds."""

from __future__ import annotations

import gc
import re
import weakref

import pytest

pa = pytest.importorskip("pyarrow")

from arrow_c_structs import FailingStream  # noqa: E402

import evalcore  # noqa: E402
import evalcore.reference  # noqa: E402

CORES = {"native": evalcore, "reference": evalcore.reference}
QRELS = {"q1": {"a": 1}, "q2": {"b": 1}}


def run_batch(score=pa.array([1.0, 2.0]), doc=pa.array(["a", "b"]), **columns) -> pa.RecordBatch:
    return pa.record_batch({"query_id": pa.array(["q1", "q1"]), "doc_id": doc, "score": score, **columns})


class Batches:
    """An iterable of batches whose lifetime a test can see (a weak reference to it), and how
    many batches were taken from it; `then` is raised after the last batch, if given."""

    def __init__(self, batches, then=None):
        self._batches, self._then = list(batches), then
        self.taken = 0

    def __iter__(self):
        for batch in self._batches:
            self.taken += 1
            yield batch
        if self._then is not None:
            raise self._then


def watched_reader(batches, schema=None, then=None):
    """A RecordBatchReader over `batches` and a weak reference to what it holds: dead once
    the reader (or the stream taken out of its capsule) is released."""
    source = Batches(batches, then)
    reader = pa.RecordBatchReader.from_batches(schema or batches[0].schema, iter(source))
    return reader, weakref.ref(source)


# ---- item 5: a stream taken out of its capsule is released when reading it fails ----

LEAKS = {
    "score of type string": (run_batch(score=pa.array(["1", "2"])), "run table: the score column has type string"),
    "doc_id missing": (pa.record_batch({"query_id": ["q1"], "doc": ["a"], "score": [1.0]}),
                       "run table lacks the column(s) doc_id"),
}


@pytest.mark.parametrize("case", sorted(LEAKS))
@pytest.mark.parametrize("core", sorted(CORES))
def test_a_stream_is_released_when_its_schema_is_refused(core, case):
    batch, message = LEAKS[case]
    reader, alive = watched_reader([batch])
    with pytest.raises((evalcore.RunInputError, ValueError), match=re.escape(message)):
        CORES[core].evaluate_run(QRELS, reader, ["P@1"])
    del reader
    gc.collect()
    assert alive() is None, "the stream (and the batches its producer holds) was never released"


def test_a_stream_whose_get_schema_fails_is_released():
    stream = FailingStream()
    with pytest.raises(evalcore.RunInputError, match=r"run table: the Arrow stream failed: no schema here"):
        evalcore.evaluate_run(QRELS, stream, ["P@1"])
    assert stream.released
    qrels = FailingStream()
    with pytest.raises(evalcore.RunInputError, match=r"qrels table: the Arrow stream failed: no schema here"):
        evalcore.evaluate_run(qrels, {"q1": {"a": 1.0}}, ["P@1"])
    assert qrels.released
