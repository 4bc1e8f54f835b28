// The reader of tc_jtree.h: simdjson On-Demand walks the document once and
// every value becomes a node of a C tree in one arena. Everything simdjson
// stays in this file; errors come back as codes, never as exceptions.
#include "json/tc_jtree.h"

#include <cstdio>

#include <simdjson.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <utility>
#include <vector>

using namespace simdjson;

namespace {

// Blocks never move, so nodes and strings stay put for the tree's life.
class Arena {
public:
  void *alloc(size_t n) {
    n = (n + 7) & ~size_t(7);
    if (blocks_.empty() || cap_ - used_ < n) {
      size_t cap = n > kBlock ? n : kBlock;
      blocks_.emplace_back(new char[cap]);
      cap_ = cap;
      used_ = 0;
    }
    void *p = blocks_.back().get() + used_;
    used_ += n;
    return p;
  }
  tc_str copy(std::string_view s) {
    char *p = static_cast<char *>(alloc(s.size() ? s.size() : 1));
    if (!s.empty())
      std::memcpy(p, s.data(), s.size());
    return tc_str{p, s.size()};
  }

private:
  static constexpr size_t kBlock = size_t(1) << 16;
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t cap_ = 0, used_ = 0;
};

} // namespace

struct tc_jtree {
  Arena arena;
  tc_jval root;
};

namespace {

const char kTooDeep[] = "arrays and objects nested too deep";
const char kTrailing[] = "more data after the JSON value";
const char kScalarRoot[] = "the document is not an object or array";

struct Builder {
  Arena &arena;
  const char *detail = nullptr; // our own reason, when simdjson had none

  error_code items(std::vector<tc_jval> &kids, tc_jval &out) {
    out.n = uint32_t(kids.size());
    tc_jval *p = static_cast<tc_jval *>(arena.alloc(kids.size() * sizeof(tc_jval)));
    if (!kids.empty())
      std::memcpy(p, kids.data(), kids.size() * sizeof(tc_jval));
    out.u.items = p;
    return SUCCESS;
  }

  error_code build(ondemand::value v, tc_jval &out, int depth) {
    std::memset(&out.u, 0, sizeof out.u);
    out.n = 0;
    ondemand::json_type t;
    error_code e = v.type().get(t);
    if (e)
      return e;
    switch (t) {
    case ondemand::json_type::array: {
      if (depth >= TC_JTREE_MAX_DEPTH)
        return (detail = kTooDeep, DEPTH_ERROR);
      out.type = TC_JARR;
      ondemand::array a;
      if ((e = v.get_array().get(a)))
        return e;
      std::vector<tc_jval> kids;
      for (auto el : a) {
        ondemand::value x;
        if ((e = el.get(x)))
          return e;
        kids.emplace_back();
        kids.back().key = tc_str{"", 0};
        if ((e = build(x, kids.back(), depth + 1)))
          return e;
      }
      return items(kids, out);
    }
    case ondemand::json_type::object: {
      if (depth >= TC_JTREE_MAX_DEPTH)
        return (detail = kTooDeep, DEPTH_ERROR);
      out.type = TC_JOBJ;
      ondemand::object o;
      if ((e = v.get_object().get(o)))
        return e;
      std::vector<tc_jval> kids;
      for (auto f : o) {
        ondemand::field fld;
        std::string_view key;
        if ((e = std::move(f).get(fld)) || (e = fld.unescaped_key().get(key)))
          return e;
        kids.emplace_back();
        kids.back().key = arena.copy(key);
        if ((e = build(fld.value(), kids.back(), depth + 1)))
          return e;
      }
      return items(kids, out);
    }
    case ondemand::json_type::number:
      out.type = TC_JNUM;
      return v.get_double().get(out.u.num);
    case ondemand::json_type::string: {
      std::string_view s;
      if ((e = v.get_string().get(s)))
        return e;
      out.type = TC_JSTR;
      out.u.str = arena.copy(s);
      return SUCCESS;
    }
    case ondemand::json_type::boolean: {
      bool b;
      if ((e = v.get_bool().get(b)))
        return e;
      out.type = TC_JBOOL;
      out.u.boolean = b;
      return SUCCESS;
    }
    case ondemand::json_type::null: {
      bool isnull;
      if ((e = v.is_null().get(isnull)))
        return e;
      if (!isnull)
        return N_ATOM_ERROR;
      out.type = TC_JNULL;
      return SUCCESS;
    }
    }
    return INCORRECT_TYPE;
  }
};

size_t where(ondemand::document &doc, const padded_string &in) {
  const char *p;
  if (doc.current_location().get(p) || p < in.data() || p > in.data() + in.size())
    return in.size();
  return size_t(p - in.data());
}

} // namespace

extern "C" {

tc_err tc_jtree_parse(const char *buf, size_t len, tc_jtree **out, tc_why *why) {
  *out = nullptr;
  tc_jtree *t = new (std::nothrow) tc_jtree();
  if (!t)
    return TC_E_NOMEM;
  try {
    padded_string in(buf, len);
    ondemand::parser parser;
    ondemand::document doc;
    error_code e = parser.iterate(in).get(doc);
    // A document that failed its first pass (unclosed string, bad UTF-8)
    // has no position to ask.
    const bool iterated = !e;
    Builder b{t->arena};
    t->root.key = tc_str{"", 0};
    ondemand::json_type type;
    if (!e && !(e = doc.type().get(type)) && type != ondemand::json_type::array &&
        type != ondemand::json_type::object) {
      b.detail = kScalarRoot;
      e = INCORRECT_TYPE;
    }
    ondemand::value root;
    if (!e && !(e = doc.get_value().get(root)))
      e = b.build(root, t->root, 0);
    // Past the whole value there is no current location unless more
    // tokens follow (simdjson 3.0 has no document::at_end).
    const char *rest;
    if (!e && !doc.current_location().get(rest)) {
      b.detail = kTrailing;
      e = TRAILING_CONTENT;
    }
    if (e) {
      if (e == MEMALLOC) {
        delete t;
        return TC_E_NOMEM;
      }
      // A failed first pass knows no position: no offset then.
      why->has_offset = e == EMPTY || iterated;
      why->offset = e == EMPTY || !iterated ? 0 : where(doc, in);
      snprintf(why->reason, sizeof why->reason, "%s", b.detail ? b.detail : error_message(e));
      delete t;
      return TC_E_BAD_JSON;
    }
  } catch (const std::bad_alloc &) {
    delete t;
    return TC_E_NOMEM;
  }
  *out = t;
  return TC_OK;
}

const tc_jval *tc_jtree_root(const tc_jtree *t) { return &t->root; }

void tc_jtree_free(tc_jtree *t) { delete t; }

const tc_jval *tc_jget(const tc_jval *v, const char *key) {
  if (!v || v->type != TC_JOBJ)
    return nullptr;
  for (uint32_t i = 0; i < v->n; i++)
    if (tc_str_eqc(v->u.items[i].key, key))
      return &v->u.items[i];
  return nullptr;
}

int tc_jnum(const tc_jval *v, double *out) {
  if (!v || v->type != TC_JNUM)
    return 0;
  *out = v->u.num;
  return 1;
}

int tc_jstr(const tc_jval *v, tc_str *out) {
  if (!v || v->type != TC_JSTR)
    return 0;
  *out = v->u.str;
  return 1;
}

} // extern "C"
