"""Span precision, recall and F1 with IoU matching: (y_true, y_pred) -> (P, R, F1), spans as
(label, start, end) with UTF-16 offsets, end exclusive."""


def utf16_offset(text, offset):
    return offset  # the offsets are UTF-16 code units already


def utf8_offset(text, offset):
    """BUG: the offset turned into a UTF-8 byte offset (the pipeline's own unit)."""
    units = text.encode("utf-16-le")[: 2 * offset].decode("utf-16-le")
    return len(units.encode("utf-8"))


def iou(a, b, inclusive_ends=False):
    """Intersection over union of two (start, end) ranges. BUG with inclusive_ends: the
    end is taken as the last unit, so every length and overlap grows by one."""
    extra = 1 if inclusive_ends else 0
    inter = max(0, min(a[1], b[1]) - max(a[0], b[0]) + extra)
    return inter / ((a[1] - a[0] + extra) + (b[1] - b[0] + extra) - inter)


def _max_matching(candidates, references):
    """The size of a maximum one-to-one matching (augmenting paths)."""
    owner = {}

    def augment(p, seen):
        for r in candidates[p]:
            if r not in seen:
                seen.add(r)
                if r not in owner or augment(owner[r], seen):
                    owner[r] = p
                    return True
        return False

    return sum(1 for p in range(len(candidates)) if augment(p, set()))


def span_prf(minimum_iou=0.5, inclusive_ends=False, offsets=utf16_offset):
    def prf(y_true, y_pred, text=""):
        def place(span):
            return (offsets(text, span[1]), offsets(text, span[2]))

        candidates = [[j for j, r in enumerate(y_true) if r[0] == p[0] and iou(place(p), place(r), inclusive_ends) >= minimum_iou]
                      for p in y_pred]
        matched = _max_matching(candidates, y_true)
        precision = matched / len(y_pred) if y_pred else 0.0
        recall = matched / len(y_true) if y_true else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall != 0 else 0.0
        return precision, recall, f1

    return prf
