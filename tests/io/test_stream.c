/* Stream readers against inputs made at test time: compressed here with
 * zlib/libzstd or by the gzip/zstd programs, and checked against the bytes
 * they were made from or against what `gzip -dc` / `zstd -dc` print.
 *
 * Every input is read both from a file and from memory, with buffers from
 * one byte up, so member, frame and refill boundaries fall everywhere.
 * argv[1] is the folder of third-party traces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "io/tc_stream.h"

static const char *traces_dir;
static char tmp_dir[] = "/tmp/tc_io_XXXXXX";

typedef struct {
  unsigned char *p;
  size_t len, cap;
} bytes;

static void put(bytes *b, const void *p, size_t n) {
  if (b->len + n > b->cap) {
    b->cap = (b->len + n) * 2 + 64;
    b->p = realloc(b->p, b->cap);
    assert_non_null(b->p);
  }
  if (n)
    memcpy(b->p + b->len, p, n);
  b->len += n;
}

static void put_cat(bytes *b, bytes a) { put(b, a.p, a.len); }

static void drop(bytes *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

/* Lines shaped like trace events, with random fields so that the codecs
 * cannot shrink them to nothing and the inputs span many refills. */
static bytes make_text(size_t approx, uint64_t seed) {
  bytes b = {0};
  char line[160];
  put(&b, "[\n", 2);
  while (b.len < approx) {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    int n = snprintf(line, sizeof line,
                     "{\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"ph\":\"X\",\"name\":"
                     "\"Task%u\",\"args\":{\"id\":\"%016llx\"}},\n",
                     (unsigned)(seed % 7), (unsigned)(seed >> 40) % 31,
                     (unsigned long long)(seed >> 20), (unsigned)(seed % 13),
                     (unsigned long long)seed);
    put(&b, line, (size_t)n);
  }
  put(&b, "{}]\n", 4);
  return b;
}

static bytes gz_member(const void *p, size_t n) {
  z_stream z;
  memset(&z, 0, sizeof z);
  assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  bytes b = {0};
  b.cap = deflateBound(&z, n) + 64;
  b.p = malloc(b.cap);
  z.next_in = (unsigned char *)p;
  z.avail_in = (uInt)n;
  z.next_out = b.p;
  z.avail_out = (uInt)b.cap;
  assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
  b.len = b.cap - z.avail_out;
  deflateEnd(&z);
  return b;
}

static bytes zst_frame_check(const void *p, size_t n, int checksum) {
  ZSTD_CCtx *c = ZSTD_createCCtx();
  assert_non_null(c);
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, checksum);
  bytes b = {0};
  b.cap = ZSTD_compressBound(n);
  b.p = malloc(b.cap);
  b.len = ZSTD_compress2(c, b.p, b.cap, p, n);
  assert_false(ZSTD_isError(b.len));
  ZSTD_freeCCtx(c);
  return b;
}

static bytes zst_frame(const void *p, size_t n) { return zst_frame_check(p, n, 1); }

static bytes skippable_frame(unsigned variant, size_t n) {
  unsigned char h[8] = {(unsigned char)(0x50 | variant), 0x2a, 0x4d, 0x18,
                        (unsigned char)n, (unsigned char)(n >> 8),
                        (unsigned char)(n >> 16), (unsigned char)(n >> 24)};
  bytes b = {0};
  put(&b, h, sizeof h);
  for (size_t i = 0; i < n; i++)
    put(&b, "\x28", 1); /* looks like a zstd magic byte: must be skipped */
  return b;
}

static bytes slurp(FILE *f) {
  assert_non_null(f);
  bytes b = {0};
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    put(&b, buf, n);
  return b;
}

static bytes read_path(const char *path) {
  FILE *f = fopen(path, "rb");
  bytes b = slurp(f);
  fclose(f);
  return b;
}

/* Stdout of a shell command, whatever its exit status (the programs exit
 * nonzero on damaged input after printing what they could decode). */
