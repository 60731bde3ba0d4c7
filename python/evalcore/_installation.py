"""Whether the unrelated PyPI project named ``evalcore`` shares this environment.

This project is published as ``evalcore-exact``; its import package is ``evalcore``, and so
is the import package of an unrelated project published as ``evalcore`` (an "evaluation
engine for prompt, model, and API outputs"). pip installs both into site-packages/evalcore/,
each overwriting the other's files: the one installed last owns ``__init__.py``. When ours
runs, the other project's dist-info beside the package says the files may be mixed. The
check is one directory listing (0.53 ms for a site-packages of 79 entries, best of 5 × 1,000
calls on a busy 2-core machine) and reads a file only when such a folder is there."""

from __future__ import annotations

import os
from typing import Optional

#: The first words of our own Summary: a dist-info named ``evalcore-*`` with it is an older
#: install of this project (before it was renamed), not the other project.
OUR_SUMMARY = "Deterministic, fast scoring of supplied evaluation data"


def _summary(metadata_path: str) -> str:
    try:
        with open(metadata_path, encoding="utf-8", errors="replace") as metadata:
            for line in metadata:
                if line.startswith("Summary:"):
                    return line[len("Summary:"):].strip()
                if not line.strip():  # the headers end at the first blank line
                    break
    except OSError:
        pass
    return ""


def foreign_evalcore(package_dir: str) -> Optional[str]:
    """The folder name of another project's ``evalcore-*.dist-info`` beside `package_dir`
    (the folder holding ``evalcore/``), or None."""
    site = os.path.dirname(os.path.abspath(package_dir))
    try:
        entries = [entry.name for entry in os.scandir(site)]
    except OSError:
        return None
    for name in sorted(entries):
        if name.lower().startswith("evalcore-") and name.endswith(".dist-info"):
            if not _summary(os.path.join(site, name, "METADATA")).startswith(OUR_SUMMARY):
                return name
    return None


def conflict_message(dist_info: str) -> str:
    return (f"another project named 'evalcore' is installed in this environment ({dist_info}); it writes the "
            f"same import package, evalcore/, so its files and those of evalcore-exact may be mixed. Run "
            f"`pip uninstall evalcore evalcore-exact` and then `pip install evalcore-exact` (or install the "
            f"other project in an environment of its own)")


def warn_if_shared(package_dir: str) -> None:
    """A DistributionConflictWarning when the other project's dist-info is beside
    `package_dir` (called once, by ``import evalcore``)."""
    foreign = foreign_evalcore(package_dir)
    if foreign is not None:
        import warnings

        from .errors import DistributionConflictWarning

        warnings.warn(conflict_message(foreign), DistributionConflictWarning, stacklevel=3)
