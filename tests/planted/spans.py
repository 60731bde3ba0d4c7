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


# A matching takes each prediction's candidates, [(IoU, reference index), ...] in reference
# order, and returns how many one-to-one pairs it matched.

def maximum_matching(candidates):
    """The size of a maximum one-to-one matching (augmenting paths), as the contract's §3."""
    owner = {}

    def augment(p, seen):
        for _, r in candidates[p]:
            if r not in seen:
                seen.add(r)
                if r not in owner or augment(owner[r], seen):
                    owner[r] = p
                    return True
        return False

    return sum(1 for p in range(len(candidates)) if augment(p, set()))


def best_iou_first(candidates):
    """BUG: greedy, the pair of highest IoU first (ties in input order) while both are free.
    A prediction whose best reference is also another prediction's only candidate takes it
    from that one, and both sides lose a match."""
    pairs = sorted(((-value, p, r) for p, row in enumerate(candidates) for value, r in row))
    used_p, used_r = set(), set()
    for _, p, r in pairs:
        if p not in used_p and r not in used_r:
            used_p.add(p)
            used_r.add(r)
    return len(used_p)


def predictions_in_order(candidates):
    """BUG: greedy, each prediction in the order given takes its free candidate of highest
    IoU (the first on ties)."""
    used_r = set()
    for row in candidates:
        free = [(-value, r) for value, r in row if r not in used_r]
        if free:
            used_r.add(min(free)[1])
    return len(used_r)


def span_candidates(y_true, y_pred, minimum_iou=0.5, inclusive_ends=False, offsets=utf16_offset, text=""):
    """Each prediction's same-label references of IoU >= minimum_iou, with their IoUs."""
    def place(span):
        return (offsets(text, span[1]), offsets(text, span[2]))

    out = []
    for p in y_pred:
        row = [(iou(place(p), place(r), inclusive_ends), j) for j, r in enumerate(y_true) if r[0] == p[0]]
        out.append([(value, j) for value, j in row if value >= minimum_iou])
    return out


def span_prf(minimum_iou=0.5, inclusive_ends=False, offsets=utf16_offset, matching=maximum_matching):
    def prf(y_true, y_pred, text=""):
        matched = matching(span_candidates(y_true, y_pred, minimum_iou, inclusive_ends, offsets, text))
        precision = matched / len(y_pred) if y_pred else 0.0
        recall = matched / len(y_true) if y_true else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall != 0 else 0.0
        return precision, recall, f1

    return prf


def greedy_shortfalls(request):
    """The greedy matchings that match fewer pairs than the maximum one on a span-evaluate
    request, at its own match and minimumIou (exact: an IoU of 1, the same boundaries)."""
    threshold = 1.0 if request.get("match", "exact") == "exact" else request.get("minimumIou", 0.5)
    y_true = [(s["label"], s["start"], s["end"]) for s in request["references"]]
    y_pred = [(s["label"], s["start"], s["end"]) for s in request["predictions"]]
    candidates = span_candidates(y_true, y_pred, threshold)
    most = maximum_matching(candidates)
    return [greedy.__name__ for greedy in (best_iou_first, predictions_in_order) if greedy(candidates) < most]
