#include "runs/evaluation.hpp"

#include "runs/input_files.hpp"

#include "common/exact_sum.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <thread>

#include "common/parallel.hpp"

namespace evalcore {
namespace {

// The parser's field separators (runs/records.cpp), so that a line blank to it is blank here.
bool is_field_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The query ID of a line; empty for a line the parser skips (blank, or a comment: its first
// non-blank byte is '#'), which therefore never marks a query boundary.
std::string_view first_field(std::string_view line) {
    size_t i = 0;
    while (i < line.size() && is_field_space(line[i])) ++i;
    if (i < line.size() && line[i] == '#') return std::string_view();
    size_t j = i;
    while (j < line.size() && !is_field_space(line[j])) ++j;
    return line.substr(i, j - i);
}

// The line starting at `at` (without its newline) and where the next one starts.
std::string_view line_at(std::string_view text, size_t at, size_t& next) {
    const void* nl = std::memchr(text.data() + at, '\n', text.size() - at);
    const size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) : text.size();
    next = nl ? end + 1 : text.size();
    return text.substr(at, end - at);
}

// Where the whole queries of a buffer that more bytes will follow end, found from its end
// (only the last query's lines are read, not the whole buffer on one thread): the start of
// the lines after the last data line of another query than the last one (blank and comment
// lines before a query belong to it). 0 when the complete lines hold one query only.
// `cut`: a line longer than the limit that is not complete yet: the text ends there, where
// the parser reports it (a complete one is the parser's to report in its place).
// The position of the last '\n' in text[0, end), or npos (memrchr is not portable).
size_t last_newline(std::string_view text, size_t end) {
    while (end > 0) {
        if (text[--end] == '\n') return end;
    }
    return std::string_view::npos;
}

struct QueryBoundary {
    size_t boundary = 0;
    size_t cut = SIZE_MAX;

