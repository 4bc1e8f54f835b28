/* The page around the content: head with the style sheet, sections, table
 * of contents, and the one script, all inline (tc_html.h says why).
 *
 * Colours come from CSS variables with a light and a dark set chosen by the
 * reader's system setting; plots draw their text and axes in currentColor
 * and their data in mid-tone colours, so they read on either background.
 * Print rules drop the controls and the scroll boxes so nothing is cut. */
#include "report/tc_html.h"

static const char page_css[] =
    ":root{color-scheme:light dark;--fg:#1f2328;--bg:#fff;--muted:#59636e;--line:#d1d9e0;"
    "--soft:#f6f8fa;--accent:#0969da}\n"
    "@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9198a1;"
    "--line:#3d444d;--soft:#151b23;--accent:#4493f8}}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;background:var(--bg);color:var(--fg);"
    "font:15px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Noto Sans\",\"DejaVu Sans\","
    "sans-serif}\n"
    "main{max-width:2200px;margin:0 auto;padding:24px 32px 64px}\n"
    "h1{font-size:1.75rem;margin:.2em 0 .4em;line-height:1.25}\n"
    "h2{font-size:1.35rem;margin:2em 0 .5em;padding-bottom:.25em;border-bottom:1px solid "
    "var(--line)}\n"
    "h3{font-size:1.1rem;margin:1.6em 0 .4em}h4{font-size:1rem;margin:1.2em 0 .3em}\n"
    "h2 a.anchor,h3 a.anchor,h4 a.anchor{color:inherit;text-decoration:none}\n"
    "h2 a.anchor:hover::after,h3 a.anchor:hover::after,h4 a.anchor:hover::after"
    "{content:\" #\";color:var(--muted)}\n"
    "a{color:var(--accent)}p{margin:.5em 0;max-width:80ch}\n"
    ".muted{color:var(--muted)}code{font:.9em ui-monospace,\"DejaVu Sans Mono\",monospace}\n"
    "nav.toc{background:var(--soft);border:1px solid var(--line);border-radius:8px;"
    "padding:8px 20px;margin:16px 0}\n"
    "nav.toc h2{font-size:1rem;margin:.4em 0;border:0;padding:0}\n"
    "nav.toc ol{margin:0;padding:0 0 .4em;list-style:none;columns:2 18em}\n"
    "nav.toc li{margin:.1em 0;break-inside:avoid}nav.toc "
    "li.l2{padding-left:1.2em;font-size:.93em}\n"
    ".tc-controls{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin:8px 0}\n"
    ".tc-controls "
    "label{display:flex;gap:6px;align-items:center;color:var(--muted);font-size:.9em}\n"
    ".tc-controls input,.tc-controls select{font:inherit;color:var(--fg);background:var(--bg);"
    "border:1px solid var(--line);border-radius:6px;padding:4px 8px}\n"
    ".tc-controls "
    "input{min-width:16em}.tc-count{margin-left:auto;color:var(--muted);font-size:.9em}\n"
    ".tc-scroll{overflow:auto;max-height:75vh;border:1px solid var(--line);border-radius:8px}\n"
    "table.tc-table{border-collapse:collapse;width:100%;font-size:.9em;"
    "font-variant-numeric:tabular-nums}\n"
    "table.tc-table caption{text-align:left;padding:8px 10px;color:var(--muted);"
    "caption-side:top}\n"
    ".tc-table th,.tc-table td{padding:5px 10px;border-bottom:1px solid var(--line);"
    "text-align:left;vertical-align:top}\n"
    ".tc-table thead th{position:sticky;top:0;z-index:1;background:var(--soft);"
    "white-space:nowrap;vertical-align:bottom}\n"
    ".tc-table th button{all:unset;cursor:pointer;font-weight:600}\n"
    ".tc-table th button:focus-visible{outline:2px solid var(--accent);outline-offset:2px}\n"
    ".tc-table th .unit{display:block;font-weight:400;color:var(--muted);font-size:.85em}\n"
    ".tc-table th[aria-sort] button::after{content:\" \\25B2\";color:var(--accent)}\n"
    ".tc-table th[aria-sort=descending] button::after{content:\" \\25BC\"}\n"
    ".tc-table td.num,.tc-table th.num{text-align:right}\n"
    ".tc-table tbody tr:hover{background:var(--soft)}\n"
    ".tc-table td.na{color:var(--muted);font-style:italic;text-align:right;white-space:nowrap}\n"
    ".tc-table td:first-child{overflow-wrap:anywhere;min-width:10em}\n"
    ".tc-table .tc-off{display:none}\n"
    /* A long table lays out its first 200 rows only (with the script; the
     * class 'js' is set in <head>, before any row is parsed): laying out
     * 3,000 rows was most of a big page's load. The script then keeps a
     * window over the rows that pass the filters and grows it as the reader
     * scrolls to its end. */
    ".js .tc-table:not(.tc-live)>tbody>tr:nth-child(n+201),.tc-table tr.tc-later{display:none}\n"
    ".tc-more{display:block;margin:8px auto;font:inherit;color:var(--accent);background:none;"
    "border:1px solid var(--line);border-radius:6px;padding:4px 12px;cursor:pointer}\n"
    /* display:block above would beat the hidden attribute's display:none */
    ".tc-more[hidden]{display:none}\n"
    ".tc-cols{position:relative;font-size:.9em;color:var(--muted)}"
    ".tc-cols summary{cursor:pointer}\n"
    ".tc-cols div{position:absolute;z-index:2;background:var(--bg);border:1px solid var(--line);"
    "border-radius:6px;padding:6px 10px;white-space:nowrap}"
    ".tc-cols label{display:block;color:var(--fg)}\n"
    ".tag{display:inline-block;margin:1px 4px 1px 0;padding:0 7px;border:1px solid var(--line);"
    "border-radius:10px;font-size:.85em;white-space:nowrap}\n"
    "figure{margin:16px 0;break-inside:avoid}figcaption{color:var(--muted);font-size:.9em}\n"
    "figure.plot{margin:0 0 16px;padding:8px 12px;border:1px solid var(--line);"
    "border-radius:8px;max-width:100%;width:fit-content}\n"
    "figure.plot figcaption{overflow-wrap:anywhere}\n"
    /* Thousands of event sections and hundreds of timelines: the browser
     * lays out only those near the window, so a large report opens fast. */
    "section[id^=ev-],.site-tl{content-visibility:auto;contain-intrinsic-size:auto 420px}\n"
    /* The heat map (a row per site) and the sites table, laid out only
     * near the window too. */
    "#s-heatmap figure,#s-sites .tc-scroll{content-visibility:auto;contain-intrinsic-size:auto "
    "800px}\n"
    ".plots{display:flex;flex-wrap:wrap;gap:16px 28px}\n"
    "table.args{border-collapse:collapse;font-size:.9em;font-variant-numeric:tabular-nums}\n"
    "table.args th,table.args td{padding:2px 12px 2px 0;text-align:left}"
    "table.args .num{text-align:right}\n"
    "pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:8px 12px;"
    "overflow:auto;max-height:24em;font-size:.85em}\n"
    "svg.tc-plot{display:block;max-width:100%;height:auto;overflow:visible}\n"
    "svg.tc-plot .title{font-weight:600}\n"
    "svg.tc-plot .q text{paint-order:stroke;stroke:var(--bg);stroke-width:3px;"
    "stroke-linejoin:round}\n"
    "@media print{body{font-size:11pt}main{max-width:none;padding:0}.tc-controls{display:none}"
    ".tc-table .tc-off{display:table-cell}"
    ".tc-scroll{max-height:none;overflow:visible;border:0}"
    ".tc-table thead th{position:static}a{color:inherit}h2{break-after:avoid}}\n";

