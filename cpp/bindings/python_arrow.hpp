// Arrow data handed over by the Arrow PyCapsule interface: what `__arrow_c_stream__()`
// returns (a capsule named "arrow_array_stream") or `__arrow_c_array__()` (a tuple of an
// "arrow_schema" and an "arrow_array" capsule). The structs are moved out of the capsules
// (their release callbacks set to NULL there, as the interface prescribes), so the buffers
// live as long as the ArrowBatches that took them, whatever becomes of the capsules.
#pragma once

#include <vector>

#include "pybind.hpp"
#include "runs/arrow_records.hpp"

namespace evalcore {

struct ArrowBatches {
    OwnedSchema schema;
    std::vector<OwnedArray> batches;
};

// A stream capsule, or a tuple of a schema and an array capsule.
bool is_arrow_source(PyObject* source);

// Takes every batch of `source` (with the GIL: a producer may run Python code). A stream
// that fails is a RunInputError naming `table` and the producer's message.
void take_arrow(PyObject* source, const char* table, ArrowBatches& out);

}  // namespace evalcore
