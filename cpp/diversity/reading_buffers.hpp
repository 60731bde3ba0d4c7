// The storage an evaluation with subtopic qrels reads its inputs into (the files' text, the
// run's groups, the judgments), kept from one call to the next. A caller evaluating run after
// run (a notebook, a sweep, a benchmark) would otherwise page in fresh memory for all of it
// on every call: glibc gives large blocks back to the kernel when they are freed, and the
// page faults of taking them again were a third of an evaluation's time (perf: 3,300 faults
// and 11 ms of system time a call on 200 queries x 1,000 documents).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "diversity/subtopic_judgments.hpp"
#include "runs/records.hpp"

namespace evalcore {

struct ReadingBuffers {
    std::string judged_text, run_text;
    QueryGroups run;
    SubtopicJudgments judgments;

    // The bytes of storage held (capacities, not sizes), the columns that grow with the
    // input; the query IDs, their copies and index, at most one a line, are left out.
    size_t bytes() const {
        const auto of = [](const auto& column) { return column.capacity() * sizeof(column[0]); };
        return judged_text.capacity() + run_text.capacity() + of(run.doc_ids) + of(run.values) + of(run.lines) +
               of(run.doc_hashes) + of(run.in_order) + of(run.offsets) + of(judgments.judgments) + of(judgments.rows) +
               of(judgments.row_judgments) + of(judgments.offsets) + of(judgments.row_counts);
    }
};

// One set of buffers kept between calls (a call finding none makes its own; concurrent calls
// each have theirs, and one of them is kept), at most `kept_bytes` of storage: an evaluation
// of larger inputs gives its memory back as before.
class KeptReadingBuffers {
public:
    static constexpr size_t kept_bytes = size_t{128} << 20;

    std::unique_ptr<ReadingBuffers> take() {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            if (kept_) return std::move(kept_);
        }
        return std::make_unique<ReadingBuffers>();
    }

    void give_back(std::unique_ptr<ReadingBuffers> buffers) {
        if (buffers == nullptr || buffers->bytes() > kept_bytes) return;  // freed here
        // What holds views into a call's own arena (the IDs of dicts) is emptied; the run's
        // columns and the judgments keep their size, to be written over by the next reading
        // (resized from empty, they were zero-filled first): their views, into the kept text
        // or a finished call's arena, are never read before they are written.
        buffers->run.query_ids.clear();
        buffers->run.query_text.clear();
        buffers->run.index = IdIndex{};
        buffers->run.offsets.assign(1, 0);
        buffers->judgments.query_ids.clear();
        const std::lock_guard<std::mutex> lock(mutex_);
        kept_ = std::move(buffers);
    }

private:
    std::mutex mutex_;
    std::unique_ptr<ReadingBuffers> kept_;
};

}  // namespace evalcore
