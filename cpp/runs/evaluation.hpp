// Bulk run evaluation: joins a run's rankings with qrels query by query and scores every
// query on a pool of threads. A run file is read in blocks and evaluated while it streams,
// so memory does not grow with the run (only with the qrels and the per-query results).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/id_table.hpp"
#include "common/progress.hpp"
#include "runs/measures.hpp"
#include "runs/records.hpp"

namespace evalcore {

struct RunResults {
    TextArena names;                         // what query_ids view
    std::vector<std::string_view> query_ids;  // evaluated queries, in run order, then (zero) missing ones
    std::vector<std::string_view> missing_ids;  // judged queries the run lacks, in qrels order (scored or not)
    std::vector<double> values;               // query-major: values[q * measures + m]; NaN = undefined
    std::vector<double> mean;                 // per measure over defined values, summed in query order; NaN if none
    std::vector<int64_t> defined;             // per measure, how many queries define it
};

// A file that cannot be opened or read: `error` is the errno the system gave; `reason` is
// empty then (the bindings give strerror's text, as Python's own OSError does), or our own
// text for a fault the system does not report. The bindings raise it as OSError(error,
// text, the path as the caller gave it), so FileNotFoundError, IsADirectoryError,
// PermissionError... come out as open() raises them.
class FileError : public std::runtime_error {
public:
    FileError(std::string path, int error, std::string reason = std::string());
    const std::string& path() const { return path_; }
    int error() const { return error_; }
    const std::string& reason() const { return reason_; }

private:
    std::string path_;
    int error_;
    std::string reason_;
};

// A file's bytes, up to its first line longer than `max_line_bytes` (not counting the
// newline): the text then ends max_line_bytes + 1 bytes into that line, where the parser
// reports it, so a file without newlines costs no more than the bound. FileError when it
// cannot be opened or read: a directory is EISDIR, anything else that is not a regular
// file (a FIFO, a device) EINVAL with a reason, found without blocking (opened with
// O_NONBLOCK, then fstat'd). std::invalid_argument("embedded null byte") for a path
// holding a NUL, which the system would cut short.
// Each chunk read advances `progress` (if any) by its bytes.
std::string read_text_file(const std::string& path, size_t max_line_bytes = default_max_line_bytes,
                           Progress* progress = nullptr);
// The same into `text` (emptied first), whose storage is used again: a caller reading file
// after file into one string pages in no fresh memory for each.
void read_text_file_into(const std::string& path, std::string& text, size_t max_line_bytes = default_max_line_bytes,
                         Progress* progress = nullptr);

// Per measure: the mean of the defined (non-NaN) values of query-major `values`, summed in
// query order (NaN when none is defined), and how many were defined.
void compute_means(const std::vector<double>& values, size_t width, std::vector<double>& mean,
                   std::vector<int64_t>& defined);

class RunBytes;  // where a streamed run's bytes come from (runs/input_files.hpp)

// Where a streamed table's rows come from, batch by batch (the bindings' Arrow stream).
// What a stream read once and not grouped by query is refused with, when it has more rows
// than it keeps (`max_rows`, evaluate_run's max_stream_rows) to be read again whole.
std::string stream_not_kept(uint64_t max_rows);

class RecordBatches {
public:
    virtual ~RecordBatches() = default;
    // Appends the records of the next batch to `out`; false once there is none. Their views
    // stay valid until the call after the next (a batch is released when the next is read).
    virtual bool next(Records& out) = 0;
};

class RunScorer {
public:
    // `qrels` (and what its views point into) must outlive the scorer.
    RunScorer(const QueryGroups& qrels, std::vector<Measure> measures, RunOptions options, unsigned threads);

    // The run, given once, either way. Queries without judgments are skipped (as trec_eval).
    void add_groups(const QueryGroups& run);
    // Streams a TREC run file in blocks of about `block_bytes`; one that is not grouped by
    // query is read again whole. A line longer than `max_line_bytes` is a fault on its
    // line, found without reading further. Messages name the file `name` (empty: `path`).
    void add_run_file(const std::string& path, size_t block_bytes = size_t{16} << 20,
                      size_t max_line_bytes = default_max_line_bytes, const std::string& name = std::string());
    // The same for run text in memory; `name` stands for the file in messages.
    void add_run_text(std::string_view text, const std::string& name, size_t block_bytes = size_t{16} << 20,
                      size_t max_line_bytes = default_max_line_bytes);

    // The run as a stream of record batches, grouped by query (each query's rows together,
    // in any order among themselves; a query may go on from one batch into the next): every
    // batch's complete queries are scored as it comes, so memory holds one batch at a time.
    // Returns false, keeping nothing, when the rows are not grouped or a query lists a
    // document twice: the caller then reads the table whole (add_groups), which finds the
    // first fault as a whole reading does. `stop` then says what was found: the error it is
    // when the rows cannot be had again (a stream read once, longer than what it keeps).
    struct Stop {
        std::string message;  // "row 7: query 'q1' comes back after other queries", ...
        bool fault = false;   // a fault of the rows themselves (a document twice), not their order
    };
    bool add_run_batches(RecordBatches& batches, Stop& stop);

    // Run files read from here on advance `progress` by their bytes (none: nullptr).
    void set_progress(Progress* progress) { progress_ = progress; }

    // Lists the judged queries the run lacks, adds them (missing_zero), then the means; the results
    // own their query IDs, so the scorer and its inputs can go before they are used.
    RunResults finish();

private:
    struct Part;
    struct Batch;  // one thread's share of a block of a run file
    uint64_t score_batch(Batch& b, uint64_t first_line, size_t part_size, size_t max_line_bytes);
    void reset();
    void evaluate(const QueryGroups& run, std::vector<double>& values, std::vector<int32_t>& judged_group,
                  unsigned threads);
    void merge(const QueryGroups& run, const std::vector<double>& values, const std::vector<int32_t>& judged_group,
               bool remember_all);
    // false: not grouped by query
    bool stream_run(RunBytes& bytes, const std::string& path, size_t block, size_t max_line_bytes);
    void add_whole_run(std::string_view text, const std::string& path, size_t block_bytes, size_t max_line_bytes);

    const QueryGroups& qrels_;
    // The qrels group of a query ID, or IdIndex::none: by the grouping's index, or our own.
    uint32_t judged_query(std::string_view id) const;
    IdIndex qrels_index_;  // when the qrels came without one
    std::vector<Measure> measures_;
    RunOptions options_;
    unsigned threads_;
    Progress* progress_ = nullptr;
    std::vector<uint8_t> judged_seen_;
    IdTable run_seen_;  // unjudged run queries met so far (the streaming order check; judged ones: judged_seen_)
    RunResults results_;
};

}  // namespace evalcore
