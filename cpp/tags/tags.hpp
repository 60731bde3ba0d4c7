// Tag sequences to chunks and seqeval's numbers (issue 24, items 1 and 2). Plain C++17: the
// bindings read the Python lists into a TagTable and TagCorpus, this computes. The twin is
// python/evalcore/reference/tags/; both follow seqeval 1.2.2's definitions exactly.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace evalcore {
namespace tags {

// The codes of python/evalcore/tags/options.py SCHEMES.
enum class Scheme : int { IOB1 = 0, IOB2 = 1, IOE1 = 2, IOE2 = 3, IOBES = 4, BILOU = 5, Auto = 6 };

// Chunk offsets are 32-bit: a call holds at most this many positions (tags, plus one "O"
// after each sentence, as seqeval's get_entities lays a corpus out).
constexpr int64_t max_positions = 2147483647;

// The distinct tag texts (UTF-8), numbered in order of first appearance.
class TagTable {
public:
    int32_t intern(std::string_view utf8);
    size_t size() const { return texts_.size(); }
    const std::string& text(int32_t id) const { return texts_[static_cast<size_t>(id)]; }

private:
    std::deque<std::string> texts_;  // stable addresses: ids_ holds views of them
    std::unordered_map<std::string_view, int32_t> ids_;
};

// One side of a corpus: every sentence's tag IDs one after the other, and each length.
struct TagCorpus {
    std::vector<int32_t> tags;
    std::vector<int64_t> lengths;
    // The sentence and token of the k-th tag.
    void locate(int64_t k, int64_t& sentence, int64_t& token) const;
};

// What a mode reads in each distinct tag: `letter` (default mode: the tag's first, or with
// `suffix` last, character when ASCII, else 1; strict mode: that character's prefix bit, or
// 0 when it is none of I, O, B, E, S, U, L) and the type it names, by ID into `type_names`.
struct ParsedTags {
    std::vector<unsigned char> letter;
    std::vector<int32_t> type;
    std::vector<std::string> type_names;
    int32_t outside_type = 0;  // "_", the type of "O"
};
ParsedTags parse_tags(const TagTable& table, bool strict, bool suffix);

// parse_tags a few tags at a time, for a table that grows while a file is read (cpp/conll/):
// update() parses the tags added since the last call; the IDs already given stay.
class TagParser {
public:
    TagParser(bool strict, bool suffix);
    void update(const TagTable& table);
    const ParsedTags& parsed() const { return parsed_; }

private:
    bool strict_, suffix_;
    ParsedTags parsed_;
    std::unordered_map<std::string, int32_t> type_ids_;
};

struct Chunk {
    int32_t type, start, end;  // end exclusive; positions of the concatenation
};

// seqeval's get_entities over the sentences (each followed by "O", then one more "O").
std::vector<Chunk> default_chunks(const TagCorpus& corpus, const ParsedTags& parsed);
// The same, one position at a time (default_chunks is a loop of it): a chunk is appended to
// `out` at the position that ends it, so a streamed corpus gives default_chunks' chunks.
class DefaultChunker {
public:
    void step(unsigned char letter, int32_t type, std::vector<Chunk>& out);
    int64_t position() const { return i_; }

private:
    unsigned char prev_tag_ = 'O';
    int32_t prev_type_ = -1;  // seqeval's initial '', which no tag's type equals
    int32_t begin_ = 0;
    int64_t i_ = 0;
};
// seqeval's Tokens.entities, sentence by sentence, for a scheme other than Auto.
std::vector<Chunk> strict_chunks(const TagCorpus& corpus, const ParsedTags& parsed, Scheme scheme);

// seqeval's auto_detect. `unknown_at`: the first tag whose letter is no prefix (or -1);
// otherwise `found` says whether a scheme fits the set of prefix bits `prefixes`.
struct Detection {
    Scheme scheme = Scheme::Auto;
    bool found = false;
    int64_t unknown_at = -1;
    unsigned prefixes = 0;
};
Detection detect_scheme(const TagCorpus& corpus, const ParsedTags& parsed);
// The first tag whose prefix the scheme does not take, or -1.
int64_t first_refused(const TagCorpus& corpus, const ParsedTags& parsed, Scheme scheme);
// "B, I, O": the prefix letters of a set of bits, in alphabetical order.
std::string prefix_letters(unsigned bits);
unsigned allowed_prefixes(Scheme scheme);
const char* scheme_name(Scheme scheme);

// Exact-match counts per type (the span corpus's rule: a predicted chunk counts when a true
// chunk has its type, start and end; each at most once), types in seqeval's sorted order.
struct TypeCounts {
    std::vector<int32_t> types;  // type IDs, sorted by name (bytes: Python's str order)
    std::vector<int64_t> matched, predicted, supports;
};
TypeCounts count_chunks(const std::vector<Chunk>& truth, const std::vector<Chunk>& predicted,
                        const ParsedTags& parsed);
// count_chunks in parts, for a corpus streamed a sentence at a time (cpp/conll/): adds the
// chunks of one part (each list in increasing order of end) to counts indexed by type ID,
// which grow with parsed.type_names; sorted() then gives count_chunks' result.
struct ChunkTally {
    std::vector<int64_t> matched, predicted, supports;
    void add(const std::vector<Chunk>& truth, const std::vector<Chunk>& predicted_chunks, const ParsedTags& parsed);
    TypeCounts sorted(const ParsedTags& parsed) const;
};

struct ScoreRow {
    double precision = 0.0, recall = 0.0, f1 = 0.0;
    int64_t support = 0;
};
struct TagReport {
    std::vector<ScoreRow> rows;  // per type, in TypeCounts order
    ScoreRow micro, macro, weighted;
};
// seqeval's classification_report numbers, each float computed as its numpy code does.
TagReport seqeval_report(const TypeCounts& counts);
// numpy's pairwise summation of float64 (np.add.reduce on a contiguous array).
double pairwise_sum(const double* values, size_t n);

}  // namespace tags
}  // namespace evalcore
