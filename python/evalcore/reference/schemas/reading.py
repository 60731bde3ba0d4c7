"""Reading evaluate_schemas' inputs, pure Python: nervaluate's "dict" (prodigy-style spans)
and "list" (BIO tags) loaders, with every fault named by argument, document and position.
The native twin is cpp/bindings/register_schemas.cpp; both check in the same order: the two
arguments, their document counts, (tags) each document's type and length, then every true
document and every predicted one, as nervaluate loads them."""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Dict, Iterable, Iterator, List, Tuple

from ...errors import EvaluationError

#: An entity as both cores hold it: start, end (inclusive), label, position in its document.
Entity = Tuple[int, int, str, int]
#: The largest offset read (2**53 - 1, as span_evaluate's).
MAX_OFFSET = 9007199254740991
_SEQUENCES = (list, tuple)
_SPAN_SHAPE = "an entity is {'label': str, 'start': int, 'end': int}, 'end' inclusive"


def _fault(code: str, pointer: str, message: str) -> EvaluationError:
    return EvaluationError(code, pointer, message)


def check_corpus(true: Any, pred: Any, input: str) -> None:
    """The two arguments are lists (or tuples) with one document each for the same documents."""
    what = "lists of tags (str)" if input == "tags" else "lists of entities {'label', 'start', 'end'}"
    for name, value in (("true", true), ("pred", pred)):
        if type(value) not in _SEQUENCES:
            raise _fault("SCHEMA_VIOLATION", f"/{name}", f"{name} must be a list of documents, each one of {what}; "
                         f"got {type(value).__name__}")
    if len(true) != len(pred):
        short = "pred" if len(pred) < len(true) else "true"
        raise _fault("SCHEMA_VIOLATION", f"/{short}", f"true has {len(true)} documents and pred has {len(pred)}: "
                     f"give one document of predictions for each true one ({short} has none for document "
                     f"{min(len(true), len(pred))})")
    if input != "tags":
        return
    for i, (t, p) in enumerate(zip(true, pred)):
        for name, doc in (("true", t), ("pred", p)):
            if type(doc) not in _SEQUENCES:
                raise _fault("SCHEMA_VIOLATION", f"/{name}/{i}", f"{name}[{i}] must be a list of tags (str), "
                             f"got {type(doc).__name__}")
        if len(t) != len(p):
            raise _fault("SCHEMA_VIOLATION", f"/pred/{i}", f"document {i} has {len(t)} tags in true and {len(p)} "
                         "in pred: tag the same tokens in both")


def _offset(entity: Dict[str, Any], key: str, where: str, pointer: str) -> int:
    value = entity[key]
    if type(value) is not int:
        raise _fault("SCHEMA_VIOLATION", f"{pointer}/{key}", f"{where}['{key}'] must be an int, "
                     f"got {type(value).__name__}")
    return value


def read_spans(docs: Any, name: str) -> List[List[Entity]]:
    """Each document's entities, checked: dicts with a str 'label' and int offsets, 0 <=
    start <= end <= 2**53 - 1 (end inclusive, as nervaluate computes overlaps)."""
    out: List[List[Entity]] = []
    for i, doc in enumerate(docs):
        if type(doc) not in _SEQUENCES:
            raise _fault("SCHEMA_VIOLATION", f"/{name}/{i}", f"{name}[{i}] must be a list of entities "
                         f"{{'label', 'start', 'end'}}, got {type(doc).__name__}")
        entities: List[Entity] = []
        for k, entity in enumerate(doc):
            where, pointer = f"{name}[{i}][{k}]", f"/{name}/{i}/{k}"
            if not isinstance(entity, dict):
                raise _fault("SCHEMA_VIOLATION", pointer, f"{where} must be a dict: {_SPAN_SHAPE}; "
                             f"got {type(entity).__name__}")
            # The dict's own storage (dict.items, not an override); keys other than exact
            # str are other members, as the native reader sees them.
            members = {key: value for key, value in dict.items(entity) if type(key) is str}
            for key in ("label", "start", "end"):
                if key not in members:
                    raise _fault("SCHEMA_VIOLATION", pointer, f"{where} has no '{key}': {_SPAN_SHAPE}")
            if type(members["label"]) is not str:
                raise _fault("SCHEMA_VIOLATION", f"{pointer}/label", f"{where}['label'] must be a str, "
                             f"got {type(members['label']).__name__}")
            start, end = _offset(members, "start", where, pointer), _offset(members, "end", where, pointer)
            if start < 0:
                raise _fault("INVALID_SPAN", f"{pointer}/start", f"{where}['start'] is {start}: offsets start at 0")
            for key, value in (("start", start), ("end", end)):
                if value > MAX_OFFSET:
                    raise _fault("INVALID_SPAN", f"{pointer}/{key}", f"{where}['{key}'] is {value}, above "
                                 f"{MAX_OFFSET}, the largest offset evalcore reads")
            if end < start:
                raise _fault("INVALID_SPAN", f"{pointer}/end", f"{where} ends at {end} before it starts at {start}: "
                             "'end' is inclusive (an entity of one token has end == start)")
            entities.append((start, end, members["label"], k))
        out.append(entities)
    return out


def _bad_tag(name: str, i: int, j: int, tag: str) -> EvaluationError:
    return _fault("SCHEMA_VIOLATION", f"/{name}/{i}/{j}", f"{name}[{i}][{j}] is {tag!r}, which starts an entity: it "
                  "must be 'O', or 'B-' or 'I-' and a type (BIO tags, read as nervaluate's list loader reads "
                  "them); convert IOB1, IOE, IOBES or BILOU tags to BIO first")


def chunk_bio(tagged: Iterable[Tuple[int, str]], last: int, refuse: Callable[[int, str], EvaluationError]) -> List[Entity]:
    """One document's entities from its (offset, tag) pairs, as nervaluate's list and conll
    loaders chunk them: 'O' ends an entity; any other tag continues the open one when its
    type (after the first two characters) is the same and it does not begin with 'B';
    otherwise it ends the open entity and must begin with 'B-' or 'I-' to start one (else
    ``refuse(offset, tag)`` is raised). An entity ends at the offset before the tag that ends
    it, or at `last`. Offsets are token positions, end inclusive."""
    entities: List[Entity] = []
    label, start = None, 0
    for offset, tag in tagged:
        if tag == "O":
            if label is not None:
                entities.append((start, offset - 1, label, len(entities)))
                label = None
            continue
        if label is not None and tag[2:] == label and tag[:1] != "B":
            continue
        if label is not None:
            entities.append((start, offset - 1, label, len(entities)))
        if not tag.startswith(("B-", "I-")):
            raise refuse(offset, tag)
        label, start = tag[2:], offset
    if label is not None:
        entities.append((start, last, label, len(entities)))
    return entities


def _str_tags(doc: Any, name: str, i: int) -> Iterator[Tuple[int, str]]:
    for j, tag in enumerate(doc):
        if type(tag) is not str:
            raise _fault("SCHEMA_VIOLATION", f"/{name}/{i}/{j}", f"{name}[{i}][{j}] must be a str tag, "
                         f"got {type(tag).__name__}")
        yield j, tag


def read_tags(docs: Any, name: str) -> List[List[Entity]]:
    """Each document's entities from its BIO tags (chunk_bio), as nervaluate's list loader reads them."""
    return [chunk_bio(_str_tags(doc, name, i), len(doc) - 1, partial(_bad_tag, name, i)) for i, doc in enumerate(docs)]
