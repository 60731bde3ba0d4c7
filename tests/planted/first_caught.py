"""How well the kit's default budget finds the planted bugs, measured: for each planted bug
of tests/testing/test_testing_kit.py, the example that first catches it under each seed, and the
share of the default span inputs on which a greedy matching (best IoU first, predictions
in order) matches fewer pairs than evalcore's maximum one. The numbers docs/oracle.md
gives come from here:

    python tests/planted/first_caught.py --seeds 10

Each seed runs assert_matches with the bug-free code, as the planted-bug tests do with the
buggy one: hypothesis draws the same inputs up to the first difference, so the example
where the buggy code first differs from evalcore is the one the test fails on (before
shrinking). A few minutes on an idle core; it prints, it asserts nothing."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from evalcore.testing import DEFAULT_EXAMPLES, adapters, assert_matches  # noqa: E402
from evalcore.testing.adapters import Adapter, adapter_for  # noqa: E402
from evalcore.testing.oracle import _strategy  # noqa: E402
from evalcore.testing.strategies import span_requests  # noqa: E402
from evalcore.testing.targets import MeasureTarget, target_for  # noqa: E402
from planted.spans import greedy_shortfalls  # noqa: E402
from test_testing_kit import CASES  # noqa: E402


def _first_difference(name, seed):
    """The 1-based example where the buggy code first differs from evalcore, or None."""
    correct, buggy, target_name, _ = CASES[name]
    target = target_for(target_name)
    operation = None if isinstance(target, MeasureTarget) else target_name
    right, wrong = adapter_for(correct, operation), adapter_for(buggy, operation)
    drawn, first = [0], [None]

    def call(example, measure):
        drawn[0] += 1
        if first[0] is None:
            try:
                theirs = wrong.call(example, measure)
            except Exception:
                first[0] = drawn[0]
            else:
                if target.difference(theirs, target.expected(example), tolerance=0.0, fields=None,
                                     undefined=wrong.undefined, counted=[0]) is not None:
                    first[0] = drawn[0]
        return right.call(example, measure)

    assert_matches(Adapter(right.function, call, right.operation, wrong.parameters, right.undefined), target_name,
                   seed=seed)
    return first[0]


def _greedy_share(strategy, seeds):
    """(inputs drawn, {greedy matching: inputs where it falls short}) over `seeds` default runs."""
    drawn, short = [0], {"best_iou_first": 0, "predictions_in_order": 0, "either": 0, "overlap-matched inputs": 0}

    def whole(request):
        drawn[0] += 1
        short["overlap-matched inputs"] += request.get("match") == "overlap"
        found = greedy_shortfalls(request)
        for kind in found:
            short[kind] += 1
        short["either"] += bool(found)
        return {}

    for seed in range(seeds):
        try:
            assert_matches(whole, "span-evaluate", strategy=strategy, seed=seed)
        except AssertionError:  # "nothing was compared": nothing is, on purpose
            pass
    return drawn[0], short


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--only", default="", help="only the planted bugs whose name holds this text")
    args = parser.parse_args()
    print(f"default budget: {DEFAULT_EXAMPLES} examples; seeds 0..{args.seeds - 1}")
    print("greedy matchings short of the maximum one, share of the default span inputs:")
    overlap = _strategy(target_for("span-evaluate"), adapters.span_prf(print, match="overlap"), None)
    for label, strategy in (("span_prf(f, match='overlap') (minimumIou 0.5)", overlap),
                            ("span_requests() (match and minimumIou drawn)", span_requests())):
        drawn, short = _greedy_share(strategy, args.seeds)
        shares = ", ".join(f"{kind} {count / drawn:.1%}" for kind, count in short.items())
        print(f"  {label}: {drawn} inputs; {shares}; either of the overlap-matched inputs "
              f"{short['either'] / max(short['overlap-matched inputs'], 1):.1%}")
    print("the example that first catches each planted bug (-: not within the budget):")
    for name in CASES:
        if args.only not in name:
            continue
        firsts = [_first_difference(name, seed) for seed in range(args.seeds)]
        found = [f for f in firsts if f is not None]
        worst = max(found) if len(found) == len(firsts) else "-"
        print(f"  {name}: {' '.join(str(f) if f else '-' for f in firsts)}  (worst {worst})")


if __name__ == "__main__":
    main()
