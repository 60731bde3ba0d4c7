"""Load benchmark of `evalcore serve` on loopback, native backend vs the pure-Python one.

For each example request (ranking, span, score) and each concurrency (1, 8, 64 connections)
it runs wrk for --duration seconds against a fresh server on 127.0.0.1, and prints
requests/s, p50/p99 latency and the count of non-2xx answers (0 is required: every request
is valid), then the native/reference ratio of requests/s. Bounded: 3 × 3 × 2 runs of
--duration seconds (20 by default, about 6 minutes), loopback only.

Needs wrk (Debian: apt-get install wrk) and the server extra (pip install '.[server]').
Run from the repository root:  python bench/bench_server.py [--duration 20] [--concurrency 1 8 64]
"""

from __future__ import annotations

import argparse
import json
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Dict

ROOT = pathlib.Path(__file__).resolve().parent.parent
REQUESTS = [
    ("ranking", "/v1/ranking-evaluate", (ROOT / "examples" / "ranking-request.json").read_bytes()),
    ("span", "/v1/span-evaluate", (ROOT / "examples" / "span-request.json").read_bytes()),
    ("score", "/v1/evaluations/score", json.dumps({"items": [{"predicted": [f"d{i}" for i in range(j, j + 10)],
                                                              "ground_truth": [f"d{i}" for i in range(j + 5, j + 15)]}
                                                             for j in range(50)], "k": 10}).encode()),
]
LUA = """wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("{path}", "rb")
wrk.body = f:read("*a")
f:close()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(backend: str, workers: int = 1) -> subprocess.Popen:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "evalcore.cli", "serve", "--port", str(port), "--backend", backend, "--log-level", "warning",
         "--workers", str(workers)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    process.port = port  # type: ignore[attr-defined]
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("server did not start")


def to_ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]


def run_wrk(port: int, path: str, lua: str, connections: int, duration: int) -> Dict[str, float]:
    out = subprocess.run(
        ["wrk", "-t", str(min(connections, 2)), "-c", str(connections), "-d", f"{duration}s", "--latency",
         "-s", lua, f"http://127.0.0.1:{port}{path}"],
        capture_output=True, text=True, timeout=duration + 60, check=True,
    ).stdout
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {
        "requests_per_s": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50_ms": to_ms(re.search(r"^\s*50%\s+(\S+)", out, re.M).group(1)),
        "p99_ms": to_ms(re.search(r"^\s*99%\s+(\S+)", out, re.M).group(1)),
        "non_2xx": int(non_2xx.group(1)) if non_2xx else 0,
        "socket_errors": errors.group(1).strip() if errors else "",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=20, help="seconds per run (default 20)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 64])
    parser.add_argument("--json", metavar="PATH")
    parser.add_argument("--workers", type=int, default=1, help="server worker processes (default 1: one process, a thread pool)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install wrk")
    results: Dict[str, Dict[str, Dict[int, Dict[str, float]]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        scripts = {}
        for name, _, body in REQUESTS:
            body_path = pathlib.Path(tmp, f"{name}.json")
            body_path.write_bytes(body)
            scripts[name] = str(pathlib.Path(tmp, f"{name}.lua"))
            pathlib.Path(scripts[name]).write_text(LUA.format(path=body_path))
        for backend in ("native", "reference"):
            server = start_server(backend, args.workers)
            try:
                for name, path, _ in REQUESTS:
                    for connections in args.concurrency:
                        figures = run_wrk(server.port, path, scripts[name], connections, args.duration)  # type: ignore[attr-defined]
                        results.setdefault(backend, {}).setdefault(name, {})[connections] = figures
                        print(f"{backend:9s} {name:7s} c={connections:<3d} {figures['requests_per_s']:9.1f} req/s  "
                              f"p50 {figures['p50_ms']:8.2f} ms  p99 {figures['p99_ms']:8.2f} ms  non-2xx {figures['non_2xx']}"
                              + (f"  socket errors: {figures['socket_errors']}" if figures["socket_errors"] else ""), flush=True)
            finally:
                server.send_signal(signal.SIGTERM)
                server.wait(timeout=30)
    print("\nnative / reference, requests per second (same run):")
    for name, _, _ in REQUESTS:
        ratios = [results["native"][name][c]["requests_per_s"] / results["reference"][name][c]["requests_per_s"] for c in args.concurrency]
        print(f"  {name:7s} " + "  ".join(f"c={c}: {r:6.1f}x" for c, r in zip(args.concurrency, ratios)))
    bad = sum(f["non_2xx"] for b in results.values() for n in b.values() for f in n.values())
    print(f"non-2xx answers in all runs: {bad}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=2))
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
