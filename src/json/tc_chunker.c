/* The scanner is a small state machine over the byte stream. Inside an
 * event it only needs four facts: whether it is inside a string, whether
 * the previous byte was an escaping backslash, the nesting depth, and which
 * bracket opened each level; the event ends when the depth returns to zero.
 * Strings are skipped sixteen bytes at a time (SSE2; 32 with AVX2, as the
 * -Dsimd build compiles this file like the parser shim) since they are most
 * of a trace's bytes; inside containers 64-byte blocks are classified at
 * once.
 *
 * The bracket kinds fit one 64-bit word, one bit per level, innermost in
 * bit 0. Levels deeper than 64 are not checked (their closers pop nothing),
 * the same in both scanners, so a split never changes the result. A closer
 * of the wrong kind ends the value there: counting depth alone, "[1}" would
 * leave the event open and swallow the rest of the trace into it. */
#include "json/tc_chunker.h"

#include <stdlib.h>
#include <string.h>

#include "io/tc_sniff.h"
#include "proto/tc_proto.h"

#if defined(__AVX2__) || defined(__PCLMUL__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#define TC_METADATA_MAX (1u << 20)
#define TC_FIRST_RESERVE_MAX ((size_t)16 << 20)
#define TC_KEY_MAX 64
#define TC_KIND_LEVELS 64

typedef enum {
  ST_START,     /* before the first byte of the trace */
  ST_OBJ_KEY,   /* in the top-level object, expecting a key or '}' */
  ST_OBJ_KSTR,  /* inside a top-level key string */
  ST_OBJ_COLON, /* after a key, expecting ':' */
  ST_OBJ_VALUE, /* after ':', expecting a value */
  ST_OBJ_NEXT,  /* after a value, expecting ',' or '}' */
  ST_ARRAY,     /* in the events array, between elements */
  ST_VALUE,     /* inside a value being scanned (event or skipped value) */
  ST_BAD_TAIL,  /* after a value that a mismatched closer ended: the closers
                   that follow are taken as its own, then st = resume */
  ST_DONE
} scan_state;

typedef enum {
  V_EVENT,
  V_SKIP_ELEMENT,
  V_SKIP_MEMBER,
  V_METADATA,
  V_EVENTS_NOT_ARRAY,
  V_TRAILING /* a value after the trace ended: counted, never read */
} value_kind;

struct tc_chunker {
  size_t target, max_event;
  scan_state st, resume;
  uint64_t pos; /* absolute offset of the next byte to scan */
  int object_form, saw_events, unterminated, trailing, cut_event, saw_meta;
  uint32_t events_arrays;
  uint64_t trail_offset, trail_values;
  /* value scanning */
  value_kind vkind;
  int depth, in_str, esc, scalar;
  uint64_t kinds; /* per open level up to TC_KIND_LEVELS: 1 if opened by '[' */
  int mismatch;   /* the value was ended by a closer of the wrong kind */
  uint64_t vstart;   /* offset of the value's first byte */
  size_t vbytes;     /* bytes of the current event copied so far */
  int too_big;
  /* top-level key, unescaped */
  char key[TC_KEY_MAX];
  size_t keylen;
  int key_esc;       /* 1 after a backslash, 2..5 while reading \uXXXX digits */
  unsigned key_code; /* the \u code point read so far */
  /* output */
  tc_chunk *cur;
  uint32_t next_seq;
  uint64_t elements;
  tc_chunk_error errors[TC_CHUNKER_MAX_ERRORS];
  size_t nerrors;
  uint64_t error_count;
  char *meta;
  size_t meta_len;
  int meta_cut;
  int saw_log; /* a top-level "log" key: a HAR file, if no traceEvents */
  /* The first bytes, held while tc_sniff needs them to tell what the
   * stream is (only when its first byte may start something else than
   * JSON), then read as what they are. */
  enum { SNIFF_NOT_YET, SNIFF_HOLDING, SNIFF_DONE } sniff;
  unsigned char head[TC_SNIFF_HEAD];
  size_t head_len, head_pos;
  tc_proto *proto; /* a Perfetto trace: its reader, which makes the events */
  tc_err refused;  /* the head is something else than a trace: said once, kept */
};

tc_chunker *tc_chunker_create(size_t target, size_t max_event) {
  tc_chunker *ch = calloc(1, sizeof *ch);
  if (!ch)
    return NULL;
  ch->target = target ? target : 1;
  ch->max_event = max_event;
  return ch;
}

void tc_chunk_free(tc_chunk *c) {
  if (!c)
    return;
  free(c->buf);
  free(c->events);
  free(c);
}