static bytes run_cmd(const char *fmt, const char *arg) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, fmt, arg);
  FILE *f = popen(cmd, "r");
  bytes b = slurp(f);
  pclose(f);
  return b;
}

static char *tmp_path(const char *name) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
  return path;
}

static char *write_tmp(const char *name, const void *p, size_t n) {
  char *path = tmp_path(name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(p, 1, n, f), n);
  assert_int_equal(fclose(f), 0);
  return path;
}

/* Reads S to its end with buffers of CAP bytes, checking the counters and
 * that the way it ended repeats on the next read. */
static tc_err drain(tc_stream *s, size_t cap, bytes *out) {
  unsigned char *buf = malloc(cap);
  assert_non_null(buf);
  tc_err e;
  size_t got;
  for (;;) {
    got = 12345;
    e = tc_stream_read(s, buf, cap, &got);
    if (e || got == 0)
      break;
    assert_true(got <= cap);
    put(out, buf, got);
    assert_int_equal(tc_stream_out_bytes(s), out->len);
  }
  assert_int_equal(got, 0);
  got = 12345;
  assert_int_equal(tc_stream_read(s, buf, cap, &got), e);
  assert_int_equal(got, 0);
  free(buf);
  return e;
}

static const size_t caps[] = {1, 3, 4093, 1u << 20, 8u << 20};

/* IN, read from a file and from memory with every buffer size, must sniff
 * as FMT and yield exactly WANT, then end with ERR. */
static void expect(const char *name, bytes in, tc_format fmt, bytes want, tc_err err) {
  char path[512];
  snprintf(path, sizeof path, "%s", write_tmp(name, in.p, in.len));
  for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
    /* One-byte reads of megabytes only cost time; small inputs cover them. */
    if (caps[c] < 4096 && want.len > (1u << 20))
      continue;
    for (int from_mem = 0; from_mem < 2; from_mem++) {
      tc_stream *s = NULL;
      tc_err oe = from_mem ? tc_stream_open_mem(in.p, in.len, &s) : tc_stream_open(path, &s);
      assert_int_equal(oe, TC_OK);
      assert_int_equal(tc_stream_format(s), fmt);
      bytes out = {0};
      tc_err e = drain(s, caps[c], &out);
      /* libzstd does not say how much it wrote in a call that fails, so
       * the bytes of that one call are withheld before a zstd error. */
      size_t slack = fmt == TC_FMT_ZSTD && err == TC_E_CORRUPT ? caps[c] : 0;
      if (e != err || out.len > want.len || out.len + slack < want.len)
        print_error("%s cap=%zu %s: got %s after %zu bytes, want %s after %zu\n", name,
                    caps[c], from_mem ? "mem" : "file", tc_strerror(e), out.len,
                    tc_strerror(err), want.len);
      assert_int_equal(e, err);
      assert_true(out.len <= want.len && out.len + slack >= want.len);
      if (out.len)
        assert_memory_equal(out.p, want.p, out.len);
      assert_int_equal(tc_stream_out_bytes(s), out.len);
      if (err == TC_OK || err == TC_E_TRUNCATED)
        assert_int_equal(tc_stream_in_bytes(s), in.len);
      else
        assert_true(tc_stream_in_bytes(s) <= in.len);
      tc_stream_close(s);
      drop(&out);
    }
  }
}

static void assert_prefix(bytes part, bytes whole) {
  assert_true(part.len <= whole.len);
  if (part.len)
    assert_memory_equal(part.p, whole.p, part.len);
}

/* ---- plain ---------------------------------------------------------- */

static void test_plain(void **state) {
  (void)state;
  bytes text = make_text(300000, 1);
  expect("plain.json", text, TC_FMT_PLAIN, text, TC_OK);
  drop(&text);
}

