// issue 24, evaluate_schemas(input="conll"): nervaluate's conll strings, read in place
// (cpp/schemas/conll_text.cpp) on up to two threads with the GIL released, then checked across
// the two sides and told as python/evalcore/reference/schemas/conll_text.py tells them, in its
// order: the types, each document's line count, the document counts, true's fault, pred's.
#include <algorithm>
#include <string>

#include "common/parallel.hpp"
#include "schema_reading.hpp"
#include "schemas/conll_text.hpp"

namespace evalcore {
namespace {

using namespace schema_reading;

const char* const conll_form =
    "a str of CoNLL lines (input='conll', nervaluate's conll loader: a token, a tab and its BIO tag on each line, "
    "documents separated by a blank line)";
constexpr size_t shown_units = 60;  // conll_text.SHOWN: the code points of a line or tag a message shows

// The text's code points [begin, end) in a message: repr, cut after shown_units.
std::string shown(PyObject* text, size_t begin, size_t end) {
    const size_t cut = std::min(end, begin + shown_units);
    py::object part = py::reinterpret_steal<py::object>(
        PyUnicode_Substring(text, static_cast<Py_ssize_t>(begin), static_cast<Py_ssize_t>(cut)));
    if (!part) throw py::error_already_set();
    return repr_of(part.ptr()) + (end > cut ? "..." : "");
}

void report(PyObject* text, const std::string& name, const ConllTextSide& side) {
    if (side.fault == ConllTextFault::none) return;
    const std::string document = std::to_string(side.fault_document), offset = std::to_string(side.fault_offset);
    const std::string pointer = "/" + name + "/" + document + "/" + offset;
    const std::string where =
        name + " line " + std::to_string(side.fault_line) + " (document " + document + ", offset " + offset + ")";
    const std::string what = shown(text, side.fault_begin, side.fault_end);
    if (side.fault == ConllTextFault::no_tab) {
        fault(ErrorCode::schema_violation, pointer,
              where + " has no tab: " + what +
                  "; a line is a token, a tab and its BIO tag (nervaluate's conll loader reads the second "
                  "tab-separated field): separate the token and its tag by a tab");
    }
    // conll_text._CRLF: nervaluate splits lines at "\n" alone, so CRLF text gives tags like "O\r"
    const bool crlf = side.fault_end > side.fault_begin &&
                      PyUnicode_READ_CHAR(text, static_cast<Py_ssize_t>(side.fault_end - 1)) == '\r';
    fault(ErrorCode::schema_violation, pointer,
          where + " has the tag " + what +
              ", which starts an entity: it must be 'O', or 'B-' or 'I-' and a type (BIO tags, read as nervaluate's "
              "conll loader reads them); convert IOB1, IOE, IOBES or BILOU tags to BIO first" +
              (crlf ? "; its line ends in '\\r\\n': give the string '\\n' line ends (text.replace('\\r\\n', '\\n'))"
                    : ""));
}

// Offsets are line indices, so the two sides must hold the same lines document by document.
void check_sides(const ConllTextSide& truth, const ConllTextSide& predicted) {
    const size_t nt = truth.documents(), np = predicted.documents();
    int64_t first_line = 1;
    for (size_t i = 0; i < std::min(nt, np); ++i) {
        const int64_t t = truth.line_counts[i], p = predicted.line_counts[i];
        if (t != p) {
            fault(ErrorCode::schema_violation, "/pred/" + std::to_string(i),
                  "document " + std::to_string(i) + " (from line " + std::to_string(first_line) + " of both) has " +
                      std::to_string(t) + " lines in true and " + std::to_string(p) +
                      " in pred: give both the same lines, a token each, and separate documents by one blank line "
                      "(a third newline, or a line of spaces, is a line of the document: it counts in nervaluate's "
                      "offsets)");
        }
        first_line += t + 1;
    }
    if (nt != np) {
        const std::string shorter = np < nt ? "pred" : "true", longer = np < nt ? "true" : "pred";
        fault(ErrorCode::schema_violation, "/" + shorter,
              "true has " + std::to_string(nt) + " documents and pred has " + std::to_string(np) +
                  " (documents are separated by a blank line): give one document of predictions for each true one (" +
                  shorter + " has none for document " + std::to_string(std::min(nt, np)) + ", which starts at line " +
                  std::to_string(first_line) + " of " + longer + ")");
    }
}

// One side's entities into the corpus, their labels as the label table's ids.
void take_side(PyObject* text, ConllTextSide& side, Labels& labels, std::vector<SchemaEntity>& entities,
               std::vector<size_t>& begins) {
    std::vector<uint32_t> ids;
    ids.reserve(side.labels.size());
    for (const auto& [begin, end] : side.labels) {
        py::object label = py::reinterpret_steal<py::object>(
            PyUnicode_Substring(text, static_cast<Py_ssize_t>(begin), static_cast<Py_ssize_t>(end)));
        if (!label) throw py::error_already_set();
        ids.push_back(labels.id(label.ptr()));  // the table holds the str
    }
    for (SchemaEntity& entity : side.entities) {
        entity.label = ids[entity.label];
        labels.seen[entity.label] = 1;
    }
    entities = std::move(side.entities);
    begins = std::move(side.begins);
}

}  // namespace

void read_conll_corpus(PyObject* truth, PyObject* predicted, unsigned threads, Labels& labels, SchemaCorpus& corpus) {
    PyObject* const texts[2] = {truth, predicted};
    const char* const names[2] = {"true", "pred"};
    for (int s = 0; s < 2; ++s) {
        if (!PyUnicode_CheckExact(texts[s])) {
            fault(ErrorCode::schema_violation, std::string("/") + names[s],
                  std::string(names[s]) + " must be " + conll_form + "; got " + type_name(texts[s]));
        }
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(texts[s]) < 0) throw py::error_already_set();
#endif
    }
    const void* data[2] = {PyUnicode_DATA(truth), PyUnicode_DATA(predicted)};
    const int kinds[2] = {PyUnicode_KIND(truth), PyUnicode_KIND(predicted)};
    const size_t units[2] = {static_cast<size_t>(PyUnicode_GET_LENGTH(truth)),
                             static_cast<size_t>(PyUnicode_GET_LENGTH(predicted))};
    ConllTextSide sides[2];
    {
        // A str never changes, and the caller holds both while this runs.
        py::gil_scoped_release release;
        const unsigned count = threads >= 2 ? 2 : 1;
        on_threads(count, [&](unsigned index) {
            for (unsigned s = index; s < 2; s += count) read_conll_text(data[s], kinds[s], units[s], sides[s]);
        });
    }
    check_sides(sides[0], sides[1]);
    report(truth, "true", sides[0]);
    report(predicted, "pred", sides[1]);
    take_side(truth, sides[0], labels, corpus.truth, corpus.truth_begin);
    take_side(predicted, sides[1], labels, corpus.predicted, corpus.predicted_begin);
}

}  // namespace evalcore