    QueryBoundary(std::string_view text, size_t max_line_bytes) {
        const size_t nl = last_newline(text, text.size());
        const size_t complete = nl == std::string_view::npos ? 0 : nl + 1;
        if (text.size() - complete > max_line_bytes) {
            cut = complete + max_line_bytes + 1;
            return;
        }
        std::string_view last;  // the ID of the last data line
        size_t end = complete;  // lines [.., end) are still to be read, backwards
        while (end > 0) {
            const size_t before = last_newline(text, end - 1);
            const size_t start = before == std::string_view::npos ? 0 : before + 1;
            const std::string_view id = first_field(text.substr(start, end - 1 - start));
            if (!id.empty()) {
                if (last.empty()) {
                    last = id;
                } else if (id != last) {
                    boundary = end;
                    return;
                }
            }
            end = start;
        }
    }
};

// The first line start at or after `at` where the query ID changes from the line before.
size_t next_query_start(std::string_view text, size_t at) {
    while (at > 0 && at < text.size() && text[at - 1] != '\n') ++at;
    std::string_view query;
    while (at < text.size()) {
        size_t next;
        const std::string_view id = first_field(line_at(text, at, next));
        if (!id.empty()) {
            if (query.empty()) {
                query = id;
            } else if (id != query) {
                return at;
            }
        }
        at = next;
    }
    return text.size();
}

}  // namespace

// A part of a batch: its records parsed, grouped and scored while its bytes are in cache.
struct RunScorer::Part {
    Records records;
    QueryGroups groups;
    InputFault fault;
    std::vector<double> values;
    std::vector<int32_t> judged_group;
};

struct RunScorer::Batch {
    std::string_view text;
    uint64_t first_line = 0;
    std::vector<Part> parts;  // [0, used) hold this block's; the rest keep their capacity
    size_t used = 0;
};

namespace {

// How much of a batch is parsed, grouped and scored at once: a part's text and records fit
// in a core's own cache, where a batch of 8 MiB did not, so scoring found the document IDs
// the parsing had read evicted (perf: a third of QueryScorer::score's time was the compare
// of a found document's ID; bench_trec_cli.py's map and ndcg_cut.10 on one thread took 0.78 s
// with a batch at once and 0.66 s with parts of 1 MiB or 512 KiB).
constexpr size_t part_bytes = size_t{512} << 10;

}  // namespace

// Parses, groups and scores batch b's text in parts cut at query boundaries, numbering its
// lines from `first_line`; stops after a part with a fault (nothing after it is read, as on
// one thread). Returns how many lines were read.
uint64_t RunScorer::score_batch(Batch& b, uint64_t first_line, size_t part_size, size_t max_line_bytes) {
    b.used = 0;
    uint64_t lines = 0;
    for (size_t from = 0; from < b.text.size();) {
        const size_t to = b.text.size() - from <= part_size ? b.text.size()
                                                            : std::max(from + 1, next_query_start(b.text, from + part_size));
        if (b.used == b.parts.size()) b.parts.emplace_back();
        Part& part = b.parts[b.used++];
        const std::string_view text = b.text.substr(from, to - from);
        part.records.clear();
        part.records.reserve(text.size() / 24);
        part.fault = InputFault{};
        lines += parse_trec_lines(text, TrecFormat::run, first_line + lines, part.records, part.fault, max_line_bytes, true);
        group_records(part.records, part.groups, part.fault, 1, RecordStorage::keep);
        evaluate(part.groups, part.values, part.judged_group, 1);
        if (part.fault.found()) break;
        from = to;
    }
    return lines;
}

RunScorer::RunScorer(const QueryGroups& qrels, std::vector<Measure> measures, RunOptions options, unsigned threads)
    : qrels_(qrels), measures_(std::move(measures)), options_(options), threads_(std::max(1u, threads)) {
    // The grouping's index when it kept one (TREC files and tables: a pass over millions
    // of judged queries saved), else one of our own.
    if (qrels_.index.size() != qrels_.size()) {
        qrels_index_.reset(qrels_.size());
        for (size_t g = 0; g < qrels_.size(); ++g) {
            qrels_index_.insert(IdTable::hash(qrels_.query_ids[g]), static_cast<uint32_t>(g), qrels_.query_ids);
        }
    }
    reset();
}

uint32_t RunScorer::judged_query(std::string_view id) const {
    const IdIndex& index = qrels_.index.size() == qrels_.size() ? qrels_.index : qrels_index_;
    return index.find(id, qrels_.query_ids);
}

void RunScorer::reset() {
    judged_seen_.assign(qrels_.size(), 0);
    run_seen_.reset(1024);
    results_ = RunResults{};
    // At most every judged query gets a row: reserved, so the values never exist twice.
    results_.values.reserve(qrels_.size() * measures_.size());
}

void RunScorer::evaluate(const QueryGroups& run, std::vector<double>& values, std::vector<int32_t>& judged_group,
                         unsigned threads) {
    const size_t count = run.size(), width = measures_.size();
    values.resize(count * width);
    judged_group.resize(count);
    std::atomic<size_t> next{0};
    threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>((count + 255) / 256)));
    on_threads(threads, [&](unsigned) {
        QueryScorer scorer(measures_, options_);
        constexpr size_t chunk = 64;
        for (size_t begin; (begin = next.fetch_add(chunk)) < count;) {
            for (size_t g = begin; g < std::min(count, begin + chunk); ++g) {
                // A query without judgments is not scored (trec_eval's join): absent from
                // the qrels, or given an empty {doc: grade} dict.
                const uint32_t judged = judged_query(run.query_ids[g]);
                if (judged == IdIndex::none || qrels_.offsets[judged] == qrels_.offsets[judged + 1]) {
                    judged_group[g] = -1;
                    continue;
                }
                judged_group[g] = static_cast<int32_t>(judged);
                const size_t jb = qrels_.offsets[judged], je = qrels_.offsets[judged + 1];
                const size_t rb = run.offsets[g], re = run.offsets[g + 1];
                QueryData query{qrels_.doc_ids.data() + jb, qrels_.values.data() + jb, je - jb,
                                run.doc_ids.data() + rb,   run.values.empty() ? nullptr : run.values.data() + rb,
                                re - rb};
                // IdTable::hash, wherever the inputs took them (QueryData: the run's alone will do).
                if (!run.doc_hashes.empty()) query.doc_hashes = run.doc_hashes.data() + rb;
                if (!qrels_.doc_hashes.empty()) query.judged_hashes = qrels_.doc_hashes.data() + jb;
                scorer.score(query, values.data() + g * width);
            }
        }
    });
}