static void test_empty_and_short(void **state) {
  (void)state;
  bytes none = {0};
  expect("empty", none, TC_FMT_PLAIN, none, TC_OK);
  static const struct {
    const char *name, *bytes;
    size_t len;
  } shorts[] = {{"gz1", "\x1f", 1}, {"zst3", "\x28\xb5\x2f", 3}, {"skip3", "\x50\x2a\x4d", 3}};
  for (size_t i = 0; i < sizeof shorts / sizeof shorts[0]; i++) {
    bytes b = {(unsigned char *)shorts[i].bytes, shorts[i].len, 0};
    expect(shorts[i].name, b, TC_FMT_PLAIN, b, TC_OK);
  }
  /* A bare magic promises a member or frame that never comes. */
  bytes gz = {(unsigned char *)"\x1f\x8b", 2, 0};
  expect("gz2", gz, TC_FMT_GZIP, none, TC_E_TRUNCATED);
  bytes zst = {(unsigned char *)"\x28\xb5\x2f\xfd", 4, 0};
  expect("zst4", zst, TC_FMT_ZSTD, none, TC_E_TRUNCATED);
}

static void test_open_errors(void **state) {
  (void)state;
  tc_stream *s = (tc_stream *)&s; /* any non-NULL value: open must clear it */
  assert_int_equal(tc_stream_open(tmp_path("does-not-exist"), &s), TC_E_OPEN);
  assert_null(s);
  tc_stream_close(NULL);
  assert_int_equal(tc_stream_open_mem("x", 1, &s), TC_OK);
  char c;
  size_t got = 7;
  /* got == 0 with TC_OK would be mistaken for the end. */
  assert_int_equal(tc_stream_read(s, &c, 0, &got), TC_E_USAGE);
  assert_int_equal(got, 0);
  tc_stream_close(s);
  assert_string_equal(tc_format_name(TC_FMT_PLAIN), "plain");
  assert_string_equal(tc_format_name(TC_FMT_GZIP), "gzip");
  assert_string_equal(tc_format_name(TC_FMT_ZSTD), "zstd");
}

/* A pipe delivers the magic one byte at a time and has no size. */
/* A path that must be a regular file: a FIFO with no writer is refused at
 * once (a plain open would wait for a writer), as is a device; a regular
 * file reads as with tc_stream_open. */
static void test_open_regular(void **state) {
  (void)state;
  char *fifo = tmp_path("lonely-fifo");
  assert_int_equal(mkfifo(fifo, 0600), 0);
  tc_stream *s = (tc_stream *)1;
  assert_int_equal(tc_stream_open_regular(fifo, &s), TC_E_NOT_REGULAR);
  assert_null(s);
  assert_int_equal(tc_stream_open_regular("/dev/zero", &s), TC_E_NOT_REGULAR);
  assert_int_equal(tc_stream_open_regular("/nonexistent/tc-x", &s), TC_E_OPEN);
  unlink(fifo);
  bytes text = make_text(5000, 3);
  char path[512];
  snprintf(path, sizeof path, "%s", write_tmp("regular.json", text.p, text.len));
  assert_int_equal(tc_stream_open_regular(path, &s), TC_OK);
  bytes out = {0};
  assert_int_equal(drain(s, 100, &out), TC_OK);
  assert_int_equal(out.len, text.len);
  assert_memory_equal(out.p, text.p, text.len);
  tc_stream_close(s);
  drop(&out);
  drop(&text);
}

static void test_fifo(void **state) {
  (void)state;
  bytes text = make_text(200000, 2);
  bytes gz = gz_member(text.p, text.len);
  char *path = tmp_path("fifo");
  assert_int_equal(mkfifo(path, 0600), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    int fd = open(path, O_WRONLY);
    int ok = fd >= 0;
    for (size_t i = 0; ok && i < gz.len;) {
      size_t n = i < 3 ? 1 : gz.len - i;
      ssize_t w = write(fd, gz.p + i, n);
      ok = w > 0;
      i += ok ? (size_t)w : 0;
      if (i < 4)
        usleep(10000);
    }
    _exit(ok ? 0 : 1);
  }
  tc_stream *s;
  assert_int_equal(tc_stream_open(path, &s), TC_OK);
  assert_int_equal(tc_stream_format(s), TC_FMT_GZIP);
  bytes out = {0};
  assert_int_equal(drain(s, 65536, &out), TC_OK);
  assert_int_equal(tc_stream_in_bytes(s), gz.len);
  tc_stream_close(s);
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  assert_int_equal(out.len, text.len);
  assert_memory_equal(out.p, text.p, text.len);
  unlink(path);
  drop(&out);
  drop(&gz);
  drop(&text);
}

