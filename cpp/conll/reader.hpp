// CoNLL files read line by line, in bounded memory (issue 24, item 4). Plain C++17: the bytes
// come from a ChunkSource (the bindings wrap a Python file object: a plain file or gzip), and
// sentences go out one at a time. The rules are docs/conll.md's; the twin is
// python/evalcore/reference/conll/reader.py, and every message here is its message.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace evalcore {
namespace conll {

// A fault of the input, its message complete ("NAME:LINE: ...").
class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

class ChunkSource {
public:
    virtual ~ChunkSource() = default;
    // Up to `capacity` bytes into `into`; 0 at the end of the input.
    virtual size_t read(char* into, size_t capacity) = 0;
};

// The index of the first byte of the first invalid UTF-8 sequence (Unicode's table 3-7, as
// Python's strict decoder reads it), or text.size() when all of it is valid.
size_t first_invalid_utf8(std::string_view text);

// "12,345".
std::string commas(int64_t n);

// Lines of a ChunkSource: split at "\n", each at most `max_line_bytes` bytes long before its
// "\n" (else InputError naming the line and the limit). The buffer holds one chunk and the
// line in progress, so memory does not grow with the file.
class LineReader {
public:
    LineReader(ChunkSource& source, std::string name, int64_t max_line_bytes);
    // The next line (without "\n"; valid until the next call), false at the end.
    bool next(std::string_view& line);
    int64_t line_number() const { return line_; }
    const std::string& name() const { return name_; }

private:
    ChunkSource& source_;
    std::string name_;
    int64_t max_;
    std::vector<char> buffer_;
    size_t begin_ = 0, end_ = 0;
    bool eof_ = false;
    int64_t line_ = 0;
    void too_long() const;
};

// One sentence: column 0 of each token line (the token) and the chosen tag columns.
struct Sentence {
    int64_t first_line = 0;  // lines are consecutive within a sentence
    size_t columns = 0;      // tag columns per token
    std::string text;        // the fields' bytes, one after the other
    std::vector<size_t> ends;  // per token: token, then its tag columns (end offsets in text)
    size_t size() const { return ends.size() / (columns + 1); }
    std::string_view field(size_t token, size_t k) const;  // k = 0: the token, k >= 1: tag column k-1
    std::string_view token(size_t j) const { return field(j, 0); }
    std::string_view tag(size_t j, size_t column) const { return field(j, column + 1); }
    void clear();
};

// Sentences of a CoNLL file: fields split at runs of spaces and tabs (a "\r" before "\n" is
// dropped), a line with no field ends a sentence, a line whose first field is -DOCSTART-
// ends one and counts a document, every other line is a token with the same number of
// fields as the first token line. `columns` are field numbers (negative: from the end).
class SentenceReader {
public:
    SentenceReader(ChunkSource& source, std::string name, std::vector<int64_t> columns, int64_t max_line_bytes);
    bool next(Sentence& out);  // false at the end of the file
    int64_t documents() const { return documents_; }
    // With record_documents (read_conll): per -DOCSTART- line, the number of sentences
    // before it (the index of the next one); off when streaming, where only the count is kept.
    bool record_documents = false;
    const std::vector<int64_t>& document_starts() const { return document_starts_; }
    const std::string& name() const { return lines_.name(); }

private:
    LineReader lines_;
    std::vector<int64_t> requested_;
    std::vector<size_t> columns_;  // resolved at the first token line
    size_t field_count_ = 0;
    int64_t first_token_line_ = 0;
    int64_t documents_ = 0, sentences_ = 0;
    std::vector<int64_t> document_starts_;
    std::vector<std::string_view> fields_;
    void resolve(int64_t line);
};

}  // namespace conll
}  // namespace evalcore
