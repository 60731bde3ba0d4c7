#include "runs/prefs_records.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace evalcore {

namespace {

bool is_field_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

struct Line {
    std::string_view query, group, subgroup, doc;
    double level;
    uint64_t line;
};

struct Fault {
    uint64_t line = UINT64_MAX;
    std::string message;
    void consider(uint64_t at, std::string text) {  // the first faulty line wins; the first reason on it
        if (at < line) {
            line = at;
            message = std::move(text);
        }
    }
};

using Key = std::tuple<std::string_view, std::string_view, std::string_view, std::string_view>;
struct KeyHash {
    size_t operator()(const Key& k) const {
        const std::hash<std::string_view> h;
        size_t seed = h(std::get<0>(k));
        for (std::string_view part : {std::get<1>(k), std::get<2>(k), std::get<3>(k)}) {
            seed ^= h(part) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
        }
        return seed;
    }
};

// Whether the preferences among a group's documents (edges[d]: the documents d is preferred
// to) form a cycle: Kahn's algorithm leaves a document unsorted.
bool has_cycle(const std::vector<std::vector<size_t>>& edges) {
    std::vector<size_t> indegree(edges.size(), 0), ready;
    for (const auto& targets : edges) {
        for (size_t t : targets) ++indegree[t];
    }
    for (size_t d = 0; d < edges.size(); ++d) {
        if (indegree[d] == 0) ready.push_back(d);
    }
    size_t removed = 0;
    while (!ready.empty()) {
        const size_t d = ready.back();
        ready.pop_back();
        ++removed;
        for (size_t t : edges[d]) {
            if (--indegree[t] == 0) ready.push_back(t);
        }
    }
    return removed != edges.size();
}

void consistency_faults(const std::vector<Line>& lines, Fault& fault) {
    std::unordered_map<Key, size_t, KeyHash> first;  // (query, group, subgroup, doc) -> its first line's index
    std::unordered_map<Key, uint64_t, KeyHash> zero;  // (query, group, doc, "0"/"1": level 0 or not) -> line
    std::map<std::pair<std::string_view, std::string_view>, std::vector<size_t>> groups;
    for (size_t i = 0; i < lines.size(); ++i) {
        const Line& l = lines[i];
        const auto [at, added] = first.emplace(Key{l.query, l.group, l.subgroup, l.doc}, i);
        if (!added && lines[at->second].level != l.level) {
            fault.consider(l.line, "query " + quoted_id(l.query) + " judgment group " + quoted_id(l.group) +
                                       " sub-group " + quoted_id(l.subgroup) + " gives document " + quoted_id(l.doc) +
                                       " two rel_levels (first on line " + std::to_string(lines[at->second].line) + ")");
        }
        // 0 against > 0 (a negative level is neither, as in trec_eval's check)
        const auto other = l.level >= 0.0 ? zero.find(Key{l.query, l.group, l.doc, l.level > 0.0 ? "1" : "0"}) : zero.end();
        if (other != zero.end()) {
            fault.consider(l.line, "query " + quoted_id(l.query) + " judgment group " + quoted_id(l.group) +
                                       " judges document " + quoted_id(l.doc) +
                                       " non-relevant (0) and relevant (> 0) (first on line " +
                                       std::to_string(other->second) + ")");
        }
        if (l.level >= 0.0) zero.emplace(Key{l.query, l.group, l.doc, l.level == 0.0 ? "1" : "0"}, l.line);
        groups[{l.query, l.group}].push_back(i);
    }
    for (const auto& [name, members] : groups) {
        std::map<std::string_view, std::vector<size_t>> subs;
        std::unordered_map<std::string_view, size_t> doc_index;
        for (size_t i : members) {
            subs[lines[i].subgroup].push_back(i);
            doc_index.emplace(lines[i].doc, doc_index.size());
        }
        if (subs.size() < 2) continue;
        std::vector<std::vector<size_t>> edges(doc_index.size());
        for (const auto& [sub, judged] : subs) {
            for (size_t a : judged) {
                for (size_t b : judged) {
                    if (lines[b].level < lines[a].level) edges[doc_index[lines[a].doc]].push_back(doc_index[lines[b].doc]);
                }
            }
        }
        if (has_cycle(edges)) {
            fault.consider(lines[members.back()].line,
                           "query " + quoted_id(name.first) + " judgment group " + quoted_id(name.second) +
                               ": the preferences of its sub-groups contradict each other (a cycle); put contradicting "
                               "judgments in different judgment groups");
        }
    }
}

}  // namespace

void read_prefs_text(std::string_view text, bool with_subgroups, const std::string& source, Preferences& out,
                     size_t max_line_bytes) {
    const size_t width = with_subgroups ? 5 : 4;
    const std::string shape = with_subgroups
                                  ? "a prefs line has 5 fields: query judgment_group judgment_subgroup document rel_level"
                                  : "a qrels_prefs line has 4 fields: query judgment_group document rel_level";
    Fault fault;
    const std::string compressed = compressed_fault(text);  // before any line, as the TREC readers
    if (!compressed.empty()) throw RunInputError(source, 1, compressed);
    std::vector<Line> lines;
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
            fault.consider(line, line_too_long(max_line_bytes));
            break;
        }
        std::string_view fields[6];
        size_t count = 0;
        for (size_t i = 0; i < row.size() && count < 6;) {
            while (i < row.size() && is_field_space(row[i])) ++i;
            if (i == row.size()) break;
            size_t j = i;
            while (j < row.size() && !is_field_space(row[j])) ++j;
            fields[count++] = row.substr(i, j - i);
            i = j;
        }
        if (count == 0 || fields[0].front() == '#') continue;  // blank, or a comment
        double level = 0;
        if (count != width) {
            fault.consider(line, shape + ", found " + (count > width ? "more" : std::to_string(count)));
        } else if (!is_valid_utf8(fields[0])) {
            fault.consider(line, "the query ID is not valid UTF-8");
        } else if (!parse_number(fields[width - 1], level)) {
            fault.consider(line, "the rel_level " + quoted_id(fields[width - 1]) + " is not a finite number");
        } else if (level == -3.0) {
            fault.consider(line, "the rel_level -3 is trec_eval's mark for no level (a group judged at most -3 is "
                                 "miscounted there): use another value");
        }
        if (fault.line != UINT64_MAX) break;
        lines.push_back(Line{fields[0], fields[1], with_subgroups ? fields[2] : std::string_view("0"),
                             fields[width - 2], level, line});
    }
    consistency_faults(lines, fault);
    if (fault.line != UINT64_MAX) throw RunInputError(source, fault.line, fault.message);
    std::unordered_map<std::string_view, size_t> query_index;
    std::vector<std::vector<size_t>> members;
    for (size_t i = 0; i < lines.size(); ++i) {
        const auto [at, added] = query_index.emplace(lines[i].query, members.size());
        if (added) {
            out.query_ids.push_back(lines[i].query);
            members.emplace_back();
        }
        members[at->second].push_back(i);
    }
    for (const auto& query : members) {
        for (size_t i : query) {
            out.groups.push_back(lines[i].group);
            out.subgroups.push_back(lines[i].subgroup);
            out.doc_ids.push_back(lines[i].doc);
            out.levels.push_back(lines[i].level);
        }
        out.query_offsets.push_back(out.doc_ids.size());
    }
}

}  // namespace evalcore
