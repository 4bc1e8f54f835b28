/* What a file's first bytes say it is, once any gzip or zstd around it is
 * removed: JSON (or text the JSON reader will name), a Perfetto protobuf
 * trace, or one of the other things people drop into a crawl folder by
 * mistake, each with the error that names it. One small function with no
 * state, so the chunker (json/tc_chunker.c) and a corpus scan can both ask. */
#ifndef TC_SNIFF_H
#define TC_SNIFF_H

#include <stddef.h>

#include "util/tc_error.h"

typedef enum {
  TC_SNIFF_TEXT,     /* JSON, or text: the JSON reader decides and names it */
  TC_SNIFF_PERFETTO, /* TracePackets: field 1 of Trace, length-delimited */
  TC_SNIFF_PROTOBUF, /* walks as protobuf, but not as a Perfetto trace */
  TC_SNIFF_GZIP,
  TC_SNIFF_ZSTD,
  TC_SNIFF_ZIP,
  TC_SNIFF_PNG,
  TC_SNIFF_JPEG,
  TC_SNIFF_GIF,
  TC_SNIFF_PDF,
  TC_SNIFF_BINARY /* control bytes that neither JSON nor text holds */
} tc_sniff_kind;

/* Bytes enough for every decision below: the longest magic, and the start
 * of a Perfetto trace's first packet. */
#define TC_SNIFF_HEAD 512

/* Classifies the first N bytes of a (decompressed) file; N may be less than
 * TC_SNIFF_HEAD when the file is shorter. */
tc_sniff_kind tc_sniff(const unsigned char *head, size_t n);

/* 1 when a file whose first byte is C may be something other than JSON or
 * text, so that tc_sniff needs to see its head: the JSON reader can take
 * every other first byte at once. */
int tc_sniff_needs_head(unsigned char c);

/* The error that names KIND as not a trace (TC_OK for TEXT and PERFETTO,
 * which are read). */
tc_err tc_sniff_error(tc_sniff_kind kind);

#endif
