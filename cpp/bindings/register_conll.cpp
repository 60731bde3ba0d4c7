// issue 24, CoNLL files:
//   _core.read_conll(reader, name, columns, max_line_bytes)
//     -> (tokens, tags, lines, documents), the lists evalcore.read_conll returns;
//   _core.evaluate_conll(gold, gold_name, pred, pred_name, columns, max_line_bytes, scheme, strict, suffix)
//     -> (report, accuracy, types, supports, predicted, matched, tokens, correct_tokens, sentences, documents,
//         other_prefix_tags).
// `reader`, `gold` and `pred` are binary file objects (open() or gzip.open()); their read()
// is called for 1 MiB at a time with the GIL taken for the call only. evaluate_conll runs
// without the GIL otherwise and builds no Python object per token. The messages are
// cpp/conll/'s, which are the reference's (python/evalcore/reference/conll/).
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "conll/evaluate.hpp"
#include "conll/reader.hpp"
#include "register.hpp"

namespace evalcore {
namespace {

// A Python binary file object as a ChunkSource: safe to call with or without the GIL held.
class PythonFileSource : public conll::ChunkSource {
public:
    explicit PythonFileSource(py::handle file) : file_(file) {}
    size_t read(char* into, size_t capacity) override {
        py::gil_scoped_acquire gil;
        py::object chunk = file_.attr("read")(capacity);
        if (!PyBytes_Check(chunk.ptr())) {
            throw py::type_error("the CoNLL source's read() returned " + std::string(Py_TYPE(chunk.ptr())->tp_name) +
                                 ", not bytes: open the file in binary mode");
        }
        const auto size = static_cast<size_t>(PyBytes_GET_SIZE(chunk.ptr()));
        if (size > capacity) throw py::value_error("the CoNLL source's read() returned more bytes than asked for");
        std::memcpy(into, PyBytes_AS_STRING(chunk.ptr()), size);
        return size;
    }

private:
    py::handle file_;
};

py::str decoded(std::string_view utf8) {  // valid UTF-8: the reader checked every line
    PyObject* text = PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()), nullptr);
    if (text == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(text);
}

template <class Body>
auto input_errors(Body&& body) -> decltype(body()) {
    try {
        return body();
    } catch (const conll::InputError& error) {
        throw py::value_error(error.what());
    }
}

}  // namespace

void register_conll(py::module_& m) {
    m.def(
        "read_conll",
        [](py::handle reader, const std::string& name, const std::vector<int64_t>& columns, int64_t max_line_bytes) {
            return input_errors([&] {
                PythonFileSource source(reader);
                conll::SentenceReader sentences(source, name, columns, max_line_bytes);
                sentences.record_documents = true;
                py::list tokens, lines, tags;
                std::vector<py::list> tag_columns(columns.size());
                for (auto& column : tag_columns) tags.append(column);
                // Tags repeat: one str object per distinct tag text.
                std::unordered_map<std::string, py::str> interned;
                conll::Sentence sentence;
                while (sentences.next(sentence)) {
                    const size_t n = sentence.size();
                    py::list words(n);
                    std::vector<py::list> sentence_tags;
                    for (size_t k = 0; k < columns.size(); ++k) sentence_tags.emplace_back(n);
                    for (size_t j = 0; j < n; ++j) {
                        words[j] = decoded(sentence.token(j));
                        for (size_t k = 0; k < columns.size(); ++k) {
                            const std::string_view tag = sentence.tag(j, k);
                            auto found = interned.find(std::string(tag));
                            if (found == interned.end()) found = interned.emplace(std::string(tag), decoded(tag)).first;
                            sentence_tags[k][j] = found->second;
                        }
                    }
                    tokens.append(words);
                    for (size_t k = 0; k < columns.size(); ++k) tag_columns[k].append(sentence_tags[k]);
                    lines.append(py::int_(sentence.first_line));
                }
                py::list documents;
                for (const int64_t start : sentences.document_starts()) documents.append(py::int_(start));
                return py::make_tuple(tokens, tags, lines, documents);
            });
        },
        py::arg("reader"), py::arg("name"), py::arg("columns"), py::arg("max_line_bytes"),
        "The sentences of a CoNLL file as (tokens, tags, lines, documents); use evalcore.read_conll.");

    m.def(
        "evaluate_conll",
        [](py::handle gold, const std::string& gold_name, py::handle pred, const std::string& pred_name,
           const std::vector<int64_t>& columns, int64_t max_line_bytes, int scheme_code, bool strict, bool suffix) {
            if (scheme_code < 0 || scheme_code > 5) throw py::value_error("scheme code out of range (auto is refused)");
            const bool two_files = !pred.is_none();
            if (columns.size() != 2) throw py::value_error("columns must hold two column numbers");
            conll::EvaluationOptions options;
            options.scheme = static_cast<tags::Scheme>(scheme_code);
            options.strict = strict;
            options.suffix = suffix;
            conll::ConllCounts result;
            tags::TagReport report;
            input_errors([&] {
                PythonFileSource gold_source(gold), pred_source(pred);
                conll::SentenceReader gold_reader(gold_source, gold_name,
                                                  two_files ? std::vector<int64_t>{columns[0]} : columns, max_line_bytes);
                conll::SentenceReader pred_reader(pred_source, pred_name, {columns[1]}, max_line_bytes);
                py::gil_scoped_release release;
                result = conll::evaluate_conll(gold_reader, two_files ? &pred_reader : nullptr, options);
                report = tags::seqeval_report(result.counts);
                return 0;
            });
            py::tuple core = tag_report_tuple(result.counts, report, result.type_names, result.correct_tokens, result.tokens);
            py::list matched;
            for (const int64_t n : result.counts.matched) matched.append(py::int_(n));
            return py::make_tuple(core[0], core[1], core[2], core[3], core[4], matched, py::int_(result.tokens),
                                  py::int_(result.correct_tokens), py::int_(result.sentences), py::int_(result.documents),
                                  py::int_(result.other_prefix_tags));
        },
        py::arg("gold"), py::arg("gold_name"), py::arg("pred"), py::arg("pred_name"), py::arg("columns"),
        py::arg("max_line_bytes"), py::arg("scheme"), py::arg("strict"), py::arg("suffix"),
        "seqeval's report of a CoNLL file (or two), streamed; use evalcore.evaluate_tags.");
}

}  // namespace evalcore
