// issue 24 (tags): _core.tags_to_spans(tags, scheme, strict, suffix) -> (spans, nested)
// and _core.evaluate_tags(y_true, y_pred, scheme, strict, suffix, threads)
//   -> (report, accuracy, types, supports, predicted).
// The lists are read once with the GIL held: each distinct str object is looked up by its
// address, each distinct text interned once, so the core sees tag IDs only (no reference
// to a caller's object is kept across the GIL's release). Messages are the reference's
// (python/evalcore/reference/tags/), word for word.
#include <algorithm>
#include <string>
#include <vector>

#include "common/parallel.hpp"
#include "conll/reader.hpp"
#include "register.hpp"
#include "tags/tags.hpp"

namespace evalcore {
namespace {

using tags::Scheme;
using tags::TagCorpus;
using tags::TagTable;

std::string type_name(PyObject* o) {
    return py::str(py::handle(reinterpret_cast<PyObject*>(Py_TYPE(o))).attr("__name__"));
}

// (Python's f"{n:,}"; register_tags once had its own, which wrote 12 as "1,2")
using conll::commas;

std::string repr_of(const std::string& utf8) {
    py::str text = py::reinterpret_steal<py::str>(
        PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()), nullptr));
    if (!text) throw py::error_already_set();
    return py::repr(text);
}

// Reads str tags into a TagTable: a direct-mapped cache from object address to tag ID in
// front of the table's text lookup. Most corpora repeat a few str objects ('O' above all),
// which hit; tags made one by one (f-strings, str.split of file lines) are distinct objects,
// each a miss that costs one text lookup and overwrites its slot. A growing table of every
// address seen (the first version) held 600,000 of them for bench_tags.py's corpus, and its
// probes and page faults were half of evaluate_tags' time (perf).
class TagReader {
public:
    explicit TagReader(TagTable& table) : table_(table), keys_(slots, nullptr), ids_(slots, 0) {}

    template <class Where>
    int32_t read(PyObject* tag, const Where& where) {
        const size_t slot = (reinterpret_cast<uintptr_t>(tag) >> 4) & (slots - 1);
        if (keys_[slot] == tag) return ids_[slot];
        if (!PyUnicode_Check(tag)) throw py::type_error(where() + " must be a str tag; got " + type_name(tag));
        if (PyUnicode_GET_LENGTH(tag) == 0) {
            throw py::value_error(where() + " is an empty string: a tag is 'O' or a prefix and a type, such as 'B-PER'");
        }
        Py_ssize_t size = 0;
        const char* utf8 = PyUnicode_AsUTF8AndSize(tag, &size);
        if (utf8 == nullptr) {
            PyErr_Clear();
            throw py::value_error(where() + " holds a lone surrogate: a tag must be valid Unicode (encodable as UTF-8)");
        }
        const int32_t id = table_.intern(std::string_view(utf8, static_cast<size_t>(size)));
        // Valid while the lists are read: they hold every tag, and no Python code runs.
        keys_[slot] = tag;
        ids_[slot] = id;
        return id;
    }

private:
    static constexpr size_t slots = 4096;  // 48 KiB: in L2 with the tag table
    TagTable& table_;
    std::vector<PyObject*> keys_;  // on the heap: a Python thread's stack may be small
    std::vector<int32_t> ids_;
};

std::string where(const char* name, bool nested, Py_ssize_t i, Py_ssize_t j) {
    return nested ? std::string(name) + "[" + std::to_string(i) + "][" + std::to_string(j) + "]"
                  : std::string(name) + "[" + std::to_string(j) + "]";
}

// One sentence's tags (a list) appended to `side`; `positions` is the running total.
void read_sentence(TagReader& reader, TagCorpus& side, const char* name, bool nested, Py_ssize_t i, PyObject* list,
                   int64_t positions) {
    const Py_ssize_t n = PyList_GET_SIZE(list);
    if (static_cast<int64_t>(n) + 1 > tags::max_positions - positions) {
        throw py::value_error(std::string(name) + "[" + std::to_string(i) + "]: the tags reach " +
                              commas(tags::max_positions) +
                              " positions (tags plus one per sentence) at this sentence, the most one call takes; "
                              "evaluate the corpus in parts");
    }
    for (Py_ssize_t j = 0; j < n; ++j) {
        side.tags.push_back(reader.read(PyList_GET_ITEM(list, j), [&] { return where(name, nested, i, j); }));
    }
    side.lengths.push_back(static_cast<int64_t>(n));
}

