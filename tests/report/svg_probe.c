#include "svg_probe.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void probe_open(probe_sink *s) {
  s->buf = NULL;
  s->len = 0;
  s->fp = open_memstream(&s->buf, &s->len);
}

char *probe_take(probe_sink *s) {
  fclose(s->fp);
  return s->buf;
}

size_t probe_count(const char *hay, const char *needle) {
  size_t n = 0, k = strlen(needle);
  for (const char *p = strstr(hay, needle); p; p = strstr(p + k, needle))
    n++;
  return n;
}

const char *probe_nth(const char *hay, const char *needle, size_t i) {
  const char *p = strstr(hay, needle);
  while (p && i--)
    p = strstr(p + 1, needle);
  return p;
}

int probe_attr(const char *tag, const char *name, char *out, size_t cap) {
  const char *end = strchr(tag, '>');
  size_t k = strlen(name);
  for (const char *p = tag + 1; end && p < end; p++) {
    if (p[-1] != ' ' || strncmp(p, name, k) || p[k] != '=' || p[k + 1] != '"')
      continue;
    const char *v = p + k + 2, *q = strchr(v, '"');
    if (!q || q > end)
      return 0;
    snprintf(out, cap, "%.*s", (int)(q - v), v);
    return 1;
  }
  return 0;
}

double probe_attr_num(const char *tag, const char *name) {
  char v[64];
  return probe_attr(tag, name, v, sizeof v) ? strtod(v, NULL) : NAN;
}

int probe_title(const char *p, char *out, size_t cap) {
  const char *t = strstr(p + 1, "<title>");
  const char *r = strstr(p + 1, "<rect"), *g = strstr(p + 1, "<g");
  if (!t || (r && r < t) || (g && g < t))
    return 0;
  t += strlen("<title>");
  const char *e = strstr(t, "</title>");
  if (!e)
    return 0;
  snprintf(out, cap, "%.*s", (int)(e - t), t);
  return 1;
}

/* The tick texts are <text x=".." y=".." class="yt" ...>LABEL</text>. */
static double tick(const char *svg, const char *cls, const char *label, const char *coord) {
  char want[64];
  snprintf(want, sizeof want, "class=\"%s\"", cls);
  for (const char *p = strstr(svg, want); p; p = strstr(p + 1, want)) {
    const char *tag = p;
    while (tag > svg && *tag != '<')
      tag--;
    const char *gt = strchr(p, '>');
    size_t k = strlen(label);
    if (gt && !strncmp(gt + 1, label, k) && !strncmp(gt + 1 + k, "</text>", 7))
      return probe_attr_num(tag, coord);
  }
  return NAN;
}

double probe_ytick(const char *svg, const char *label) { return tick(svg, "yt", label, "y"); }

double probe_xtick(const char *svg, const char *label) { return tick(svg, "xt", label, "x"); }

static int ticks_are(const char *svg, const char *cls, const char *const *want) {
  char key[64];
  snprintf(key, sizeof key, "class=\"%s\"", cls);
  const char *p = svg;
  size_t i = 0;
  for (p = strstr(p, key); p; p = strstr(p + 1, key), i++) {
    const char *gt = strchr(p, '>');
    if (!want[i] || !gt)
      return 0;
    size_t k = strlen(want[i]);
    if (strncmp(gt + 1, want[i], k) || strncmp(gt + 1 + k, "</text>", 7))
      return 0;
  }
  return want[i] == NULL;
}

int probe_yticks_are(const char *svg, const char *const *want) {
  return ticks_are(svg, "yt", want);
}

int probe_xticks_are(const char *svg, const char *const *want) {
  return ticks_are(svg, "xt", want);
}

const char *probe_bad_number(const char *text) {
  static const char *const attrs[] = {" x=\"",  " y=\"",         " width=\"",   " height=\"",
                                      " d=\"",  " transform=\"", " viewBox=\"", " data-v=\"",
                                      " x1=\"", " y1=\"",        " x2=\"",      " y2=\"",
                                      NULL};
  for (size_t a = 0; attrs[a]; a++)
    for (const char *p = strstr(text, attrs[a]); p; p = strstr(p + 1, attrs[a])) {
      const char *v = p + strlen(attrs[a]), *q = strchr(v, '"');
      if (!q)
        return p;
      for (const char *c = v; c + 3 <= q; c++)
        if (!strncasecmp(c, "nan", 3) || !strncasecmp(c, "inf", 3))
          return p;
    }
  return NULL;
}
