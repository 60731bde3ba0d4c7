// Reading files: InputFile (its system calls by platform), a run's bytes in blocks
// (FileBytes, TextBytes) and a whole text file (read_text_file).
#include "runs/input_files.hpp"

#include "runs/evaluation.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>

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

std::unique_ptr<RunBytes> file_bytes(const std::string& path, unsigned threads) {
    return std::make_unique<FileBytes>(path, threads);
}

std::unique_ptr<RunBytes> text_bytes(std::string_view text) { return std::make_unique<TextBytes>(text); }

FileError::FileError(std::string path, int error, std::string reason)
    : std::runtime_error(path + ": " + (reason.empty() ? std::string(std::strerror(error)) : reason)),
      path_(std::move(path)),
      error_(error),
      reason_(std::move(reason)) {}

std::string read_text_file(const std::string& path, size_t max_line_bytes, Progress* progress) {
    std::string text;
    read_text_file_into(path, text, max_line_bytes, progress);
    return text;
}

void read_text_file_into(const std::string& path, std::string& text, size_t max_line_bytes, Progress* progress) {
    // A file that cannot be opened leaves the text empty.
    InputFile file = [&] {
        try {
            return InputFile(path);
        } catch (...) {
            text.clear();
            throw;
        }
    }();
    // The file is read straight into the text, over what a text read before left there: a
    // string resized from empty is zero-filled first, and read through a buffer of 64 KiB
    // the bytes were copied twice (perf: the copy from that buffer was 6 % of reading the
    // diversity benchmark's run, its zero-filling of the kept text 2 %).
    // Room for the file's length (and the byte more that finds its end) when it is small,
    // else for a block, then for up to twice what was read, never past the file's length
    // while it holds: the size fstat gives is no promise of lines (a sparse file of 4 GiB of
    // NULs is one line over the limit, where the reading stops), so the memory taken follows
    // the bytes read, not the size claimed. Past the length fstat gave (a file growing, or
    // one it gives as empty, as /proc's), room for twice what was read.
    constexpr size_t first_room = size_t{16} << 20, block = size_t{1} << 20, small_block = size_t{1} << 16;
    const uint64_t size = file.size();
    size_t filled = 0;      // bytes read
    size_t line_start = 0;  // where the line being read starts
    const auto make_room = [&](size_t needed) {
        if (text.capacity() >= needed) return;
        uint64_t room = std::max<uint64_t>(needed, uint64_t{2} * filled);
        if (size + 1 >= needed) room = std::min<uint64_t>(std::max<uint64_t>(room, first_room), size + 1);
        if (room >= text.max_size()) throw std::bad_alloc();
        text.reserve(static_cast<size_t>(room));
    };
    while (true) {
        // The rest of the file as fstat gave its length, and a byte more to find its end
        // (a file growing meanwhile is read on, a block at a time), at most a block.
        const size_t want = size > filled ? static_cast<size_t>(std::min<uint64_t>(block, size - filled + 1)) : small_block;
        make_room(filled + want);
        if (text.size() < filled + want) text.resize(filled + want);  // zero-fills only past a text read before
        const size_t at = filled, got = file.read(&text[at], want);
        filled += got;
        if (got == 0) break;
        advance(progress, got);
        if (max_line_bytes >= want) {
            // Every line that starts and ends within these bytes is shorter than the limit:
            // only the line running into them is measured (its first newline), and the last
            // newline is where the next one starts. (A memchr per line took 10 % of reading a
            // million-line qrels file.)
            const std::string_view added(text.data() + at, got);
            const size_t first = added.find('\n');
            if (first != std::string_view::npos && at + first - line_start <= max_line_bytes) {
                line_start = at + added.rfind('\n') + 1;
            }
        } else {
            for (size_t scan = at; scan < filled;) {
                const void* nl = std::memchr(text.data() + scan, '\n', filled - scan);
                if (nl == nullptr) break;
                const size_t end = static_cast<size_t>(static_cast<const char*>(nl) - text.data());
                if (end - line_start > max_line_bytes) break;
                line_start = scan = end + 1;
            }
        }
        if (filled - line_start > max_line_bytes) {  // no need to read on: the parser stops here
            filled = line_start + max_line_bytes + 1;
            break;
        }
        if (got < want) break;  // the end of the file
    }
    text.resize(filled);
}

}  // namespace evalcore