void tc_chunker_free(tc_chunker *ch) {
  if (!ch)
    return;
  tc_chunk_free(ch->cur);
  free(ch->meta);
  tc_proto_free(ch->proto);
  free(ch);
}

static void add_error(tc_chunker *ch, uint64_t index, uint64_t offset, tc_err code) {
  if (ch->nerrors < TC_CHUNKER_MAX_ERRORS) {
    tc_chunk_error *e = &ch->errors[ch->nerrors++];
    e->index = index;
    e->offset = offset;
    e->code = code;
  }
  ch->error_count++;
}

const tc_chunk_error *tc_chunker_errors(const tc_chunker *ch, uint64_t *count, size_t *kept) {
  *count = ch->error_count;
  *kept = ch->nerrors;
  return ch->errors;
}

uint64_t tc_chunker_elements(const tc_chunker *ch) { return ch->elements; }

void tc_chunker_shape(const tc_chunker *ch, tc_trace_shape *out) {
  out->object_form = ch->object_form;
  out->unterminated = ch->unterminated;
  out->trailing_bytes = ch->trailing;
  out->cut_event = ch->cut_event;
  out->metadata_cut = ch->meta_cut;
  out->events_arrays = ch->events_arrays;
  out->trailing_offset = ch->trail_offset;
  out->trailing_size = ch->trailing ? ch->pos - ch->trail_offset : 0;
  out->trailing_values = ch->trail_values;
  out->not_trace_offset = ch->pos;
  out->metadata.ptr = ch->meta;
  out->metadata.len = ch->meta_len;
  out->perfetto = ch->proto != NULL;
  if (ch->proto)
    out->metadata = tc_proto_metadata(ch->proto, &out->metadata_cut);
}

char *tc_chunker_take_metadata(tc_chunker *ch) {
  if (ch->proto) {
    int cut;
    tc_str m = tc_proto_metadata(ch->proto, &cut);
    return m.len ? tc_str_dup(m) : NULL;
  }
  char *m = ch->meta;
  ch->meta = NULL;
  ch->meta_len = 0;
  return m;
}

/* Makes room for N more bytes plus the closing bracket and padding. */
static int chunk_reserve(tc_chunk *c, size_t n) {
  size_t need = c->len + n + 1 + TC_JSON_PADDING;
  if (need <= c->cap)
    return 1;
  size_t cap = c->cap ? c->cap : 4096;
  while (cap < need)
    cap *= 2;
  char *b = realloc(c->buf, cap);
  if (!b)
    return 0;
  c->buf = b;
  c->cap = cap;
  return 1;
}

static int chunk_append(tc_chunk *c, const char *p, size_t n) {
  if (!chunk_reserve(c, n))
    return 0;
  memcpy(c->buf + c->len, p, n);
  c->len += n;
  return 1;
}

/* Closes the array and pads: the chunk is then ready to parse. */
static void chunk_seal(tc_chunk *c) {
  c->buf[c->len] = ']';
  memset(c->buf + c->len + 1, ' ', TC_JSON_PADDING);
  c->len += 1;
}

static tc_err begin_event(tc_chunker *ch) {
  if (!ch->cur) {
    ch->cur = calloc(1, sizeof *ch->cur);
    /* Room for a whole chunk up front, so most chunks never reallocate;
     * capped so a huge target means "grow as needed", not "allocate it". */
    size_t first = ch->target + (ch->target >> 3);
    if (first > TC_FIRST_RESERVE_MAX || first < ch->target)
      first = TC_FIRST_RESERVE_MAX;
    if (!ch->cur || !chunk_reserve(ch->cur, first))
      return TC_E_NOMEM;
    ch->cur->buf[0] = '[';
    ch->cur->len = 1;
    ch->cur->seq = ch->next_seq++;
  }
  tc_chunk *c = ch->cur;
  if (c->nevents == c->events_cap) {
    uint32_t cap = c->events_cap ? c->events_cap * 2 : 1024;
    tc_chunk_event *ev = realloc(c->events, cap * sizeof *ev);
    if (!ev)
      return TC_E_NOMEM;
    c->events = ev;
    c->events_cap = cap;
  }
  if (c->nevents && !chunk_append(c, ",", 1))
    return TC_E_NOMEM;
  tc_chunk_event *e = &c->events[c->nevents];
  e->start = (uint32_t)c->len;
  e->offset = ch->vstart;
  e->index = ch->elements;
  ch->vbytes = 0;
  ch->too_big = 0;
  return TC_OK;
}

/* Drops what was copied of the current event; the separator before it
 * goes too. */
