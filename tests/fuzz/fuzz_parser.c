/* libFuzzer target for the parser behind the chunker. Any bytes are chunked
 * (the first byte picks the chunk target) and every chunk is parsed by one
 * parser; each result must pass parsed_assert_sane (tests/json/
 * parse_check.h), and the text of every path must stay where it was, as
 * tc_parser_path promises, while later chunks add paths. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "chunk_run.h"
#include "parse_check.h"
#include "json/tc_parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const wanted[] = {
    "args.a", "args.a[]", "args.a[][]", "args.data.frame", "args.data.frames[].frame", "args.x[].y",
};
#define NWANTED (sizeof wanted / sizeof wanted[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  chunk_run r;
  chunk_run_feed(&r, (const char *)data + 1, size - 1, 1 + (size_t)data[0] * 16, 0, NULL, 0);
  tc_parser *p = tc_parser_create(wanted, NWANTED);
  if (!p)
    abort();
  tc_str *paths = NULL;
  uint32_t npaths = 0;
  for (size_t i = 0; i < r.nchunks; i++) {
    tc_parsed out;
    if (tc_parser_parse(p, r.chunks[i], &out) != TC_OK)
      abort();
    parsed_assert_sane(p, r.chunks[i], &out, NWANTED);
    for (uint32_t id = 0; id < npaths; id++) {
      tc_str now = tc_parser_path(p, id);
      if (now.ptr != paths[id].ptr || now.len != paths[id].len)
        abort();
    }
    npaths = tc_parser_npaths(p);
    paths = realloc(paths, npaths * sizeof *paths);
    if (!paths)
      abort();
    for (uint32_t id = 0; id < npaths; id++)
      paths[id] = tc_parser_path(p, id);
  }
  free(paths);
  tc_parser_free(p);
  chunk_run_free(&r);
  return 0;
}
