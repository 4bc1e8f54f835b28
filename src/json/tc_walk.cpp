// The plain walk of tc_walk.h: simdjson On-Demand as its documentation
// shows it, over one decompressed document, into the project's interning
// tables (tc_map), the fastest hash tables at hand, so the baseline is not
// slowed by a poor table.
#include "json/tc_walk.h"

extern "C" { // C headers without C++ guards
#include "io/tc_sniff.h"
#include "io/tc_stream.h"
#include "proto/tc_proto_unpack.h"
#include "util/tc_map.h"
}

#include <simdjson.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

using namespace simdjson;

namespace {

constexpr size_t kRead = size_t(1) << 20;

struct Counted {
  tc_map map;
  std::vector<uint64_t> n;
  Counted() { tc_map_init(&map); }
  ~Counted() { tc_map_free(&map); }
  bool add(std::string_view s) {
    uint32_t id;
    if (tc_map_intern(&map, tc_str{s.data(), s.size()}, &id, nullptr))
      return false;
    if (id >= n.size())
      n.resize(size_t(id) + 1);
    n[id]++;
    return true;
  }
};

} // namespace

struct tc_walk {
  ondemand::parser parser;
  // malloc'd, grown by realloc: no zeroing, and a large block moves by
  // remapping its pages rather than copying them.
  char *buf = nullptr;
  size_t cap = 0;
  Counted names, cats, phs, paths;
  std::string path;
  double ts_sum = 0, dur_sum = 0;
  int64_t id_sum = 0;
  uint64_t json_bytes = 0, events = 0;
  bool read_values = false;
  // What the value walk read, summed so no read can be left out.
  uint64_t values = 0, string_bytes = 0;
  double number_sum = 0;

  error_code scalar(ondemand::value v, ondemand::json_type t);
  error_code value(ondemand::value v);
  error_code event(ondemand::object obj);
  error_code events_of(ondemand::array arr);
  ~tc_walk() { std::free(buf); }
};

error_code tc_walk::value(ondemand::value v) {
  ondemand::json_type t;
  error_code e = v.type().get(t);
  if (e)
    return e;
  if (!paths.add(path))
    return MEMALLOC;
  if (t == ondemand::json_type::object) {
    ondemand::object o;
    if ((e = v.get_object().get(o)))
      return e;
    for (auto f : o) {
      std::string_view k;
      if ((e = f.unescaped_key().get(k)))
        return e;
      size_t n = path.size();
      path.push_back('.');
      path.append(k);
      e = value(f.value());
      path.resize(n);
      if (e)
        return e;
    }
    return SUCCESS;
  }
  if (t == ondemand::json_type::array) {
    ondemand::array a;
    if ((e = v.get_array().get(a)))
      return e;
    size_t n = path.size();
    path.append("[]");
    for (auto el : a) {
      ondemand::value ev;
      if ((e = el.get(ev)) || (e = value(ev)))
        return e;
    }
    path.resize(n);
    return SUCCESS;
  }
  return read_values ? scalar(v, t) : SUCCESS; // the key-only walk keeps the path
}

error_code tc_walk::scalar(ondemand::value v, ondemand::json_type t) {
  error_code e = SUCCESS;
  values++;
  switch (t) {
  case ondemand::json_type::string: {
    std::string_view s;
    if (!(e = v.get_string().get(s)))
      string_bytes += s.size();
    break;
  }
  case ondemand::json_type::number: {
    ondemand::number n;
    if (!(e = v.get_number().get(n)))
      number_sum += n.as_double();
    break;
  }
  case ondemand::json_type::boolean: {
    bool b;
    if (!(e = v.get_bool().get(b)))
      number_sum += b;
    break;
  }
  default: {
    bool null;
    e = v.is_null().get(null);
    break;
  }
  }
  return e;
}

