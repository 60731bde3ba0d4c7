"""The Arrow C data interface's structs in ctypes, for tests that hand the cores what no
well-behaved producer makes: streams whose callbacks fail (and say when they are released),
and real pyarrow batches exported to C, then altered (a schema claiming 2^40 columns, a
batch with more children than its schema), released as they were exported."""

from __future__ import annotations

import ctypes
from typing import Any, Callable, Dict, List, Tuple

import pyarrow as pa


class ArrowSchema(ctypes.Structure):
    pass


class ArrowArray(ctypes.Structure):
    pass


class ArrowArrayStream(ctypes.Structure):
    pass


RELEASE_SCHEMA = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))
RELEASE_ARRAY = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))
GET_SCHEMA = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowSchema))
GET_NEXT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowArray))
GET_LAST_ERROR = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.POINTER(ArrowArrayStream))  # a const char*
RELEASE_STREAM = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))

ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p), ("name", ctypes.c_char_p), ("metadata", ctypes.c_char_p), ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64), ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.POINTER(ArrowSchema)), ("release", RELEASE_SCHEMA), ("private_data", ctypes.c_void_p)]
ArrowArray._fields_ = [
    ("length", ctypes.c_int64), ("null_count", ctypes.c_int64), ("offset", ctypes.c_int64), ("n_buffers", ctypes.c_int64),
    ("n_children", ctypes.c_int64), ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))), ("dictionary", ctypes.POINTER(ArrowArray)),
    ("release", RELEASE_ARRAY), ("private_data", ctypes.c_void_p)]
ArrowArrayStream._fields_ = [
    ("get_schema", GET_SCHEMA), ("get_next", GET_NEXT), ("get_last_error", GET_LAST_ERROR),
    ("release", RELEASE_STREAM), ("private_data", ctypes.c_void_p)]

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


def capsule(struct: ctypes.Structure, name: bytes) -> Any:
    """A capsule of that name holding a pointer to `struct` (which must outlive it). No
    destructor: the tests' consumer (the native core) moves every struct out."""
    return _capsule_new(ctypes.addressof(struct), name, None)


class FailingStream:
    """An ArrowArrayStream whose get_schema fails (EINVAL, "no schema here"); `released`
    says whether its release callback ran."""

    def __init__(self) -> None:
        self.released = False
        self._message = ctypes.create_string_buffer(b"no schema here")  # lives as long as the stream
        self._callbacks = [GET_SCHEMA(lambda stream, out: 22), GET_NEXT(lambda stream, out: 22),
                           GET_LAST_ERROR(lambda stream: ctypes.addressof(self._message)), RELEASE_STREAM(self._release)]
        self.struct = ArrowArrayStream(*self._callbacks, None)

    def _release(self, stream: Any) -> None:
        self.released = True
        stream.contents.release = RELEASE_STREAM()  # NULL: released

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        return capsule(self.struct, b"arrow_array_stream")


class AlteredBatch:
    """A pyarrow record batch exported to C (`__arrow_c_array__`), then altered with
    `alter(self)`, which calls `set` on its structs or their children. Whoever releases them
    releases what pyarrow exported: the fields are put back first (pyarrow's release walks
    the children it counts); `released` counts the releases (2 when both structs were)."""

    def __init__(self, batch: pa.RecordBatch, alter: Callable[["AlteredBatch"], None]) -> None:
        self.schema, self.array = ArrowSchema(), ArrowArray()
        batch._export_to_c(ctypes.addressof(self.array), ctypes.addressof(self.schema))
        self._saved = {ArrowSchema: ArrowSchema.from_buffer_copy(self.schema),
                       ArrowArray: ArrowArray.from_buffer_copy(self.array)}
        self._edits: Dict[type, List[Tuple[ctypes.Structure, str, Any]]] = {ArrowSchema: [], ArrowArray: []}
        self._callbacks = [RELEASE_SCHEMA(lambda p: self._release(ArrowSchema, p)),
                           RELEASE_ARRAY(lambda p: self._release(ArrowArray, p))]
        self.schema.release, self.array.release = self._callbacks
        self.released = 0
        alter(self)

    def set(self, struct: ctypes.Structure, field: str, value: Any) -> None:
        """Alters a field; a child's is put back when its top-level struct is released."""
        if ctypes.addressof(struct) not in (ctypes.addressof(self.schema), ctypes.addressof(self.array)):
            self._edits[type(struct)].append((struct, field, getattr(struct, field)))
        setattr(struct, field, value)

    def _release(self, kind: type, pointer: Any) -> None:
        for struct, field, value in reversed(self._edits[kind]):
            setattr(struct, field, value)
        self._edits[kind].clear()
        saved = self._saved[kind]
        ctypes.memmove(ctypes.cast(pointer, ctypes.c_void_p), ctypes.addressof(saved), ctypes.sizeof(kind))
        saved.release(pointer)
        self.released += 1

    def __arrow_c_array__(self, requested_schema: Any = None) -> Any:
        return capsule(self.schema, b"arrow_schema"), capsule(self.array, b"arrow_array")


def child(struct: Any, index: int) -> Any:
    """Child `index` of a schema or array, to alter in place."""
    return struct.children[index].contents