static void drop_event(tc_chunker *ch) {
  tc_chunk *c = ch->cur;
  c->len = c->events[c->nevents].start - (c->nevents ? 1 : 0);
}

/* Copies the part of the current event that lies in this piece of input. */
static tc_err copy_event_bytes(tc_chunker *ch, const char *p, size_t n) {
  if (ch->too_big || n == 0)
    return TC_OK;
  ch->vbytes += n;
  if (ch->max_event && ch->vbytes > ch->max_event) {
    drop_event(ch);
    ch->too_big = 1;
    return TC_OK;
  }
  return chunk_append(ch->cur, p, n) ? TC_OK : TC_E_NOMEM;
}

/* Mismatched brackets are reported before size: the event is broken
 * whatever its size. */
static void end_event(tc_chunker *ch) {
  tc_chunk *c = ch->cur;
  if (ch->mismatch) {
    if (!ch->too_big)
      drop_event(ch);
    add_error(ch, ch->elements, ch->vstart, TC_E_BAD_BRACKETS);
    return;
  }
  if (ch->too_big) {
    add_error(ch, ch->elements, ch->vstart, TC_E_EVENT_TOO_BIG);
    return;
  }
  c->events[c->nevents].end = (uint32_t)c->len;
  c->nevents++;
}

static void copy_metadata(tc_chunker *ch, const char *p, size_t n) {
  if (ch->meta_cut || n == 0)
    return;
  if (ch->meta_len + n > TC_METADATA_MAX) {
    ch->meta_cut = 1;
    return;
  }
  char *m = realloc(ch->meta, ch->meta_len + n + 1);
  if (!m) {
    ch->meta_cut = 1;
    return;
  }
  memcpy(m + ch->meta_len, p, n);
  ch->meta = m;
  ch->meta_len += n;
  ch->meta[ch->meta_len] = '\0';
}

static inline int is_space(unsigned char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/* Index of the first '"' or '\\' in P[0..n), or n. */
static inline size_t find_quote_or_backslash(const char *p, size_t n) {
  size_t i = 0;
#if defined(__AVX2__)
  const __m256i q32 = _mm256_set1_epi8('"'), b32 = _mm256_set1_epi8('\\');
  for (; i + 32 <= n; i += 32) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(p + i));
    unsigned m = (unsigned)_mm256_movemask_epi8(
        _mm256_or_si256(_mm256_cmpeq_epi8(v, q32), _mm256_cmpeq_epi8(v, b32)));
    if (m)
      return i + (size_t)__builtin_ctz(m);
  }
#endif
#if defined(__SSE2__)
  const __m128i q = _mm_set1_epi8('"'), b = _mm_set1_epi8('\\');
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
    int m = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, b)));
    if (m)
      return i + (size_t)__builtin_ctz((unsigned)m);
  }
#endif
  for (; i < n; i++)
    if (p[i] == '"' || p[i] == '\\')
      return i;
  return n;
}

/* Level DEPTH was just opened, by '[' if SQUARE, else by '{'. */
static inline uint64_t kinds_push(uint64_t kinds, int depth, int square) {
  return depth <= TC_KIND_LEVELS ? kinds << 1 | (uint64_t)square : kinds;
}

/* Level DEPTH is closed by ']' if SQUARE, else by '}'. Returns 1 when its
 * opener was of the other kind. */
static inline int kinds_pop(uint64_t *kinds, int depth, int square) {
  if (depth > TC_KIND_LEVELS)
    return 0;
  int bad = (int)(*kinds & 1) != square;
  *kinds >>= 1;
  return bad;
}

/* The current container value ends at AT, by a closer of the right kind or
 * (MISMATCH) the wrong one. */
static size_t value_ends(tc_chunker *ch, size_t at, int mismatch, int *done) {
  ch->depth = 0;
  ch->in_str = 0;
  ch->esc = 0;
  ch->mismatch = mismatch;
  *done = 1;
  return at;
}

#if defined(__SSE2__)
/* Bit masks of one 64-byte block: quotes, backslashes, openers ({ and [,
 * which differ only in bit 5), closers (} and ]) and bytes with bit 5
 * clear, which tells '[' and ']' from '{' and '}'. */
