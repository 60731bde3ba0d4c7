#include "diversity/subtopic_judgments.hpp"

#include <unordered_map>

namespace evalcore {

void group_subtopic_judgments(const std::vector<FourFieldJudgment>& judgments, const std::string& source,
                              uint64_t fault_line, std::string fault, SubtopicJudgments& out) {
    std::unordered_map<std::string_view, uint32_t> subtopic_index;
    std::unordered_map<std::string_view, size_t> query_index;
    std::vector<std::vector<size_t>> members;
    for (size_t i = 0; i < judgments.size(); ++i) {
        const auto [at, added] = query_index.emplace(judgments[i].query, members.size());
        if (added) members.emplace_back();
        members[at->second].push_back(i);
        subtopic_index.emplace(judgments[i].group, static_cast<uint32_t>(subtopic_index.size()));
    }
    // A document twice for one subtopic of a query: a fault at the second listing.
    std::unordered_map<std::string_view, std::unordered_map<std::string_view, uint64_t>> first;
    for (const auto& query_members : members) {
        first.clear();
        for (size_t i : query_members) {
            const FourFieldJudgment& j = judgments[i];
            const auto [at, added] = first[j.group].emplace(j.doc, j.line);
            if (!added && j.line < fault_line) {
                fault_line = j.line;
                const std::string where = j.line == 0 ? "" : " (first on line " + std::to_string(at->second) + ")";
                fault = "query " + quoted_id(j.query) + " subtopic " + quoted_id(j.group) + " lists document " +
                        quoted_id(j.doc) + " twice" + where;
            }
        }
    }
    if (fault_line != UINT64_MAX) throw RunInputError(source, fault_line, fault);
    for (const auto& query_members : members) {
        out.query_ids.push_back(judgments[query_members.front()].query);
        for (size_t i : query_members) {
            out.doc_ids.push_back(judgments[i].doc);
            out.subtopics.push_back(subtopic_index.at(judgments[i].group));
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
