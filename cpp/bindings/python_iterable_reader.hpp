// Iterables of records as evaluate_run's qrels and run: ir_datasets' qrels_iter() and
// scoreddocs_iter(), ir_measures' read_trec_qrels/read_trec_run generators, lists of
// ir_measures.Qrel/ScoredDoc: any iterable whose items have the query, document and value
// fields as attributes (named tuples or objects), read once, row by row, as Python hands
// them over (evalcore.runs.iterables.RecordIterable: the iterator, the field names, the
// rows of a batch, the bounds). The twin: python/evalcore/reference/runs/iterables.py.
//
// Each attribute is held while it is read (a property, __getattr__, __float__ or __index__
// may run any Python code, which may change or free anything else), so nothing read can go
// away under the reader. An exception the iterator raises comes as itself; one raised
// while a field is read is a RunInputError naming the row and the field.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "pybind.hpp"
#include "runs/arrow_records.hpp"
#include "runs/evaluation.hpp"

namespace evalcore {

// Whether `source` is an evalcore.runs.iterables.RecordIterable.
bool is_record_iterable(PyObject* source);

class IterableRecords : public RecordBatches {
public:
    // (With the GIL.) `role` picks the message's noun for the value (grade or score).
    IterableRecords(PyObject* source, TrecFormat role);
    ~IterableRecords() override;

    // The next batch (its rows appended to `out`), taking the GIL; false once there is none.
    // While the rows read hold at most the source's kept rows (max_stream_rows), they are
    // kept for rest().
    bool next(Records& out) override;

    // (With the GIL.) Every row: those kept and the rest of the iterable, or a RunInputError
    // with `refusal` when there are more than the source keeps (found as the row past the
    // bound comes). With `bounded` (the qrels), more rows than the source's max_rows are the
    // max_qrels_rows fault instead. The records' views stay valid while this reader lives.
    Records& rest(const std::string& refusal, bool bounded = false);

    const std::string& table() const { return table_; }
    uint64_t kept_rows() const { return kept_rows_; }

private:
    // The next item's fields into `out`; false at the end (the iterator is then dropped).
    bool read_row(Records& out, TextArena& arena);
    bool next_item(py::object& item);
    py::object field(const py::object& item, int k) const;

    py::object iterator_;
    py::object names_[3];
    ColumnNames texts_;
    std::string table_;
    const char* value_noun_;
    uint64_t batch_rows_, kept_rows_, max_rows_;
    uint64_t rows_ = 0;  // items taken so far
    bool keeping_ = true;
    Records kept_;
    std::deque<TextArena> arenas_;  // the text of the batches still viewed (all, while keeping)
};

}  // namespace evalcore
