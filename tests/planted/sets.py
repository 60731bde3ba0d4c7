"""Set precision, recall and F1 of predicted vs ground-truth IDs: (predicted, ground_truth) -> metrics."""


def set_prf(lists_with_duplicates=False):
    """BUG with lists_with_duplicates: precision and recall count the lists' entries, so a
    repeated ID counts twice."""

    def prf(predicted, ground_truth):
        if lists_with_duplicates:
            if not predicted and not ground_truth:
                return {"precision": 1.0, "recall": 1.0, "f1": 1.0}
            if not predicted or not ground_truth:
                return {"precision": 0.0, "recall": 0.0, "f1": 0.0}
            precision = sum(1 for x in predicted if x in ground_truth) / len(predicted)
            recall = sum(1 for x in ground_truth if x in predicted) / len(ground_truth)
        else:
            p, g = set(predicted), set(ground_truth)
            if not p and not g:
                return {"precision": 1.0, "recall": 1.0, "f1": 1.0}
            if not p or not g:
                return {"precision": 0.0, "recall": 0.0, "f1": 0.0}
            precision, recall = len(p & g) / len(p), len(p & g) / len(g)
        f1 = 2.0 * precision * recall / (precision + recall) if precision + recall != 0 else 0.0
        return {"precision": precision, "recall": recall, "f1": f1}

    return prf
