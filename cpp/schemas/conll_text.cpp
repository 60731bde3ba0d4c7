// nervaluate's conll loader over a str's code units (see conll_text.hpp). Each step below is
// a step of python/evalcore/reference/schemas/conll_text.py: rstrip, split at "\n\n", lines
// at "\n", blank lines skipped but counted, the second tab-separated field chunked as BIO.
#include "schemas/conll_text.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "schemas/bio_chunks.hpp"

namespace evalcore {
namespace {

// Python's str.isspace(), which str.strip() and str.rstrip() strip (Py_UNICODE_ISSPACE).
bool is_space(uint32_t c) {
    if (c < 128) return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20);
    return c == 0x85 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 ||
           c == 0x202f || c == 0x205f || c == 0x3000;
}

template <class Char>
uint32_t code(Char c) {
    return static_cast<uint32_t>(static_cast<std::make_unsigned_t<Char>>(c));
}

template <class Char>
const Char* find_unit(const Char* begin, const Char* end, Char c) {
    if constexpr (sizeof(Char) == 1) {
        const void* found = std::memchr(begin, c, static_cast<size_t>(end - begin));
        return found == nullptr ? end : static_cast<const Char*>(found);
    } else {
        return std::find(begin, end, c);
    }
}

template <class Char>
class Reader {
public:
    using View = std::basic_string_view<Char>;
    Reader(const Char* text, ConllTextSide& out) : text_(text), out_(out) {}

    void read(size_t size) {
        if (size == 0) return;  // `if not data: return []`: no document at all
        const Char* end = text_ + size;
        while (end > text_ && is_space(code(end[-1]))) --end;  // data.rstrip()
        const Char* line = text_;
        int64_t line_number = 1;
        for (;;) {  // a document
            BioChunker chunks(out_.entities);
            for (int64_t offset = 0;; ++offset) {  // its lines
                const Char* line_end = find_unit(line, end, Char('\n'));
                if (out_.fault == ConllTextFault::none) read_line(line, line_end, offset, line_number, chunks);
                // The next document starts after "\n\n": this line's newline and an empty line's.
                const bool last = line_end == end;
                if (last || (line_end + 1 < end && line_end[1] == Char('\n'))) {
                    chunks.finish(offset);  // an open entity ends at the last line, blank or not
                    out_.line_counts.push_back(offset + 1);
                    out_.begins.push_back(out_.entities.size());
                    if (last) return;
                    line = line_end + 2;
                    line_number += 2;
                    break;
                }
                line = line_end + 1;
                ++line_number;
            }
        }
    }

private:
    const Char* text_;
    ConllTextSide& out_;
    std::unordered_map<View, uint32_t> tag_ids_, label_ids_;
    std::vector<BioTag> tags_;
    View last_tag_;  // the previous line's tag and its id: most lines repeat one
    uint32_t last_id_ = UINT32_MAX;

    size_t at(const Char* p) const { return static_cast<size_t>(p - text_); }

    void fail(ConllTextFault kind, const Char* begin, const Char* end, int64_t offset, int64_t line_number) {
        out_.fault = kind;
        out_.fault_document = out_.line_counts.size();
        out_.fault_offset = offset;
        out_.fault_line = line_number;
        out_.fault_begin = at(begin);
        out_.fault_end = at(end);
    }

    void read_line(const Char* line, const Char* end, int64_t offset, int64_t line_number, BioChunker& chunks) {
        const Char* first = line;
        while (first < end && is_space(code(*first))) ++first;
        if (first == end) return;  // blank (`not line.strip()`): skipped, but it has its offset
        const Char* tab = find_unit(line, end, Char('\t'));
        if (tab == end) return fail(ConllTextFault::no_tab, line, end, offset, line_number);
        const Char* tag_end = find_unit(tab + 1, end, Char('\t'));
        const View tag(tab + 1, static_cast<size_t>(tag_end - tab - 1));
        if (!chunks.add(tags_[id_of(tag)], offset)) fail(ConllTextFault::bad_tag, tab + 1, tag_end, offset, line_number);
    }

    uint32_t id_of(View tag) {
        if (last_id_ != UINT32_MAX && tag == last_tag_) return last_id_;
        auto found = tag_ids_.find(tag);
        if (found == tag_ids_.end()) found = tag_ids_.emplace(tag, add_tag(tag)).first;
        last_tag_ = tag;
        last_id_ = found->second;
        return last_id_;
    }

    uint32_t add_tag(View tag) {
        const size_t size = tag.size();
        const View type = tag.substr(std::min<size_t>(2, size));
        auto label = label_ids_.find(type);
        if (label == label_ids_.end()) {
            label = label_ids_.emplace(type, static_cast<uint32_t>(out_.labels.size())).first;
            out_.labels.emplace_back(at(type.data()), at(type.data()) + type.size());
        }
        const uint32_t c0 = size > 0 ? code(tag[0]) : 0, c1 = size > 1 ? code(tag[1]) : 0;
        tags_.push_back(BioTag{size == 1 && c0 == 'O', c0 == 'B', (c0 == 'B' || c0 == 'I') && c1 == '-', label->second});
        return static_cast<uint32_t>(tags_.size() - 1);
    }
};

template <class Char>
void read_as(const void* data, size_t units, ConllTextSide& out) {
    Reader<Char>(static_cast<const Char*>(data), out).read(units);
}

}  // namespace

void read_conll_text(const void* data, int kind, size_t units, ConllTextSide& out) {
    if (kind == 1) return read_as<char>(data, units, out);
    if (kind == 2) return read_as<char16_t>(data, units, out);
    return read_as<char32_t>(data, units, out);
}

}  // namespace evalcore
