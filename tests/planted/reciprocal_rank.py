"""Reciprocal rank at k over a ranking-evaluate request: request -> {"queries": [{"reciprocalRankAtK"}]}."""


def reciprocal_rank(truncate=True):
    """RR@k: 1 / the rank of the first relevant document in the top k, 0 if none, None
    without a relevant judgment. BUG with truncate=False: the first relevant document is
    looked for in the whole ranking, past k."""

    def rr(request):
        k = int(request.get("k", 10))
        threshold = request.get("relevantAtLeast", 1)
        queries = []
        for query in request["queries"]:
            grades = {j["id"]: j["grade"] for j in query["judgments"]}
            if not any(g >= threshold for g in grades.values()):
                queries.append({"reciprocalRankAtK": None})
                continue
            ranking = query["retrieved"][:k] if truncate else query["retrieved"]
            value = 0.0
            for rank, doc in enumerate(ranking, start=1):
                if doc in grades and grades[doc] >= threshold:
                    value = 1.0 / rank
                    break
            queries.append({"reciprocalRankAtK": value})
        return {"queries": queries}

    return rr
