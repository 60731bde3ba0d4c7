"""Multiple-comparison corrections for :func:`evalcore.compare`: Bonferroni, Holm and
Benjamini–Hochberg, written to give exactly what statsmodels' ``multipletests`` gives
(``method="bonferroni"``, ``"holm"``, ``"fdr_bh"``): the same floating-point operations in
the same order, so the adjusted p-values are equal to the last bit and the rejections are
the same (the tests check both). Pure Python; shared by the native API and the reference.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

#: The correction names compare() takes, and statsmodels' name for each.
CORRECTIONS: Dict[str, Optional[str]] = {"holm": "holm", "bonferroni": "bonferroni", "bh": "fdr_bh", "none": None}


def adjust(pvalues: Sequence[float], method: str, alpha: float) -> Tuple[List[float], List[bool]]:
    """(adjusted p-values, rejected) for one family, in the order given.

    ``"none"`` leaves the p-values as they are and rejects p <= alpha. Ties keep any order:
    equal p-values get equal adjusted values whichever way a sort puts them.
    """
    m = len(pvalues)
    if m == 0:
        return [], []
    if method == "none":
        return [float(p) for p in pvalues], [p <= alpha for p in pvalues]
    order = sorted(range(m), key=lambda i: pvalues[i])
    p = [float(pvalues[i]) for i in order]
    if method == "bonferroni":
        reject = [x <= alpha / float(m) for x in p]
        adjusted = [x * float(m) for x in p]
    elif method == "holm":
        # Step down: reject while p_(i) <= alpha / (m - i), then none; adjusted p-values are
        # the running maximum of (m - i)·p_(i).
        first_kept = next((i for i, x in enumerate(p) if x > alpha / (m - i)), m)
        reject = [i < first_kept for i in range(m)]
        adjusted, running = [], 0.0
        for i, x in enumerate(p):
            running = max(running, x * (m - i)) if i else x * (m - i)
            adjusted.append(running)
    elif method == "bh":
        # Step up: reject every p_(i) up to the last with p_(i) <= (i + 1)/m · alpha;
        # adjusted p-values are the running minimum, from the largest down, of p_(i)·m/(i + 1).
        factors = [(i + 1) / float(m) for i in range(m)]
        below = [i for i in range(m) if p[i] <= factors[i] * alpha]
        last = below[-1] if below else -1
        reject = [i <= last for i in range(m)]
        adjusted = [0.0] * m
        running = p[m - 1] / factors[m - 1]
        for i in range(m - 1, -1, -1):
            running = min(running, p[i] / factors[i])
            adjusted[i] = running
    else:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, got {method!r}")
    adjusted = [min(x, 1.0) if x > 1 else x for x in adjusted]
    out_adjusted, out_reject = [0.0] * m, [False] * m
    for rank, i in enumerate(order):
        out_adjusted[i], out_reject[i] = adjusted[rank], reject[rank]
    return out_adjusted, out_reject
