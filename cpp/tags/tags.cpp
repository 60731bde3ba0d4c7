// Chunking as seqeval 1.2.2 does it: get_entities/end_of_chunk/start_of_chunk (default mode)
// and Tokens.entities with each scheme's patterns (strict mode), plus auto_detect.
#include "tags/tags.hpp"

#include <algorithm>
#include <stdexcept>

namespace evalcore {
namespace tags {

int32_t TagTable::intern(std::string_view utf8) {
    const auto found = ids_.find(utf8);
    if (found != ids_.end()) return found->second;
    if (texts_.size() >= static_cast<size_t>(INT32_MAX)) throw std::length_error("too many distinct tags");
    texts_.emplace_back(utf8);
    const auto id = static_cast<int32_t>(texts_.size() - 1);
    ids_.emplace(std::string_view(texts_.back()), id);
    return id;
}

void TagCorpus::locate(int64_t k, int64_t& sentence, int64_t& token) const {
    for (size_t i = 0; i < lengths.size(); ++i) {
        if (k < lengths[i]) {
            sentence = static_cast<int64_t>(i);
            token = k;
            return;
        }
        k -= lengths[i];
    }
    sentence = token = -1;
}

namespace {

// seqeval's Prefix flags.
constexpr unsigned I = 1, O = 2, B = 4, E = 8, S = 16, U = 32, L = 64, ANY = 127;

unsigned prefix_bit(unsigned char c) {
    switch (c) {
        case 'I': return I;
        case 'O': return O;
        case 'B': return B;
        case 'E': return E;
        case 'S': return S;
        case 'U': return U;
        case 'L': return L;
        default: return 0;
    }
}

// The byte length of the UTF-8 sequence a lead byte starts.
size_t lead_length(unsigned char c) {
    return c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
}

// A tag without its first (or, with suffix, last) code point, and that code point's letter.
std::string_view rest_of(std::string_view tag, bool suffix, unsigned char& letter) {
    if (tag.empty()) {  // refused when read; kept safe here
        letter = 1;
        return tag;
    }
    if (suffix) {
        size_t start = tag.size() - 1;
        while (start > 0 && (static_cast<unsigned char>(tag[start]) & 0xC0) == 0x80) --start;
        const auto last = static_cast<unsigned char>(tag[start]);
        letter = last < 0x80 ? last : 1;
        return tag.substr(0, start);
    }
    const auto first = static_cast<unsigned char>(tag[0]);
    letter = first < 0x80 ? first : 1;
    return tag.substr(std::min(lead_length(first), tag.size()));
}

int32_t type_id(std::unordered_map<std::string, int32_t>& ids, std::vector<std::string>& names, std::string_view name) {
    const std::string key(name.empty() ? std::string_view("_") : name);  // seqeval: `or '_'`
    const auto found = ids.find(key);
    if (found != ids.end()) return found->second;
    names.push_back(key);
    const auto id = static_cast<int32_t>(names.size() - 1);
    ids.emplace(key, id);
    return id;
}

}  // namespace

TagParser::TagParser(bool strict, bool suffix) : strict_(strict), suffix_(suffix) {
    parsed_.outside_type = type_id(type_ids_, parsed_.type_names, "_");
}

void TagParser::update(const TagTable& table) {
    for (size_t t = parsed_.letter.size(); t < table.size(); ++t) {
        unsigned char letter = 0;
        std::string_view rest = rest_of(table.text(static_cast<int32_t>(t)), suffix_, letter);
        std::string_view name;
        if (strict_) {  // token[1:].strip('-') (token[:-1] with suffix)
            const size_t from = rest.find_first_not_of('-');
            name = from == std::string_view::npos ? std::string_view() : rest.substr(from, rest.find_last_not_of('-') - from + 1);
            letter = static_cast<unsigned char>(prefix_bit(letter));
        } else if (suffix_) {  // chunk[:-1].rsplit('-', maxsplit=1)[0]
            const size_t dash = rest.rfind('-');
            name = dash == std::string_view::npos ? rest : rest.substr(0, dash);
        } else {  // chunk[1:].split('-', maxsplit=1)[-1]
            const size_t dash = rest.find('-');
            name = dash == std::string_view::npos ? rest : rest.substr(dash + 1);
        }
        parsed_.letter.push_back(letter);
        parsed_.type.push_back(type_id(type_ids_, parsed_.type_names, name));
    }
}

ParsedTags parse_tags(const TagTable& table, bool strict, bool suffix) {
    TagParser parser(strict, suffix);
    parser.update(table);
    return parser.parsed();
}

namespace {

bool end_of_chunk(unsigned char prev_tag, unsigned char tag, int32_t prev_type, int32_t type) {
    if (prev_tag == 'E' || prev_tag == 'S') return true;
    if ((prev_tag == 'B' || prev_tag == 'I') && (tag == 'B' || tag == 'S' || tag == 'O')) return true;
    return prev_tag != 'O' && prev_tag != '.' && prev_type != type;
}

bool start_of_chunk(unsigned char prev_tag, unsigned char tag, int32_t prev_type, int32_t type) {
    if (tag == 'B' || tag == 'S') return true;
    if ((prev_tag == 'E' || prev_tag == 'S' || prev_tag == 'O') && (tag == 'E' || tag == 'I')) return true;
    return tag != 'O' && tag != '.' && prev_type != type;
}

}  // namespace

void DefaultChunker::step(unsigned char tag, int32_t type, std::vector<Chunk>& out) {
    const auto i = static_cast<int32_t>(i_);  // callers keep positions under max_positions
    if (end_of_chunk(prev_tag_, tag, prev_type_, type)) out.push_back(Chunk{prev_type_, begin_, i});
    if (start_of_chunk(prev_tag_, tag, prev_type_, type)) begin_ = i;
    prev_tag_ = tag;
    prev_type_ = type;
    ++i_;
}

std::vector<Chunk> default_chunks(const TagCorpus& corpus, const ParsedTags& parsed) {
    std::vector<Chunk> chunks;
    DefaultChunker chunker;
    size_t k = 0;
    for (const int64_t n : corpus.lengths) {
        for (int64_t j = 0; j < n; ++j, ++k) {
            const auto t = static_cast<size_t>(corpus.tags[k]);
            chunker.step(parsed.letter[t], parsed.type[t], chunks);
        }
        chunker.step('O', parsed.outside_type, chunks);
    }
    chunker.step('O', parsed.outside_type, chunks);
    return chunks;
}

namespace {

enum Cond : unsigned char { Any, Same, Diff };
struct Pattern {
    unsigned prev, cur;
    Cond cond;
};
struct SchemePatterns {
    std::vector<Pattern> start, inside, end;
};

const SchemePatterns& patterns_of(Scheme scheme) {
    static const SchemePatterns iob1{{{O, I, Any}, {I, I, Diff}, {B, I, Any}, {I, B, Same}, {B, B, Same}},
                                     {{B, I, Same}, {I, I, Same}},
                                     {{I, I, Diff}, {I, O, Any}, {I, B, Any}, {B, O, Any}, {B, I, Diff}, {B, B, Same}}};
    static const SchemePatterns ioe1{{{O, I, Any}, {I, I, Diff}, {E, I, Any}, {E, E, Same}},
                                     {{I, I, Same}, {I, E, Same}},
                                     {{I, I, Diff}, {I, O, Any}, {I, E, Diff}, {E, I, Same}, {E, E, Same}}};
    static const SchemePatterns iob2{{{ANY, B, Any}},
                                     {{B, I, Same}, {I, I, Same}},
                                     {{I, O, Any}, {I, I, Diff}, {I, B, Any}, {B, O, Any}, {B, I, Diff}, {B, B, Any}}};
    static const SchemePatterns ioe2{{{O, I, Any}, {O, E, Any}, {E, I, Any}, {E, E, Any}, {I, I, Diff}, {I, E, Diff}},
                                     {{I, E, Same}, {I, I, Same}},
                                     {{E, ANY, Any}}};
    static const SchemePatterns iobes{{{ANY, B, Any}, {ANY, S, Any}},
                                      {{B, I, Same}, {B, E, Same}, {I, I, Same}, {I, E, Same}},
                                      {{S, ANY, Any}, {E, ANY, Any}}};
    static const SchemePatterns bilou{{{ANY, B, Any}, {ANY, U, Any}},
                                      {{B, I, Same}, {B, L, Same}, {I, I, Same}, {I, L, Same}},
                                      {{U, ANY, Any}, {L, ANY, Any}}};
    switch (scheme) {
        case Scheme::IOB1: return iob1;
        case Scheme::IOE1: return ioe1;
        case Scheme::IOB2: return iob2;
        case Scheme::IOE2: return ioe2;
        case Scheme::IOBES: return iobes;
        case Scheme::BILOU: return bilou;
        default: throw std::logic_error("strict chunks need a scheme, not auto");
    }
}

struct Token {
    unsigned prefix;
    int32_t type;
};

bool matches(const std::vector<Pattern>& patterns, const Token& prev, const Token& cur) {
    for (const Pattern& p : patterns) {
        if ((prev.prefix & p.prev) && (cur.prefix & p.cur) &&
            (p.cond == Any || (p.cond == Same) == (prev.type == cur.type))) {
            return true;
        }
    }
    return false;
}

}  // namespace

std::vector<Chunk> strict_chunks(const TagCorpus& corpus, const ParsedTags& parsed, Scheme scheme) {
    const SchemePatterns& p = patterns_of(scheme);
    const Token outside{O, parsed.outside_type};
    std::vector<Chunk> chunks;
    int64_t base = 0;
    size_t k = 0;
    for (const int64_t n : corpus.lengths) {
        const auto token = [&](int64_t j) -> Token {  // the sentence's tokens, then "O"
            if (j >= n) return outside;
            const auto t = static_cast<size_t>(corpus.tags[k + static_cast<size_t>(j)]);
            return Token{parsed.letter[t], parsed.type[t]};
        };
        int64_t i = 0;
        Token prev = outside;
        while (i <= n) {
            const Token here = token(i);
            if (matches(p.start, prev, here)) {
                int64_t end = i + 1;
                Token inner = here;
                while (end <= n && matches(p.inside, inner, token(end))) inner = token(end++);
                if (end <= n && matches(p.end, token(end - 1), token(end))) {
                    chunks.push_back(Chunk{here.type, static_cast<int32_t>(base + i), static_cast<int32_t>(base + end)});
                }
                i = end;
            } else {
                ++i;
            }
            prev = token(i - 1);
        }
        k += static_cast<size_t>(n);
        base += n + 1;
    }
    return chunks;
}

Detection detect_scheme(const TagCorpus& corpus, const ParsedTags& parsed) {
    Detection d;
    std::vector<bool> seen(parsed.letter.size(), false);
    for (size_t k = 0; k < corpus.tags.size(); ++k) {
        const auto t = static_cast<size_t>(corpus.tags[k]);
        if (seen[t]) continue;
        seen[t] = true;
        if (parsed.letter[t] == 0) {
            // the first tag in order without a prefix: an earlier occurrence of another
            // distinct tag never hides it, since distinct tags are checked at first sight
            d.unknown_at = static_cast<int64_t>(k);
            return d;
        }
        d.prefixes |= parsed.letter[t];
    }
    static const unsigned iob2[] = {I | O | B, I | B, B | O, B};
    static const unsigned ioe2[] = {I | O | E, I | E, E | O, E};
    static const unsigned iobes[] = {I | O | B | E | S, I | B | E | S, I | O | B | E, O | B | E | S, I | B | E,
                                     B | E | S, O | B | E, B | E, S};
    static const unsigned bilou[] = {I | O | B | L | U, I | B | L | U, I | O | B | L, O | B | L | U, I | B | L,
                                     B | L | U, O | B | L, B | L, U};
    const auto in = [&](const unsigned* sets, size_t n) { return std::find(sets, sets + n, d.prefixes) != sets + n; };
    d.found = true;
    if (in(iob2, 4)) d.scheme = Scheme::IOB2;
    else if (in(ioe2, 4)) d.scheme = Scheme::IOE2;
    else if (in(iobes, 9)) d.scheme = Scheme::IOBES;
    else if (in(bilou, 9)) d.scheme = Scheme::BILOU;
    else d.found = false;
    return d;
}

unsigned allowed_prefixes(Scheme scheme) {
    switch (scheme) {
        case Scheme::IOB1:
        case Scheme::IOB2: return I | O | B;
        case Scheme::IOE1:
        case Scheme::IOE2: return I | O | E;
        case Scheme::IOBES: return I | O | B | E | S;
        case Scheme::BILOU: return B | I | L | O | U;
        default: return 0;
    }
}

const char* scheme_name(Scheme scheme) {
    static const char* const names[] = {"IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU", "auto"};
    return names[static_cast<int>(scheme)];
}

int64_t first_refused(const TagCorpus& corpus, const ParsedTags& parsed, Scheme scheme) {
    const unsigned allowed = allowed_prefixes(scheme);
    for (size_t k = 0; k < corpus.tags.size(); ++k) {
        if ((parsed.letter[static_cast<size_t>(corpus.tags[k])] & allowed) == 0) return static_cast<int64_t>(k);
    }
    return -1;
}

std::string prefix_letters(unsigned bits) {
    std::string out;
    for (const char c : std::string_view("BEILOSU")) {
        if (bits & prefix_bit(static_cast<unsigned char>(c))) {
            if (!out.empty()) out += ", ";
            out += c;
        }
    }
    return out.empty() ? "none" : out;
}

}  // namespace tags
}  // namespace evalcore
