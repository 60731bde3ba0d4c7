#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer and UndefinedBehaviorSanitizer) and runs
# them: evaluate_json's C++ entry point for SECONDS (default 120) from a seed corpus of the
# examples and the seed fixed examples, then the TREC readers and run scoring for SECONDS/2
# from examples/trec. Any crash or sanitizer report fails the run.
# Needs clang++ and libFuzzer (Debian: apt-get install clang libclang-rt-14-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-120}"
out=build/fuzz
mkdir -p "$out/corpus"

# run_fuzzer NAME SECONDS CORPUS: runs one target; fails on any crash or sanitizer report.
run_fuzzer() {
  local name=$1 time=$2 corpus=$3
  clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -Icpp $(find cpp -name "*.cpp" -not -path "cpp/bindings/*" | sort) "fuzz/$name.cpp" -o "$out/$name"
  ASAN_OPTIONS=detect_leaks=1 "$out/$name" "$corpus" -max_total_time="$time" -max_len=4096 \
    -print_final_stats=1 2>&1 | tee "$out/$name.log" | grep -E "^#[0-9]+ +(INITED|DONE|pulse)|stat::number_of_executed_units|ERROR|SUMMARY" || true
  if grep -qE "ERROR: (AddressSanitizer|libFuzzer|UndefinedBehaviorSanitizer)|runtime error:|deadly signal" "$out/$name.log"; then
    echo "fuzz $name: FAILED (see $out/$name.log; the crashing input is saved as crash-* in the current directory)"
    exit 1
  fi
  echo "fuzz $name: $(grep -oE 'stat::number_of_executed_units: [0-9]+' "$out/$name.log" | grep -oE '[0-9]+') executions, no crash"
}

cp examples/*.json "$out/corpus/"
python3 - "$out/corpus" "$out/trec-corpus" <<'PY'
import json, pathlib, sys
corpus = pathlib.Path(sys.argv[1])
for name in ("ranking_seed", "span_seed"):
    seed = json.loads(pathlib.Path(f"tests/data/{name}.json").read_text(encoding="utf-8"))
    (corpus / f"{name}.json").write_text(json.dumps(seed["request"]), encoding="utf-8")
(corpus / "score.json").write_text(json.dumps({"items": [{"predicted": ["a", "b", "a"], "ground_truth": ["b"]}], "k": 2}))
trec = pathlib.Path(sys.argv[2])
trec.mkdir(exist_ok=True)
qrels = pathlib.Path("examples/trec/qrels.txt").read_bytes()[:1500]
run = pathlib.Path("examples/trec/run.txt").read_bytes()[:2000]
(trec / "example").write_bytes(b"\x07" + qrels + b"\x00" + run)
(trec / "small").write_bytes(b"\x01q 0 a 1\nq 0 b 2.5\nr 0 a 0\n\x00q Q0 b 1 2 t\nq Q0 a 2 2 t\nr Q0 a 1 1 t\nq Q0 c 3 1e-400 t\n")
# Comments (anywhere, indented, inside a query, last), blank lines, CRLF, run lines of more than 6 fields.
(trec / "comments").write_bytes(b"\x01# c\nq 0 a 1\n#\n# c2\n\nq 0 b 2\n  # x\n\x00# r\nq Q0 b 1 2 t extra\n#\n"
                                b"\tq Q0 a 2 2 t 7 8\r\n\n# between\nr Q0 a 1 1 t # not a comment\n# end")
golden = pathlib.Path("tests/data/trec_eval/inputs")
(trec / "golden").write_bytes(b"\x03" + (golden / "agree.qrels").read_bytes() + b"\x00" + (golden / "agree.run").read_bytes())
PY
run_fuzzer fuzz_evaluate_json "$seconds" "$out/corpus"
run_fuzzer fuzz_trec_run "$((seconds / 2))" "$out/trec-corpus"
