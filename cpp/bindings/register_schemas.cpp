// issue 24, nervaluate's schemas:
// _core.evaluate_schemas(true, pred, labels, input, threads, step_limit) -> dict
// Reads the caller's lists once (GIL held: exact list, tuple, dict, str and int objects by
// their storage, so no Python code runs while reading), matches with the GIL released
// (cpp/schemas/), builds the result dict. Faults are those of
// python/evalcore/reference/schemas/reading.py, in its order and with its messages; CoNLL
// strings (input="conll") are read by schemas_conll.cpp.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/errors.hpp"
#include "register.hpp"
#include "schema_reading.hpp"
#include "schemas/bio_chunks.hpp"
#include "schemas/schemas.hpp"

namespace evalcore {
namespace {

using namespace schema_reading;

constexpr long long max_offset = 9007199254740991LL;
const char* const span_shape = "an entity is {'label': str, 'start': int, 'end': int}, 'end' inclusive";
const char* const schema_names[4] = {"strict", "exact", "partial", "ent_type"};

bool is_sequence(PyObject* value) { return PyList_CheckExact(value) || PyTuple_CheckExact(value); }
Py_ssize_t length(PyObject* sequence) {
    return PyList_CheckExact(sequence) ? PyList_GET_SIZE(sequence) : PyTuple_GET_SIZE(sequence);
}
PyObject* item(PyObject* sequence, Py_ssize_t i) {
    return PyList_CheckExact(sequence) ? PyList_GET_ITEM(sequence, i) : PyTuple_GET_ITEM(sequence, i);
}

std::string with_commas(int64_t value) {
    std::string digits = std::to_string(value), out;
    for (size_t k = 0; k < digits.size(); ++k) {
        if (k > 0 && (digits.size() - k) % 3 == 0 && digits[k - 1] != '-') out += ',';
        out += digits[k];
    }
    return out;
}

void check_corpus(PyObject* truth, PyObject* predicted, bool tags) {
    const char* what = tags ? "lists of tags (str)" : "lists of entities {'label', 'start', 'end'}";
    for (auto [name, value] : {std::pair<const char*, PyObject*>{"true", truth}, {"pred", predicted}}) {
        if (!is_sequence(value)) {
            fault(ErrorCode::schema_violation, std::string("/") + name,
                  std::string(name) + " must be a list of documents, each one of " + what + "; got " + type_name(value));
        }
    }
    const Py_ssize_t nt = length(truth), np = length(predicted);
    if (nt != np) {
        const std::string shorter = np < nt ? "pred" : "true";
        fault(ErrorCode::schema_violation, "/" + shorter,
              "true has " + std::to_string(nt) + " documents and pred has " + std::to_string(np) +
                  ": give one document of predictions for each true one (" + shorter + " has none for document " +
                  std::to_string(std::min(nt, np)) + ")");
    }
    if (!tags) return;
    for (Py_ssize_t i = 0; i < nt; ++i) {
        PyObject* docs[2] = {item(truth, i), item(predicted, i)};
        const char* names[2] = {"true", "pred"};
        for (int k = 0; k < 2; ++k) {
            if (!is_sequence(docs[k])) {
                fault(ErrorCode::schema_violation, std::string("/") + names[k] + "/" + std::to_string(i),
                      std::string(names[k]) + "[" + std::to_string(i) + "] must be a list of tags (str), got " +
                          type_name(docs[k]));
            }
        }
        if (length(docs[0]) != length(docs[1])) {
            fault(ErrorCode::schema_violation, "/pred/" + std::to_string(i),
                  "document " + std::to_string(i) + " has " + std::to_string(length(docs[0])) + " tags in true and " +
                      std::to_string(length(docs[1])) + " in pred: tag the same tokens in both");
        }
    }
}

// `where` and `pointer` make the message's parts: only when there is a fault (built for
// every entity, they were a tenth of evaluate_schemas' time on spans: perf).
template <class Where, class Pointer>
int64_t read_offset(PyObject* entity_value, const char* key, const Where& where, const Pointer& pointer) {
    if (!PyLong_CheckExact(entity_value)) {
        fault(ErrorCode::schema_violation, pointer() + "/" + key,
              where() + "['" + key + "'] must be an int, got " + type_name(entity_value));
    }
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(entity_value, &overflow);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow != 0) return overflow > 0 ? INT64_MAX : INT64_MIN;  // out of range either way
    return v;
}

void read_spans(PyObject* docs, const char* name, Labels& labels, std::vector<SchemaEntity>& out,
                std::vector<size_t>& begins) {
    // The interned keys (immortal once interned: kept for the module's life on purpose).
    static PyObject* const interned[3] = {PyUnicode_InternFromString("label"), PyUnicode_InternFromString("start"),
                                          PyUnicode_InternFromString("end")};
    const Py_ssize_t n = length(docs);
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* doc = item(docs, i);
        const auto at = [&] { return std::string(name) + "[" + std::to_string(i) + "]"; };
        const auto doc_pointer = [&] { return std::string("/") + name + "/" + std::to_string(i); };
        if (!is_sequence(doc)) {
            fault(ErrorCode::schema_violation, doc_pointer(),
                  at() + " must be a list of entities {'label', 'start', 'end'}, got " + type_name(doc));
        }
        const Py_ssize_t count = length(doc);
        if (count > static_cast<Py_ssize_t>(UINT32_MAX)) {
            fault(ErrorCode::input_limit, doc_pointer(), at() + " has more than 4,294,967,295 entities: split it");
        }
        for (Py_ssize_t k = 0; k < count; ++k) {
            PyObject* entity = item(doc, k);
            const auto where = [&] { return at() + "[" + std::to_string(k) + "]"; };
            const auto pointer = [&] { return doc_pointer() + "/" + std::to_string(k); };
            if (!PyDict_Check(entity)) {
                fault(ErrorCode::schema_violation, pointer(),
                      where() + " must be a dict: " + span_shape + "; got " + type_name(entity));
            }
            PyObject* values[3] = {nullptr, nullptr, nullptr};  // label, start, end
            static const char* const keys[3] = {"label", "start", "end"};
            PyObject *key = nullptr, *value = nullptr;
            Py_ssize_t position = 0;
            while (PyDict_Next(entity, &position, &key, &value)) {  // the storage: no Python code runs
                if (!PyUnicode_CheckExact(key)) continue;
                int m = 0;
                while (m < 3 && key != interned[m]) ++m;  // keys written in source are these objects
                if (m == 3) {
                    for (m = 0; m < 3 && PyUnicode_CompareWithASCIIString(key, keys[m]) != 0; ++m) {
                    }
                }
                if (m < 3) values[m] = value;
            }
            for (int m = 0; m < 3; ++m) {
                if (values[m] == nullptr) {
                    fault(ErrorCode::schema_violation, pointer(),
                          where() + " has no '" + keys[m] + "': " + span_shape);
                }
            }
            if (!PyUnicode_CheckExact(values[0])) {
                fault(ErrorCode::schema_violation, pointer() + "/label",
                      where() + "['label'] must be a str, got " + type_name(values[0]));
            }
            const int64_t start = read_offset(values[1], "start", where, pointer);
            const int64_t end = read_offset(values[2], "end", where, pointer);
            if (start < 0) {
                fault(ErrorCode::invalid_span, pointer() + "/start",
                      where() + "['start'] is " + text_of(values[1]) + ": offsets start at 0");
            }
            for (int m = 1; m < 3; ++m) {
                if ((m == 1 ? start : end) > max_offset) {
                    fault(ErrorCode::invalid_span, pointer() + "/" + keys[m],
                          where() + "['" + keys[m] + "'] is " + text_of(values[m]) +
                              ", above 9007199254740991, the largest offset evalcore reads");
                }
            }
            if (end < start) {
                fault(ErrorCode::invalid_span, pointer() + "/end",
                      where() + " ends at " + text_of(values[2]) + " before it starts at " + text_of(values[1]) +
                          ": 'end' is inclusive (an entity of one token has end == start)");
            }
            const uint32_t label = labels.id(values[0]);
            labels.seen[label] = 1;
            out.push_back(SchemaEntity{start, end, label, static_cast<uint32_t>(k)});
        }
        begins.push_back(out.size());
    }
}

