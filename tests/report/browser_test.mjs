// Opens the HTML layer's demo page (demo_report writes it) from file:// in
// Debian's headless Chromium, driven by playwright-core, and checks what a
// reader gets: no console error and no page error, no request leaving the
// file, every plot an SVG with content, a title and its n, every in-page
// link landing on an element, the filter box and the drop-downs narrowing
// the table to the rows known by construction (tests/report/demo_page.c),
// header clicks sorting it (numbers largest first, n/a last either way),
// print rules hiding the controls. Saves report.png (light) and
// report-dark.png next to the page, as CI artifacts.
//
// Then, given TRACECENSUS, the real report.html of the bundled crawl
// (corpus/crawl, run from the repository root) the same way: no console or
// page error, no request, every plot an SVG with content, a title and its
// n (one heat map, two plots per distribution, one timeline per trace and
// per site without a trace), every link landing, the filter box and the
// drop-downs narrowing the summary table to the rows census.json says.
// Saves report-bundled.png (the top of the page), report-bundled-plots.png
// (the heat map) and report-bundled-distributions.png.
//
// usage: node browser_test.mjs DEMO_REPORT OUTDIR [TRACECENSUS]
// Exit 77 (skipped) when playwright-core (npm ci in tests/report) or
// Chromium is missing, unless TC_REQUIRE_ORACLES=1 (scripts/test.sh), where
// a test that cannot run is a failure.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [demo, outdir, tracecensus] = process.argv.slice(2);
if (!demo || !outdir) {
  console.error('usage: node browser_test.mjs DEMO_REPORT OUTDIR');
  process.exit(2);
}
const require_all = process.env.TC_REQUIRE_ORACLES === '1';
function cannot_run(why) {
  console.error(`browser_test: ${why}` + (require_all ? ' (TC_REQUIRE_ORACLES=1: failing)' : '; skipped'));
  process.exit(require_all ? 1 : 77);
}

const chromium_path = process.env.TC_CHROMIUM || '/usr/bin/chromium';
const pw_entry = new URL('./node_modules/playwright-core/index.mjs', import.meta.url);
if (!existsSync(pw_entry)) cannot_run('playwright-core is not installed (npm ci in tests/report)');
if (!existsSync(chromium_path)) cannot_run(`no Chromium at ${chromium_path}`);
const { chromium } = await import(pw_entry);