static inline void classify64(const char *p, uint64_t *quote, uint64_t *bslash, uint64_t *open,
                              uint64_t *close, uint64_t *bit5_clear) {
  uint64_t mq = 0, mb = 0, mo = 0, mc = 0, m5 = 0;
#if defined(__AVX2__)
  /* The shim's build (-Dsimd) has AVX2: two 32-byte halves. */
  const __m256i q = _mm256_set1_epi8('"'), b = _mm256_set1_epi8('\\'),
                lower = _mm256_set1_epi8(0x20), o = _mm256_set1_epi8('{'),
                c = _mm256_set1_epi8('}');
  for (int k = 0; k < 2; k++) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(p + 32 * k));
    __m256i f = _mm256_or_si256(v, lower);
    mq |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, q)) << (32 * k);
    mb |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, b)) << (32 * k);
    mo |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(f, o)) << (32 * k);
    mc |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(f, c)) << (32 * k);
    m5 |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(v, 2)) << (32 * k);
  }
#else
  const __m128i q = _mm_set1_epi8('"'), b = _mm_set1_epi8('\\'), lower = _mm_set1_epi8(0x20),
                o = _mm_set1_epi8('{'), c = _mm_set1_epi8('}');
  for (int k = 0; k < 4; k++) {
    __m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * k));
    __m128i f = _mm_or_si128(v, lower);
    mq |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, q)) << (16 * k);
    mb |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, b)) << (16 * k);
    mo |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(f, o)) << (16 * k);
    mc |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(f, c)) << (16 * k);
    /* A 16-bit shift by 2 moves each byte's bit 5 to its sign bit. */
    m5 |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_slli_epi16(v, 2)) << (16 * k);
  }
#endif
  *quote = mq;
  *bslash = mb;
  *open = mo;
  *close = mc;
  *bit5_clear = ~m5;
}

/* The characters escaped by a backslash, with the carry across blocks
 * (the branch-free method of simdjson, Langdale & Lemire 2019). */
static inline uint64_t find_escaped(uint64_t backslash, uint64_t *prev_escaped) {
  if (!backslash && !*prev_escaped)
    return 0;
  backslash &= ~*prev_escaped;
  uint64_t follows_escape = backslash << 1 | *prev_escaped;
  const uint64_t even_bits = 0x5555555555555555ULL;
  uint64_t odd_sequence_starts = backslash & ~even_bits & ~follows_escape;
  uint64_t sequences_starting_on_even_bits;
  *prev_escaped = __builtin_add_overflow(odd_sequence_starts, backslash,
                                         &sequences_starting_on_even_bits);
  uint64_t invert_mask = sequences_starting_on_even_bits << 1;
  return (even_bits ^ invert_mask) & follows_escape;
}

/* Bit i set when an odd number of bits 0..i of X are set: inside a string. */
static inline uint64_t prefix_xor(uint64_t x) {
#if defined(__PCLMUL__)
  /* A carry-less multiply by all ones is the prefix XOR in one instruction. */
  return (uint64_t)_mm_cvtsi128_si64(
      _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), _mm_set1_epi8((char)0xFF), 0));
#else
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
#endif
}

/* Scans whole 64-byte blocks of a container value from P[i]. Returns the
 * index just past the value (*done = 1) or where the whole blocks ran out,
 * with the string/escape/bracket state saved for the byte-wise scan to go
 * on. */
static size_t scan_blocks(tc_chunker *ch, const char *p, size_t i, size_t n, int *done) {
  uint64_t prev_in = ch->in_str ? ~0ULL : 0, prev_esc = (uint64_t)ch->esc;
  int depth = ch->depth;
  uint64_t kinds = ch->kinds;
  for (; i + 64 <= n; i += 64) {
    uint64_t quote, bslash, open, close, square;
    classify64(p + i, &quote, &bslash, &open, &close, &square);
    uint64_t escaped = find_escaped(bslash, &prev_esc);
    quote &= ~escaped;
    uint64_t in_str = prefix_xor(quote) ^ prev_in;
    uint64_t structural = (open | close) & ~in_str & ~escaped;
    while (structural) {
      int bit = __builtin_ctzll(structural);
      int sq = (int)(square >> bit & 1);
      if (open >> bit & 1) {
        kinds = kinds_push(kinds, ++depth, sq);
      } else {
        int bad = kinds_pop(&kinds, depth--, sq);
        if (bad || depth == 0)
          return value_ends(ch, i + (size_t)bit + 1, bad, done);
      }
      structural &= structural - 1;
    }
    prev_in = (uint64_t)((int64_t)in_str >> 63);
  }
  ch->depth = depth;
  ch->kinds = kinds;
  ch->in_str = prev_in != 0;
  ch->esc = (int)prev_esc;
  return i;
}
#endif

/* Advances through the current value from P[i]; returns the index just past
 * its last byte, or n if it continues in the next piece (*done = 0). */
