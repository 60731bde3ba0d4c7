// Forced inlining for the readers' per-line helpers. Compilers keep small helpers out of line
// in large callers (the readers' loops), a call per line there; and clang's `flatten` (the
// TREC parsers' wide code, runs/line_parser.hpp) inlines one level only, where GCC's inlines
// every level. The wheels are built by clang (zig c++): with these helpers left out of line,
// their reading of the diversity benchmark's files took 16 % longer than GCC's build.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define EVALCORE_ALWAYS_INLINE inline __attribute__((always_inline))
#define EVALCORE_INLINE_LAMBDA __attribute__((always_inline))  // after a lambda's parameters
#else
#define EVALCORE_ALWAYS_INLINE inline
#define EVALCORE_INLINE_LAMBDA
#endif
