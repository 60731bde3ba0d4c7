#include "runs/evaluation.hpp"

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

#include <fcntl.h>
#include <sys/stat.h>
#ifdef _WIN32
#include <filesystem>
#include <io.h>
#else
#include <unistd.h>
#endif

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

// Where the streamed run's bytes come from: a file, or text in memory (the fuzzer's).
class RunBytes {
public:
    virtual ~RunBytes() = default;
    // Appends up to `count` bytes to buffer[filled..]; false once the end is reached.
    virtual bool read(std::vector<char>& buffer, size_t& filled, size_t count) = 0;
    // How many bytes there are likely to be (a file's size when opened; 0: not known).
    virtual uint64_t size_hint() const { return 0; }
};

namespace {

// The system calls InputFile makes. POSIX: open(2) with O_NONBLOCK (see below), fstat,
// fcntl, read, close. Windows (not built or tested by this project's CI, which has no
// Windows machine): the C runtime's descriptors, the UTF-8 path (os.fsencode's bytes there)
// opened as UTF-16 by _wopen, _O_NOINHERIT for O_CLOEXEC; a file there cannot block in
// open() as a FIFO can, so nothing needs making blocking again, and a directory fails to
// open with EACCES, as Python's open() fails there.
#ifdef _WIN32
using FileStatus = struct _stat64;
int open_file(const std::string& path) {
    std::filesystem::path native;
    try {
        native = std::filesystem::u8path(path);
    } catch (const std::exception&) {  // not UTF-8: no file can have that name
        errno = ENOENT;
        return -1;
    }
    return ::_wopen(native.c_str(), _O_RDONLY | _O_BINARY | _O_NOINHERIT);
}
int status_of(int fd, FileStatus& info) { return ::_fstat64(fd, &info); }
int make_blocking(int) { return 0; }
int64_t read_file(int fd, char* out, size_t count) { return ::_read(fd, out, static_cast<unsigned>(count)); }
constexpr bool positional_reads = false;  // no pread: read_file_at is never called
int64_t read_file_at(int, char*, size_t, uint64_t) { return -1; }
void close_file(int fd) { ::_close(fd); }
#ifndef S_ISDIR
#define S_ISDIR(mode) (((mode) & _S_IFMT) == _S_IFDIR)
#endif
#ifndef S_ISREG
#define S_ISREG(mode) (((mode) & _S_IFMT) == _S_IFREG)
#endif
#ifndef S_ISFIFO
#define S_ISFIFO(mode) (((mode) & _S_IFMT) == _S_IFIFO)
#endif
#ifndef S_ISCHR
#define S_ISCHR(mode) (((mode) & _S_IFMT) == _S_IFCHR)
#endif
#ifndef S_ISBLK
#define S_ISBLK(mode) false
#endif
#ifndef S_ISSOCK
#define S_ISSOCK(mode) false
#endif
#else
using FileStatus = struct stat;
int open_file(const std::string& path) { return ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC); }
int status_of(int fd, FileStatus& info) { return ::fstat(fd, &info); }
int make_blocking(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    return flags < 0 ? -1 : ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}
int64_t read_file(int fd, char* out, size_t count) { return ::read(fd, out, count); }
constexpr bool positional_reads = true;
int64_t read_file_at(int fd, char* out, size_t count, uint64_t offset) {
    return ::pread(fd, out, count, static_cast<off_t>(offset));
}
void close_file(int fd) { ::close(fd); }
#endif
using FileMode = decltype(FileStatus{}.st_mode);

// A file opened for reading, by descriptor (the C library's FILE adds nothing here).
class InputFile {
public:
    explicit InputFile(const std::string& path) : path_(path) {
        // The system takes a C string: a NUL would cut the path short (and open another file).
        if (path.find('\0') != std::string::npos) throw std::invalid_argument("embedded null byte");
        // O_NONBLOCK: a FIFO without a writer would block in open(). What was opened is
        // then checked on the descriptor itself (no race with a path that changes).
        do {
            fd_ = open_file(path);
        } while (fd_ < 0 && errno == EINTR);
        if (fd_ < 0) throw FileError(path, errno);
        FileStatus info {};
        if (status_of(fd_, info) != 0) fail(errno);
        // open() succeeds on a directory; Python's open() then reports EISDIR, and so do we.
        if (S_ISDIR(info.st_mode)) fail(EISDIR);
        // A FIFO or a device may never end (/dev/zero) and cannot be read twice (the
        // ungrouped run's second reading): regular files only.
        if (!S_ISREG(info.st_mode)) fail(EINVAL, std::string("Not a regular file (") + kind(info.st_mode) + ")");
        if (make_blocking(fd_) != 0) fail(errno);
        size_ = info.st_size > 0 ? static_cast<uint64_t>(info.st_size) : 0;
    }
    ~InputFile() { close_file(fd_); }
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    // The size fstat gave when the file was opened (0 when it gave none).
    uint64_t size() const { return size_; }