static size_t scan_value(tc_chunker *ch, const char *p, size_t i, size_t n, int *done) {
  *done = 0;
  if (ch->scalar) {
    for (; i < n; i++) {
      unsigned char c = (unsigned char)p[i];
      if (c == ',' || c == ']' || c == '}' || is_space(c)) {
        *done = 1;
        return i;
      }
    }
    return n;
  }
  if (ch->depth == 0 && !ch->in_str) {
    /* The value's first byte. A string value ends at its closing quote,
     * which the block scan does not look for: only containers go there. */
    if (p[i] == '"') {
      ch->in_str = 1;
    } else {
      ch->depth = 1;
      ch->kinds = kinds_push(0, 1, p[i] == '[');
    }
    i++;
  }
#if defined(__SSE2__)
  if (ch->depth > 0) {
    i = scan_blocks(ch, p, i, n, done);
    if (*done)
      return i;
  }
#endif
  while (i < n) {
    /* A backslash escapes the next byte outside strings too, as it does in
     * the block scan, so that bad JSON splits the same in any pieces. */
    if (ch->esc) {
      ch->esc = 0;
      i++;
      continue;
    }
    if (ch->in_str) {
      i += find_quote_or_backslash(p + i, n - i);
      if (i >= n)
        return n;
      if (p[i] == '\\')
        ch->esc = 1;
      else
        ch->in_str = 0;
      i++;
      if (!ch->in_str && ch->depth == 0) {
        *done = 1;
        return i;
      }
      continue;
    }
    switch (p[i]) {
    case '\\':
      ch->esc = 1;
      break;
    case '"':
      ch->in_str = 1;
      break;
    case '{':
    case '[':
      ch->kinds = kinds_push(ch->kinds, ++ch->depth, p[i] == '[');
      break;
    case '}':
    case ']': {
      int bad = kinds_pop(&ch->kinds, ch->depth--, p[i] == ']');
      if (bad || ch->depth == 0)
        return value_ends(ch, i + 1, bad, done);
      break;
    }
    default:
      break;
    }
    i++;
  }
  return n;
}

static void start_value(tc_chunker *ch, char first, value_kind kind) {
  ch->vkind = kind;
  ch->depth = 0;
  ch->in_str = 0;
  ch->esc = 0;
  ch->kinds = 0;
  ch->mismatch = 0;
  ch->scalar = !(first == '{' || first == '[' || first == '"');
  ch->vstart = ch->pos;
  ch->st = ST_VALUE;
}

/* What follows a finished value depends on where it was. An element that
 * is not an object is reported as such even if its brackets mismatch. */
static void after_value(tc_chunker *ch) {
  switch (ch->vkind) {
  case V_EVENT:
    end_event(ch);
    ch->elements++;
    ch->resume = ST_ARRAY;
    break;
  case V_SKIP_ELEMENT:
    add_error(ch, ch->elements, ch->vstart, TC_E_NOT_OBJECT);
    ch->elements++;
    ch->resume = ST_ARRAY;
    break;
  case V_EVENTS_NOT_ARRAY:
  case V_SKIP_MEMBER:
  case V_METADATA:
    ch->resume = ST_OBJ_NEXT;
    break;
  case V_TRAILING:
    ch->trail_values++;
    ch->resume = ST_DONE;
    break;
  }
  ch->st = ch->mismatch ? ST_BAD_TAIL : ch->resume;
}

static int key_is(const tc_chunker *ch, const char *k) {
  size_t n = strlen(k);
  return ch->keylen == n && memcmp(ch->key, k, n) == 0;
}

static void key_put(tc_chunker *ch, char c) {
  if (ch->keylen < TC_KEY_MAX)
    ch->key[ch->keylen++] = c;
}