/* ---- gzip ----------------------------------------------------------- */

static void test_gzip(void **state) {
  (void)state;
  bytes text = make_text(2500000, 3);
  bytes gz = gz_member(text.p, text.len);
  expect("one.gz", gz, TC_FMT_GZIP, text, TC_OK);
  bytes small = make_text(20000, 4);
  bytes sgz = gz_member(small.p, small.len);
  expect("small.gz", sgz, TC_FMT_GZIP, small, TC_OK);
  drop(&sgz);
  drop(&small);
  drop(&gz);
  drop(&text);
}

static void test_gzip_members(void **state) {
  (void)state;
  /* Members of 0, 1, a few thousand and several hundred thousand bytes,
   * so that boundaries fall both inside and between input buffers. */
  bytes text = make_text(600000, 5);
  size_t cuts[] = {0, 0, 1, 5000, 400000, text.len};
  bytes in = {0};
  for (size_t i = 0; i + 1 < sizeof cuts / sizeof cuts[0]; i++) {
    bytes m = gz_member(text.p + cuts[i], cuts[i + 1] - cuts[i]);
    put_cat(&in, m);
    drop(&m);
  }
  /* The file is what `gzip -dc` calls valid and decodes to the same bytes. */
  char *path = write_tmp("members-ref.gz", in.p, in.len);
  bytes ref = run_cmd("gzip -dc '%s'", path);
  assert_int_equal(ref.len, text.len);
  assert_memory_equal(ref.p, text.p, text.len);
  expect("members.gz", in, TC_FMT_GZIP, text, TC_OK);
  drop(&ref);
  drop(&in);
  drop(&text);
}

/* All of a one-shot inflate over IN, whatever stopped it: what a streaming
 * reader must hand out, however small its buffers, before an error. */
static bytes inflate_all(bytes in) {
  z_stream z;
  memset(&z, 0, sizeof z);
  assert_int_equal(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  bytes b = {0};
  b.cap = 64u << 20;
  b.p = malloc(b.cap);
  z.next_in = in.p;
  z.avail_in = (uInt)in.len;
  z.next_out = b.p;
  z.avail_out = (uInt)b.cap;
  inflate(&z, Z_FINISH);
  b.len = b.cap - z.avail_out;
  inflateEnd(&z);
  return b;
}

static void test_gzip_truncated(void **state) {
  (void)state;
  bytes text = make_text(900000, 6);
  /* Ends in long matches: when the input stops right after them, inflate
   * still owes their output to a small buffer. */
  char spaces[3000];
  memset(spaces, ' ', sizeof spaces);
  put(&text, spaces, sizeof spaces);
  bytes gz = gz_member(text.p, text.len);
  /* Inside the header, the middle of the data, the CRC and the length. */
  size_t cuts[] = {5, gz.len / 2, gz.len - 8, gz.len - 1};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
    bytes cut = {gz.p, cuts[i], 0};
    bytes want = inflate_all(cut);
    assert_prefix(want, text);
    if (cuts[i] > 100)
      assert_true(want.len > 0);
    if (cuts[i] >= gz.len - 8)
      assert_int_equal(want.len, text.len);
    expect("cut.gz", cut, TC_FMT_GZIP, want, TC_E_TRUNCATED);
    drop(&want);
  }
  /* A second member cut short: the first one still comes out whole. */
  bytes two = {0};
  put_cat(&two, gz);
  put(&two, gz.p, gz.len / 3);
  bytes cut2 = inflate_all((bytes){gz.p, gz.len / 3, 0});
  bytes want = {0};
  put_cat(&want, text);
  put_cat(&want, cut2);
  expect("cut2.gz", two, TC_FMT_GZIP, want, TC_E_TRUNCATED);
  drop(&want);
  drop(&cut2);
  drop(&two);
  drop(&gz);
  drop(&text);
}