    // Reads up to `count` bytes into `out`; fewer only at the end of the file.
    size_t read(char* out, size_t count) {
        return read_all(out, count, [this](char* to, size_t want, size_t) { return read_file(fd_, to, want); });
    }
    // The same from `offset`, leaving the file's position alone (POSIX only: pread), so that
    // threads can read parts of the file at once.
    size_t read_at(char* out, size_t count, uint64_t offset) {
        return read_all(out, count, [this, offset](char* to, size_t want, size_t done) {
            return read_file_at(fd_, to, want, offset + done);
        });
    }

private:
    // Calls read_some(to, want, done) until `count` bytes are read or it reads none (the end).
    template <class ReadSome>
    size_t read_all(char* out, size_t count, ReadSome&& read_some) {
        size_t got = 0;
        while (got < count) {
            const size_t want = std::min<size_t>(count - got, size_t{1} << 30);
            const int64_t n = read_some(out + got, want, got);
            if (n < 0) {
                if (errno == EINTR) continue;
                throw FileError(path_, errno);
            }
            if (n == 0) break;
            got += static_cast<size_t>(n);
        }
        return got;
    }

    [[noreturn]] void fail(int error, std::string reason = std::string()) {
        close_file(fd_);
        throw FileError(path_, error, std::move(reason));
    }

    static const char* kind(FileMode mode) {
        if (S_ISFIFO(mode)) return "a FIFO";
        if (S_ISCHR(mode)) return "a character device";
        if (S_ISBLK(mode)) return "a block device";
        if (S_ISSOCK(mode)) return "a socket";
        return "another kind of file";
    }

    const std::string& path_;
    int fd_ = -1;
    uint64_t size_ = 0;
};

// Room for `count` more bytes after buffer[0, filled). The capacity gets an eighth more than
// asked: the unfinished query carried over changes the size a block needs a little each
// time, and a vector grown by a few bytes past its capacity would double, copying.
void make_room(std::vector<char>& buffer, size_t filled, size_t count) {
    if (buffer.capacity() < filled + count) buffer.reserve(filled + count + count / 8);
    if (buffer.size() < filled + count) buffer.resize(filled + count);
}

class FileBytes : public RunBytes {
public:
    // A block is read on up to `threads` threads, each copying its part out of the page
    // cache (a copy the size of the file: on one thread it left the others idle for about a
    // tenth of a big file's time).
    FileBytes(const std::string& path, unsigned threads) : file_(path), threads_(positional_reads ? threads : 1) {}
    bool read(std::vector<char>& buffer, size_t& filled, size_t count) override {
        make_room(buffer, filled, count);
        char* out = buffer.data() + filled;
        constexpr size_t smallest_part = size_t{1} << 20;
        const unsigned parts = static_cast<unsigned>(std::min<size_t>(threads_, std::max<size_t>(1, count / smallest_part)));
        std::vector<size_t> got(parts, 0);
        std::vector<std::exception_ptr> errors(parts);
        const size_t part = count / parts;
        on_threads(parts, [&](unsigned t) {
            const size_t begin = part * t, size = t + 1 == parts ? count - begin : part;
            try {
                // Every read is positional where any is (the file's own position is never moved).
                got[t] = positional_reads ? file_.read_at(out + begin, size, offset_ + begin) : file_.read(out, size);
            } catch (...) {
                errors[t] = std::current_exception();
            }
        });
        // What a single read would have given: the parts up to the first short one (the end
        // of the file), so bytes after a gap (a file growing meanwhile) are not taken.
        size_t total = 0;
        for (unsigned t = 0; t < parts; ++t) {
            if (errors[t]) std::rethrow_exception(errors[t]);
            total += got[t];
            if (got[t] < (t + 1 == parts ? count - part * t : part)) break;
        }
        offset_ += total;
        filled += total;
        return total == count;
    }
    uint64_t size_hint() const override { return file_.size(); }

private:
    InputFile file_;
    unsigned threads_;
    uint64_t offset_ = 0;  // where the next read starts (reads in parts leave the file's position alone)
};

