// Records one trace over the DevTools protocol, as Puppeteer users do:
// puppeteer-core connects to a Chromium that corpus/record started (with
// --remote-debugging-port, as Lighthouse's chrome-launcher starts it), starts
// tracing with page.tracing.start (Tracing.start, so Chrome writes
// TracingStartedInBrowser), navigates to the URL, keeps tracing for the set
// duration whether or not the page finishes loading, and stops
// (Tracing.end), which writes the trace as JSON.
//
//   node cdp_record.mjs ENDPOINT URL CATEGORIES DURATION_S TRACE_PATH RESULT_PATH
//
// RESULT_PATH gets {"navigation": "ok" | error text | null, "status": HTTP
// status or null, "crashed": whether the page's renderer crashed}. The
// recorder ends this process and the browser if it outlives the site's time
// limit. Exit status 0 when the trace was written, 1 otherwise (the reason
// on stderr).
import fs from 'node:fs';
import puppeteer from 'puppeteer-core';

const [endpoint, url, categories, durationS, tracePath, resultPath] = process.argv.slice(2);
if (!resultPath) {
  console.error('usage: node cdp_record.mjs ENDPOINT URL CATEGORIES DURATION_S TRACE_PATH RESULT_PATH');
  process.exit(2);
}

const result = {navigation: null, status: null, crashed: false};
try {
  const browser = await puppeteer.connect({browserWSEndpoint: endpoint, defaultViewport: null});
  // The tab Chromium opened on about:blank (not one of its own WebUI pages).
  const blank = (await browser.pages()).find(p => p.url() === 'about:blank');
  const page = blank ?? await browser.newPage();
  // Puppeteer emits 'error' on the page when its renderer crashes.
  page.on('error', () => { result.crashed = true; });
  await page.tracing.start({path: tracePath, categories: categories.split(',')});
  page.goto(url, {waitUntil: 'load', timeout: 0}).then(
      response => {
        result.navigation = 'ok';
        result.status = response ? response.status() : null;
      },
      error => { result.navigation = String(error.message ?? error); });
  await new Promise(resolve => setTimeout(resolve, Number(durationS) * 1000));
  await page.tracing.stop();
  fs.writeFileSync(resultPath, JSON.stringify(result));
  await browser.disconnect();
  process.exit(0);
} catch (error) {
  console.error(String(error.message ?? error).split('\n')[0]);
  process.exit(1);
}
