"""Benchmark the raw-JSON front door: bytes in, bytes out.

For the service-max ranking request (bench/generators.py) and the span seed example, times
in one run, median per request over repeats:

* ``evalcore.evaluate_json(op, body)``  - parse, check, compute, serialize, hash: all C++;
* ``json.dumps(evalcore.<op>(json.loads(body)))`` - the native dict path with the stdlib JSON;
* ``json.dumps(evalcore.reference.<op>(json.loads(body)))`` - the pure-Python reference.

Run from the repository root:  python bench/bench_json.py [--repeats N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import evalcore  # noqa: E402
import evalcore.reference  # noqa: E402
from generators import service_max_request  # noqa: E402
from measure import median_seconds_per_call as median_per_call  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))




def cases():
    span_seed = json.load(open(os.path.join(ROOT, "tests", "data", "span_seed.json"), encoding="utf-8"))["request"]
    return [
        ("ranking-evaluate", "service-max request", json.dumps(service_max_request(0)).encode()),
        ("span-evaluate", "span seed example", json.dumps(span_seed).encode()),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeats, min_seconds = (3, 0.05) if args.quick else (args.repeats, 0.5)
    print(f"python {sys.version.split()[0]}, evalcore {evalcore.__version__}")
    for operation, label, body in cases():
        name = operation.replace("-", "_")
        native, reference = getattr(evalcore, name), getattr(evalcore.reference, name)
        # Same answer three ways first (the bytes of the front door equal the dict path's).
        expected = json.loads(evalcore.evaluate_json(operation, body))
        assert expected == json.loads(json.dumps(native(json.loads(body))))
        assert expected == json.loads(json.dumps(reference(json.loads(body))))
        rows = [
            ("evaluate_json (bytes -> bytes)", lambda: evalcore.evaluate_json(operation, body)),
            ("json.loads + native dict API + json.dumps", lambda: json.dumps(native(json.loads(body))).encode()),
            ("json.loads + reference + json.dumps", lambda: json.dumps(reference(json.loads(body))).encode()),
        ]
        times = {label_: median_per_call(fn, repeats, min_seconds) for label_, fn in rows}
        front = times[rows[0][0]][0]
        print(f"\n{operation}: {label}, {len(body)} bytes in, {len(evalcore.evaluate_json(operation, body))} bytes out")
        print(f"  {'path':45s} {'us/request':>11s} {'x front door':>13s}")
        for label_, (seconds, calls) in times.items():
            print(f"  {label_:45s} {seconds * 1e6:11.1f} {seconds / front:13.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