class TextBytes : public RunBytes {
public:
    explicit TextBytes(std::string_view text) : text_(text) {}
    bool read(std::vector<char>& buffer, size_t& filled, size_t count) override {
        const size_t got = std::min(count, text_.size() - at_);
        make_room(buffer, filled, got);
        if (got > 0) std::memcpy(buffer.data() + filled, text_.data() + at_, got);
        at_ += got;
        filled += got;
        return got == count;
    }
    uint64_t size_hint() const override { return text_.size(); }

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

std::string read_text_file(const std::string& path, size_t max_line_bytes, Progress* progress) {
    InputFile file(path);
    std::string text;
    // Room for the file's length when it is small, else for a block, then for up to twice
    // what was read, never past the file's length while it holds: the size fstat gives is
    // no promise of lines (a sparse file of 4 GiB of NULs is one line over the limit, where
    // the reading stops), so the memory taken follows the bytes read, not the size claimed.
    // (A string grown by append alone would double past the file's length.)
    constexpr size_t first_room = size_t{16} << 20;
    const uint64_t size = file.size();
    const auto make_room = [&](size_t needed) {
        if (text.capacity() >= needed) return;
        uint64_t room = std::max<uint64_t>(needed, std::max<uint64_t>(first_room, uint64_t{2} * text.size()));
        if (size >= needed) room = std::min<uint64_t>(room, size);
        if (room >= text.max_size()) throw std::bad_alloc();
        text.reserve(static_cast<size_t>(room));
    };
    char chunk[1 << 16];
    size_t line_start = 0;  // where the line being read starts
    for (size_t got; (got = file.read(chunk, sizeof chunk)) > 0;) {
        advance(progress, got);
        size_t at = text.size();
        make_room(at + got);
        text.append(chunk, got);
        while (const void* nl = std::memchr(text.data() + at, '\n', text.size() - at)) {
            const size_t end = static_cast<size_t>(static_cast<const char*>(nl) - text.data());
            if (end - line_start > max_line_bytes) break;
            line_start = at = end + 1;
        }
        if (text.size() - line_start > max_line_bytes) {  // no need to read on: the parser stops here
            text.resize(line_start + max_line_bytes + 1);
            break;
        }
    }
    return text;
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
        // Parse in parallel with line numbers counted from each batch's start; then, the
        // batches' first lines known, make them absolute (messages quote them), group and score.
        std::vector<uint64_t> line_counts(threads);
        on_threads(threads, [&](unsigned t) {
            Batch& b = batches[t];
            b.records.clear();
            b.records.reserve(b.text.size() / 24);
            b.fault = InputFault{};
            line_counts[t] = parse_trec_lines(b.text, TrecFormat::run, 1, b.records, b.fault, max_line_bytes, true);
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
            group_records(b.records, b.groups, b.fault, 1, RecordStorage::keep);
            evaluate(b.groups, b.values, b.judged_group, 1);
        });
        // In file order: the first faulty line wins, unless a query came back before it (then
        // the file is not grouped, and is read whole instead).
        for (unsigned t = 0; t < threads; ++t) {
            Batch& b = batches[t];
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
        FileBytes bytes(path, threads_);
        size = bytes.size_hint();
        streamed = stream_run(bytes, shown, block_bytes, max_line_bytes);
    }
    if (streamed) return;
    if (progress_ != nullptr) progress_->expect(size);  // it is read a second time
    add_whole_run(read_text_file(path, max_line_bytes, progress_), shown, block_bytes, max_line_bytes);
}

void RunScorer::add_run_text(std::string_view text, const std::string& name, size_t block_bytes,
                             size_t max_line_bytes) {
    TextBytes bytes(text);
    if (!stream_run(bytes, name, block_bytes, max_line_bytes)) add_whole_run(text, name, block_bytes, max_line_bytes);
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