/* Sorting and filtering (tc_html.h states the behaviour). Plain ES5 DOM
 * calls, so a browser of any age runs it; a row's original position breaks
 * sort ties, so the written order is kept. */
static const char table_js[] =
    "(function () {\n"
    "  'use strict';\n"
    "  var WINDOW = 200; /* rows laid out at a time: the CSS's nth-child(n+201) */\n"
    "  function values(td) {\n"
    "    var tags = td.querySelectorAll('.tag'), out = [];\n"
    "    for (var i = 0; i < tags.length; i++) out.push(tags[i].textContent);\n"
    "    return tags.length ? out : [td.textContent.trim()];\n"
    "  }\n"
    "  function key(td, num) {\n"
    "    if (!num) return td.textContent.trim().toLowerCase();\n"
    "    var v = td.getAttribute('data-v');\n"
    "    return v === null ? null : parseFloat(v);\n"
    "  }\n"
    "  function columns(table, heads, bar, count) {\n"
    "    var menu = document.createElement('details'), box = document.createElement('div');\n"
    "    menu.className = 'tc-cols';\n"
    "    menu.appendChild(document.createElement('summary')).textContent = 'Columns';\n"
    "    for (var c = 0; c < heads.length; c++) {\n"
    "      (function (c) {\n"
    "        var label = document.createElement('label'), tick = document.createElement('input');\n"
    "        tick.type = 'checkbox';\n"
    "        tick.checked = true;\n"
    "        tick.addEventListener('change', function () {\n"
    "          var on = tick.checked, rows = table.rows;\n"
    "          for (var r = 0; r < rows.length; r++)\n"
    "            if (rows[r].cells[c]) rows[r].cells[c].classList.toggle('tc-off', !on);\n"
    "        });\n"
    "        label.appendChild(tick);\n"
    "        label.appendChild(document.createTextNode(' ' + heads[c].querySelector('button').firstChild.textContent));\n"
    "        box.appendChild(label);\n"
    "      })(c);\n"
    "    }\n"
    "    menu.appendChild(box);\n"
    "    bar.insertBefore(menu, count);\n"
    "  }\n"
    "  function setup(table) {\n"
    "    var body = table.tBodies[0], rows = [], heads = table.tHead.rows[0].cells;\n"
    "    var bar = document.getElementById(table.id + '-controls');\n"
    "    var input = bar.querySelector('input'), count = bar.querySelector('.tc-count');\n"
    "    var selects = [];\n"
    "    for (var r = 0; r < body.rows.length; r++) rows.push(body.rows[r]);\n"
    "    rows.forEach(function (row, i) { row.tcIndex = i; });\n"
    "    var limit = WINDOW, more = document.createElement('button');\n"
    "    more.type = 'button';\n"
    "    more.className = 'tc-more';\n"
    "    more.hidden = true;\n"
    "    table.parentNode.appendChild(more);\n"
    "    function apply() {\n"
    "      var q = input.value.trim().toLowerCase(), shown = 0;\n"
    "      rows.forEach(function (row) {\n"
    "        var ok = !q || row.textContent.toLowerCase().indexOf(q) >= 0;\n"
    "        selects.forEach(function (s) {\n"
    "          if (ok && s.value && values(row.cells[s.tcCol]).indexOf(s.value) < 0) ok = false;\n"
    "        });\n"
    "        row.hidden = !ok;\n"
    "        row.classList.toggle('tc-later', ok && shown >= limit);\n"
    "        if (ok) shown++;\n"
    "      });\n"
    "      var laid = Math.min(shown, limit);\n"
    "      count.textContent = shown + ' of ' + rows.length + ' rows' +\n"
    "        (laid < shown ? ' (first ' + laid + ' laid out; scroll for more)' : '');\n"
    "      more.hidden = laid >= shown;\n"
    "      more.textContent = 'Show ' + Math.min(WINDOW, shown - laid) + ' more of ' + (shown - laid);\n"
    "    }\n"
    "    more.addEventListener('click', function () { limit += WINDOW; apply(); });\n"
    "    if (window.IntersectionObserver)\n"
    "      new IntersectionObserver(function (seen) {\n"
    "        if (seen[0].isIntersecting && !more.hidden) more.click();\n"
    "      }, { root: table.parentNode }).observe(more);\n"
    "    function sortBy(c) {\n"
    "      var th = heads[c], num = th.getAttribute('data-kind') === 'num';\n"
    "      var was = th.getAttribute('aria-sort');\n"
    "      var asc = was ? was === 'descending' : !num;\n"
    "      for (var h = 0; h < heads.length; h++) heads[h].removeAttribute('aria-sort');\n"
    "      th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');\n"
    "      rows.sort(function (a, b) {\n"
    "        var x = key(a.cells[c], num), y = key(b.cells[c], num);\n"
    "        if (x === null || y === null) {\n"
    "          if (x !== y) return x === null ? 1 : -1;\n"
    "        } else if (x !== y) {\n"
    "          return (x < y) === asc ? -1 : 1;\n"
    "        }\n"
    "        return a.tcIndex - b.tcIndex;\n"
    "      });\n"
    "      rows.forEach(function (row) { body.appendChild(row); });\n"
    "      apply();\n"
    "    }\n"
    "    for (var c = 0; c < heads.length; c++) {\n"
    "      (function (c) {\n"
    "        heads[c].querySelector('button').addEventListener('click', function () { sortBy(c); "
    "});\n"
    "        if (!heads[c].hasAttribute('data-select')) return;\n"
    "        var seen = {}, list = [];\n"
    "        rows.forEach(function (row) {\n"
    "          values(row.cells[c]).forEach(function (v) {\n"
    "            if (v && !Object.prototype.hasOwnProperty.call(seen, v)) { seen[v] = 1; "
    "list.push(v); }\n"
    "          });\n"
    "        });\n"
    "        list.sort();\n"
    "        var label = document.createElement('label'), sel = document.createElement('select');\n"
    "        label.appendChild(document.createTextNode(heads[c].getAttribute('data-label')));\n"
    "        sel.add(new Option('all', ''));\n"
    "        list.forEach(function (v) { sel.add(new Option(v, v)); });\n"
    "        sel.tcCol = c;\n"
    "        sel.addEventListener('change', function () { limit = WINDOW; apply(); });\n"
    "        label.appendChild(sel);\n"
    "        bar.insertBefore(label, count);\n"
    "        selects.push(sel);\n"
    "      })(c);\n"
    "    }\n"
    "    columns(table, heads, bar, count);\n"
    "    input.addEventListener('input', function () { limit = WINDOW; apply(); });\n"
    "    apply();\n"
    "    table.classList.add('tc-live');\n"
    "  }\n"
    "  var tables = document.querySelectorAll('table.tc-table');\n"
    "  for (var t = 0; t < tables.length; t++) setup(tables[t]);\n"
    "})();\n";