void RunScorer::merge(const QueryGroups& run, const std::vector<double>& values, const std::vector<int32_t>& judged_group,
                      bool remember_all) {
    const size_t width = measures_.size();
    for (size_t g = 0; g < run.size(); ++g) {
        const int32_t judged = judged_group[g];
        if (judged < 0) {
            if (remember_all) run_seen_.insert(results_.names.copy(run.query_ids[g]), 0);
            continue;
        }
        const std::string_view name = results_.names.copy(run.query_ids[g]);
        judged_seen_[static_cast<size_t>(judged)] = 1;
        results_.query_ids.push_back(name);
        results_.values.insert(results_.values.end(), values.begin() + static_cast<ptrdiff_t>(g * width),
                               values.begin() + static_cast<ptrdiff_t>((g + 1) * width));
    }
}

void RunScorer::add_groups(const QueryGroups& run) {
    std::vector<double> values;
    std::vector<int32_t> judged_group;
    evaluate(run, values, judged_group, threads_);
    merge(run, values, judged_group, false);
}

bool RunScorer::stream_run(RunBytes& bytes, const std::string& path, size_t block, size_t max_line_bytes) {
    block = std::max<size_t>(block, 1);
    // The first read is sized by the input (one byte more, so that it meets the end): a
    // small file costs no block of 16 MiB, zero-filled and paged in, per call. Reads grow
    // by doubling, up to the block, should the input be longer than it said.
    constexpr size_t smallest_read = size_t{64} << 10;
    const uint64_t hint = bytes.size_hint();
    size_t step = hint < block ? std::max<size_t>(static_cast<size_t>(hint) + 1, smallest_read) : block;
    step = std::min(step, block);
    std::vector<char> buffer;
    size_t filled = 0;
    uint64_t line_base = 1;
    const size_t smallest_batch = std::min(TextReading{}.smallest_part, block);  // small in tests, as the blocks
    std::vector<Batch> batches(threads_);
    for (bool more = true, first = true; more; first = false) {
        const size_t before = filled;
        more = bytes.read(buffer, filled, step);
        advance(progress_, filled - before);
        step = step > block / 2 ? block : step * 2;
        const std::string_view text(buffer.data(), filled);
        if (first) {  // before any line is read: a compressed file is that, not malformed lines
            // Only as much as the line-length bound lets be read of line 1, as for qrels.
            const std::string_view head = text.substr(0, std::min(text.size(), max_line_bytes + 1));
            if (std::string fault = compressed_fault(head); !fault.empty()) throw RunInputError(path, 1, fault);
        }
        size_t end = text.size();
        const QueryBoundary found(text, max_line_bytes);
        if (found.cut != SIZE_MAX) {
            // A line longer than the limit: the input ends in it, where the parser reports
            // it (unless an earlier line is at fault); nothing after it is read.
            more = false;
            end = found.cut;
        } else if (more) {
            if (found.boundary == 0) continue;  // not one whole query yet: read more
            end = found.boundary;
        }
        // Split the complete queries between the parsers at query boundaries: a thread each,
        // for no less than `smallest_batch` bytes each (a small file has one).
        const std::string_view complete = text.substr(0, end);
        const unsigned threads =
            static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(threads_, complete.size() / smallest_batch)));
        size_t from = 0;
        for (unsigned t = 0; t < threads; ++t) {
            const size_t to = t + 1 == threads ? complete.size()
                                                : std::max(from, next_query_start(complete, complete.size() / threads * (t + 1)));
            batches[t].text = complete.substr(from, to - from);
            from = to;
        }
        // Each batch parsed, grouped and scored on its thread, in parts (score_batch). Batch 0
        // numbers its lines from line_base; the others from 1, their first lines known only
        // once the batches before them are counted. No number is needed unless a part has a
        // fault (below, the lines only order the groups against a fault's line): a batch
        // after the first with a fault is then read again, whole, numbered from its first
        // line, since the fault's message quotes line numbers.
        const size_t part_size = std::min(part_bytes, smallest_batch);
        std::vector<uint64_t> line_counts(threads);
        on_threads(threads, [&](unsigned t) {
            line_counts[t] = score_batch(batches[t], t == 0 ? line_base : 1, part_size, max_line_bytes);
        });
        for (unsigned t = 0; t < threads; ++t) {
            Batch& b = batches[t];
            b.first_line = line_base;
            line_base += line_counts[t];  // short of the truth after a fault, which is reported first
            if (t > 0 && b.used > 0 && b.parts[b.used - 1].fault.found()) score_batch(b, b.first_line, b.text.size(), max_line_bytes);
        }
        // In file order: the first faulty line wins, unless a query came back before it (then
        // the file is not grouped, and is read whole instead).
        for (unsigned t = 0; t < threads; ++t) {
            for (size_t p = 0; p < batches[t].used; ++p) {
                const Part& part = batches[t].parts[p];
                for (size_t g = 0; g < part.groups.size(); ++g) {
                    // Met before: a judged query is marked in judged_seen_, any other in run_seen_.
                    const uint64_t first_line = part.groups.lines[part.groups.offsets[g]];
                    const int32_t judged = part.judged_group[g];
                    const bool again = judged >= 0 ? judged_seen_[static_cast<size_t>(judged)] != 0
                                                   : run_seen_.find(part.groups.query_ids[g]) != nullptr;
                    if (first_line < part.fault.position && again) return false;
                }
                if (part.fault.found()) throw RunInputError(path, part.fault.position, part.fault.message);
                merge(part.groups, part.values, part.judged_group, true);
            }
        }
        if (!more) break;
        // The unfinished query moves to the front; the buffer keeps its size, so the next
        // read does not zero-fill a block again.
        if (filled > end) std::memmove(buffer.data(), buffer.data() + end, filled - end);
        filled -= end;
    }
    return true;
}

