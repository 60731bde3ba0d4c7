#include "diversity/subtopic_judgments.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "common/id_table.hpp"

namespace evalcore {

namespace {

// The index of `id` in `index` (added as the next one if new); `last` caches the previous
// lookup, as consecutive judgments mostly share their query and subtopic.
template <typename Index>
Index index_of(std::string_view id, std::unordered_map<std::string_view, Index>& index,
               std::pair<std::string_view, Index>& last, bool& added) {
    added = false;
    if (!index.empty() && id == last.first) return last.second;
    const auto [at, inserted] = index.emplace(id, static_cast<Index>(index.size()));
    added = inserted;
    last = {id, at->second};
    return at->second;
}

// A set of 64-bit keys, each with the input position it was first set at: open addressing,
// emptied by generation as IdTable is (once per query), so it allocates only to grow.
class PairTable {
public:
    void reset(size_t expected) {
        size_t capacity = 16;
        while (capacity < expected * 2) capacity *= 2;
        if (slots_.size() < capacity || ++generation_ == 0) {
            generation_ = 1;
            slots_.assign(std::max(capacity, slots_.size()), Slot{});
        }
        mask_ = slots_.size() - 1;
    }
    // nullptr when `key` is new (then set, with `position`), else its first position. At most
    // `expected` keys are set between resets: the table stays at most half full.
    const size_t* insert(uint64_t key, size_t position) {
        for (size_t i = static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask_;; i = (i + 1) & mask_) {
            Slot& slot = slots_[i];
            if (slot.generation != generation_) {
                slot = Slot{key, position, generation_};
                return nullptr;
            }
            if (slot.key == key) return &slot.position;
        }
    }

private:
    struct Slot {
        uint64_t key = 0;
        size_t position = 0;
        uint32_t generation = 0;
    };
    std::vector<Slot> slots_;
    size_t mask_ = 0;
    uint32_t generation_ = 0;
};

}  // namespace

void group_subtopic_judgments(const std::vector<FourFieldJudgment>& judgments, const std::string& source,
                              uint64_t fault_line, std::string fault, SubtopicJudgments& out) {
    std::unordered_map<std::string_view, uint32_t> subtopic_index;
    std::unordered_map<std::string_view, size_t> query_index;
    std::pair<std::string_view, uint32_t> last_subtopic;
    std::pair<std::string_view, size_t> last_query;
    std::vector<std::vector<size_t>> members;
    std::vector<uint32_t> subtopic_of(judgments.size());
    bool added = false;
    for (size_t i = 0; i < judgments.size(); ++i) {
        const size_t q = index_of(judgments[i].query, query_index, last_query, added);
        if (added) members.emplace_back();
        members[q].push_back(i);
        subtopic_of[i] = index_of(judgments[i].group, subtopic_index, last_subtopic, added);
    }
    // A document twice for one subtopic of a query: a fault at the second listing. Each
    // query's judgments are visited in input order, their documents numbered (by hash) and
    // each (subtopic, document number) key set in a table of keys: the first key found there
    // already is the query's earliest second listing; the first fault by (line, query) wins.
    // (A sort of each query's keys did the same in about twice the time.)
    IdTable doc_numbers;
    PairTable first_listing;
    size_t fault_at = SIZE_MAX;  // the input position of the fault found, for row faults (line 0)
    for (const auto& query_members : members) {
        const bool faulted_before = fault_line != UINT64_MAX;
        doc_numbers.reset(query_members.size());
        first_listing.reset(query_members.size());
        uint32_t documents = 0;
        for (size_t i : query_members) {
            const uint32_t* known = doc_numbers.insert(judgments[i].doc, documents);
            const uint32_t number = known != nullptr ? *known : documents++;
            const size_t* first = first_listing.insert((uint64_t{subtopic_of[i]} << 32) | number, i);
            if (first == nullptr) continue;
            const FourFieldJudgment& j = judgments[i];
            if (j.line < fault_line || (j.line == fault_line && !faulted_before && i < fault_at)) {
                fault_line = j.line;
                fault_at = i;
                const std::string where = j.line == 0 ? "" : " (first on line " + std::to_string(judgments[*first].line) + ")";
                fault = "query " + quoted_id(j.query) + " subtopic " + quoted_id(j.group) + " lists document " +
                        quoted_id(j.doc) + " twice" + where;
            }
            break;  // later second listings of this query come after this one
        }
    }
    if (fault_line != UINT64_MAX) throw RunInputError(source, fault_line, fault);
    out.doc_ids.reserve(judgments.size());
    out.subtopics.reserve(judgments.size());
    out.grades.reserve(judgments.size());
    for (const auto& query_members : members) {
        out.query_ids.push_back(judgments[query_members.front()].query);
        for (size_t i : query_members) {
            out.doc_ids.push_back(judgments[i].doc);
            out.subtopics.push_back(subtopic_of[i]);
            out.grades.push_back(judgments[i].grade);
        }
        out.offsets.push_back(out.doc_ids.size());
    }
}

void read_subtopic_qrels_text(std::string_view text, const std::string& source, SubtopicJudgments& out,
                              size_t max_line_bytes) {
    const std::string compressed = compressed_fault(text);  // before any line, as the TREC readers
    if (!compressed.empty()) throw RunInputError(source, 1, compressed);
    std::vector<FourFieldJudgment> judgments;
    std::string fault;
    const uint64_t fault_line = parse_judgment_lines(
        text, "a subtopic qrels line has 4 fields: query subtopic document grade", max_line_bytes, judgments, fault);
    group_subtopic_judgments(judgments, source, fault_line, std::move(fault), out);
}

}  // namespace evalcore