void tc_html_begin(FILE *fp, const char *title) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta name=\"color-scheme\" content=\"light dark\">\n<title>",
        fp);
  tc_html_escape_c(fp, title);
  fputs("</title>\n<style>\n", fp);
  fputs(page_css, fp);
  /* Before any table row, so the CSS lays out a long table's first rows
   * only when the script that shows the rest will run. */
  fputs("</style>\n<script>document.documentElement.className += ' js';</script>\n</head>\n"
        "<body>\n<main>\n", fp);
}

void tc_html_end(FILE *fp) {
  fputs("</main>\n<script>\n", fp);
  fputs(table_js, fp);
  fputs("</script>\n</body>\n</html>\n", fp);
}

static int clamp_level(int level) { return level < 2 ? 2 : level > 4 ? 4 : level; }

void tc_html_section_begin(FILE *fp, int level, const char *prefix, tc_str name, tc_str heading) {
  int h = clamp_level(level);
  fputs("<section id=\"", fp);
  tc_html_id(fp, prefix, name);
  fputs("\">\n<h", fp);
  fputc('0' + h, fp);
  fputs("><a class=\"anchor\" href=\"#", fp);
  tc_html_id(fp, prefix, name);
  fputs("\">", fp);
  tc_html_escape(fp, heading);
  fputs("</a></h", fp);
  fputc('0' + h, fp);
  fputs(">\n", fp);
}

