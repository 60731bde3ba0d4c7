"""nervaluate's schemas shown (issue 26): :class:`SchemasResultDict`, what
``evaluate_schemas`` returns in both cores, a dict that Jupyter shows as its table."""

from __future__ import annotations

from typing import Any, List, Mapping, Tuple, cast

from ..report.labels import LabelTable, Rows
from ..result_types import SchemasResult


def _rows(result: Mapping[str, Any]) -> Rows:
    rows: Rows = [[f"overall ({schema})", s["precision"], s["recall"], s["f1"], s["possible"]]
                  for schema, s in result["overall"].items()]
    for label, schemas in result["perLabel"].items():
        rows += [[f"{label} ({schema})", s["precision"], s["recall"], s["f1"], s["possible"]]
                 for schema, s in schemas.items()]
    return rows


def _notes(result: Mapping[str, Any]) -> List[str]:
    strict = result["overall"]["strict"]
    return [f"{result['documentCount']} documents ({result['input']} input, {result['matching']} matching): "
            f"true entities {strict['possible']} (the count), predicted {strict['actual']}."]


class SchemasResultDict(LabelTable):
    """What :func:`evalcore.evaluate_schemas` returns (the :class:`SchemasResult` items): a
    dict, ``==`` the plain dict, that shows each schema's precision, recall and F1 overall and
    per label, with the true entities (``possible``) as the count."""

    __slots__ = ()
    count_name = "true entities"

    def table(self) -> Tuple[Rows, List[str]]:
        return _rows(self), _notes(self)


def schemas_result(items: SchemasResult) -> SchemasResult:
    """The items as a :class:`SchemasResultDict` (both cores return one)."""
    return cast(SchemasResult, SchemasResultDict(items))