// nervaluate's list loader (see reference/schemas/reading.py, read_tags).
void read_tags(PyObject* docs, const char* name, Labels& labels, StrTable& tags, std::vector<BioTag>& infos,
               std::vector<SchemaEntity>& out, std::vector<size_t>& begins) {
    const Py_ssize_t n = length(docs);
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* doc = item(docs, i);
        const Py_ssize_t count = length(doc);
        const size_t first = out.size();
        BioChunker chunks(out);
        for (Py_ssize_t j = 0; j < count; ++j) {
            PyObject* tag = item(doc, j);
            if (!PyUnicode_CheckExact(tag)) {
                fault(ErrorCode::schema_violation, std::string("/") + name + "/" + std::to_string(i) + "/" + std::to_string(j),
                      std::string(name) + "[" + std::to_string(i) + "][" + std::to_string(j) +
                          "] must be a str tag, got " + type_name(tag));
            }
#if PY_VERSION_HEX < 0x030C0000
            if (PyUnicode_READY(tag) < 0) throw py::error_already_set();
#endif
            bool added = false;
            const uint32_t id = tags.intern(tag, &added);
            if (added) {
                const Py_ssize_t size = PyUnicode_GET_LENGTH(tag);
                const Py_UCS4 c0 = size > 0 ? PyUnicode_READ_CHAR(tag, 0) : 0, c1 = size > 1 ? PyUnicode_READ_CHAR(tag, 1) : 0;
                py::object rest = py::reinterpret_steal<py::object>(PyUnicode_Substring(tag, std::min<Py_ssize_t>(2, size), size));
                if (!rest) throw py::error_already_set();
                infos.push_back(BioTag{PyUnicode_CompareWithASCIIString(tag, "O") == 0, c0 == 'B',
                                       (c0 == 'B' || c0 == 'I') && c1 == '-', labels.id(rest.ptr())});
            }
            if (!chunks.add(infos[id], j)) {
                fault(ErrorCode::schema_violation, std::string("/") + name + "/" + std::to_string(i) + "/" + std::to_string(j),
                      std::string(name) + "[" + std::to_string(i) + "][" + std::to_string(j) + "] is " + repr_of(tag) +
                          ", which starts an entity: it must be 'O', or 'B-' or 'I-' and a type (BIO tags, read as "
                          "nervaluate's list loader reads them); convert IOB1, IOE, IOBES or BILOU tags to BIO first");
            }
        }
        chunks.finish(count - 1);
        for (size_t k = first; k < out.size(); ++k) labels.seen[out[k].label] = 1;
        begins.push_back(out.size());
    }
}

