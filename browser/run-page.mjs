// Opens a page in headless Chromium through playwright-core (Chromium from the system, not a download), waits until
// the page says it is done or failed (#state's data-state), and prints what it wrote into <pre id="results"> as one
// line of JSON on stdout. Used by scripts/check-browser.sh, which checks that JSON.
//
// Usage: node run-page.mjs URL [timeoutMs]
// Environment: CHROMIUM (default /usr/bin/chromium), CHROMIUM_PROFILE (a new empty directory for the profile),
// CHROMIUM_ARGS (more flags, separated by spaces, such as --ignore-certificate-errors-spki-list=HASH).
// Exits 1 with one line on stderr when the page does not finish in time or the browser fails.
import {chromium} from 'playwright-core';

const [url, timeoutArg] = process.argv.slice(2);
if (!url) {
  console.error('usage: node run-page.mjs URL [timeoutMs]');
  process.exit(2);
}
const timeout = Number(timeoutArg || 30000);
// The flags that work on a machine with a closed network: no background connections, no sandbox as root.
const args = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'].concat((process.env.CHROMIUM_ARGS || '').split(' ').filter(a => a));

let context;
try {
  context = await chromium.launchPersistentContext(process.env.CHROMIUM_PROFILE || '', {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args,
  });
} catch (e) {
  console.error('cannot start Chromium: ' + String(e.message).split('\n')[0]);
  process.exit(1);
}
const page = context.pages()[0] || await context.newPage();
const problems = [];
page.on('pageerror', e => problems.push('page error: ' + e.message));
page.on('console', m => {
  if (m.type() === 'error') {
    problems.push('console error: ' + m.text());
  }
});
let status = 0;
try {
  await page.goto(url, {timeout});
  await page.waitForSelector('#state[data-state="done"], #state[data-state="error"]', {timeout});
  const results = JSON.parse(await page.textContent('#results'));
  results.browser = {version: context.browser() ? context.browser().version() : null, problems};
  console.log(JSON.stringify(results));
} catch (e) {
  let state = null;
  try {
    state = await page.textContent('#results');
  } catch (ignored) {
    // The page is gone: the first error says why.
  }
  console.error('the page did not finish within ' + timeout + ' ms: ' + String(e.message).split('\n')[0]
    + (problems.length ? ' (' + problems.join('; ') + ')' : '') + (state ? ' results so far: '
    + state.replace(/\s+/g, ' ') : ''));
  status = 1;
}
await context.close();
process.exit(status);
