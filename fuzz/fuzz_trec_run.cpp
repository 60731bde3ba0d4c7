// libFuzzer target for the TREC readers and run scoring: the input is qrels text, a NUL
// byte, then run text. The qrels are read whole, and in parts of a few bytes on three
// threads, with their lines and without, which must give the same; so are they as ndeval's
// subtopic qrels (the second field the subtopic). The run is streamed from memory in blocks of 16 to 143 bytes on one
// or two threads (the input's first byte decides, and the max_retrieved and judged_only of
// the second pass), so block edges, query boundaries, the ungrouped-run fallback and faults
// in any block are all reached. The run is also read whole in parts, offered to a helper
// thread (SharedParts) on the same first bytes that take two threads, with each record's
// ranking-order flag, checked against comparing it with the record before, and its groups
// against one thread's; these readings, and the subtopic qrels', go into the objects of the
// input before, whose columns are written over (as the diversity evaluation's kept reading
// buffers are). A RunInputError is fine; a crash, a sanitizer report or any
// other exception is not, and neither is a streamed result (or fault) that differs from
// the run read in one block.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>

#include "common/id_table.hpp"
#include "common/parallel.hpp"
#include "diversity/subtopic_judgments.hpp"
#include "runs/evaluation.hpp"
#include "runs/records.hpp"
#include "runs/trec_bytes.hpp"