py::dict schema_counts(const SchemaPairs& pairs, int64_t predicted, int64_t truth, bool partial, bool half_weight) {
    const int64_t incorrect = partial ? 0 : pairs.other, partial_count = partial ? pairs.other : 0;
    const int64_t matched = pairs.correct + pairs.other;
    const double credit = half_weight ? static_cast<double>(pairs.correct) + 0.5 * static_cast<double>(partial_count)
                                      : static_cast<double>(pairs.correct);
    const double precision = predicted > 0 ? credit / static_cast<double>(predicted) : 0.0;
    const double recall = truth > 0 ? credit / static_cast<double>(truth) : 0.0;
    const double f1 = precision + recall > 0 ? 2.0 * (precision * recall) / (precision + recall) : 0.0;
    py::dict out;
    out["correct"] = pairs.correct;
    out["incorrect"] = incorrect;
    out["partial"] = partial_count;
    out["missed"] = truth - matched;
    out["spurious"] = predicted - matched;
    out["possible"] = truth;
    out["actual"] = predicted;
    out["precision"] = precision;
    out["recall"] = recall;
    out["f1"] = f1;
    return out;
}

py::dict schema_results(const SchemaTotals& totals) {
    // strict from the strict matching, exact and partial from the bounds one, ent_type its own
    static const int source[4] = {0, 1, 1, 2};
    py::dict out;
    for (int s = 0; s < 4; ++s) {
        out[schema_names[s]] = schema_counts(totals.pairs[source[s]], totals.predicted, totals.truth, s == 2, s >= 2);
    }
    return out;
}

}  // namespace

void register_schemas(py::module_& m) {
    m.def(
        "evaluate_schemas",
        [](py::handle truth, py::handle predicted, py::handle label_list, const std::string& input, unsigned threads,
           int64_t step_limit) {
            Labels labels;
            if (!label_list.is_none()) {
                labels.keep_all = false;
                for (py::handle label : label_list) labels.kept[labels.id(label.ptr())] = 1;
            }
            SchemaCorpus corpus;
            if (input == "conll") {
                read_conll_corpus(truth.ptr(), predicted.ptr(), threads, labels, corpus);
            } else if (input == "tags") {
                check_corpus(truth.ptr(), predicted.ptr(), true);
                StrTable tag_table;
                std::vector<BioTag> infos;
                read_tags(truth.ptr(), "true", labels, tag_table, infos, corpus.truth, corpus.truth_begin);
                read_tags(predicted.ptr(), "pred", labels, tag_table, infos, corpus.predicted, corpus.predicted_begin);
            } else {
                check_corpus(truth.ptr(), predicted.ptr(), false);
                read_spans(truth.ptr(), "true", labels, corpus.truth, corpus.truth_begin);
                read_spans(predicted.ptr(), "pred", labels, corpus.predicted, corpus.predicted_begin);
            }
            corpus.kept = labels.kept;
            SchemaOutcome outcome;
            {
                py::gil_scoped_release release;
                outcome = schemas_evaluate(corpus, step_limit, threads);
            }
            if (outcome.first_fault != SIZE_MAX) {
                const std::string i = std::to_string(outcome.first_fault);
                fault(ErrorCode::matching_limit, "/pred/" + i,
                      "document " + i + ": matching its entities needs more than " + with_commas(step_limit) +
                          " steps (limits matching_steps): many of its entities overlap one another; split the "
                          "document (into sentences), or raise the limit");
            }
            std::vector<uint32_t> used;
            for (uint32_t id = 0; id < labels.kept.size(); ++id) {
                if (labels.kept[id] && labels.seen[id]) used.push_back(id);
            }
            std::sort(used.begin(), used.end(), [&](uint32_t a, uint32_t b) {
                return PyUnicode_Compare(labels.table.object(a), labels.table.object(b)) < 0;
            });
            py::dict per_label;
            for (uint32_t id : used) {
                per_label[py::handle(labels.table.object(id))] = schema_results(outcome.labels[id]);
            }
            py::dict out;
            out["documentCount"] = corpus.documents();
            out["input"] = input;
            out["matching"] = "maximum";
            out["overall"] = schema_results(outcome.overall);
            out["perLabel"] = per_label;
            return out;
        },
        py::arg("true"), py::arg("pred"), py::arg("labels"), py::arg("input"), py::arg("threads"),
        py::arg("step_limit"), "nervaluate's schemas over a corpus; use evalcore.evaluate_schemas.");
}

}  // namespace evalcore
