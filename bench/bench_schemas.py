"""Benchmark evalcore.evaluate_schemas against nervaluate's Evaluator on a seeded corpus.

A seeded corpus of sentences (10,000 x 30 tokens by default) with four entity types: true
BIO tags, and predicted ones made from them by moving a boundary, changing a type,
dropping an entity or adding one. Timed, each a median over ``--repeats`` calls, every call
including the reading of the Python lists:

* ``evalcore.evaluate_schemas(true, pred, labels=..., input="tags")`` and the same corpus as
  spans (``{"label", "start", "end"}``, end inclusive), on 1 thread and on every CPU;
* the same tags as CoNLL strings (a line ``w{k}<TAB>{tag}`` a token, documents separated by
  a blank line): ``evaluate_schemas(true_text, pred_text, input="conll")``, and strings of
  the same size whose tags are all ``O`` (nothing to match: the native reading alone);
* nervaluate: ``Evaluator(true, pred, tags=..., loader="list").evaluate()``,
  ``loader="dict"`` on the spans and ``loader="conll"`` on the strings (its four schemas at
  once, as evaluate_schemas);
* the CoNLL strings read into entities in Python, by nervaluate's ConllLoader and by
  evalcore's pure-Python twin (what a Python reader would cost);
* the floor: a Python loop that merely visits every tag of both lists;
* an unfavourable input: documents whose predictions are shifted by one token against
  chains of adjacent true entities, so that every prediction overlaps two true entities
  and the matching has to choose (one component per document, not one per entity).

It says whether evalcore's result equals nervaluate's on the documents where nervaluate's
matching is unambiguous (docs/schemas.md), and how many documents are ambiguous.

Run from the repository root:
  python bench/bench_schemas.py [--sentences N] [--repeats R] [--quick]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
from typing import Any, Dict, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # for measure.py

import evalcore  # noqa: E402
from evalcore.reference.schemas.conll_text import check_conll_corpus, read_conll_documents  # noqa: E402
from evalcore.testing.schemas import is_unambiguous, tags_as_conll  # noqa: E402
from measure import dist_version, median_time  # noqa: E402

TYPES = ["PER", "LOC", "ORG", "MISC"]


def tag_corpus(sentences: int, tokens: int, seed: int = 24) -> Tuple[List[List[str]], List[List[str]]]:
    """True and predicted BIO tags: about one token in three inside an entity of 1-4 tokens."""
    rng = random.Random(seed)
    true: List[List[str]] = []
    pred: List[List[str]] = []
    for _ in range(sentences):
        t_ents, p_ents = [], []
        position = rng.randrange(3)
        while position < tokens:
            length = min(rng.randint(1, 4), tokens - position)
            t_ents.append((position, position + length - 1, rng.choice(TYPES)))
            position += length + rng.randint(1, 6)
        for start, end, label in t_ents:
            roll = rng.random()
            if roll < 0.1:
                continue  # missed
            if roll < 0.2:
                label = rng.choice(TYPES)
            elif roll < 0.3:
                end = max(start, min(tokens - 1, end + rng.choice((-1, 1))))
            p_ents.append((start, end, label))
        if rng.random() < 0.2:
            start = rng.randrange(tokens)
            p_ents.append((start, start, rng.choice(TYPES)))  # spurious (may overwrite a tag)
        true.append(_tags(t_ents, tokens))
        pred.append(_tags(p_ents, tokens))
    return true, pred


def _tags(entities: List[Tuple[int, int, str]], tokens: int) -> List[str]:
    tags = ["O"] * tokens
    for start, end, label in entities:
        for k in range(start, end + 1):
            tags[k] = ("B-" if k == start else "I-") + label
    return tags


def chain_corpus(documents: int, entities: int) -> Tuple[List[List[Dict[str, Any]]], List[List[Dict[str, Any]]]]:
    """The unfavourable input: true entities [3k, 3k+2], predictions [3k+1, 3k+3]."""
    true = [[{"label": "PER", "start": 3 * k, "end": 3 * k + 2} for k in range(entities)] for _ in range(documents)]
    pred = [[{"label": "PER", "start": 3 * k + 1, "end": 3 * k + 3} for k in range(entities)] for _ in range(documents)]
    return true, pred


def floor(true: List[List[str]], pred: List[List[str]]) -> int:
    count = 0
    for side in (true, pred):
        for doc in side:
            for _tag in doc:
                count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sentences", type=int, default=10_000)
    parser.add_argument("--tokens", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="1,000 sentences, 3 repeats")
    args = parser.parse_args()
    if args.quick:
        args.sentences, args.repeats = 1_000, 3
    import nervaluate

    true, pred = tag_corpus(args.sentences, args.tokens)
    true_spans, pred_spans = nervaluate.list_to_spans(true), nervaluate.list_to_spans(pred)
    ambiguous = sum(not is_unambiguous(t, p) for t, p in zip(true_spans, pred_spans))
    print(f"corpus: {args.sentences:,} sentences x {args.tokens} tokens, {sum(map(len, true_spans)):,} true and "
          f"{sum(map(len, pred_spans)):,} predicted entities, {ambiguous:,} documents ambiguous for nervaluate")
    print(f"evalcore {evalcore.__version__}, nervaluate {dist_version('nervaluate')}, Python "
          f"{platform.python_version()}, {os.cpu_count()} CPUs; medians of {args.repeats} calls")

    timings: Dict[str, float] = {}

    def timed(name: str, fn: Any, repeats: int = args.repeats) -> None:
        timings[name] = median_time(fn, repeats)
        print(f"  {name:<66} {timings[name] * 1000:10.1f} ms", flush=True)

    timed("floor: visit every tag of both lists in Python", lambda: floor(true, pred))
    timed("evalcore.evaluate_schemas(input='tags'), 1 thread",
          lambda: evalcore.evaluate_schemas(true, pred, labels=TYPES, input="tags", threads=1))
    timed("evalcore.evaluate_schemas(input='tags'), every CPU",
          lambda: evalcore.evaluate_schemas(true, pred, labels=TYPES, input="tags"))
    timed("evalcore.evaluate_schemas(spans), 1 thread",
          lambda: evalcore.evaluate_schemas(true_spans, pred_spans, labels=TYPES, threads=1))
    true_text, pred_text = tags_as_conll(true), tags_as_conll(pred)
    timed("evalcore.evaluate_schemas(input='conll'), 1 thread",
          lambda: evalcore.evaluate_schemas(true_text, pred_text, labels=TYPES, input="conll", threads=1))
    timed("evalcore.evaluate_schemas(input='conll'), every CPU",
          lambda: evalcore.evaluate_schemas(true_text, pred_text, labels=TYPES, input="conll"))
    outside = tags_as_conll([["O"] * args.tokens] * args.sentences)  # nothing to match: the reading alone
    timed("evalcore.evaluate_schemas(input='conll'), 'O' tags alone, 1 thread",
          lambda: evalcore.evaluate_schemas(outside, outside, labels=TYPES, input="conll", threads=1))
    nervaluate_repeats = max(1, min(3, args.repeats))
    timed("nervaluate Evaluator(loader='list').evaluate()",
          lambda: nervaluate.Evaluator(true, pred, tags=TYPES, loader="list").evaluate(), nervaluate_repeats)
    timed("nervaluate Evaluator(loader='dict').evaluate()",
          lambda: nervaluate.Evaluator(true_spans, pred_spans, tags=TYPES, loader="dict").evaluate(), nervaluate_repeats)
    timed("nervaluate Evaluator(loader='conll').evaluate()",
          lambda: nervaluate.Evaluator(true_text, pred_text, tags=TYPES, loader="conll").evaluate(), nervaluate_repeats)
    from nervaluate.loaders import ConllLoader

    timed("Python reading: nervaluate's ConllLoader, both strings",
          lambda: (ConllLoader().load(true_text), ConllLoader().load(pred_text)), nervaluate_repeats)
    timed("Python reading: evalcore's pure-Python twin, both strings",
          lambda: [read_conll_documents(docs, name) for docs, name in zip(check_conll_corpus(true_text, pred_text),
                                                                          ("true", "pred"))], nervaluate_repeats)
    chain_true, chain_pred = chain_corpus(max(1, args.sentences // 10), 20)
    timed(f"unfavourable: {len(chain_true):,} chains of 20, evalcore 1 thread",
          lambda: evalcore.evaluate_schemas(chain_true, chain_pred, threads=1))
    timed(f"unfavourable: {len(chain_true):,} chains of 20, nervaluate",
          lambda: nervaluate.Evaluator(chain_true, chain_pred, tags=["PER"], loader="dict").evaluate(), nervaluate_repeats)

    print("ratios (nervaluate / evalcore, same input):")
    for ours, theirs in (("evalcore.evaluate_schemas(input='tags'), 1 thread", "nervaluate Evaluator(loader='list').evaluate()"),
                         ("evalcore.evaluate_schemas(input='tags'), every CPU", "nervaluate Evaluator(loader='list').evaluate()"),
                         ("evalcore.evaluate_schemas(spans), 1 thread", "nervaluate Evaluator(loader='dict').evaluate()"),
                         ("evalcore.evaluate_schemas(input='conll'), 1 thread", "nervaluate Evaluator(loader='conll').evaluate()"),
                         ("evalcore.evaluate_schemas(input='conll'), every CPU", "nervaluate Evaluator(loader='conll').evaluate()")):
        print(f"  {timings[theirs] / timings[ours]:8.1f}x  {ours}")
    chain = [k for k in timings if k.startswith("unfavourable")]
    print(f"  {timings[chain[1]] / timings[chain[0]]:8.1f}x  unfavourable input, 1 thread")
    floor_name = "floor: visit every tag of both lists in Python"
    tags_one = "evalcore.evaluate_schemas(input='tags'), 1 thread"
    print(f"evalcore (tags, 1 thread) takes {timings[tags_one] / timings[floor_name]:.1f}x the floor")
    twin = timings["Python reading: evalcore's pure-Python twin, both strings"]
    theirs_conll = timings["nervaluate Evaluator(loader='conll').evaluate()"]
    matching = timings["evalcore.evaluate_schemas(spans), 1 thread"]
    print(f"a Python reader of the CoNLL strings (the twin: {twin * 1000:.1f} ms) before evalcore's matching (the spans "
          f"call: {matching * 1000:.1f} ms) would be {theirs_conll / (twin + matching):.1f}x nervaluate")

    keep = [i for i, (t, p) in enumerate(zip(true_spans, pred_spans)) if is_unambiguous(t, p)]
    sub_true, sub_pred = [true[i] for i in keep], [pred[i] for i in keep]
    ours = evalcore.evaluate_schemas(sub_true, sub_pred, labels=TYPES, input="tags")
    theirs = nervaluate.Evaluator(sub_true, sub_pred, tags=TYPES, loader="list").evaluate()
    fields = list(ours["overall"]["strict"])
    same = all(ours["overall"][s] == {f: getattr(theirs["overall"][s], f) for f in fields} for s in ours["overall"])
    print(f"equal (==) to nervaluate on the {len(keep):,} unambiguous documents: {'yes' if same else 'NO'}")
    ours = evalcore.evaluate_schemas(tags_as_conll(sub_true), tags_as_conll(sub_pred), labels=TYPES, input="conll")
    theirs = nervaluate.Evaluator(tags_as_conll(sub_true), tags_as_conll(sub_pred), tags=TYPES, loader="conll").evaluate()
    same = all(ours["overall"][s] == {f: getattr(theirs["overall"][s], f) for f in fields} for s in ours["overall"])
    print(f"the same as CoNLL strings (input='conll'), equal to nervaluate's conll loader: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
