// Where a run's bytes come from, and reading files: the system calls (POSIX, and Windows'
// C runtime), bounded by the bytes read rather than the size a file claims.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace evalcore {

// Where the streamed run's bytes come from: a file, or text in memory (the fuzzer's).
class RunBytes {
public:
    virtual ~RunBytes() = default;
    // Appends up to `count` bytes to buffer[filled..]; false once the end is reached.
    virtual bool read(std::vector<char>& buffer, size_t& filled, size_t count) = 0;
    // How many bytes there are likely to be (a file's size when opened; 0: not known).
    virtual uint64_t size_hint() const { return 0; }
};

// A file's bytes read in blocks, each on up to `threads` threads (positional reads).
std::unique_ptr<RunBytes> file_bytes(const std::string& path, unsigned threads);
// Text in memory (the fuzzer's), which must outlive what is returned.
std::unique_ptr<RunBytes> text_bytes(std::string_view text);

}  // namespace evalcore
