#include "runs/jg_records.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>

namespace evalcore {

namespace {

bool is_field_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

const char* const shape = "a qrels_jg line has 4 fields: query judgment_group document grade";

}  // namespace

uint64_t parse_judgment_lines(std::string_view text, const char* shape_text, size_t max_line_bytes,
                              std::vector<FourFieldJudgment>& judgments, std::string& fault) {
    uint64_t fault_line = UINT64_MAX;
    const auto malformed = [&](uint64_t at, std::string message) {
        fault_line = at;
        fault = std::move(message);
    };
    // At most one judgment a line: reserved, so the rows are not copied and paged in anew as
    // the vector grows (the reading's largest cost on large qrels).
    judgments.reserve(judgments.size() + static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
    uint64_t line = 0;
    size_t start = 0;
    while (start < text.size()) {
        ++line;
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view row = text.substr(start, end - start);
        start = end + 1;
        // read_text_file ends the text max_line_bytes + 1 bytes into the first longer line.
        if (row.size() > max_line_bytes) {
            malformed(line, line_too_long(max_line_bytes));
            break;
        }
        std::string_view fields[5];
        size_t count = 0;
        for (size_t i = 0; i < row.size() && count < 5;) {
            while (i < row.size() && is_field_space(row[i])) ++i;
            if (i == row.size()) break;
            size_t j = i;
            while (j < row.size() && !is_field_space(row[j])) ++j;
            fields[count++] = row.substr(i, j - i);
            i = j;
        }
        if (count == 0 || fields[0].front() == '#') continue;  // blank, or a comment
        double grade = 0;
        if (count != 4) {
            malformed(line, std::string(shape_text) + ", found " + (count > 4 ? "more" : std::to_string(count)));
        } else if (!is_valid_utf8(fields[0])) {
            malformed(line, "the query ID is not valid UTF-8");
        } else if (!parse_number(fields[3], grade)) {
            malformed(line, "the grade " + quoted_id(fields[3]) + " is not a finite number");
        }
        if (fault_line != UINT64_MAX) break;
        judgments.push_back(FourFieldJudgment{fields[0], fields[1], fields[2], grade, line});
    }
    return fault_line;
}

void read_qrels_jg_text(std::string_view text, const std::string& source, JudgmentGroups& out, size_t max_line_bytes) {
    // The first faulty line wins: the lines are read up to the first malformed one, then a
    // document listed twice before it is the fault if it comes first.
    const std::string compressed = compressed_fault(text);  // before any line, as the TREC readers
    if (!compressed.empty()) throw RunInputError(source, 1, compressed);
    std::vector<FourFieldJudgment> judgments;
    std::string fault;
    uint64_t fault_line = parse_judgment_lines(text, shape, max_line_bytes, judgments, fault);
    // Queries by first appearance, groups by name (byte order), judgments in line order.
    std::unordered_map<std::string_view, size_t> query_index;
    std::vector<std::map<std::string_view, std::vector<size_t>>> groups;
    for (size_t i = 0; i < judgments.size(); ++i) {
        const auto [at, added] = query_index.emplace(judgments[i].query, groups.size());
        if (added) {
            out.query_ids.push_back(judgments[i].query);
            groups.emplace_back();
        }
        groups[at->second][judgments[i].group].push_back(i);
    }
    // A document twice in one group: a fault at the second listing.
    for (const auto& query_groups : groups) {
        for (const auto& [name, members] : query_groups) {
            std::unordered_map<std::string_view, uint64_t> first;
            for (size_t i : members) {
                const FourFieldJudgment& j = judgments[i];
                const auto [at, added] = first.emplace(j.doc, j.line);
                if (!added && j.line < fault_line) {
                    fault_line = j.line;
                    fault = "query " + quoted_id(j.query) + " judgment group " + quoted_id(name) + " lists document " +
                            quoted_id(j.doc) + " twice (first on line " + std::to_string(at->second) + ")";
                }
            }
        }
    }
    if (fault_line != UINT64_MAX) throw RunInputError(source, fault_line, fault);
    for (const auto& query_groups : groups) {
        for (const auto& [name, members] : query_groups) {
            out.group_names.push_back(name);
            for (size_t i : members) {
                out.doc_ids.push_back(judgments[i].doc);
                out.grades.push_back(judgments[i].grade);
            }
            out.judgment_offsets.push_back(out.doc_ids.size());
        }
        out.query_groups.push_back(out.group_names.size());
    }
}

}  // namespace evalcore