static void test_gzip_trailing(void **state) {
  (void)state;
  bytes text = make_text(100000, 7);
  bytes gz = gz_member(text.p, text.len);
  bytes zeros = {calloc(300000, 1), 300000, 0};
  bytes in = {0};

  /* Zero padding (longer than one input buffer) is skipped, as gzip does. */
  put_cat(&in, gz);
  put_cat(&in, zeros);
  expect("zeros.gz", in, TC_FMT_GZIP, text, TC_OK);

  /* Anything after the padding is garbage. */
  put(&in, "x", 1);
  expect("zeros-x.gz", in, TC_FMT_GZIP, text, TC_E_CORRUPT);
  in.len = 0;
  put_cat(&in, gz);
  put(&in, "\0\0", 2);
  put_cat(&in, gz);
  expect("zeros-member.gz", in, TC_FMT_GZIP, text, TC_E_CORRUPT);

  /* gzip only warns about trailing garbage; we refuse it. */
  in.len = 0;
  put_cat(&in, gz);
  put(&in, "garbage\n", 8);
  expect("garbage.gz", in, TC_FMT_GZIP, text, TC_E_CORRUPT);

  /* A lone 0x1f looks like the start of a member that was cut. */
  in.len = 0;
  put_cat(&in, gz);
  put(&in, "\x1f", 1);
  expect("half-magic.gz", in, TC_FMT_GZIP, text, TC_E_TRUNCATED);

  drop(&in);
  drop(&zeros);
  drop(&gz);
  drop(&text);
}

static void test_gzip_corrupt(void **state) {
  (void)state;
  bytes text = make_text(100000, 8);
  bytes gz = gz_member(text.p, text.len);
  bytes none = {0};

  /* A wrong CRC is found after all data came out. */
  gz.p[gz.len - 8] ^= 0x55;
  expect("crc.gz", gz, TC_FMT_GZIP, text, TC_E_CORRUPT);
  gz.p[gz.len - 8] ^= 0x55;

  /* Compression method 7 does not exist. */
  gz.p[2] = 7;
  expect("method.gz", gz, TC_FMT_GZIP, none, TC_E_CORRUPT);
  gz.p[2] = 8;

  /* A zlib stream after a gzip member is not a gzip member. */
  bytes in = {0};
  put_cat(&in, gz);
  unsigned char zl[64];
  uLongf zl_len = sizeof zl;
  assert_int_equal(compress(zl, &zl_len, (const unsigned char *)"hello", 5), Z_OK);
  put(&in, zl, zl_len);
  expect("zlib-after.gz", in, TC_FMT_GZIP, text, TC_E_CORRUPT);

  drop(&in);
  drop(&gz);
  drop(&text);
}

/* ---- zstd ----------------------------------------------------------- */

static void test_zstd(void **state) {
  (void)state;
  bytes text = make_text(2500000, 9);
  bytes zs = zst_frame(text.p, text.len);
  expect("one.zst", zs, TC_FMT_ZSTD, text, TC_OK);
  bytes small = make_text(20000, 10);
  bytes szs = zst_frame(small.p, small.len);
  expect("small.zst", szs, TC_FMT_ZSTD, small, TC_OK);
  /* Without a checksum the input ends with the last block, while most of
   * its output still waits inside the decoder for small buffers. */
  bytes nocheck = zst_frame_check(small.p, small.len, 0);
  expect("nocheck.zst", nocheck, TC_FMT_ZSTD, small, TC_OK);
  drop(&nocheck);
  drop(&szs);
  drop(&small);
  drop(&zs);
  drop(&text);
}

/* A frame declaring zstd's largest window (2 GiB, as `zstd --long=31`
 * writes when the size is unknown) decodes; the window is not filled, so
 * it costs no more memory than the output it held. */
