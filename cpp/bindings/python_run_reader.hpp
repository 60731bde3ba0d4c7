// The fast path of evaluate_run for dict inputs: the caller's dicts are read by several
// threads at once, each scoring the queries it reads while they are in cache.
//
// Why that is safe: this thread holds the GIL for the whole call and only exact dict, list,
// tuple, str, float and int objects are read (from their storage: no lookup, no method), so
// no Python code runs and no object can change or be freed; the helper threads only read
// immutable parts and never touch a reference count, allocate a Python object or raise.
// Anything else (a subclass, a non-str ID, a numpy scalar, a lone surrogate, a repeated
// document in a list...) makes the fast path give up, and the caller reads the input again
// the general way, which holds what it reads and reports the fault exactly.
#pragma once

#include <vector>

#include "runs/measures.hpp"
#include "pybind.hpp"

namespace evalcore {

struct DictRunResults {
    std::vector<PyObject*> query_ids;  // borrowed: keys of the caller's dicts
    std::vector<double> values;        // query-major
    std::vector<PyObject*> missing_ids;  // borrowed: judged queries the run lacks, in qrels order
};

// False when the input needs the general path (which then reports any fault).
bool evaluate_run_dicts(PyObject* qrels, PyObject* run, const std::vector<Measure>& measures, const RunOptions& options,
                        unsigned threads, DictRunResults& out);

}  // namespace evalcore