void RunScorer::add_run_file(const std::string& path, size_t block_bytes, size_t max_line_bytes,
                             const std::string& name) {
    const std::string& shown = name.empty() ? path : name;
    bool streamed;
    uint64_t size;
    {
        const std::unique_ptr<RunBytes> bytes = file_bytes(path, threads_);
        size = bytes->size_hint();
        streamed = stream_run(*bytes, shown, block_bytes, max_line_bytes);
    }
    if (streamed) return;
    if (progress_ != nullptr) progress_->expect(size);  // it is read a second time
    add_whole_run(read_text_file(path, max_line_bytes, progress_), shown, block_bytes, max_line_bytes);
}

void RunScorer::add_run_text(std::string_view text, const std::string& name, size_t block_bytes,
                             size_t max_line_bytes) {
    const std::unique_ptr<RunBytes> bytes = text_bytes(text);
    if (!stream_run(*bytes, name, block_bytes, max_line_bytes)) add_whole_run(text, name, block_bytes, max_line_bytes);
}

void RunScorer::add_whole_run(std::string_view text, const std::string& path, size_t block_bytes,
                              size_t max_line_bytes) {
    // Not grouped by query: read whole and grouped in memory, on the threads, each doc ID
    // hashed as its line is read (a query's lines are anywhere in the text).
    reset();
    QueryGroups groups;
    TextReading how;
    how.max_line_bytes = max_line_bytes;
    how.threads = threads_;
    how.smallest_part = std::min(how.smallest_part, block_bytes);  // small in tests, as the blocks
    how.doc_hashes = true;
    read_trec_text(text, TrecFormat::run, path, groups, how);
    add_groups(groups);
}

namespace {

// Appends the rows [begin, end) of group `g` to `out` (a query's first record), their IDs
// copied into `arena`.
void copy_group(const QueryGroups& groups, size_t g, Records& out, TextArena& arena) {
    const size_t begin = groups.offsets[g], end = groups.offsets[g + 1];
    const std::string_view query = arena.copy(groups.query_ids[g]);
    for (size_t i = begin; i < end; ++i) {
        out.add_query(query);
        out.doc_ids.push_back(arena.copy(groups.doc_ids[i]));
        out.values.push_back(groups.values[i]);
        out.lines.push_back(groups.lines[i]);
        if (!groups.doc_hashes.empty()) out.doc_hashes.push_back(groups.doc_hashes[i]);
    }
}

void append_records(const Records& from, Records& to) {
    for (size_t i = 0; i < from.size(); ++i) {
        to.add_query(from.queries[from.query_of[i]]);
        to.doc_ids.push_back(from.doc_ids[i]);
        to.values.push_back(from.values[i]);
        to.lines.push_back(from.lines[i]);
        if (!from.doc_hashes.empty()) to.doc_hashes.push_back(from.doc_hashes[i]);
    }
}

}  // namespace

std::string stream_not_kept(uint64_t max_rows) {
    return "; a stream is read once, and one not grouped by query is kept to be grouped in memory only up to " +
           with_commas(max_rows) + " rows (the max_stream_rows limit): sort it by query, pass a table, or raise it "
           "with max_stream_rows=N";
}

