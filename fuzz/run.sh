#!/usr/bin/env bash
# Builds the libFuzzer target for evaluate_json's C++ entry point (with AddressSanitizer and
# UndefinedBehaviorSanitizer) and runs it for SECONDS (default 120) from a seed corpus made
# of the examples and the seed fixed examples. Any crash or sanitizer report fails the run.
# Needs clang++ and libFuzzer (Debian: apt-get install clang libclang-rt-14-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-120}"
out=build/fuzz
mkdir -p "$out/corpus"
clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -Icpp cpp/*.cpp fuzz/fuzz_evaluate_json.cpp -o "$out/fuzz_evaluate_json"
cp examples/*.json "$out/corpus/"
python3 - "$out/corpus" <<'PY'
import json, pathlib, sys
corpus = pathlib.Path(sys.argv[1])
for name in ("ranking_seed", "span_seed"):
    seed = json.loads(pathlib.Path(f"tests/data/{name}.json").read_text(encoding="utf-8"))
    (corpus / f"{name}.json").write_text(json.dumps(seed["request"]), encoding="utf-8")
(corpus / "score.json").write_text(json.dumps({"items": [{"predicted": ["a", "b", "a"], "ground_truth": ["b"]}], "k": 2}))
PY
ASAN_OPTIONS=detect_leaks=1 "$out/fuzz_evaluate_json" "$out/corpus" -max_total_time="$seconds" -max_len=4096 \
  -print_final_stats=1 2>&1 | tee "$out/fuzz.log" | grep -E "^#[0-9]+ +(INITED|DONE|pulse)|stat::number_of_executed_units|ERROR|SUMMARY" || true
if grep -qE "ERROR: (AddressSanitizer|libFuzzer|UndefinedBehaviorSanitizer)|runtime error:|deadly signal" "$out/fuzz.log"; then
  echo "fuzz: FAILED (see $out/fuzz.log; the crashing input is saved as crash-* in the current directory)"
  exit 1
fi
echo "fuzz: $(grep -oE 'stat::number_of_executed_units: [0-9]+' "$out/fuzz.log" | grep -oE '[0-9]+') executions, no crash"
