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
// only once, how many rows of it to keep if so: evaluate_run's max_stream_rows, the names of
// its query, document and value columns), so that a stream found not grouped by query can
// be read again, whole.
bool is_arrow_provider(PyObject* source);
py::object arrow_capsules(PyObject* provider);
bool arrow_one_shot(PyObject* provider);
uint64_t arrow_kept_rows(PyObject* provider);
ColumnNames arrow_names(PyObject* provider);

// The batches of a stream capsule read one at a time, as records (RunScorer::add_run_batches).
// Made with the GIL; next() is called without it and takes it only to ask for a batch.
class ArrowStreamRecords : public RecordBatches {
public:
    // `threads` read a batch's rows (ArrowRecordReader::set_threads). With `keep`, the
    // batches read are kept while they hold at most `keep_rows` rows, for take_rest().
    ArrowStreamRecords(PyObject* capsule, const std::string& table, TrecFormat role, unsigned threads = 1,
                       bool keep = false, uint64_t keep_rows = 0,
                       const ColumnNames& names = ColumnNames{"query_id", "doc_id", "score"});
    ~ArrowStreamRecords() override;
    bool next(Records& out) override;

    // (With the GIL.) The schema, the batches read so far and the rest of the stream, into
    // `out`, to be read whole; a RunInputError with `refusal` when the stream has more rows
    // than it keeps (those read past keep_rows were released as they were read).
    void take_rest(ArrowBatches& out, const std::string& refusal);

private:
    bool take_next();  // the next batch into batch_ (false: the end); with the GIL

    OwnedStream stream_;  // released by its destructor if the constructor fails after taking it
    OwnedSchema schema_;
    std::unique_ptr<ArrowRecordReader> reader_;
    OwnedArray batch_;  // the batch the last records view
    TextArena arena_;   // integer IDs of that batch
    std::string table_;
    bool keeping_;                   // every batch read so far is in kept_
    bool ended_ = false;             // the stream gave its end
    uint64_t keep_rows_;
    uint64_t rows_ = 0;              // rows of the batches read so far
    std::vector<OwnedArray> kept_;   // the batches before batch_ (while keeping_)
};

// Takes every batch of `source` (with the GIL: a producer may run Python code). A stream
// that fails is a RunInputError naming `table` and the producer's message; so is one giving
// more than `max_rows` rows (`limit` names the bound: a stream may never end), found as the
// batch past it comes, not after reading on.
void take_arrow(PyObject* source, const char* table, ArrowBatches& out, uint64_t max_rows = UINT64_MAX,
                const char* limit = nullptr);

}  // namespace evalcore
