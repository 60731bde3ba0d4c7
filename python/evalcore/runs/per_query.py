"""Per-query values of a whole-run evaluation, as one type whatever is installed:
:class:`PerQuery` holds numpy arrays and converts to pandas, pyarrow or plain lists on
request (each conversion imports its library only then)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Sequence, Tuple, Union, cast
from .._lazy_numpy import lazy_numpy

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (_lazy_numpy.py says why)
    np = lazy_numpy(__name__)



class PerQuery:
    """Columns ``query_id`` (str) and one float64 column per measure, one row per evaluated
    query, NaN where a measure is undefined for that query.

    ``per_query["nDCG@10"]`` is that column as a read-only numpy array, ``per_query["query_id"]``
    the query IDs (a list); ``len(per_query)`` the number of queries; iterating gives the
    column names. :meth:`to_pandas`, :meth:`to_arrow`, :meth:`to_dict` convert.
    """

    def __init__(self, query_ids: Sequence[str], measures: Sequence[str], columns: np.ndarray) -> None:
        self._query_ids = list(query_ids)
        self._measures: Tuple[str, ...] = tuple(measures)
        self._columns = columns  # (measures, queries), read-only

    @property
    def columns(self) -> List[str]:
        """``["query_id", measure, ...]``."""
        return ["query_id", *self._measures]

    def __len__(self) -> int:
        return len(self._query_ids)

    def __iter__(self) -> Iterator[str]:
        return iter(self.columns)

    def __getitem__(self, column: str) -> Union[List[str], np.ndarray]:
        if column == "query_id":
            return list(self._query_ids)
        try:
            return cast(np.ndarray, self._columns[self._measures.index(column)])  # (numpy types a row as Any)
        except ValueError:
            raise KeyError(f"no column {column!r}; the columns are {', '.join(self.columns)}") from None

    def to_dict(self) -> Dict[str, List[Any]]:
        """Plain lists: ``{"query_id": [...], measure: [float or None, ...]}`` (None: undefined)."""
        out: Dict[str, List[Any]] = {"query_id": list(self._query_ids)}
        for i, name in enumerate(self._measures):
            out[name] = [None if v != v else v for v in self._columns[i].tolist()]
        return out

    def to_numpy(self) -> Dict[str, np.ndarray]:
        """``{"query_id": object array, measure: float64 array}``."""
        out: Dict[str, np.ndarray] = {"query_id": np.array(self._query_ids, dtype=object)}
        for i, name in enumerate(self._measures):
            out[name] = self._columns[i]
        return out

    def to_pandas(self) -> Any:
        """A pandas DataFrame (NaN where undefined); needs pandas."""
        import pandas as pd

        data: Dict[str, Any] = {"query_id": self._query_ids}
        for i, name in enumerate(self._measures):
            data[name] = self._columns[i].copy()
        return pd.DataFrame(data)

    def to_arrow(self) -> Any:
        """A pyarrow Table (null where undefined); needs pyarrow."""
        import pyarrow as pa

        arrays = [pa.array(self._query_ids, pa.string())]
        for i in range(len(self._measures)):
            column = self._columns[i]
            arrays.append(pa.array(column, pa.float64(), mask=np.isnan(column)))
        return pa.Table.from_arrays(arrays, names=self.columns)

    def _display_rows(self, shown: int = 10) -> List[List[str]]:
        """The first `shown` rows as text, then a row of each column's defined count (issue 26)."""
        out = []
        for q in range(min(shown, len(self))):
            out.append([self._query_ids[q]] + ["n/a" if v != v else f"{v:.4f}" for v in self._columns[:, q].tolist()])
        if len(self) > shown:
            out.append([f"... {len(self) - shown} more"] + [""] * len(self._measures))
        out.append(["defined"] + [str(int(np.count_nonzero(~np.isnan(self._columns[i])))) for i in range(len(self._measures))])
        return out

    def _repr_markdown_(self) -> str:
        lines = ["| " + " | ".join(self.columns) + " |", "|---|" + "---:|" * len(self._measures)]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in self._display_rows()]) + "\n"

    def _repr_html_(self) -> str:
        import html

        head = "".join(f"<th>{html.escape(c)}</th>" for c in self.columns)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in row) + "</tr>" for row in self._display_rows())
        return f"<table class=\"evalcore-per-query\"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def __repr__(self) -> str:
        return f"PerQuery({len(self)} queries; columns {', '.join(self.columns)})"
