// Grouping records by query (records.hpp's group_records): moved to their groups' places
// unless the input was grouped already, then each group checked for a document listed twice.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "common/id_table.hpp"
#include "common/parallel.hpp"
#include "runs/records.hpp"
#include "runs/seen_docs.hpp"

namespace evalcore {

namespace {

// Moves records [0, n) of the queries [first, last) to their groups' places.
void scatter(const Records& records, QueryGroups& out, uint32_t first, uint32_t last) {
    std::vector<size_t> cursor(out.offsets.begin() + first, out.offsets.begin() + last);
    const bool values = !records.values.empty(), lines = !records.lines.empty(), hashes = !records.doc_hashes.empty();
    for (size_t i = 0; i < records.size(); ++i) {
        const uint32_t q = records.query_of[i];
        if (q < first || q >= last) continue;
        const size_t at = cursor[q - first]++;
        out.doc_ids[at] = records.doc_ids[i];
        if (values) out.values[at] = records.values[i];
        if (lines) out.lines[at] = records.lines[i];
        if (hashes) out.doc_hashes[at] = records.doc_hashes[i];
    }
}

// A document twice within a query, in groups [first, last): trec_eval refuses it, and so do
// we (no "last wins"). The first fault of each group is considered.
void find_repeats(const QueryGroups& out, size_t first, size_t last, InputFault& fault) {
    SeenDocs docs;
    for (size_t g = first; g < last; ++g) {
        const size_t begin = out.offsets[g], end = out.offsets[g + 1];
        if (end - begin >= UINT32_MAX) {  // SeenDocs' indexes are 32-bit
            fault.consider(out.lines.empty() ? begin : out.lines[begin],
                           "query " + quoted_id(out.query_ids[g]) + " has 2^32 lines or more: split it");
            continue;
        }
        docs.reset(end - begin);
        const std::string_view* ids = out.doc_ids.data() + begin;
        for (size_t i = begin; i < end; ++i) {
            const uint64_t h = out.doc_hashes.empty() ? IdTable::hash(out.doc_ids[i]) : out.doc_hashes[i];
            const size_t seen = docs.insert(ids, h, static_cast<uint32_t>(i - begin));
            if (seen == SeenDocs::npos) continue;
            const uint64_t at = out.lines.empty() ? i : out.lines[i];
            const std::string where = out.lines.empty() ? "" : " (first on " + std::string(out.position_name) + " " + std::to_string(out.lines[begin + seen]) + ")";
            fault.consider(at, "query " + quoted_id(out.query_ids[g]) + " lists document " + quoted_id(out.doc_ids[i]) +
                                   " twice" + where);
            break;  // later repeats in this group come after this one
        }
    }
}

}  // namespace

void group_records(Records& records, QueryGroups& out, InputFault& fault, unsigned threads, RecordStorage storage,
                   SharedParts* share) {
    const PartRunner runner{threads, share};
    out.clear();
    out.position_name = records.position_name;
    const size_t n = records.size();
    out.query_ids = std::move(records.queries);
    out.query_text = std::move(records.query_text);
    const size_t groups = out.query_ids.size();
    std::vector<size_t> sizes(groups, 0);
    for (uint32_t q : records.query_of) ++sizes[q];
    out.offsets.resize(groups + 1);
    for (size_t g = 0; g < groups; ++g) out.offsets[g + 1] = out.offsets[g] + sizes[g];
    // Parts for a large input, each with its share of the queries (about n / parts records).
    const unsigned parts = static_cast<unsigned>(std::min<size_t>(runner.parts(), n / (size_t{1} << 16) + 1));
    std::vector<uint32_t> split(parts + 1, static_cast<uint32_t>(groups));
    split[0] = 0;
    for (unsigned t = 1, g = 0; t < parts; ++t) {
        while (g < groups && out.offsets[g] < n / parts * t) ++g;
        split[t] = g;
    }
    if (records.grouped) {
        // Files are usually grouped by query already: the columns move over as they are.
        out.doc_ids.swap(records.doc_ids);
        out.values.swap(records.values);
        out.lines.swap(records.lines);
        out.doc_hashes.swap(records.doc_hashes);
        out.in_order.swap(records.in_order);
    } else {
        out.in_order.clear();  // the order of the input's lines, not of the groups
        out.doc_ids.resize(n);
        out.values.resize(records.values.empty() ? 0 : n);
        out.lines.resize(records.lines.empty() ? 0 : n);
        out.doc_hashes.resize(records.doc_hashes.empty() ? 0 : n);
        runner(parts, [&](unsigned t) { scatter(records, out, split[t], split[t + 1]); });
    }
    if (storage == RecordStorage::release) {
        out.index = records.take_index();  // its keys view the query text the groups now hold
        const char* position_name = records.position_name;
        records = Records{};  // its memory too: qrels can be large
        records.position_name = position_name;
    } else {
        records.clear();  // capacity kept (grouped: that of the groups' previous columns)
    }
    std::vector<InputFault> faults(parts);
    runner(parts, [&](unsigned t) { find_repeats(out, split[t], split[t + 1], faults[t]); });
    for (InputFault& found : faults) {
        if (found.found()) fault.consider(found.position, std::move(found.message));
    }
}

}  // namespace evalcore