static void test_zstd_long_window(void **state) {
  (void)state;
  bytes text = make_text(3000000, 11);
  ZSTD_CCtx *c = ZSTD_createCCtx();
  assert_non_null(c);
  assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, 31)));
  assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_enableLongDistanceMatching, 1)));
  assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0)));
  bytes zs = {0};
  zs.cap = ZSTD_compressBound(text.len);
  zs.p = malloc(zs.cap);
  ZSTD_inBuffer in = {text.p, text.len, 0};
  ZSTD_outBuffer out = {zs.p, zs.cap, 0};
  /* Given as a stream, so the encoder cannot shrink the window to fit. */
  assert_false(ZSTD_isError(ZSTD_compressStream2(c, &out, &in, ZSTD_e_continue)));
  assert_int_equal(ZSTD_compressStream2(c, &out, &in, ZSTD_e_end), 0);
  zs.len = out.pos;
  ZSTD_freeCCtx(c);
  /* zstd's default decoder refuses it: the window is past 128 MiB. */
  assert_true(ZSTD_getFrameContentSize(zs.p, zs.len) == ZSTD_CONTENTSIZE_UNKNOWN);
  ZSTD_DCtx *d = ZSTD_createDCtx();
  unsigned char buf[4096];
  ZSTD_inBuffer din = {zs.p, zs.len, 0};
  ZSTD_outBuffer dout = {buf, sizeof buf, 0};
  size_t rc = ZSTD_decompressStream(d, &dout, &din);
  assert_int_equal(ZSTD_getErrorCode(rc), ZSTD_error_frameParameter_windowTooLarge);
  ZSTD_freeDCtx(d);
  /* One read size is enough: the window, not the read, is the point. */
  tc_stream *st;
  assert_int_equal(tc_stream_open_mem(zs.p, zs.len, &st), TC_OK);
  bytes got = {0};
  assert_int_equal(drain(st, 1u << 20, &got), TC_OK);
  assert_int_equal(got.len, text.len);
  assert_memory_equal(got.p, text.p, text.len);
  tc_stream_close(st);
  drop(&got);
  drop(&zs);
  drop(&text);
}

static void test_zstd_frames(void **state) {
  (void)state;
  bytes text = make_text(600000, 11);
  size_t cuts[] = {0, 0, 1, 5000, 400000, text.len};
  bytes in = {0}, with_skips = {0};
  for (size_t i = 0; i + 1 < sizeof cuts / sizeof cuts[0]; i++) {
    bytes f = zst_frame(text.p + cuts[i], cuts[i + 1] - cuts[i]);
    bytes sk = skippable_frame((unsigned)i, i * 3000);
    put_cat(&in, f);
    put_cat(&with_skips, sk);
    put_cat(&with_skips, f);
    drop(&sk);
    drop(&f);
  }
  bytes sk = skippable_frame(15, 10);
  put_cat(&with_skips, sk);
  drop(&sk);

  char *path = write_tmp("frames-ref.zst", with_skips.p, with_skips.len);
  bytes ref = run_cmd("zstd -q -dc '%s'", path);
  assert_int_equal(ref.len, text.len);
  assert_memory_equal(ref.p, text.p, text.len);

  expect("frames.zst", in, TC_FMT_ZSTD, text, TC_OK);
  /* Starts with a skippable frame: still zstd, as for `zstd -d`. */
  expect("skips.zst", with_skips, TC_FMT_ZSTD, text, TC_OK);
  bytes none = {0};
  bytes only = skippable_frame(3, 100);
  expect("skip-only.zst", only, TC_FMT_ZSTD, none, TC_OK);
  only.len -= 10;
  expect("skip-cut.zst", only, TC_FMT_ZSTD, none, TC_E_TRUNCATED);

  drop(&only);
  drop(&ref);
  drop(&with_skips);
  drop(&in);
  drop(&text);
}

/* Everything libzstd decodes from IN when given it all at once and room for
 * all output: what a streaming reader must hand out before it stops. (The
 * zstd program is no reference here: it drops its last partial output
 * buffer when the input ends early.) */