// The strict mode's checks (auto_detect first): the message of the first fault, or "".
std::string strict_fault(const TagCorpus& side, const TagTable& table, const tags::ParsedTags& parsed,
                         const char* name, bool nested, bool suffix, Scheme scheme) {
    int64_t k = tags::first_refused(side, parsed, scheme);
    if (k < 0) return "";
    int64_t i = 0, j = 0;
    side.locate(k, i, j);
    const std::string letters = tags::prefix_letters(tags::allowed_prefixes(scheme));
    return where(name, nested, static_cast<Py_ssize_t>(i), static_cast<Py_ssize_t>(j)) + " = " +
           repr_of(table.text(side.tags[static_cast<size_t>(k)])) + ": mode='strict' with scheme '" +
           tags::scheme_name(scheme) + "' takes tags whose " + (suffix ? "last" : "first") + " character is one of " +
           letters + ", as seqeval does; pass the scheme the data is tagged in, or use mode='default', which reads any tag";
}

// The scheme strict mode uses: `scheme`, or what auto_detect finds in `side`.
Scheme resolve_scheme(const TagCorpus& side, const TagTable& table, const tags::ParsedTags& parsed, const char* name,
                      bool nested, bool suffix, Scheme scheme) {
    if (scheme != Scheme::Auto) return scheme;
    const tags::Detection d = tags::detect_scheme(side, parsed);
    if (d.unknown_at >= 0) {
        int64_t i = 0, j = 0;
        side.locate(d.unknown_at, i, j);
        throw py::value_error(where(name, nested, static_cast<Py_ssize_t>(i), static_cast<Py_ssize_t>(j)) + " = " +
                              repr_of(table.text(side.tags[static_cast<size_t>(d.unknown_at)])) +
                              ": scheme='auto' reads the " + (suffix ? "last" : "first") + " character of each tag of " +
                              name + " as a prefix (one of B, E, I, L, O, S, U) and this one has none; pass "
                              "mode='default', which reads any tag");
    }
    if (!d.found) {
        throw py::value_error(std::string("scheme='auto' cannot tell the scheme of ") + name +
                              ": its tags have the prefixes " + tags::prefix_letters(d.prefixes) +
                              ", which fit none of IOB2, IOE2, IOBES and BILOU (seqeval's auto_detect); pass the "
                              "scheme (IOB1 and IOE1 are never detected)");
    }
    return d.scheme;
}

Scheme scheme_of(int code) {
    if (code < 0 || code > 6) throw py::value_error("unknown scheme code");
    return static_cast<Scheme>(code);
}

std::vector<tags::Chunk> chunks_of(const TagCorpus& side, const tags::ParsedTags& parsed, bool strict, Scheme scheme) {
    return strict ? tags::strict_chunks(side, parsed, scheme) : tags::default_chunks(side, parsed);
}

py::dict score_row(const tags::ScoreRow& row, const py::str keys[4]) {
    py::dict d;
    d[keys[0]] = py::float_(row.precision);
    d[keys[1]] = py::float_(row.recall);
    d[keys[2]] = py::float_(row.f1);
    d[keys[3]] = py::int_(row.support);
    return d;
}

}  // namespace

