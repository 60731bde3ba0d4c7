// evalcore._core: the native core's Python face. Kept thin: each register_*.cpp converts
// Python values at the boundary and releases the GIL around the C++ work.
#include "register.hpp"

PYBIND11_MODULE(_core, m) {
    m.doc() = "evalcore's native core. Use the functions in the evalcore package, not these.";
    evalcore::register_errors(m);
    evalcore::register_json(m);
    evalcore::register_ranking(m);
    evalcore::register_spans(m);
    evalcore::register_score(m);
    evalcore::register_evaluate_json(m);
    evalcore::register_runs(m);
    evalcore::register_exact_sum(m);
    evalcore::register_stats(m);
    evalcore::register_trec_eval(m);
    evalcore::register_judgment_groups(m);
    evalcore::register_preferences(m);
    evalcore::register_schemas(m);  // issue 24: nervaluate's schemas
    evalcore::register_tags(m);  // issue 24 (tags)
    evalcore::register_conll(m);  // issue 24: CoNLL files
    evalcore::register_diversity(m);  // issue 25 item 1: diversity measures
}
