// Opens a diff.html from file:// in Debian's headless Chromium, driven by
// playwright-core (installed by `npm ci` in tests/report), and checks what
// a reader gets: no console or page error, no request leaving the file,
// every table test_diff_e2e.py names with its rows, and the filter box of
// the sites table narrowing it to one site's rows. Saves a screenshot of
// the whole page to PNG (a CI artifact).
//
// usage: node diff_page_check.mjs DIFF_HTML PNG SITE ROWS_PER_SITE TABLE=ROWS...
// Exit 77 (skipped) without playwright-core or Chromium, unless
// TC_REQUIRE_ORACLES=1.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [file, png, site, per_site, ...tables] = process.argv.slice(2);
const require_all = process.env.TC_REQUIRE_ORACLES === '1';
const chromium_path = process.env.TC_CHROMIUM || '/usr/bin/chromium';
const pw_entry = new URL('../report/node_modules/playwright-core/index.mjs', import.meta.url);
for (const [missing, why] of [[!existsSync(pw_entry), 'playwright-core is not installed (npm ci in tests/report)'],
                              [!existsSync(chromium_path), `no Chromium at ${chromium_path}`]])
  if (missing) {
    console.error(`diff_page_check: ${why}` + (require_all ? ' (TC_REQUIRE_ORACLES=1: failing)' : '; skipped'));
    process.exit(require_all ? 1 : 77);
  }
const { chromium } = await import(pw_entry);

const failures = [];
function same(got, want, what) {
  const ok = JSON.stringify(got) === JSON.stringify(want);
  if (!ok) failures.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
}

const page_url = pathToFileURL(resolve(file)).href;
const browser = await chromium.launch({ executablePath: chromium_path });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [], requests = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.route('**/*', (route) => {
    if (route.request().url() === page_url) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  await page.goto(page_url, { waitUntil: 'load' });
  for (const t of tables) {
    const [id, rows] = t.split('=');
    same(await page.$$eval(`#${id} tbody tr`, (r) => r.length), Number(rows), `table ${id} rows`);
  }
  const visible = () => page.$$eval('#sites tbody tr', (rows) =>
    rows.filter((r) => !r.hidden).map((r) => r.cells[0].textContent));
  await page.fill('#sites-controls input', site);
  same(await visible(), Array(Number(per_site)).fill(site), `the sites filter narrows to ${site}`);
  await page.fill('#sites-controls input', '');
  // A table that shows all its rows offers no "Show N more" button.
  same(await page.$$eval('.tc-more', (b) => b.filter((x) => getComputedStyle(x).display !== 'none')
    .map((x) => x.textContent)), [], 'no "Show more" button under tables that show every row');
  await page.screenshot({ path: png, fullPage: true });
  same(errors, [], 'no console or page error');
  same(requests, [], 'no request leaves the file');
} finally {
  await browser.close();
}
if (failures.length) {
  console.error(`diff_page_check: ${failures.length} check(s) failed`);
  process.exit(1);
}