py::tuple tag_report_tuple(const tags::TypeCounts& counts, const tags::TagReport& report,
                           const std::vector<std::string>& type_names, int64_t correct, int64_t total) {
    const py::str keys[4] = {py::str("precision"), py::str("recall"), py::str("f1-score"), py::str("support")};
    py::dict out;
    py::list types, supports, predicted_counts;
    for (size_t k = 0; k < counts.types.size(); ++k) {
        py::str name(type_names[static_cast<size_t>(counts.types[k])]);
        out[name] = score_row(report.rows[k], keys);
        types.append(name);
        supports.append(py::int_(counts.supports[k]));
        predicted_counts.append(py::int_(counts.predicted[k]));
    }
    out[py::str("micro avg")] = score_row(report.micro, keys);
    out[py::str("macro avg")] = score_row(report.macro, keys);
    out[py::str("weighted avg")] = score_row(report.weighted, keys);
    const double accuracy = static_cast<double>(correct) / static_cast<double>(total);
    return py::make_tuple(out, accuracy, types, supports, predicted_counts);
}

void register_tags(py::module_& m) {
    m.def(
        "tags_to_spans",
        [](py::handle tags_list, int scheme_code, bool strict, bool suffix) {
            const Scheme scheme = scheme_of(scheme_code);
            PyObject* tags = tags_list.ptr();
            if (!PyList_Check(tags)) {
                throw py::type_error("tags must be a list of str tags (one sentence) or a list of such lists (a corpus); got " +
                                     type_name(tags));
            }
            const Py_ssize_t n = PyList_GET_SIZE(tags);
            bool nested = false;
            for (Py_ssize_t i = 0; i < n && !nested; ++i) nested = PyList_Check(PyList_GET_ITEM(tags, i));
            TagTable table;
            TagReader reader(table);
            TagCorpus side;
            if (!nested) {
                read_sentence(reader, side, "tags", false, 0, tags, 0);
            } else {
                int64_t positions = 0;
                for (Py_ssize_t i = 0; i < n; ++i) {
                    PyObject* sentence = PyList_GET_ITEM(tags, i);
                    if (!PyList_Check(sentence)) {
                        throw py::type_error("tags[" + std::to_string(i) +
                                             "] must be a list of str tags, as the other sentences of tags are; got " +
                                             type_name(sentence));
                    }
                    read_sentence(reader, side, "tags", true, i, sentence, positions);
                    positions += PyList_GET_SIZE(sentence) + 1;
                }
            }
            const tags::ParsedTags parsed = tags::parse_tags(table, strict, suffix);
            Scheme used = scheme;
            if (strict) {
                used = resolve_scheme(side, table, parsed, "tags", nested, suffix, scheme);
                const std::string fault = strict_fault(side, table, parsed, "tags", nested, suffix, used);
                if (!fault.empty()) throw py::value_error(fault);
            }
            std::vector<tags::Chunk> chunks;
            {
                py::gil_scoped_release release;
                chunks = chunks_of(side, parsed, strict, used);
            }
            std::vector<py::object> labels(parsed.type_names.size());  // null until a chunk has the type
            const py::str label("label"), start("start"), end("end");
            py::list spans(chunks.size());
            for (size_t c = 0; c < chunks.size(); ++c) {
                const auto t = static_cast<size_t>(chunks[c].type);
                if (!labels[t]) labels[t] = py::str(parsed.type_names[t]);
                py::dict span;
                span[label] = labels[t];
                span[start] = py::int_(chunks[c].start);
                span[end] = py::int_(chunks[c].end);
                spans[c] = std::move(span);
            }
            return py::make_tuple(spans, nested);
        },
        py::arg("tags"), py::arg("scheme"), py::arg("strict"), py::arg("suffix"),
        "The chunks of tags as (spans, nested); use evalcore.tags_to_spans.");

    m.def(
        "evaluate_tags",
        [](py::handle true_list, py::handle pred_list, int scheme_code, bool strict, bool suffix, unsigned threads) {
            const Scheme scheme = scheme_of(scheme_code);
            PyObject* y_true = true_list.ptr();
            PyObject* y_pred = pred_list.ptr();
            for (const auto& [name, value] : {std::pair<const char*, PyObject*>{"y_true", y_true}, {"y_pred", y_pred}}) {
                if (!PyList_Check(value)) {
                    throw py::type_error(std::string(name) + " must be a list of sentences, each a list of str tags; got " +
                                         type_name(value));
                }
            }
            const Py_ssize_t n = PyList_GET_SIZE(y_true);
            if (PyList_GET_SIZE(y_pred) != n) {
                throw py::value_error("y_true has " + commas(n) + " sentences but y_pred has " +
                                      commas(PyList_GET_SIZE(y_pred)) + ": they pair up sentence by sentence");
            }
            TagTable table;
            TagReader reader(table);
            TagCorpus truth, predicted;
            // Sized once (the sentences' lengths, lists or not: a wrong one is refused below).
            size_t total = 0;
            for (Py_ssize_t i = 0; i < n; ++i) {
                PyObject* a = PyList_GET_ITEM(y_true, i);
                if (PyList_Check(a)) total += static_cast<size_t>(PyList_GET_SIZE(a));
            }
            if (total <= static_cast<size_t>(tags::max_positions)) {
                truth.tags.reserve(total);
                predicted.tags.reserve(total);
            }
            truth.lengths.reserve(static_cast<size_t>(n));
            predicted.lengths.reserve(static_cast<size_t>(n));
            int64_t positions = 0;
            for (Py_ssize_t i = 0; i < n; ++i) {
                PyObject* a = PyList_GET_ITEM(y_true, i);
                PyObject* b = PyList_GET_ITEM(y_pred, i);
                for (const auto& [name, value] : {std::pair<const char*, PyObject*>{"y_true", a}, {"y_pred", b}}) {
                    if (!PyList_Check(value)) {
                        throw py::type_error(std::string(name) + "[" + std::to_string(i) +
                                             "] must be a list of str tags; got " + type_name(value));
                    }
                }
                if (PyList_GET_SIZE(a) != PyList_GET_SIZE(b)) {
                    throw py::value_error("y_true[" + std::to_string(i) + "] has " + commas(PyList_GET_SIZE(a)) +
                                          " tags but y_pred[" + std::to_string(i) + "] has " + commas(PyList_GET_SIZE(b)) +
                                          ": a prediction has one tag per token of its sentence");
                }
                read_sentence(reader, truth, "y_true", true, i, a, positions);
                read_sentence(reader, predicted, "y_pred", true, i, b, positions);
                positions += PyList_GET_SIZE(a) + 1;
            }
            if (truth.tags.empty()) {
                throw py::value_error("y_true holds no tag (no sentence, or only empty ones): token accuracy is undefined "
                                      "(seqeval's accuracy_score divides by zero); evaluate at least one token");
            }
            const tags::ParsedTags parsed = tags::parse_tags(table, strict, suffix);
            Scheme used = scheme;
            if (strict) {
                used = resolve_scheme(truth, table, parsed, "y_true", true, suffix, scheme);
                for (const auto& [name, side] : {std::pair<const char*, const TagCorpus*>{"y_true", &truth},
                                                 {"y_pred", &predicted}}) {
                    const std::string fault = strict_fault(*side, table, parsed, name, true, suffix, used);
                    if (!fault.empty()) throw py::value_error(fault);
                }
            }
            std::vector<tags::Chunk> true_chunks, pred_chunks;
            tags::TypeCounts counts;
            tags::TagReport report;
            int64_t correct = 0;
            {
                py::gil_scoped_release release;
                // The two sides are chunked independently: two threads give the same chunks.
                on_threads(threads >= 2 ? 2u : 1u, [&](unsigned index) {
                    if (threads < 2 || index == 0) true_chunks = chunks_of(truth, parsed, strict, used);
                    if (threads < 2 || index == 1) pred_chunks = chunks_of(predicted, parsed, strict, used);
                });
                counts = tags::count_chunks(true_chunks, pred_chunks, parsed);
                report = tags::seqeval_report(counts);
                for (size_t k = 0; k < truth.tags.size(); ++k) correct += truth.tags[k] == predicted.tags[k];
            }
            return tag_report_tuple(counts, report, parsed.type_names, correct, static_cast<int64_t>(truth.tags.size()));
        },
        py::arg("y_true"), py::arg("y_pred"), py::arg("scheme"), py::arg("strict"), py::arg("suffix"), py::arg("threads"),
        "seqeval's report of a tagged corpus as (report, accuracy, types, supports, predicted); use evalcore.evaluate_tags.");
}

}  // namespace evalcore
