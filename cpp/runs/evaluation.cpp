#include "runs/evaluation.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/parallel.hpp"

namespace evalcore {
namespace {

std::string_view first_field(std::string_view line) {
    size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    return line.substr(i, j - i);
}

// The line starting at `at` (without its newline) and where the next one starts.
std::string_view line_at(std::string_view text, size_t at, size_t& next) {
    const void* nl = std::memchr(text.data() + at, '\n', text.size() - at);
    const size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) : text.size();
    next = nl ? end + 1 : text.size();
    return text.substr(at, end - at);
}

// The start of the line holding text[at - 1] (at > 0), i.e. of the line before position `at`.
size_t previous_line_start(std::string_view text, size_t at) {
    size_t i = at - 1;  // text[i] is the '\n' ending that line, or its last byte
    while (i > 0 && text[i - 1] != '\n') --i;
    return i;
}

// Where the last query of `text` (complete lines only) starts: the lines carrying its ID
// at the end, blank lines among them. 0 when the whole text is that one query.
size_t last_query_start(std::string_view text) {
    size_t start = text.size();
    std::string_view query;
    while (start > 0) {
        const size_t begin = previous_line_start(text, start);
        size_t next;
        const std::string_view id = first_field(line_at(text, begin, next));
        if (!id.empty()) {
            if (query.empty()) {
                query = id;
            } else if (id != query) {
                break;
            }
        }
        start = begin;
    }
    return start;
}

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

struct RunScorer::Batch {
    std::string_view text;
    uint64_t first_line = 0;
    Records records;
    QueryGroups groups;
    InputFault fault;
    std::vector<double> values;
    std::vector<int32_t> judged_group;
};

RunScorer::RunScorer(const QueryGroups& qrels, std::vector<Measure> measures, RunOptions options, unsigned threads)
    : qrels_(qrels), measures_(std::move(measures)), options_(options), threads_(std::max(1u, threads)) {
    qrels_index_.reset(qrels_.size());
    for (size_t g = 0; g < qrels_.size(); ++g) qrels_index_.insert(qrels_.query_ids[g], static_cast<uint32_t>(g));
    reset();
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
                const uint32_t* judged = qrels_index_.find(run.query_ids[g]);
                if (judged != nullptr && qrels_.offsets[*judged] == qrels_.offsets[*judged + 1]) judged = nullptr;
                judged_group[g] = judged ? static_cast<int32_t>(*judged) : -1;
                if (judged == nullptr) continue;
                const size_t jb = qrels_.offsets[*judged], je = qrels_.offsets[*judged + 1];
                const size_t rb = run.offsets[g], re = run.offsets[g + 1];
                const QueryData query{qrels_.doc_ids.data() + jb, qrels_.values.data() + jb, je - jb,
                                      run.doc_ids.data() + rb,   run.values.empty() ? nullptr : run.values.data() + rb,
                                      re - rb};
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

// Where the streamed run's bytes come from: a file, or text in memory (the fuzzer's).
class RunBytes {
public:
    virtual ~RunBytes() = default;
    // Appends up to `count` bytes to buffer[filled..]; false once the end is reached.
    virtual bool read(std::vector<char>& buffer, size_t& filled, size_t count) = 0;
};

namespace {

// A file opened for reading, by descriptor (the C library's FILE adds nothing here).
class InputFile {
public:
    explicit InputFile(const std::string& path) : path_(path) {
        // The system takes a C string: a NUL would cut the path short (and open another file).
        if (path.find('\0') != std::string::npos) throw std::invalid_argument("embedded null byte");
        do {
            fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        } while (fd_ < 0 && errno == EINTR);
        if (fd_ < 0) throw FileError(path, errno);
        struct stat info {};
        if (::fstat(fd_, &info) != 0) fail(errno);
        // open() succeeds on a directory; Python's open() then reports EISDIR, and so do we.
        if (S_ISDIR(info.st_mode)) fail(EISDIR);
        size_ = info.st_size > 0 ? static_cast<uint64_t>(info.st_size) : 0;
    }
    ~InputFile() { ::close(fd_); }
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    // The size fstat gave when the file was opened (0 when it gave none).
    uint64_t size() const { return size_; }

    // Reads up to `count` bytes into `out`; fewer only at the end of the file.
    size_t read(char* out, size_t count) {
        size_t got = 0;
        while (got < count) {
            const size_t want = std::min<size_t>(count - got, size_t{1} << 30);
            const ssize_t n = ::read(fd_, out + got, want);
            if (n < 0) {
                if (errno == EINTR) continue;
                throw FileError(path_, errno);
            }
            if (n == 0) break;
            got += static_cast<size_t>(n);
        }
        return got;
    }

private:
    [[noreturn]] void fail(int error) {
        ::close(fd_);
        throw FileError(path_, error);
    }

    const std::string& path_;
    int fd_ = -1;
    uint64_t size_ = 0;
};

class FileBytes : public RunBytes {
public:
    explicit FileBytes(const std::string& path) : file_(path) {}
    bool read(std::vector<char>& buffer, size_t& filled, size_t count) override {
        if (buffer.size() < filled + count) buffer.resize(filled + count);
        const size_t got = file_.read(buffer.data() + filled, count);
        filled += got;
        return got == count;
    }

private:
    InputFile file_;
};

class TextBytes : public RunBytes {
public:
    explicit TextBytes(std::string_view text) : text_(text) {}
    bool read(std::vector<char>& buffer, size_t& filled, size_t count) override {
        const size_t got = std::min(count, text_.size() - at_);
        if (buffer.size() < filled + got) buffer.resize(filled + got);
        if (got > 0) std::memcpy(buffer.data() + filled, text_.data() + at_, got);
        at_ += got;
        filled += got;
        return got == count;
    }

private:
    std::string_view text_;
    size_t at_ = 0;
};

}  // namespace

FileError::FileError(std::string path, int error, std::string reason)
    : std::runtime_error(path + ": " + (reason.empty() ? std::string(std::strerror(error)) : reason)),
      path_(std::move(path)),
      error_(error),
      reason_(std::move(reason)) {}

std::string read_text_file(const std::string& path) {
    InputFile file(path);
    std::string text;
    // Sized from the file's length (a growing string would hold up to twice the file);
    // read in chunks until the end either way.
    if (file.size() > 0 && file.size() < text.max_size()) text.reserve(static_cast<size_t>(file.size()));
    char chunk[1 << 16];
    size_t got;
    while ((got = file.read(chunk, sizeof chunk)) > 0) text.append(chunk, got);
    return text;
}

bool RunScorer::stream_run(RunBytes& bytes, const std::string& path, size_t block) {
    block = std::max<size_t>(block, 1);
    std::vector<char> buffer;
    size_t filled = 0;
    uint64_t line_base = 1;
    const unsigned threads = threads_;
    std::vector<Batch> batches(threads);
    for (bool more = true; more;) {
        more = bytes.read(buffer, filled, block);
        const std::string_view text(buffer.data(), filled);
        size_t end = text.size();
        if (more) {
            const void* last = nullptr;
            for (size_t i = text.size(); i > 0 && last == nullptr; --i) {
                if (text[i - 1] == '\n') last = text.data() + i - 1;
            }
            if (last == nullptr) continue;  // not one whole line yet: read more
            end = last_query_start(text.substr(0, static_cast<size_t>(static_cast<const char*>(last) - text.data()) + 1));
            if (end == 0) continue;  // one query fills the buffer: read more
        }
        // Split the complete queries between the threads at query boundaries.
        const std::string_view complete = text.substr(0, end);
        size_t from = 0;
        for (unsigned t = 0; t < threads; ++t) {
            const size_t to = t + 1 == threads ? complete.size()
                                                : std::max(from, next_query_start(complete, complete.size() / threads * (t + 1)));
            batches[t].text = complete.substr(from, to - from);
            from = to;
        }
        // Parse in parallel with line numbers counted from each batch's start; then, the
        // batches' first lines known, make them absolute (messages quote them), group and score.
        std::vector<uint64_t> line_counts(threads);
        on_threads(threads, [&](unsigned t) {
            Batch& b = batches[t];
            b.records.clear();
            b.records.reserve(b.text.size() / 24);
            b.fault = InputFault{};
            line_counts[t] = parse_trec_lines(b.text, TrecFormat::run, 1, b.records, b.fault);
        });
        for (unsigned t = 0; t < threads; ++t) {
            batches[t].first_line = line_base;
            line_base += line_counts[t];  // short of the truth after a fault, which is reported first
        }
        on_threads(threads, [&](unsigned t) {
            Batch& b = batches[t];
            const uint64_t shift = b.first_line - 1;
            for (uint64_t& line : b.records.lines) line += shift;
            if (b.fault.found()) b.fault.position += shift;
            group_records(b.records, b.groups, b.fault);
            evaluate(b.groups, b.values, b.judged_group, 1);
        });
        // In file order: the first faulty line wins, unless a query came back before it (then
        // the file is not grouped, and is read whole instead).
        for (Batch& b : batches) {
            for (size_t g = 0; g < b.groups.size(); ++g) {
                // Met before: a judged query is marked in judged_seen_, any other in run_seen_.
                const uint64_t first_line = b.groups.lines[b.groups.offsets[g]];
                const int32_t judged = b.judged_group[g];
                const bool again = judged >= 0 ? judged_seen_[static_cast<size_t>(judged)] != 0
                                               : run_seen_.find(b.groups.query_ids[g]) != nullptr;
                if (first_line < b.fault.position && again) return false;
            }
            if (b.fault.found()) throw RunInputError(path, b.fault.position, b.fault.message);
            merge(b.groups, b.values, b.judged_group, true);
        }
        // The unfinished query moves to the front; the buffer keeps its size, so the next
        // read does not zero-fill a block again.
        if (filled > end) std::memmove(buffer.data(), buffer.data() + end, filled - end);
        filled -= end;
    }
    return true;
}

void RunScorer::add_run_file(const std::string& path, size_t block_bytes) {
    bool streamed;
    {
        FileBytes bytes(path);
        streamed = stream_run(bytes, path, block_bytes);
    }
    if (!streamed) add_whole_run(read_text_file(path), path);
}

void RunScorer::add_run_text(std::string_view text, const std::string& name, size_t block_bytes) {
    TextBytes bytes(text);
    if (!stream_run(bytes, name, block_bytes)) add_whole_run(text, name);
}

void RunScorer::add_whole_run(std::string_view text, const std::string& path) {
    // Not grouped by query: read whole and grouped in memory.
    reset();
    QueryGroups groups;
    read_trec_text(text, TrecFormat::run, path, groups);
    add_groups(groups);
}

RunResults RunScorer::finish() {
    const size_t width = measures_.size();
    if (options_.missing_zero) {
        // A judged query the run lacks is scored as an empty ranking (trec_eval -c).
        QueryScorer scorer(measures_, options_);
        std::vector<double> values(width);
        for (size_t g = 0; g < qrels_.size(); ++g) {
            const size_t jb = qrels_.offsets[g], je = qrels_.offsets[g + 1];
            if (judged_seen_[g] || jb == je) continue;
            scorer.score(QueryData{qrels_.doc_ids.data() + jb, qrels_.values.data() + jb, je - jb, nullptr, nullptr, 0},
                         values.data());
            results_.query_ids.push_back(results_.names.copy(qrels_.query_ids[g]));
            results_.values.insert(results_.values.end(), values.begin(), values.end());
        }
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
        double sum = 0.0;  // in query order, one division (SPEC §2's macro)
        int64_t count = 0;
        for (size_t q = 0; q < queries; ++q) {
            const double v = values[q * width + m];
            if (std::isnan(v)) continue;
            sum += v;
            ++count;
        }
        defined[m] = count;
        if (count > 0) mean[m] = sum / static_cast<double>(count);
    }
}

}  // namespace evalcore