static int hex_value(unsigned char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  c |= 0x20;
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One byte of a top-level key inside its quotes. Escapes are decoded, so
 * "trace\u0045vents" is traceEvents as JSON says; only ASCII keys are ever
 * compared, so any other code point is kept as a byte that matches none. */
static void key_byte(tc_chunker *ch, unsigned char c) {
  if (ch->key_esc >= 2 && c == '\\') {
    /* A cut-short \u: the backslash escapes the next byte, as in values. */
    key_put(ch, (char)0xFF);
    ch->key_esc = 1;
    return;
  }
  if (ch->key_esc >= 2) {
    int h = hex_value(c);
    ch->key_code = ch->key_code << 4 | (unsigned)(h < 0 ? 0 : h);
    if (h < 0)
      ch->key_code = 0x100;
    if (++ch->key_esc == 6) {
      key_put(ch, ch->key_code < 0x80 ? (char)ch->key_code : (char)0xFF);
      ch->key_esc = 0;
    }
    return;
  }
  if (ch->key_esc) {
    static const char from[] = "bfnrt", to[] = "\b\f\n\r\t";
    const char *e = c ? strchr(from, c) : NULL;
    ch->key_esc = 0;
    if (c == 'u') {
      ch->key_esc = 2;
      ch->key_code = 0;
      return;
    }
    key_put(ch, e ? to[e - from] : (char)c);
    return;
  }
  if (c == '\\')
    ch->key_esc = 1;
  else
    key_put(ch, (char)c);
}

static tc_err json_feed(tc_chunker *ch, const char *p, size_t n, size_t *pos, tc_chunk **ready) {
  *ready = NULL;
  size_t i = *pos;
  while (i < n) {
    unsigned char c = (unsigned char)p[i];
    switch (ch->st) {
    case ST_START:
      if (is_space(c) || (ch->pos < 3 && (c == 0xEF || c == 0xBB || c == 0xBF))) {
        break;
      } else if (c == '[') {
        ch->st = ST_ARRAY;
        ch->saw_events = 1;
        ch->events_arrays = 1;
      } else if (c == '{') {
        ch->object_form = 1;
        ch->st = ST_OBJ_KEY;
      } else {
        *pos = i;
        return TC_E_NOT_TRACE;
      }
      break;
    case ST_OBJ_KEY:
      if (c == '"') {
        ch->keylen = 0;
        ch->key_esc = 0;
        ch->st = ST_OBJ_KSTR;
      } else if (c == '}') {
        ch->st = ST_DONE;
      } else if (!is_space(c) && c != ',') {
        /* Not a key: scan it as a value so the object's end is still found. */
        start_value(ch, (char)c, V_SKIP_MEMBER);
        continue;
      }
      break;
    case ST_OBJ_KSTR:
      /* Only a backslash right before it escapes a quote, as in values:
       * "\u00" ends there, cut short. */
      if (c == '"' && ch->key_esc != 1)
        ch->st = ST_OBJ_COLON;
      else
        key_byte(ch, c);
      break;
    case ST_OBJ_COLON:
      if (c == ':')
        ch->st = ST_OBJ_VALUE;
      else if (!is_space(c))
        ch->st = ST_OBJ_NEXT;
      break;
    case ST_OBJ_VALUE:
      if (is_space(c))
        break;
      /* A second traceEvents array adds its events, as Perfetto's
       * importer does; a second metadata member is skipped. */
      if (key_is(ch, "traceEvents") && c == '[') {
        ch->saw_events = 1;
        ch->events_arrays++;
        ch->st = ST_ARRAY;
        break;
      }
      if (key_is(ch, "log"))
        ch->saw_log = 1;
      if (key_is(ch, "traceEvents") && !ch->saw_events) {
        start_value(ch, (char)c, V_EVENTS_NOT_ARRAY);
      } else if (key_is(ch, "metadata") && !ch->saw_meta) {
        ch->saw_meta = 1;
        start_value(ch, (char)c, V_METADATA);
      } else {
        start_value(ch, (char)c, V_SKIP_MEMBER);
      }
      continue;
    case ST_OBJ_NEXT:
      if (c == ',')
        ch->st = ST_OBJ_KEY;
      else if (c == '}')
        ch->st = ST_DONE;
      else if (c == '"') {
        ch->keylen = 0;
        ch->key_esc = 0;
        ch->st = ST_OBJ_KSTR;
      }
      break;
    case ST_ARRAY:
      if (is_space(c) || c == ',') {
        break;
      } else if (c == ']') {
        ch->st = ch->object_form ? ST_OBJ_NEXT : ST_DONE;
      } else if (c == '}') {
        /* A stray closer is a one-byte element: as a scalar it would end
         * before its first byte and be started again forever. */
        add_error(ch, ch->elements, ch->pos, TC_E_NOT_OBJECT);
        ch->elements++;
      } else if (c == '{') {
        start_value(ch, (char)c, V_EVENT);
        tc_err e = begin_event(ch);
        if (e) {
          *pos = i;
          return e;
        }
        continue;
      } else {
        start_value(ch, (char)c, V_SKIP_ELEMENT);
        continue;
      }
      break;
    case ST_VALUE: {
      int done;
      size_t end = scan_value(ch, p, i, n, &done);
      if (ch->vkind == V_EVENT) {
        tc_err e = copy_event_bytes(ch, p + i, end - i);
        if (e) {
          *pos = i;
          return e;
        }
      } else if (ch->vkind == V_METADATA) {
        copy_metadata(ch, p + i, end - i);
      }
      ch->pos += end - i;
      i = end;
      if (!done)
        continue;
      int was_event = ch->vkind == V_EVENT;
      after_value(ch);
      if (was_event && ch->cur->nevents &&
          (ch->cur->len >= ch->target || ch->cur->nevents >= TC_CHUNK_MAX_EVENTS)) {
        chunk_seal(ch->cur);
        *ready = ch->cur;
        ch->cur = NULL;
        *pos = i;
        return TC_OK;
      }
      continue;
    }
    case ST_BAD_TAIL:
      /* "[1}]}" is more likely one broken event than "[1}" followed by
       * the end of the events array; a comma or the next event ends it. */
      if (!is_space(c) && c != ']' && c != '}') {
        ch->st = ch->resume;
        continue;
      }
      break;
    case ST_DONE:
      /* Perfetto's importer stops at the end of the trace and calls more
       * data an error. Here it is counted as values (commas, brackets and
       * braces between them are skipped, so a second array-form document
       * counts its elements) and reported, never read. */
      if (is_space(c))
        break;
      if (!ch->trailing) {
        ch->trailing = 1;
        ch->trail_offset = ch->pos;
      }
      if (c == ',' || c == '[' || c == ']' || c == '}')
        break;
      start_value(ch, (char)c, V_TRAILING);
      continue;
    }
    ch->pos++;
    i++;
  }
  *pos = i;
  return TC_OK;
}

static tc_err json_finish(tc_chunker *ch, tc_chunk **last) {
  *last = NULL;
  tc_err rc = TC_OK;
  if (ch->st == ST_VALUE) {
    if (ch->vkind == V_EVENT) {
      /* Cut off mid-event: drop its bytes, report where it began. */
      drop_event(ch);
      add_error(ch, ch->elements, ch->vstart, TC_E_TRUNCATED_JSON);
      ch->elements++;
      ch->cut_event = 1;
    } else if (ch->vkind == V_SKIP_ELEMENT) {
      if (ch->scalar) {
        after_value(ch);
      } else {
        add_error(ch, ch->elements, ch->vstart, TC_E_TRUNCATED_JSON);
        ch->elements++;
      }
    } else if (ch->vkind == V_TRAILING) {
      ch->trail_values++;
      ch->st = ST_DONE;
    }
    if (ch->st != ST_DONE)
      ch->unterminated = 1;
  } else if (ch->st != ST_DONE && ch->st != ST_START &&
             !(ch->st == ST_BAD_TAIL && ch->resume == ST_DONE)) {
    ch->unterminated = 1;
  }
  if (ch->st == ST_START)
    rc = TC_E_EMPTY_TRACE;
  else if (!ch->saw_events)
    rc = ch->saw_log ? TC_E_NOT_TRACE_HAR : TC_E_NO_EVENTS;
  if (ch->cur && ch->cur->nevents) {
    chunk_seal(ch->cur);
    *last = ch->cur;
  } else {
    tc_chunk_free(ch->cur);
  }
  ch->cur = NULL;
  ch->st = ST_DONE;
  return rc;
}

/* ---- Perfetto protobuf traces ----
 *
 * The reader (proto/tc_proto.h) turns packets into JSON event objects; they
 * go into chunks exactly as the JSON scanner's events do, so everything
 * after the chunker reads both formats alike. Offsets and indexes then
 * count the decompressed protobuf bytes and the events made from them (an
 * element is an event made, or a packet or event left out). A chunk is
 * sealed between packets, so it may exceed TC_CHUNK_MAX_EVENTS by the
 * events of its last packet, and the last chunk also takes the slices
 * still open when the trace ends. Broken framing ends the events: the
 * bytes from the break on are reported as trailing data, never read. */

static tc_err proto_event(void *ctx, const char *json, size_t len, uint64_t offset) {
  tc_chunker *ch = ctx;
  if (ch->max_event && len > ch->max_event) {
    add_error(ch, ch->elements++, offset, TC_E_EVENT_TOO_BIG);
    return TC_OK;
  }
  ch->vstart = offset;
  tc_err e = begin_event(ch);
  if (e)
    return e;
  if (!chunk_append(ch->cur, json, len))
    return TC_E_NOMEM;
  ch->cur->events[ch->cur->nevents].end = (uint32_t)ch->cur->len;
  ch->cur->nevents++;
  ch->elements++;
  return TC_OK;
}

static void proto_skip(void *ctx, uint64_t offset, tc_err code) {
  tc_chunker *ch = ctx;
  add_error(ch, ch->elements++, offset, code);
}

static tc_err proto_feed(tc_chunker *ch, const char *p, size_t n, size_t *pos, tc_chunk **ready) {
  while (*pos < n) {
    size_t before = *pos;
    tc_err e = ch->trailing ? TC_OK : tc_proto_feed(ch->proto, (const unsigned char *)p, n, pos);
    if (ch->trailing || (e && e != TC_E_NOMEM)) {
      uint64_t at;
      tc_err code;
      if (!ch->trailing && tc_proto_broken(ch->proto, &at, &code)) {
        ch->trailing = 1;
        ch->trail_offset = at;
      }
      *pos = n; /* not read: counted as trailing data */
    }
    ch->pos += *pos - before;
    if (e == TC_E_NOMEM)
      return e;
    if (ch->cur && ch->cur->nevents &&
        (ch->cur->len >= ch->target || ch->cur->nevents >= TC_CHUNK_MAX_EVENTS)) {
      chunk_seal(ch->cur);
      *ready = ch->cur;
      ch->cur = NULL;
      return TC_OK;
    }
  }
  return TC_OK;
}

/* What the held head says: a reader to start, JSON to go on with, or not a
 * trace at all. */
static tc_err decide(tc_chunker *ch) {
  ch->sniff = SNIFF_DONE;
  tc_sniff_kind kind = tc_sniff(ch->head, ch->head_len);
  if (kind == TC_SNIFF_PERFETTO) {
    tc_proto_sink sink = {proto_event, proto_skip, ch};
    ch->proto = tc_proto_create(&sink);
    return ch->proto ? TC_OK : TC_E_NOMEM;
  }
  ch->refused = tc_sniff_error(kind);
  if (ch->refused)
    ch->head_pos = ch->head_len; /* never read as JSON */
  return ch->refused;
}

static tc_err body_feed(tc_chunker *ch, const char *p, size_t n, size_t *pos, tc_chunk **ready) {
  return ch->proto ? proto_feed(ch, p, n, pos, ready) : json_feed(ch, p, n, pos, ready);
}

tc_err tc_chunker_feed(tc_chunker *ch, const char *p, size_t n, size_t *pos, tc_chunk **ready) {
  *ready = NULL;
  if (ch->refused)
    return ch->refused;
  if (ch->sniff == SNIFF_NOT_YET && *pos < n)
    ch->sniff = tc_sniff_needs_head((unsigned char)p[*pos]) ? SNIFF_HOLDING : SNIFF_DONE;
  if (ch->sniff == SNIFF_HOLDING) {
    size_t take = n - *pos;
    if (take > TC_SNIFF_HEAD - ch->head_len)
      take = TC_SNIFF_HEAD - ch->head_len;
    memcpy(ch->head + ch->head_len, p + *pos, take);
    ch->head_len += take;
    *pos += take;
    if (ch->head_len < TC_SNIFF_HEAD)
      return TC_OK;
    tc_err e = decide(ch);
    if (e)
      return e;
  }
  if (ch->head_pos < ch->head_len) {
    /* The held bytes first, then the rest of this piece. */
    tc_err e = body_feed(ch, (const char *)ch->head, ch->head_len, &ch->head_pos, ready);
    if (e || *ready || ch->head_pos < ch->head_len)
      return e;
  }
  return body_feed(ch, p, n, pos, ready);
}

tc_err tc_chunker_finish(tc_chunker *ch, tc_chunk **last) {
  *last = NULL;
  if (ch->refused)
    return ch->refused;
  if (ch->sniff == SNIFF_HOLDING) {
    /* A stream shorter than the head: decide on what there is. */
    tc_err e = decide(ch);
    if (e)
      return e;
  }
  if (ch->head_pos < ch->head_len) {
    /* The held bytes are all there is: one chunk takes their events,
     * since finishing hands out one. */
    size_t target = ch->target;
    tc_chunk *ready = NULL;
    ch->target = SIZE_MAX;
    tc_err e = body_feed(ch, (const char *)ch->head, ch->head_len, &ch->head_pos, &ready);
    ch->target = target;
    if (e)
      return e;
  }
  if (!ch->proto)
    return json_finish(ch, last);
  tc_err rc = tc_proto_finish(ch->proto);
  ch->cut_event = tc_proto_cut(ch->proto);
  if (ch->cur && ch->cur->nevents) {
    chunk_seal(ch->cur);
    *last = ch->cur;
  } else {
    tc_chunk_free(ch->cur);
  }
  ch->cur = NULL;
  return rc;
}