bool RunScorer::add_run_batches(RecordBatches& batches, Stop& stop) {
    // The rows of the query a batch ends with, which the next batch may go on with: copied
    // (the batch is released when the next one is read), into one arena while the other
    // holds the copies being read.
    TextArena arenas[2];
    int current = 0;
    Records carried, chunk;
    QueryGroups groups;
    std::vector<double> values;
    std::vector<int32_t> judged_group;
    const auto not_grouped = [&](std::string message, bool fault) {
        stop = Stop{std::move(message), fault};
        reset();
        return false;
    };
    for (bool more = true; more;) {
        chunk.clear();
        chunk.position_name = "row";
        append_records(carried, chunk);
        more = batches.next(chunk);
        const size_t last_query = chunk.size() > 0 ? chunk.query_of.back() : 0;
        InputFault fault;
        group_records(chunk, groups, fault, threads_, RecordStorage::keep);
        if (fault.found()) return not_grouped("row " + std::to_string(fault.position) + ": " + fault.message, true);
        // The query of the last row may go on: held back, if it is the last to appear (else
        // the rows are not grouped).
        carried.clear();
        current = 1 - current;
        arenas[current].clear();
        if (more && groups.size() > 0) {
            const size_t last = groups.size() - 1;
            if (last_query != last) return not_grouped("the rows are not grouped by query", false);
            copy_group(groups, last, carried, arenas[current]);
            groups.query_ids.pop_back();
            groups.offsets.pop_back();
        }
        evaluate(groups, values, judged_group, threads_);
        for (size_t g = 0; g < groups.size(); ++g) {
            const int32_t judged = judged_group[g];
            const bool again = judged >= 0 ? judged_seen_[static_cast<size_t>(judged)] != 0
                                           : run_seen_.find(groups.query_ids[g]) != nullptr;
            if (again) {
                return not_grouped("row " + std::to_string(groups.lines[groups.offsets[g]]) + ": query " +
                                       quoted_id(groups.query_ids[g]) + " comes back after other queries",
                                   false);
            }
        }
        merge(groups, values, judged_group, true);
    }
    return true;
}

RunResults RunScorer::finish() {
    const size_t width = measures_.size();
    QueryScorer scorer(measures_, options_);
    std::vector<double> values(width);
    for (size_t g = 0; g < qrels_.size(); ++g) {
        const size_t jb = qrels_.offsets[g], je = qrels_.offsets[g + 1];
        if (judged_seen_[g] || jb == je) continue;
        const std::string_view name = results_.names.copy(qrels_.query_ids[g]);
        results_.missing_ids.push_back(name);
        if (!options_.missing_zero) continue;
        // A judged query the run lacks is scored as an empty ranking (trec_eval -c).
        scorer.score(QueryData{qrels_.doc_ids.data() + jb, qrels_.values.data() + jb, je - jb, nullptr, nullptr, 0},
                     values.data());
        results_.query_ids.push_back(name);
        results_.values.insert(results_.values.end(), values.begin(), values.end());
    }
    compute_means(results_.values, width, results_.mean, results_.defined);
    run_seen_ = IdTable{};
    return std::move(results_);
}

void compute_means(const std::vector<double>& values, size_t width, std::vector<double>& mean,
                   std::vector<int64_t>& defined) {
    const size_t queries = width == 0 ? 0 : values.size() / width;
    mean.assign(width, std::numeric_limits<double>::quiet_NaN());
    defined.assign(width, 0);
    for (size_t m = 0; m < width; ++m) {
        // docs/contract.md §5: the exact sum of the defined values, rounded once, then one division; no
        // order of queries, threads or blocks changes a bit.
        ExactSum sum;
        int64_t count = 0;
        for (size_t q = 0; q < queries; ++q) {
            const double v = values[q * width + m];
            if (std::isnan(v)) continue;
            // No measure gives an infinite value; were one to, the mean is refused as the
            // reference refuses it (an exact sum holds finite values only), not made up.
            if (std::isinf(v)) throw std::invalid_argument(std::string("an exact sum takes finite values only, got ") + (v > 0 ? "inf" : "-inf"));
            sum.add(v);
            ++count;
        }
        defined[m] = count;
        if (count > 0) mean[m] = sum.rounded() / static_cast<double>(count);
    }
}

}  // namespace evalcore