namespace {

const std::vector<evalcore::Measure> measures = {
    {evalcore::MeasureKind::precision, 3},         {evalcore::MeasureKind::recall, 2},
    {evalcore::MeasureKind::reciprocal_rank, 0},   {evalcore::MeasureKind::average_precision, 5},
    {evalcore::MeasureKind::ndcg, 0},              {evalcore::MeasureKind::ndcg, 2}};

// The run's results, or its fault's message ("!" first), streamed in blocks of `block` bytes.
std::string score(const evalcore::QueryGroups& qrels, std::string_view run_text, const evalcore::RunOptions& options,
                  unsigned threads, size_t block) {
    try {
        evalcore::RunScorer scorer(qrels, measures, options, threads);
        scorer.add_run_text(run_text, "run", block);
        evalcore::RunResults results = scorer.finish();
        if (results.values.size() != results.query_ids.size() * measures.size()) __builtin_trap();
        std::string out;
        for (std::string_view id : results.query_ids) out.append(id).push_back('\n');
        const size_t bytes = results.values.size() * sizeof(double);  // the bits, NaN included
        out.append(reinterpret_cast<const char*>(results.values.data()), bytes);
        return out;
    } catch (const evalcore::RunInputError& error) {  // a faulty line, reported as it should be
        return std::string("!") + error.what();
    }
}

// Grouped qrels as text ("=", IDs, offsets, doc IDs, grade bits, lines), or the fault ("!" first),
// read in parts of `part` bytes on `threads` threads.
std::string read_qrels(std::string_view text, unsigned threads, size_t part, bool lines, evalcore::QueryGroups& qrels) {
    try {
        evalcore::TextReading how;
        how.threads = threads;
        how.smallest_part = part;
        how.lines = lines;
        evalcore::read_trec_text(text, evalcore::TrecFormat::qrels, "qrels", qrels, how);
    } catch (const evalcore::RunInputError& error) {
        return std::string("!") + error.what();
    }
    std::string out = "=";
    for (std::string_view id : qrels.query_ids) out.append(id).push_back('\n');
    for (size_t g = 0; g < qrels.offsets.size(); ++g) out.append(std::to_string(qrels.offsets[g])).push_back(' ');
    for (size_t i = 0; i < qrels.doc_ids.size(); ++i) {
        out.append(qrels.doc_ids[i]).push_back(' ');
        out.append(reinterpret_cast<const char*>(&qrels.values[i]), sizeof(double));
        if (lines) out.append(std::to_string(qrels.lines[i]));
        out.push_back('\n');
    }
    return out;
}

// The qrels text read as ndeval's subtopic qrels ("=", queries, then each judgment's query,
// subtopic, document, row, grade bits and line, and each query's rows), or the fault ("!"
// first), in parts of `part` bytes on `threads` threads.
std::string read_subtopics(std::string_view text, unsigned threads, size_t part) {
    // Read into the judgments of the input before, written over (as the kept buffers are).
    static evalcore::SubtopicJudgments kept[2];
    evalcore::SubtopicJudgments& judgments = kept[threads > 1 ? 1 : 0];
    try {
        evalcore::read_subtopic_qrels_text(text, "qrels", judgments, evalcore::default_max_line_bytes, threads, part);
    } catch (const evalcore::RunInputError& error) {
        return std::string("!") + error.what();
    }
    std::string out = "=";
    for (std::string_view id : judgments.query_ids) out.append(id).push_back('\n');
    for (size_t q = 0; q + 1 < judgments.offsets.size(); ++q) {
        out.append(std::to_string(judgments.offsets[q]) + " " + std::to_string(judgments.row_counts[q]) + ":");
        for (uint32_t r = 0; r < judgments.row_counts[q]; ++r) {
            out.append(std::to_string(judgments.row_judgments[judgments.offsets[q] + r])).push_back(' ');
        }
        for (size_t j = judgments.offsets[q]; j < judgments.offsets[q + 1]; ++j) {
            const evalcore::SubtopicRow& row = judgments.judgments[j];
            if (row.query != q || row.hash != evalcore::IdTable::hash(row.doc)) __builtin_trap();
            out.append(std::to_string(row.subtopic) + " ").append(row.doc).push_back(' ');
            out.append(reinterpret_cast<const char*>(&row.grade), sizeof(double));
            out.append(" " + std::to_string(row.at) + " " + std::to_string(judgments.rows[j]) + "\n");
        }
    }
    return out;
}

// The run read whole in parts of `part` bytes on `threads` threads (a helper thread among
// them when `shared`), with its ranking-order flags: its groups as text ("=", then each
// record's query group, document, score bits), or the fault ("!" first). Each flag after a
// query's first record must say what comparing the record with the one before says.
std::string read_ranked_run(std::string_view text, unsigned threads, size_t part, bool shared) {
    // Read into the groups of the input before (as the diversity evaluation's kept buffers
    // are): their columns, often larger, keep their size and are written over.
    static evalcore::QueryGroups kept[2];
    evalcore::QueryGroups& groups = kept[shared ? 1 : 0];
    evalcore::TextReading how;
    how.threads = threads;
    how.smallest_part = part;
    how.lines = false;
    how.rank_order = true;
    evalcore::SharedParts parts;
    std::thread helper;
    if (shared) {
        how.share = &parts;
        helper = std::thread([&parts] { parts.help(); });
    }
    std::string fault;
    {
        // The helper joined however the reading ends (any other exception is a crash to
        // report, after the join).
        struct Join {
            std::thread& thread;
            ~Join() {
                if (thread.joinable()) thread.join();
            }
        } join{helper};
        try {
            const evalcore::CloseParts closing(shared ? &parts : nullptr);
            evalcore::read_trec_text(text, evalcore::TrecFormat::run, "run", groups, how);
        } catch (const evalcore::RunInputError& error) {
            fault = std::string("!") + error.what();
        }
    }
    if (!fault.empty()) return fault;
    if (!groups.in_order.empty() && groups.in_order.size() != groups.doc_ids.size()) __builtin_trap();
    std::string out = "=";
    for (size_t g = 0; g < groups.size(); ++g) {
        for (size_t i = groups.offsets[g]; i < groups.offsets[g + 1]; ++i) {
            if (!groups.in_order.empty() && i > groups.offsets[g]) {
                const double before = groups.values[i - 1], value = groups.values[i];
                const bool after = before > value || (before == value && evalcore::id_less(groups.doc_ids[i - 1], groups.doc_ids[i]));
                if (groups.in_order[i] != (after ? 1 : 0)) __builtin_trap();
            }
            out.append(std::to_string(g) + " ").append(groups.doc_ids[i]).push_back(' ');
            out.append(reinterpret_cast<const char*>(&groups.values[i]), sizeof(double)).push_back('\n');
        }
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const size_t block = 16 + data[0] / 2;
    const unsigned threads = data[0] % 8 == 1 ? 2 : 1;  // threads are slow to start under ASan
    const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
    const size_t split = input.find('\0');
    const std::string_view qrels_text = input.substr(0, split);
    const std::string_view run_text = split == std::string_view::npos ? std::string_view() : input.substr(split + 1);
    // Qrels read in parts of a few bytes on three threads: what one thread reads whole, with
    // lines or without (a fault's message the same either way).
    evalcore::QueryGroups qrels, other;
    const std::string whole = read_qrels(qrels_text, 1, size_t{1} << 20, true, qrels);
    if (read_qrels(qrels_text, 3, block / 8, true, other) != whole) __builtin_trap();
    const std::string bare = read_qrels(qrels_text, 3, block / 8, false, other);
    if (bare != read_qrels(qrels_text, 1, size_t{1} << 20, false, other)) __builtin_trap();
    if (whole[0] == '!' && bare != whole) __builtin_trap();
    // The same text as subtopic qrels: in parts of a few bytes on three threads, as one
    // thread reads it whole (values, rows and the first fault alike).
    const std::string subtopics = read_subtopics(qrels_text, 1, size_t{1} << 20);
    if (read_subtopics(qrels_text, 3, block / 8) != subtopics) __builtin_trap();
    // The run in parts of a few bytes, with its ranking-order flags, as one thread reads it.
    const std::string ranked = read_ranked_run(run_text, 1, size_t{1} << 20, false);
    if (read_ranked_run(run_text, threads + 1, block / 8, threads == 2) != ranked) __builtin_trap();
    // The TREC parsers' two codes (runs/trec_bytes.hpp: the wide one where the processor runs
    // it, as above, and the baseline's) read every text alike.
    evalcore::use_baseline_bytes(true);
    const bool alike = read_qrels(qrels_text, 1, size_t{1} << 20, true, other) == whole &&
                       read_subtopics(qrels_text, 3, block / 8) == subtopics &&
                       read_ranked_run(run_text, 1, size_t{1} << 20, false) == ranked;
    evalcore::use_baseline_bytes(false);
    if (!alike) __builtin_trap();
    // The newline counts that size the readers' columns, by the code in use and the
    // baseline's, over a text of many 32- and 64-byte steps.
    std::string repeated;
    while (repeated.size() < 20000) repeated.append(input.empty() ? std::string_view("\n") : input);
    if (evalcore::count_newlines_best(repeated) != evalcore::count_newlines(repeated)) __builtin_trap();
    if (whole[0] == '!') return 0;  // a faulty line, reported as it should be
    try {
        for (const bool zero : {false, true}) {
            evalcore::RunOptions options;
            options.missing_zero = zero;
            options.exponential = zero;
            // trec_eval's -M and -J on the second pass: they reshape every ranking scored.
            if (zero) {
                options.max_retrieved = data[0] % 4 == 3 ? -1 : data[0] % 4;
                options.judged_only = data[0] % 3 == 0;
            }
            // Block edges, query boundaries (comments and blank lines among them) and the
            // threads' shares change nothing: the same as one block holding the whole run.
            if (score(qrels, run_text, options, threads, block) != score(qrels, run_text, options, 1, size_t{1} << 20)) {
                __builtin_trap();
            }
        }
    } catch (const evalcore::RunInputError&) {
        // a faulty line, reported as it should be
    }
    return 0;
}