error_code tc_walk::event(ondemand::object obj) {
  events++;
  for (auto f : obj) {
    std::string_view k;
    error_code e = f.unescaped_key().get(k);
    if (e)
      return e;
    ondemand::value v = f.value();
    std::string_view s;
    double d;
    int64_t i;
    if (k == "name" || k == "cat" || k == "ph") {
      if (v.get_string().get(s) == SUCCESS &&
          !(k == "name" ? names : k == "cat" ? cats : phs).add(s))
        return MEMALLOC;
    } else if (k == "ts" || k == "dur") {
      if (v.get_double().get(d) == SUCCESS)
        (k == "ts" ? ts_sum : dur_sum) += d;
    } else if (k == "pid" || k == "tid") {
      if (v.get_int64().get(i) == SUCCESS)
        id_sum += i;
    } else if (k == "args") {
      ondemand::object a;
      if (v.get_object().get(a) == SUCCESS) {
        path.assign("args");
        for (auto af : a) {
          std::string_view ak;
          if ((e = af.unescaped_key().get(ak)))
            return e;
          path.resize(4);
          path.push_back('.');
          path.append(ak);
          if ((e = value(af.value())))
            return e;
        }
      }
    }
  }
  return SUCCESS;
}

error_code tc_walk::events_of(ondemand::array arr) {
  for (auto el : arr) {
    ondemand::value v;
    error_code e = el.get(v);
    if (e)
      return e;
    ondemand::object o;
    if (v.get_object().get(o) == SUCCESS && (e = event(o)))
      return e;
  }
  return SUCCESS;
}

extern "C" {

tc_walk *tc_walk_create(int read_values) {
  tc_walk *w = new (std::nothrow) tc_walk();
  if (w)
    w->read_values = read_values != 0;
  return w;
}

void tc_walk_free(tc_walk *w) { delete w; }

// The whole file into w->buf, padded.
static tc_err read_all(tc_walk *w, const char *path, size_t *len) {
  tc_stream *s;
  tc_err e = tc_stream_open_regular(path, &s);
  if (e)
    return e;
  size_t n = 0;
  for (;;) {
    if (w->cap < n + kRead + SIMDJSON_PADDING) {
      size_t cap = (n + kRead + SIMDJSON_PADDING) * 2;
      char *b = static_cast<char *>(std::realloc(w->buf, cap));
      if (!b) {
        tc_stream_close(s);
        return TC_E_NOMEM;
      }
      w->buf = b;
      w->cap = cap;
    }
    size_t got;
    e = tc_stream_read(s, w->buf + n, kRead, &got);
    n += got;
    if (e || got == 0)
      break;
  }
  tc_stream_close(s);
  // The last file's bytes must not be its padding (tc_parser.cpp says why).
  std::memset(w->buf + n, ' ', SIMDJSON_PADDING);
  *len = n;
  return e;
}

tc_err tc_walk_file(tc_walk *w, const char *path) {
  try {
    size_t len;
    tc_err te = read_all(w, path, &len);
    if (te)
      return te;
    w->json_bytes += len;
    const unsigned char *head = reinterpret_cast<const unsigned char *>(w->buf);
    if (tc_sniff(head, len < TC_SNIFF_HEAD ? len : TC_SNIFF_HEAD) == TC_SNIFF_PERFETTO) {
      uint64_t bad;
      w->events += tc_proto_unpack_all(head, len, &bad);
      return bad ? TC_E_BAD_EVENT : TC_OK;
    }
    ondemand::document doc;
    error_code e = w->parser.iterate(w->buf, len, w->cap).get(doc);
    ondemand::json_type t;
    if (!e)
      e = doc.type().get(t);
    if (!e && t == ondemand::json_type::array) {
      ondemand::array a;
      if (!(e = doc.get_array().get(a)))
        e = w->events_of(a);
    } else if (!e) {
      ondemand::object o;
      if (!(e = doc.get_object().get(o)))
        for (auto f : o) {
          std::string_view k;
          if ((e = f.unescaped_key().get(k)))
            break;
          ondemand::array a;
          if (k == "traceEvents" && f.value().get_array().get(a) == SUCCESS && (e = w->events_of(a)))
            break;
        }
    }
    return e == MEMALLOC ? TC_E_NOMEM : e ? TC_E_BAD_EVENT : TC_OK;
  } catch (const std::bad_alloc &) {
    return TC_E_NOMEM;
  }
}

void tc_walk_stats_get(const tc_walk *w, tc_walk_stats *out) {
  out->json_bytes = w->json_bytes;
  out->events = w->events;
  out->names = tc_map_count(&w->names.map);
  out->cats = tc_map_count(&w->cats.map);
  out->paths = tc_map_count(&w->paths.map);
  out->values = w->values;
}

} // extern "C"
