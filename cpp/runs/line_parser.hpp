// The TREC line parser: text cut into lines and fields by classifying 64 bytes at a time
// (trec_bytes.hpp), each data line checked (its fields, its query ID's UTF-8, its number)
// and handed to a sink. The run and qrels readers (records.cpp) and the subtopic qrels reader
// (diversity/subtopic_judgments.cpp) share it; each sink keeps the fields it needs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/inlining.hpp"
#include "common/parallel.hpp"
#include "runs/records.hpp"
#include "runs/trec_bytes.hpp"

namespace evalcore {

// What a data line of a format holds.
struct LineShape {
    size_t fields;           // exactly so many, but a run line's past the 6th are ignored (trec_eval's rule)
    size_t value_field;      // the field holding its number
    const char* value_name;  // that number in a message ("the grade ")
    const char* text;        // what a line holds, for the message of one with other fields
    bool hint;               // whether that message says when the line looks like the other TREC format's
    bool qrels;              // (for the hint) whether this format is the qrels'
    // The fields its sink reads (bit k: field k), the query's and the number's among them: the
    // others of a line of `fields` fields are stepped over, not cut out (a run line's rank,
    // "Q0" and tag). A line of another count has all of them cut out, for its message.
    uint32_t kept;
};

inline LineShape trec_line_shape(TrecFormat format) {
    if (format == TrecFormat::qrels) {
        return LineShape{4, 3, "the grade ", "a qrels line has 4 fields: query iteration document grade", true, true,
                         0b1101};
    }
    return LineShape{6, 4, "the score ", "a run line has at least 6 fields: query Q0 document rank score tag", true,
                     false, 0b10101};
}

namespace line_parser {

// ' ', or '\t', '\v', '\f', '\r' (9, 11, 12, 13): every C isspace byte but the newline.
inline bool is_space(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u == ' ' || (u - 9u <= 4u && u != '\n');
}

// Where the field starting at `i` ends: the next space byte (is_space), or the line's end.
// Eight bytes at a time: a byte below 0x21 is flagged by the borrow trick (exact for the
// lowest flagged byte, and never for bytes of 0x80 or more), then checked, since control
// bytes other than spaces belong to the field.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
inline constexpr bool little_endian = false;  // byte by byte there
#else
inline constexpr bool little_endian = true;
#endif

// The lane (0 = the first byte in memory) of the lowest flagged byte of a nonzero mask.
inline size_t lowest_lane(uint64_t flagged) {
#if defined(__GNUC__) || defined(__clang__)
    return static_cast<size_t>(__builtin_ctzll(flagged)) / 8;
#else
    size_t lane = 0;
    while (((flagged >> (lane * 8)) & 0x80) == 0) ++lane;
    return lane;
#endif
}

inline size_t field_end(std::string_view line, size_t i) {
    constexpr uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    while (little_endian && i + 8 <= line.size()) {
        uint64_t word;
        std::memcpy(&word, line.data() + i, 8);
        uint64_t below = (word - ones * 0x21) & ~word & highs;
        if (below == 0) {
            i += 8;
            continue;
        }
        const size_t lane = lowest_lane(below);
        if (is_space(line[i + lane])) return i + lane;
        i += lane + 1;  // a control byte inside the field: go on after it
    }
    while (i < line.size() && !is_space(line[i])) ++i;
    return i;
}

// Splits `line` into its fields, at most `max` of them. Returns how many there were: 0 for
// a blank line or a comment (its first non-blank byte is '#'), at most `max`: the scan
// stops at the max-th field and what follows is never looked at.
inline size_t split_fields(std::string_view line, std::string_view* fields, size_t max) {
    size_t count = 0, i = 0;
    while (true) {
        while (i < line.size() && is_space(line[i])) ++i;
        if (i == line.size()) return count;
        if (count == 0 && line[i] == '#') return 0;  // a comment
        const size_t start = i;
        i = field_end(line, i);
        fields[count++] = line.substr(start, i - start);
        if (count == max) return max;
    }
}

// The fields a line is split into at most: a run line's 6 (those after are ignored), which
// a qrels line of more than 4 needs too, to tell whether it looks like a run line.
inline constexpr size_t most_fields = 6;

// What a line with the wrong number of fields (`count`, at most most_fields) looks like when
// it is a line of the other format (the qrels and run files swapped, or one given twice):
// a run line in the qrels (6 fields, rank and score numbers), a qrels line in the run (4,
// the grade a number); "" otherwise.
inline std::string other_format_hint(bool qrels, size_t count, const std::string_view* fields) {
    double number = 0;
    if (qrels && count == most_fields && parse_number(fields[3], number) && parse_number(fields[4], number)) {
        return "; it looks like a run line (query Q0 document rank score tag): the qrels and run files look "
               "swapped (the qrels come first)";
    }
    if (!qrels && count == 4 && parse_number(fields[3], number)) {
        return "; it looks like a qrels line (query iteration document grade): the qrels and run files look "
               "swapped (the qrels come first), or the qrels were given as the run";
    }
    return "";
}

#if defined(__GNUC__) || defined(__clang__)
#define EVALCORE_COLD __attribute__((noinline, cold))
#else
#define EVALCORE_COLD
#endif

// The faults of a line, out of the parsers' loops: `flatten` (parse_lines_wide) inlines all
// but what is noinline, and the messages' string work had made that loop five times the
// baseline's code.
EVALCORE_COLD inline void fault_fields(InputFault& fault, uint64_t line, const LineShape& shape, size_t count,
                                       const std::string_view* fields) {
    fault.consider(line, std::string(shape.text) + ", found " + (count > shape.fields ? "more" : std::to_string(count)) +
                             (shape.hint ? other_format_hint(shape.qrels, count, fields) : std::string()));
}
EVALCORE_COLD inline void fault_number(InputFault& fault, uint64_t line, const LineShape& shape,
                                       std::string_view number) {
    fault.consider(line, std::string(shape.value_name) + quoted_id(number) + " is not a finite number");
}
EVALCORE_COLD inline void fault_text(InputFault& fault, uint64_t line, const char* text) { fault.consider(line, text); }
EVALCORE_COLD inline void fault_too_long(InputFault& fault, uint64_t line, size_t max_line_bytes) {
    fault.consider(line, line_too_long(max_line_bytes));
}

}  // namespace line_parser

// A text cut at line starts into parts of at least `smallest_part` bytes, at most `runner`'s
// parts (one a thread, or more when they are shared: PartRunner), for the readers that parse
// each part straight into its slots: part k is text[bounds[k], bounds[k + 1]) and writes
// from slots[k] on (at most a record a line: its newlines, counted by the runner, and one
// for a last line without a newline); slots.back() is the slots in all. (Every part but the
// last ends at a newline: with a slot more each, every part after the first was moved to
// close up the slots, 7 MB of columns for a run of 200,000 lines in 16 parts.)
struct LineParts {
    std::vector<size_t> bounds, slots;
    size_t size() const { return bounds.size() - 1; }
    std::string_view part(std::string_view text, size_t k) const {
        return text.substr(bounds[k], bounds[k + 1] - bounds[k]);
    }
};

inline LineParts cut_at_lines(std::string_view text, const PartRunner& runner, size_t smallest_part) {
    const size_t parts = std::max<size_t>(1, std::min<size_t>(runner.parts(), text.size() / std::max<size_t>(smallest_part, 1)));
    LineParts out;
    out.bounds.assign(parts + 1, text.size());
    out.bounds[0] = 0;
    for (size_t k = 1; k < parts; ++k) {
        const size_t newline = text.find('\n', std::max(out.bounds[k - 1], text.size() / parts * k));
        out.bounds[k] = newline == std::string_view::npos ? text.size() : newline + 1;
    }
    out.slots.assign(parts + 1, 0);
    runner(static_cast<unsigned>(parts), [&](unsigned k) {
        const std::string_view part = out.part(text, k);
        out.slots[k + 1] = count_newlines_best(part) + (!part.empty() && part.back() != '\n' ? 1 : 0);
    });
    for (size_t k = 0; k < parts; ++k) out.slots[k + 1] += out.slots[k];
    return out;
}

// Parses the lines of `text` (numbered from `first_line`) up to the first faulty one, each
// data line's fields (views into `text`, at most line_parser::most_fields of them) and
// number handed to `out.add(fields, value, line, same_query)`; `out.continues(query)` says
// whether the query ID is the line before's, already checked (`same_query`). Returns the
// lines read, the faulty one included (its fault in `fault`). Blank lines and '#' comments
// are counted, not handed on.
// `Bytes`: how 64 bytes are classified and bits counted (trec_bytes.hpp); parse_lines_best
// picks the widest the processor runs.
template <class Sink, class Bytes = BaselineBytes>
uint64_t parse_lines(std::string_view text, const LineShape& shape, uint64_t first_line, Sink& out, InputFault& fault,
                     size_t max_line_bytes) {
    using namespace line_parser;
    const size_t expected = shape.fields;
    uint64_t line_number = first_line;
    std::string_view fields[most_fields];  // out of the loop: constructing six views per line cost a fill of 96 bytes
    // A data line split into `count` fields (0: blank or a comment; at most most_fields,
    // those split), false at a fault. Forced inline, with the sinks' add and parse_number:
    // clang's `flatten` (parse_lines_wide) inlines one level only, and left these calls in
    // the loop (the wheels' reading 16 % slower than GCC's, which flattens every level).
    const auto take = [&](size_t count, uint64_t this_line) EVALCORE_INLINE_LAMBDA {
        if (count == 0) return true;  // blank, or a comment
        if (count != expected) {
            fault_fields(fault, this_line, shape, count, fields);
            return false;
        }
        // The query ID of the line before, already checked, needs no second look; the sink
        // is told too (asked once a line: the ID comparison was a tenth of the loop's work).
        const bool same_query = out.continues(fields[0]);
        if (!same_query && !is_valid_utf8(fields[0])) {
            fault_text(fault, this_line, "the query ID is not valid UTF-8");
            return false;
        }
        double value = 0;
        const std::string_view number = fields[shape.value_field];
        if (!parse_number(number, value)) {
            fault_number(fault, this_line, shape, number);
            return false;
        }
        out.add(fields, value, this_line, same_query);
        return true;
    };
    // The masks of the 64 bytes from `window` (trec_bytes.hpp): most lines are shorter, so
    // one classification serves a line and often the next; SIZE_MAX: none classified yet.
    size_t window = SIZE_MAX;
    ByteMasks masks;
    size_t at = 0;
    while (at < text.size()) {
        const uint64_t this_line = line_number++;
        // The line's newline among classified bytes: those of the window after `at`, else
        // the 64 from `at` (when there are 64 left).
        size_t offset = at - window;  // huge when at < window: no window yet
        uint64_t newlines = offset < 64 ? masks.newlines >> offset : 0;
        if (newlines == 0 && text.size() - at >= 64) {
            masks = Bytes::classify(text.data() + at);
            window = at;
            offset = 0;
            newlines = masks.newlines;
        }
        if (newlines != 0) {
            const size_t length = lowest_bit(newlines);  // at most 63
            const std::string_view line = text.substr(at, length);
            at += length + 1;
            if (length > max_line_bytes) {
                fault_too_long(fault, this_line, max_line_bytes);
                return line_number - first_line;
            }
            // Field bytes are the line's bytes that are not spaces; a field starts at one
            // whose byte before is not one, and ends at one whose byte after is not one.
            const uint64_t field = ~(masks.spaces >> offset) & ((uint64_t{1} << length) - 1);
            uint64_t starts = field & ~(field << 1), ends = field & ~(field >> 1);
            size_t count = Bytes::count(starts);
            if (count > 0 && line[lowest_bit(starts)] == '#') count = 0;  // a comment
            // A run line's fields after the 6th are ignored (trec_eval's rule); a qrels line has 4
            // (one of more is split into 6 for other_format_hint).
            if (count > most_fields) count = most_fields;
            if (count > 0) {
                const uint32_t kept = count == expected ? shape.kept : ~uint32_t{0};
                for (size_t k = 0; k < count; ++k) {
                    if ((kept >> k) & 1) {
                        const unsigned first = lowest_bit(starts), last = lowest_bit(ends);
                        fields[k] = std::string_view(line.data() + first, last + 1 - first);
                    }
                    starts &= starts - 1;
                    ends &= ends - 1;
                }
            }
            if (!take(count, this_line)) return line_number - first_line;
            continue;
        }
        // A line of 64 bytes or more, or one of the input's last 63 bytes: read byte by byte.
        const char* newline = static_cast<const char*>(std::memchr(text.data() + at, '\n', text.size() - at));
        const size_t end = newline ? static_cast<size_t>(newline - text.data()) : text.size();
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        if (line.size() > max_line_bytes) {  // blank, comment or data: the bound is on every line
            fault_too_long(fault, this_line, max_line_bytes);
            return line_number - first_line;
        }
        if (!take(split_fields(line, fields, most_fields), this_line)) return line_number - first_line;
    }
    return line_number - first_line;
}

#ifdef EVALCORE_WIDE_BYTES
// parse_lines with WideBytes under the wide target. `flatten` inlines what it calls into it
// (GCC: every level; clang: one), so that the score's number parser, the ID hash and the
// sink's work are compiled for the wide target too. What stays out of line keeps the
// baseline's target (a target attribute is not passed on to callees), so no code of the
// wide target is ever reached without the check of parse_lines_best.
template <class Sink>
EVALCORE_WIDE_TARGET __attribute__((flatten)) uint64_t parse_lines_wide(std::string_view text, const LineShape& shape,
                                                                        uint64_t first_line, Sink& out,
                                                                        InputFault& fault, size_t max_line_bytes) {
    return parse_lines<Sink, WideBytes>(text, shape, first_line, out, fault, max_line_bytes);
}
#endif

// parse_lines with the widest code the processor runs (trec_bytes.hpp's wide_bytes_usable).
template <class Sink>
uint64_t parse_lines_best(std::string_view text, const LineShape& shape, uint64_t first_line, Sink& out,
                          InputFault& fault, size_t max_line_bytes) {
#ifdef EVALCORE_WIDE_BYTES
    if (wide_bytes_usable()) return parse_lines_wide(text, shape, first_line, out, fault, max_line_bytes);
#endif
    return parse_lines(text, shape, first_line, out, fault, max_line_bytes);
}

}  // namespace evalcore