const failures = [];
function check(ok, what) {
  if (!ok) failures.push(what);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
}
function same(got, want, what) {
  const ok = JSON.stringify(got) === JSON.stringify(want);
  check(ok, ok ? what : `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// A page at URL that records console errors, page errors and every request
// other than the page itself (aborted: the page must need none).
async function open(browser, url, width = 1280) {
  const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: 'light' });
  const errors = [], requests = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  await page.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors, requests };
}

// A picture of the element SEL. Playwright's element screenshot waits for
// the element to be "stable" while it tries scroll positions, which never
// settles for an element taller than the viewport, and a full-page picture
// of a report this long times out: the viewport is grown to the element's
// height for one picture instead.
async function sectionShot(page, sel, path) {
  const size = page.viewportSize();
  const box = await page.evaluate((s) => {
    const el = document.querySelector(s);
    el.scrollIntoView({ block: 'start' });
    const r = el.getBoundingClientRect();
    return { x: r.left, width: r.width, height: Math.ceil(r.height) };
  }, sel);
  await page.setViewportSize({ width: size.width, height: Math.max(size.height, box.height) });
  await page.evaluate((s) => document.querySelector(s).scrollIntoView({ block: 'start' }), sel);
  const top = await page.evaluate((s) => document.querySelector(s).getBoundingClientRect().top, sel);
  await page.screenshot({ path, clip: { x: box.x, y: top, width: box.width, height: box.height } });
  await page.setViewportSize(size);
}

// What each <svg> of the page shows: its size, title, n line, shapes, and
// whether it is an n/a plot.
function plotsOf(page) {
  return page.$$eval('svg', (list) => list.map((s) => {
    const box = s.getBBox();
    const n = s.querySelector('text.n');
    return {
      kind: s.getAttribute('class'),
      children: s.childElementCount,
      w: box.width,
      h: box.height,
      title: s.querySelector(':scope > title')?.textContent ?? '',
      n: n ? n.textContent : '',
      drawn: s.querySelectorAll('rect, path').length,
      na: !!s.querySelector(':scope > rect.na'),
    };
  }));
}

const file = resolve(join(outdir, 'report-demo.html'));
const out = execFileSync(resolve(demo), [file], { encoding: 'utf8' });
const plots = Number(/plots: (\d+)/.exec(out)?.[1]);
const page_url = pathToFileURL(file).href;

const browser = await chromium.launch({ executablePath: chromium_path });
try {
  const { page, errors, requests } = await open(browser, page_url);

  // Plots: as many as the writer says, each drawn.
  const svgs = await plotsOf(page);
  check(plots > 0 && svgs.length === plots, `${svgs.length} SVG plots on the page, the writer made ${plots}`);
  svgs.forEach((s, i) => {
    check(s.children > 3 && s.w > 100 && s.h > 50 && s.drawn > 0,
      `plot ${i + 1} "${s.title}" is drawn (${Math.round(s.w)} x ${Math.round(s.h)} px, ${s.drawn} shapes)`);
    check(s.title.length > 0 && s.n.startsWith('n = '), `plot ${i + 1} has a title and "${s.n}"`);
  });

  const dangling = await page.$$eval('a[href^="#"]', (as) =>
    as.map((a) => decodeURIComponent(a.getAttribute('href').slice(1))).filter((id) => !document.getElementById(id)));
  same(dangling, [], 'every in-page link has its target');

  // Filtering.
  const visible = () =>
    page.$$eval('#summary tbody tr', (rows) => rows.filter((r) => !r.hidden).map((r) => r.cells[0].textContent));
  const count = () => page.textContent('#summary-controls .tc-count');
  same(await count(), '12 of 12 rows', 'all rows shown at first');
  await page.fill('#summary-controls input', 'paint');
  same(await visible(), ['Paint', 'PrePaint', 'PaintImage', 'firstContentfulPaint'], 'text filter "paint"');
  same(await count(), '4 of 12 rows', 'count follows the filter');
  const selects = page.locator('#summary-controls select');
  same(await selects.count(), 2, 'a drop-down for category and one for usage');
  await selects.nth(0).selectOption('rail');
  same(await visible(), ['Paint', 'PrePaint', 'firstContentfulPaint'], '"paint" and category rail');
  await page.fill('#summary-controls input', '');
  same(await visible(), ['Paint', 'PrePaint', 'firstContentfulPaint'], 'category rail alone');
  await selects.nth(0).selectOption('');
  await selects.nth(1).selectOption('very high');
  same(await visible(), ['FunctionCall', 'RunTask', 'ThreadControllerImpl::RunTask'], 'usage very high');
  await selects.nth(1).selectOption('');
  same(await count(), '12 of 12 rows', 'clearing the filters shows every row');

  // Sorting.
  const header = (label) => page.locator('#summary thead th button', { hasText: label }).first();
  const by_records = ['RunTask', 'ThreadControllerImpl::RunTask', 'FunctionCall', 'v8.compile', 'ParseHTML',
    'Paint', 'PrePaint', 'Layout', 'TimerFire', 'PaintImage', 'firstContentfulPaint',
    'base::OnceCallback<void ()>::Run<&"lambda" \u{FFFD}>'];
  await header('records').click();
  same(await visible(), by_records, 'records: largest first');
  same(await page.getAttribute('#summary thead th:nth-child(3)', 'aria-sort'), 'descending', 'aria-sort says so');
  await header('records').click();
  same(await visible(), [...by_records].reverse(), 'records again: smallest first');
  await header('median dur').click();
  const med = await visible();
  same(med.slice(0, 3), ['PaintImage', 'ParseHTML', 'Layout'], 'median dur: largest first');
  same(med.slice(-2), ['firstContentfulPaint', by_records[11]], 'n/a last, in written order');
  await header('median dur').click();
  const med_up = await visible();
  same(med_up.slice(0, 2), ['TimerFire', 'RunTask'], 'median dur again: smallest first');
  same(med_up.slice(-2), ['firstContentfulPaint', by_records[11]], 'n/a still last');
  await header('name').click();
  same(await visible(), [by_records[11], 'firstContentfulPaint', 'FunctionCall', 'Layout', 'Paint', 'PaintImage',
    'ParseHTML', 'PrePaint', 'RunTask', 'ThreadControllerImpl::RunTask', 'TimerFire', 'v8.compile'],
  'name: A to Z, case-insensitive');
  await page.fill('#summary-controls input', 'task');
  same(await visible(), ['RunTask', 'ThreadControllerImpl::RunTask'], 'a filter keeps the sort order');
  await page.fill('#summary-controls input', '');

  // Back to the written order for the pictures.
  await page.reload({ waitUntil: 'load' });
  await page.screenshot({ path: join(outdir, 'report.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(outdir, 'report-dark.png'), fullPage: true });
  await page.emulateMedia({ media: 'print', colorScheme: 'light' });
  same(await page.isVisible('#summary-controls'), false, 'print hides the table controls');

  same(errors, [], 'no console error, no page error');
  same(requests, [], 'no request besides the page itself');
} finally {
  await browser.close();
}
console.log(`screenshots: ${join(outdir, 'report.png')}, ${join(outdir, 'report-dark.png')}`);
if (tracecensus) await realReport();
if (failures.length) {
  console.error(`browser_test: ${failures.length} check(s) failed`);
  process.exit(1);
}

async function realReport() {
  const run = resolve(join(outdir, 'report-bundled'));
  execFileSync(resolve(tracecensus), ['census', '-T', '2', '-q', '--manifest', 'corpus/crawl/manifest.tsv', '-o',
    run, 'corpus/crawl'], { stdio: 'inherit' });
  const census = JSON.parse(readFileSync(join(run, 'census.json'), 'utf8'));
  const metrics = JSON.parse(readFileSync(join(run, 'metrics.json'), 'utf8'));
  const url = pathToFileURL(join(run, 'report.html')).href;
  const browser = await chromium.launch({ executablePath: chromium_path });
  try {
    // At 1400 px, as issue 24 tried it.
    const { page, errors, requests } = await open(browser, url, 1400);

    // Every summary column inside the window: no sideways scroll, each header
    // within the viewport's width.
    const cols = await page.$$eval('#summary thead th', (ths) => ths.map((th) => {
      const r = th.getBoundingClientRect();
      return { label: th.querySelector('button').firstChild.textContent, left: r.left, right: r.right, w: r.width };
    }));
    const scroll = await page.$eval('#summary', (t) => ({ table: t.scrollWidth, box: t.parentElement.clientWidth }));
    same(cols.filter((c) => !(c.w > 0 && c.left >= 0 && c.right <= 1400)).map((c) => c.label), [],
      `report.html at 1400 px: all ${cols.length} summary columns visible`);
    check(scroll.table <= scroll.box, `report.html: the summary needs no sideways scroll (${scroll.table} <= ${scroll.box} px)`);
    // The Columns menu hides a column and shows it again in one click each.
    await page.click('#summary-controls .tc-cols summary');
    const usage = page.locator('#summary-controls .tc-cols label', { hasText: 'usage' }).first();
    await usage.locator('input').uncheck();
    same(await page.isVisible('#summary thead th:nth-child(5)'), false, 'report.html: Columns menu hides usage');
    await usage.locator('input').check();
    same(await page.isVisible('#summary thead th:nth-child(5)'), true, 'report.html: one click shows it again');
    await page.click('#summary-controls .tc-cols summary');

    // The sites table sorted by TBT: the site with the highest TBT in
    // metrics.csv (the median of its traces) comes first, and its name links
    // to its timelines.
    const csv = readFileSync(join(run, 'metrics.csv'), 'utf8').trim().split('\n').map((l) => l.split(','));
    const head = csv[0], site = head.indexOf('site'), trace = head.indexOf('trace'), tbt = head.indexOf('tbt_ms');
    const per = {};
    for (const row of csv.slice(1)) {
      if (row[trace] === '' || row[tbt] === '') continue;
      (per[row[site]] ||= []).push(Number(row[tbt]));
    }
    const median = (v) => v.sort((a, b) => a - b)[Math.ceil(v.length / 2) - 1];
    const ranked = Object.entries(per).map(([s, v]) => [s, median(v)]).sort((a, b) => b[1] - a[1]);
    await page.locator('#sites thead th button', { hasText: 'TBT' }).click();
    const first = await page.$eval('#sites tbody tr', (tr) => ({ site: tr.cells[0].textContent,
      href: tr.cells[0].querySelector('a')?.getAttribute('href') }));
    same(first.site, ranked[0][0], `report.html: sites sorted by TBT start with the highest (${ranked[0][1]} ms)`);
    check(first.href && await page.$(first.href.replace(/([^#\w-])/g, '\\$1')) !== null,
      `report.html: ${first.site} links to its timelines (${first.href})`);
    await page.screenshot({ path: join(outdir, 'report-bundled-sites.png') });

    const svgs = await plotsOf(page);
    const noTrace = metrics.sites.filter((s) => s.traces.length === 0).length;
    const want = 1 + 2 * 6 + metrics.traces.length + noTrace;
    same(svgs.length, want, `report.html: ${want} plots (heat map, 6 distributions x 2, ${metrics.traces.length} ` +
      `timelines, ${noTrace} sites without a trace)`);
    const bad = svgs.filter((s) => !(s.w > 100 && s.h > 50 && s.title && s.n.startsWith('n = ') && (s.drawn > 0 || s.na)));
    same(bad.map((s) => s.title), [], 'report.html: every plot drawn, with a title and its n');
    same(svgs.filter((s) => s.na).length, noTrace + metrics.traces.filter((t) => t.busy.na).length,
      'report.html: n/a plots only for sites without a trace or busy rate');
    same(svgs.filter((s) => /heatmap/.test(s.kind)).length, 1, 'report.html: one heat map');
    const dangling = await page.$$eval('a[href^="#"]', (as) =>
      as.map((a) => decodeURIComponent(a.getAttribute('href').slice(1))).filter((id) => !document.getElementById(id)));
    same(dangling, [], 'report.html: every in-page link has its target');

    const visible = () => page.$$eval('#summary tbody tr', (rows) => rows.filter((r) => !r.hidden).map((r) => r.cells[0].textContent));
    const all = census.events.length;
    same((await visible()).length, all, `report.html: the summary shows all ${all} events`);
    await page.fill('#summary-controls input', 'paint');
    const painted = census.events.filter((e) => JSON.stringify([e.name, e.categories.map((c) => c.name)]).toLowerCase().includes('paint'));
    const shown = await visible();
    check(shown.length > 0 && shown.length < all, `report.html: filter "paint" narrows the table to ${shown.length} rows`);
    same(shown.slice().sort(), painted.map((e) => e.name).filter((n) => shown.includes(n)).sort(),
      'report.html: every row left mentions paint');
    await page.fill('#summary-controls input', '');
    const selects = page.locator('#summary-controls select');
    same(await selects.count(), 4, 'report.html: drop-downs for category, usage, duration and DevTools-known');
    await selects.nth(0).selectOption('devtools.timeline');
    same((await visible()).sort(), census.events.filter((e) => e.categories.some((c) => c.name === 'devtools.timeline'))
      .map((e) => e.name).sort(), 'report.html: category devtools.timeline keeps exactly its events');
    await selects.nth(0).selectOption('');
    await selects.nth(1).selectOption('very high');
    same((await visible()).sort(), census.events.filter((e) => e.usage === 'very high').map((e) => e.name).sort(),
      'report.html: usage "very high" keeps exactly those events');
    await selects.nth(1).selectOption('');
    same((await visible()).length, all, 'report.html: clearing the filters shows every event');

    // A long table lays out a window of its rows (200 at a time), the ones
    // that pass the filters in the current order, and grows it as the
    // reader scrolls to its end; without the script every row shows.
    const laid = () => page.$$eval('#summary tbody tr', (rows) =>
      rows.filter((r) => getComputedStyle(r).display !== 'none').map((r) => r.cells[0].textContent));
    const win = Math.min(all, 200);
    check(all > 200, `report.html: the bundled summary (${all} rows) is long enough to window`);
    same((await laid()).length, win, `report.html: the summary lays out its first ${win} of ${all} rows`);
    same(await page.textContent('#summary-controls .tc-count'),
      `${all} of ${all} rows (first ${win} laid out; scroll for more)`, 'report.html: the count says the window');
    await page.$eval('#summary', (t) => { t.parentElement.scrollTop = t.parentElement.scrollHeight; });
    await page.waitForFunction((n) => [...document.querySelectorAll('#summary tbody tr')]
      .filter((r) => getComputedStyle(r).display !== 'none').length > n, win, { timeout: 10000 }).catch(() => {});
    same((await laid()).length, Math.min(all, 2 * win), 'report.html: scrolling to the end lays out 200 more');
    const moreShown = () => page.$$eval('.tc-more', (b) => b.filter((x) => getComputedStyle(x).display !== 'none')
      .map((x) => x.closest('div').querySelector('table').id));
    same(await moreShown(), all > 2 * win ? ['summary'] : [],
      'report.html: a "Show more" button only under the table with rows left to lay out');
    await page.locator('#summary thead th button', { hasText: 'records' }).first().click();
    const records = Object.fromEntries(census.events.map((e) => [e.name, e.records]));
    const top = await laid();
    const rest = (await visible()).filter((n) => !top.includes(n));
    check(top.length === Math.min(all, 2 * win) &&
      Math.min(...top.map((n) => records[n])) >= Math.max(...rest.map((n) => records[n])),
      `report.html: sorted by records, the window (kept at ${top.length} rows) holds the largest`);
    const noJs = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1400, height: 900 } });
    const plain = await noJs.newPage();
    await plain.goto(url);
    same(await plain.$$eval('#summary tbody tr', (rows) => rows.filter((r) => getComputedStyle(r).display !== 'none').length),
      all, 'report.html without JavaScript: every summary row shows');
    await noJs.close();

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(outdir, 'report-bundled.png') });
    await sectionShot(page, '#s-heatmap', join(outdir, 'report-bundled-plots.png'));
    await sectionShot(page, '#s-distributions', join(outdir, 'report-bundled-distributions.png'));
    same(errors, [], 'report.html: no console error, no page error');
    same(requests, [], 'report.html: no request besides the page itself');
  } finally {
    await browser.close();
  }
  console.log(`screenshots: ${join(outdir, 'report-bundled.png')}, ${join(outdir, 'report-bundled-plots.png')}`);
}
