// The diversity evaluation's phases timed in C++, without Python (issue 25 item 6): reading
// the subtopic qrels, reading the run, scoring the 21 measures of ndeval's default set, each
// the median of REPEATS, on one thread, every phase after the other (single-threaded CPU
// time: on a shared VM whose two vCPUs do not double a throughput-bound loop, the number the
// wall time follows). The reading buffers are kept from one repeat to the next, as the
// Python binding keeps them (diversity/reading_buffers.hpp).
//
// From the repository root, after a build (`pip install -e . -Cbuild-dir=build/dev` leaves
// build/dev/libevalcore_core.a), the benchmark's data written to /tmp, then built and run:
//   python -c "import sys; sys.path.insert(0, 'bench'); import bench_diversity as b; b.write_files(*b.diversity_data(200, 1000, 5), '/tmp', 'diversity')"
//   g++ -std=c++17 -O3 -DNDEBUG -Icpp bench/bench_diversity_phases.cpp build/dev/libevalcore_core.a -lpthread -o /tmp/diversity_phases
//   /tmp/diversity_phases /tmp/diversity.qrels /tmp/diversity.run 60
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "diversity/diversity_measures.hpp"
#include "diversity/reading_buffers.hpp"
#include "runs/evaluation.hpp"
#include "runs/records.hpp"

using namespace evalcore;
using Clock = std::chrono::steady_clock;

namespace {

double milliseconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// ndeval's default set: ERR-IA, nERR-IA, alpha-DCG, alpha-nDCG at 5, 10, 20; NRBP, nNRBP,
// MAP-IA; P-IA and strec at 5, 10, 20 (alpha 0.5, beta 0.5).
std::vector<Measure> default_set() {
    const std::vector<double> parameters{0.5, 0.5, 0};
    const auto measure = [&](MeasureKind kind, int64_t cutoff) {
        return Measure{kind, cutoff, std::nan(""), {}, 0.0, parameters};
    };
    std::vector<Measure> out;
    for (int64_t k : {5, 10, 20}) {
        for (MeasureKind kind : {MeasureKind::err_ia, MeasureKind::nerr_ia, MeasureKind::alpha_dcg, MeasureKind::alpha_ndcg}) {
            out.push_back(measure(kind, k));
        }
    }
    for (MeasureKind kind : {MeasureKind::nrbp, MeasureKind::nnrbp, MeasureKind::ap_ia}) out.push_back(measure(kind, 0));
    for (MeasureKind kind : {MeasureKind::p_ia, MeasureKind::st_recall}) {
        for (int64_t k : {5, 10, 20}) out.push_back(measure(kind, k));
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s QRELS RUN [REPEATS]\n", argv[0]);
        return 2;
    }
    const std::string qrels_path = argv[1], run_path = argv[2];
    const int repeats = argc > 3 ? std::max(1, std::atoi(argv[3])) : 30;
    const std::vector<Measure> measures = default_set();
    const RunOptions options;
    ReadingBuffers buffers;
    std::vector<double> qrels_ms, run_ms, score_ms;
    double checksum = 0;
    for (int repeat = 0; repeat < repeats; ++repeat) {
        const Clock::time_point start = Clock::now();
        read_text_file_into(qrels_path, buffers.judged_text);
        read_subtopic_qrels_text(buffers.judged_text, qrels_path, buffers.judgments);
        const Clock::time_point qrels_read = Clock::now();
        read_text_file_into(run_path, buffers.run_text);
        TextReading how;
        how.doc_hashes = true;
        how.lines = false;
        how.rank_order = true;
        read_trec_text(buffers.run_text, TrecFormat::run, run_path, buffers.run, how);
        const Clock::time_point run_read = Clock::now();
        const RunResults results = evaluate_diversity(buffers.judgments, buffers.run, measures, options, 1);
        const Clock::time_point scored = Clock::now();
        checksum += results.mean.empty() ? 0 : results.mean[0];
        qrels_ms.push_back(milliseconds(start, qrels_read));
        run_ms.push_back(milliseconds(qrels_read, run_read));
        score_ms.push_back(milliseconds(run_read, scored));
    }
    std::printf("medians of %d, one thread: qrels %.2f ms, run %.2f ms, scoring %.2f ms (checksum %.6f)\n", repeats,
                median(qrels_ms), median(run_ms), median(score_ms), checksum / repeats);
    return 0;
}
