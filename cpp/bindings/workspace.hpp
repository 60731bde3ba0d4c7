// Per-thread buffers reused from call to call, so that a large request does not pay for
// fresh allocations (and page faults) every time.
#pragma once

#include <vector>

#include "common/evaluation.hpp"
#include "json/document.hpp"
#include "score/score.hpp"
#include "common/text_arena.hpp"

namespace evalcore {

struct Workspace {
    Document request;
    Evaluation evaluation;
    // The score fast path: the request (or its head and parts, score_pipeline.hpp) and its
    // IDs' text.
    ScoreRequest score;
    std::vector<ScoreRequest> score_parts;
    TextArena score_text;
};

// Lends this thread's workspace, or a fresh one when it is already lent (a call re-entered
// from a finalizer that ran while the outer call was building Python objects).
class BorrowedWorkspace {
public:
    BorrowedWorkspace() {
        static thread_local Workspace cached;
        static thread_local bool lent = false;
        if (!lent) {
            lent = true;
            flag_ = &lent;
            workspace_ = &cached;
            workspace_->request.clear();
        } else {
            workspace_ = &own_;
        }
    }
    ~BorrowedWorkspace() {
        if (flag_ != nullptr) *flag_ = false;
    }
    BorrowedWorkspace(const BorrowedWorkspace&) = delete;
    BorrowedWorkspace& operator=(const BorrowedWorkspace&) = delete;
    Workspace* operator->() { return workspace_; }
    Workspace& operator*() { return *workspace_; }

private:
    Workspace own_;
    Workspace* workspace_ = nullptr;
    bool* flag_ = nullptr;
};

}  // namespace evalcore