void tc_html_section_end(FILE *fp) { fputs("</section>\n", fp); }

void tc_html_figure_begin(FILE *fp, const char *prefix, tc_str name) {
  fputs("<figure class=\"plot\"", fp);
  if (prefix) {
    fputs(" id=\"", fp);
    tc_html_id(fp, prefix, name);
    fputc('"', fp);
  }
  fputs(">\n", fp);
}

void tc_html_figure_end(FILE *fp, const char *caption) {
  if (caption) {
    fputs("<figcaption>", fp);
    tc_html_escape_c(fp, caption);
    fputs("</figcaption>\n", fp);
  }
  fputs("</figure>\n", fp);
}

void tc_html_toc_begin(FILE *fp, const char *heading) {
  fputs("<nav class=\"toc\" aria-label=\"", fp);
  tc_html_escape_c(fp, heading);
  fputs("\">\n<h2>", fp);
  tc_html_escape_c(fp, heading);
  fputs("</h2>\n<ol>\n", fp);
}

void tc_html_toc_item(FILE *fp, int level, const char *prefix, tc_str name, tc_str label) {
  fprintf(fp, "<li class=\"l%d\"><a href=\"#", level > 1 ? 2 : 1);
  tc_html_id(fp, prefix, name);
  fputs("\">", fp);
  tc_html_escape(fp, label);
  fputs("</a></li>\n", fp);
}

void tc_html_toc_end(FILE *fp) { fputs("</ol>\n</nav>\n", fp); }
