// The CoNLL reader (reader.hpp): lines, UTF-8, fields, sentences.
#include "conll/reader.hpp"

#include <algorithm>
#include <cstring>

namespace evalcore {
namespace conll {

namespace {
constexpr size_t chunk_bytes = size_t{1} << 20;  // one read of the source
}

size_t first_invalid_utf8(std::string_view text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const size_t n = text.size();
    size_t i = 0;
    while (i < n) {
        // ASCII eight bytes at a time: most of a CoNLL file
        while (i + 8 <= n) {
            uint64_t word;
            std::memcpy(&word, s + i, 8);
            if (word & 0x8080808080808080ull) break;
            i += 8;
        }
        if (i >= n) break;
        const unsigned char c = s[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        size_t length = 0;
        unsigned char low = 0x80, high = 0xBF;  // the second byte's range (table 3-7)
        if (c >= 0xC2 && c <= 0xDF) length = 2;
        else if (c == 0xE0) length = 3, low = 0xA0;
        else if (c >= 0xE1 && c <= 0xEC) length = 3;
        else if (c == 0xED) length = 3, high = 0x9F;
        else if (c >= 0xEE && c <= 0xEF) length = 3;
        else if (c == 0xF0) length = 4, low = 0x90;
        else if (c >= 0xF1 && c <= 0xF3) length = 4;
        else if (c == 0xF4) length = 4, high = 0x8F;
        else return i;
        if (i + 1 >= n || s[i + 1] < low || s[i + 1] > high) return i;
        for (size_t k = 2; k < length; ++k) {
            if (i + k >= n || s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
        }
        i += length;
    }
    return n;
}

std::string commas(int64_t n) {
    const std::string digits = std::to_string(n);
    const size_t sign = digits[0] == '-' ? 1 : 0;
    std::string out = digits.substr(0, sign);
    for (size_t i = sign; i < digits.size(); ++i) {
        // a comma before every group of three digits counted from the end
        if (i > sign && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

LineReader::LineReader(ChunkSource& source, std::string name, int64_t max_line_bytes)
    : source_(source), name_(std::move(name)), max_(max_line_bytes) {}

void LineReader::too_long() const {
    throw InputError(name_ + ":" + std::to_string(line_ + 1) + ": the line is longer than " + commas(max_) +
                     " bytes (max_line_bytes): is this a CoNLL file? Raise max_line_bytes if its lines are that long");
}

bool LineReader::next(std::string_view& line) {
    for (;;) {
        const char* start = buffer_.data() + begin_;
        const size_t available = end_ - begin_;
        const void* newline = available ? std::memchr(start, '\n', available) : nullptr;
        if (newline != nullptr) {
            const auto length = static_cast<size_t>(static_cast<const char*>(newline) - start);
            if (static_cast<int64_t>(length) > max_) too_long();
            line = std::string_view(start, length);
            begin_ += length + 1;
            ++line_;
            return true;
        }
        if (static_cast<int64_t>(available) > max_) too_long();
        if (eof_) {
            if (available == 0) return false;
            line = std::string_view(start, available);
            begin_ = end_;
            ++line_;
            return true;
        }
        // Keep the line in progress, then read the next chunk after it.
        if (begin_ > 0) {
            std::memmove(buffer_.data(), start, available);
            begin_ = 0;
            end_ = available;
        }
        if (buffer_.size() < end_ + chunk_bytes) buffer_.resize(end_ + chunk_bytes);
        const size_t got = source_.read(buffer_.data() + end_, chunk_bytes);
        if (got > chunk_bytes) throw std::length_error("a read returned more bytes than asked for");
        if (got == 0) eof_ = true;
        end_ += got;
    }
}

std::string_view Sentence::field(size_t token, size_t k) const {
    const size_t index = token * (columns + 1) + k;
    const size_t begin = index == 0 ? 0 : ends.at(index - 1);
    return std::string_view(text).substr(begin, ends.at(index) - begin);
}

void Sentence::clear() {
    text.clear();
    ends.clear();
    first_line = 0;
}

SentenceReader::SentenceReader(ChunkSource& source, std::string name, std::vector<int64_t> columns,
                               int64_t max_line_bytes)
    : lines_(source, std::move(name), max_line_bytes), requested_(std::move(columns)) {}

void SentenceReader::resolve(int64_t line) {
    const auto n = static_cast<int64_t>(field_count_);
    for (const int64_t c : requested_) {
        const int64_t index = c < 0 ? n + c : c;
        if (index < 0 || index >= n) {
            throw InputError(name() + ":" + std::to_string(line) + ": there is no column " + std::to_string(c) +
                             ": the line has " + std::to_string(n) +
                             " columns (numbered from 0; -1 is the last); choose the tag columns with columns=");
        }
        columns_.push_back(static_cast<size_t>(index));
    }
}

bool SentenceReader::next(Sentence& out) {
    out.clear();
    out.columns = requested_.size();
    std::string_view line;
    while (lines_.next(line)) {
        const int64_t number = lines_.line_number();
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const size_t bad = first_invalid_utf8(line);
        if (bad < line.size()) {
            throw InputError(name() + ":" + std::to_string(number) + ": byte " + std::to_string(bad + 1) +
                             " of the line is not valid UTF-8: CoNLL files are read as UTF-8");
        }
        fields_.clear();
        size_t i = 0;
        while (i < line.size()) {
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
            const size_t from = i;
            while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
            if (i > from) fields_.push_back(line.substr(from, i - from));
        }
        const bool docstart = !fields_.empty() && fields_[0] == "-DOCSTART-";
        if (fields_.empty() || docstart) {
            const bool ended = !out.ends.empty();
            if (ended) ++sentences_;
            if (docstart) {
                ++documents_;
                if (record_documents) document_starts_.push_back(sentences_);
            }
            if (ended) return true;
            continue;
        }
        if (field_count_ == 0) {
            field_count_ = fields_.size();
            first_token_line_ = number;
            resolve(number);
        } else if (fields_.size() != field_count_) {
            throw InputError(name() + ":" + std::to_string(number) + ": " + std::to_string(fields_.size()) +
                             " columns where the first token line (line " + std::to_string(first_token_line_) +
                             ") has " + std::to_string(field_count_) + ": every token line has the same columns");
        }
        if (out.ends.empty()) out.first_line = number;
        out.text.append(fields_[0].data(), fields_[0].size());
        out.ends.push_back(out.text.size());
        for (const size_t c : columns_) {
            out.text.append(fields_[c].data(), fields_[c].size());
            out.ends.push_back(out.text.size());
        }
    }
    if (out.ends.empty()) return false;
    ++sentences_;
    return true;
}

}  // namespace conll
}  // namespace evalcore
