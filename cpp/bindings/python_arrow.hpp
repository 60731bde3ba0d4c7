// Arrow data handed over by the Arrow PyCapsule interface: what `__arrow_c_stream__()`
// returns (a capsule named "arrow_array_stream") or `__arrow_c_array__()` (a tuple of an
// "arrow_schema" and an "arrow_array" capsule). The structs are moved out of the capsules
// (their release callbacks set to NULL there, as the interface prescribes), so the buffers
// live as long as the ArrowBatches that took them, whatever becomes of the capsules.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pybind.hpp"
#include "runs/arrow_records.hpp"
#include "runs/evaluation.hpp"

namespace evalcore {

struct ArrowBatches {
    OwnedSchema schema;
    std::vector<OwnedArray> batches;
};

// A stream capsule, or a tuple of a schema and an array capsule.
bool is_arrow_source(PyObject* source);

// A table as Python hands it over: (a callable giving fresh capsules, whether it can be read
// only once), so that a stream found not grouped by query can be read again, whole.
bool is_arrow_provider(PyObject* source);
py::object arrow_capsules(PyObject* provider);
bool arrow_one_shot(PyObject* provider);

// The batches of a stream capsule read one at a time, as records (RunScorer::add_run_batches).
// Made with the GIL; next() is called without it and takes it only to ask for a batch.
class ArrowStreamRecords : public RecordBatches {
public:
    // `threads` read a batch's rows (ArrowRecordReader::set_threads).
    ArrowStreamRecords(PyObject* capsule, const std::string& table, TrecFormat role, unsigned threads = 1);
    ~ArrowStreamRecords() override;
    bool next(Records& out) override;

private:
    OwnedStream stream_;  // released by its destructor if the constructor fails after taking it
    OwnedSchema schema_;
    std::unique_ptr<ArrowRecordReader> reader_;
    OwnedArray batch_;  // the batch the last records view
    TextArena arena_;   // integer IDs of that batch
    std::string table_;
};

// Takes every batch of `source` (with the GIL: a producer may run Python code). A stream
// that fails is a RunInputError naming `table` and the producer's message; so is one giving
// more than `max_rows` rows (`limit` names the bound: a stream may never end), found as the
// batch past it comes, not after reading on.
void take_arrow(PyObject* source, const char* table, ArrowBatches& out, uint64_t max_rows = UINT64_MAX,
                const char* limit = nullptr);

}  // namespace evalcore