static bytes unzstd_all(bytes in) {
  ZSTD_DCtx *d = ZSTD_createDCtx();
  assert_non_null(d);
  bytes b = {0};
  b.cap = 64u << 20;
  b.p = malloc(b.cap);
  ZSTD_inBuffer zi = {in.p, in.len, 0};
  ZSTD_outBuffer zo = {b.p, b.cap, 0};
  for (;;) {
    size_t in_pos = zi.pos, out_pos = zo.pos;
    if (ZSTD_isError(ZSTD_decompressStream(d, &zo, &zi)) || (zi.pos == in_pos && zo.pos == out_pos))
      break;
  }
  b.len = zo.pos;
  ZSTD_freeDCtx(d);
  return b;
}

static void test_zstd_truncated(void **state) {
  (void)state;
  bytes text = make_text(900000, 12);
  bytes zs = zst_frame(text.p, text.len);
  /* Inside the frame header, the middle, before and inside the checksum. */
  size_t cuts[] = {5, zs.len / 2, zs.len - 4, zs.len - 3, zs.len - 1};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
    bytes cut = {zs.p, cuts[i], 0};
    bytes want = unzstd_all(cut);
    assert_prefix(want, text);
    if (i == 1)
      assert_true(want.len > 0 && want.len < text.len);
    if (i >= 2)
      assert_int_equal(want.len, text.len);
    expect("cut.zst", cut, TC_FMT_ZSTD, want, TC_E_TRUNCATED);
    drop(&want);
  }
  /* Cut inside the second frame: the first comes out whole. */
  bytes two = {0};
  put_cat(&two, zs);
  put(&two, zs.p, zs.len / 2);
  bytes want = unzstd_all(two);
  assert_true(want.len > text.len);
  assert_prefix(text, want);
  expect("cut2.zst", two, TC_FMT_ZSTD, want, TC_E_TRUNCATED);
  drop(&want);
  drop(&two);
  drop(&zs);
  drop(&text);
}

static void test_zstd_corrupt(void **state) {
  (void)state;
  bytes text = make_text(300000, 13);
  bytes zs = zst_frame(text.p, text.len);
  bytes none = {0};

  /* The checksum is checked after the last block came out. */
  zs.p[zs.len - 1] ^= 0x01;
  expect("checksum.zst", zs, TC_FMT_ZSTD, text, TC_E_CORRUPT);
  zs.p[zs.len - 1] ^= 0x01;

  /* Bit 3 of the frame header descriptor is reserved and must be 0. */
  zs.p[4] ^= 0x08;
  expect("reserved.zst", zs, TC_FMT_ZSTD, none, TC_E_CORRUPT);
  zs.p[4] ^= 0x08;

  /* A second frame whose magic is damaged. */
  bytes in = {0};
  put_cat(&in, zs);
  put_cat(&in, zs);
  in.p[zs.len + 1] = 'X';
  expect("magic2.zst", in, TC_FMT_ZSTD, text, TC_E_CORRUPT);

  /* Flipped bits in the compressed blocks never pass unnoticed. */
  for (size_t at = 20; at < zs.len - 4; at += zs.len / 7) {
    zs.p[at] ^= 0x10;
    tc_stream *s;
    assert_int_equal(tc_stream_open_mem(zs.p, zs.len, &s), TC_OK);
    bytes out = {0};
    tc_err e = drain(s, 4096, &out);
    assert_true(e == TC_E_CORRUPT || e == TC_E_TRUNCATED);
    tc_stream_close(s);
    drop(&out);
    zs.p[at] ^= 0x10;
  }
  drop(&in);
  drop(&zs);
  drop(&text);
}

/* ---- real traces ---------------------------------------------------- */

static char *trace_path(const char *name) {
  static char path[1024];
  snprintf(path, sizeof path, "%s/%s", traces_dir, name);
  return path;
}

/* Every gzip trace in the folder against `gzip -dc`, and every plain one
 * against its own bytes. */
static void test_real_traces(void **state) {
  (void)state;
  DIR *d = opendir(traces_dir);
  assert_non_null(d);
  int n_gz = 0, n_plain = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t n = strlen(de->d_name);
    int gz = n > 3 && strcmp(de->d_name + n - 3, ".gz") == 0;
    int js = n > 5 && strcmp(de->d_name + n - 5, ".json") == 0;
    if (!gz && !js)
      continue;
    char path[1024];
    snprintf(path, sizeof path, "%s", trace_path(de->d_name));
    bytes file = read_path(path);
    bytes want = gz ? run_cmd("gzip -dc '%s'", path) : read_path(path);
    assert_true(want.len > 0);
    tc_stream *s;
    assert_int_equal(tc_stream_open(path, &s), TC_OK);
    assert_int_equal(tc_stream_format(s), gz ? TC_FMT_GZIP : TC_FMT_PLAIN);
    bytes out = {0};
    assert_int_equal(drain(s, 1u << 20, &out), TC_OK);
    assert_int_equal(tc_stream_in_bytes(s), file.len);
    assert_int_equal(out.len, want.len);
    assert_memory_equal(out.p, want.p, want.len);
    tc_stream_close(s);
    n_gz += gz;
    n_plain += js;
    drop(&out);
    drop(&want);
    drop(&file);
  }
  closedir(d);
  assert_true(n_gz >= 1 && n_plain >= 1);
}

/* One trace through every reader and buffer size, and through the zstd
 * program (streamed, so its frame carries no content size). */
static void test_real_trace_lr(void **state) {
  (void)state;
  char *gz_path = trace_path("artifacts__lr__trace.json.gz");
  bytes gz = read_path(gz_path);
  bytes json = run_cmd("gzip -dc '%s'", gz_path);
  assert_true(json.len > 1000000);
  expect("lr.json.gz", gz, TC_FMT_GZIP, json, TC_OK);
  char *json_path = write_tmp("lr.json", json.p, json.len);
  bytes zs = run_cmd("zstd -q -c < '%s'", json_path);
  bytes zs2 = {0};
  put_cat(&zs2, zs);
  put_cat(&zs2, zs);
  bytes json2 = {0};
  put_cat(&json2, json);
  put_cat(&json2, json);
  expect("lr.json.zst", zs, TC_FMT_ZSTD, json, TC_OK);
  expect("lr2.json.zst", zs2, TC_FMT_ZSTD, json2, TC_OK);
  drop(&json2);
  drop(&zs2);
  drop(&zs);
  drop(&json);
  drop(&gz);
}

static int remove_tmp(void **state) {
  (void)state;
  DIR *d = opendir(tmp_dir);
  struct dirent *de;
  while (d && (de = readdir(d)))
    if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
      unlink(tmp_path(de->d_name));
  if (d)
    closedir(d);
  return rmdir(tmp_dir);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s TRACES_DIR\n", argv[0]);
    return 2;
  }
  traces_dir = argv[1];
  if (!mkdtemp(tmp_dir)) {
    perror("mkdtemp");
    return 2;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plain),          cmocka_unit_test(test_empty_and_short),
      cmocka_unit_test(test_open_errors),    cmocka_unit_test(test_fifo), cmocka_unit_test(test_open_regular),
      cmocka_unit_test(test_gzip),           cmocka_unit_test(test_gzip_members),
      cmocka_unit_test(test_gzip_truncated), cmocka_unit_test(test_gzip_trailing),
      cmocka_unit_test(test_gzip_corrupt),   cmocka_unit_test(test_zstd),
      cmocka_unit_test(test_zstd_long_window), cmocka_unit_test(test_zstd_frames),    cmocka_unit_test(test_zstd_truncated),
      cmocka_unit_test(test_zstd_corrupt),   cmocka_unit_test(test_real_traces),
      cmocka_unit_test(test_real_trace_lr),
  };
  return cmocka_run_group_tests_name("io", tests, NULL, remove_tmp);
}
