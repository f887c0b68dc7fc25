/**
 * report.html in a real browser (Debian's chromium, driven by playwright-core): from a certification run
 * against a sandbox with a fault, the verdict, the counts and a failure's curl line are visible, a test
 * opens onto its exchanges (a refusal's control marked), the filters by area and verdict work from the
 * file alone, nothing is fetched from the network, and a screenshot is written to reports/screenshots/
 * for people to look at.
 *
 * Without a browser the test is skipped with the reason (.ci/run installs chromium when it can);
 * with one it must pass. CHROMIUM_PATH names a browser elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../harness/report/records.ts';
import { ROOT, tempDir } from '../helpers.ts';
import { CERTIFY_RUNS, insuranceSandbox, readJson, runCli, type MissionSandbox } from './_cli.ts';

/** An invalid token answered 403 (one answer failing two rows: a root-cause group) and an off-by-one limit. */
const FAULTS = ['ins-bad-token-403', 'ins-surrender-max-999'];
export const SCREENSHOT = join(ROOT, 'reports', 'screenshots', 'certification-report.png');

function findChromium(): string | undefined {
  if (process.env.CHROMIUM_PATH) return existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : undefined;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // not installed under this name
    }
  }
  return undefined;
}

const executablePath = findChromium();
const NO_BROWSER = "no chromium on this machine (.ci/run installs Debian's chromium when it can; CHROMIUM_PATH names another)";

describe('report.html in a browser', () => {
  let sandbox: MissionSandbox | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let results: RunSummary;
  const offSite: string[] = [];

  beforeAll(async () => {
    if (!executablePath) return;
    sandbox = await insuranceSandbox(FAULTS);
    const out = join(tempDir('pc-pack-'), 'certification');
    const run = await runCli(['certify', '--target', sandbox.targetFile, '--out', out, ...CERTIFY_RUNS]);
    if (run.code !== 1) throw new Error(`certify ended ${run.code}, expected 1 (not certifiable): ${run.stdout.slice(-2000)}${run.stderr}`);
    results = readJson<RunSummary>(join(out, 'results.json'));
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) offSite.push(request.url());
    });
    await page.goto(pathToFileURL(join(out, 'report.html')).href);
  });

  afterAll(async () => {
    await browser?.close();
    await sandbox?.stop();
  });

  const shown = async () => Number(/showing (\d+) of/.exec((await page.locator('#shown').textContent()) ?? '')?.[1]);
  const setFilter = async (kind: string, set: string) => page.locator(`#filters button[data-kind="${kind}"][data-set="${set}"]`).click();
  const box = (kind: string, value: string) => page.locator(`#filters input[data-kind="${kind}"][value="${value}"]`);
  /** Whether the filter hides an element (rows of a closed requirement are not visible, yet not filtered out). */
  const filteredOut = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => (el as unknown as { hidden: boolean }).hidden);

  it('shows the verdict, the counts and a failure whole with its curl line, and fetches nothing', async (ctx) => {
    if (!executablePath) return ctx.skip(NO_BROWSER);
    await expect.poll(() => page.locator('#verdict h1').textContent()).toBe('NOT CERTIFIABLE');
    expect(await page.locator('#verdict h1').isVisible()).toBe(true);
    expect(await page.locator('#verdict li').first().textContent()).toBe(
      '2 defect(s): INS-AUT-002: expected rejected with 401, received status 403 (2 test(s)); INS-LIM-003: expected status 201, received status 400 (1 test(s))',
    );
    expect(await page.locator('#verdict li').nth(1).textContent()).toBe(
      '2 blocking requirement(s) failed: INS-LIM-003 [spec], INS-AUT-002 [configuration]',
    );
    const counts = page.locator('#counts');
    expect(await counts.isVisible()).toBe(true);
    const cells = await counts.locator('td').allTextContents();
    expect(cells.map(Number)).toEqual([
      results.counts.passed,
      results.counts.contractFailures,
      results.counts.toolErrors,
      results.counts.waived,
      results.counts.warnings,
      results.counts.inconclusive,
      results.counts.skipped - results.counts.inconclusive,
      results.counts.total,
    ]);
    const failure = page.locator('#failures article.failure').filter({ hasText: 'INS-LIM-003' }).first();
    const curl = failure.locator('pre');
    expect(await curl.isVisible()).toBe(true);
    expect(await curl.textContent()).toMatch(
      /Expected: [^\n]+\n\s+Received: [^\n]+[\s\S]*Reproduce: curl -sS -i -X POST '[^']+' [\s\S]*-H 'authorization: Bearer \*\*\*'/,
    );
    expect(await page.locator('#failures .group h3').textContent()).toBe('One defect, 2 failures of 1 requirement(s): INS-AUT-002');
    expect(offSite).toEqual([]);
    mkdirSync(join(ROOT, 'reports', 'screenshots'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    expect(existsSync(SCREENSHOT)).toBe(true);
  });

  it("opens a test onto the exchanges that decided it: the failure's own request and answer, and a refusal's control", async (ctx) => {
    if (!executablePath) return ctx.skip(NO_BROWSER);
    const failure = page.locator('#failures article.failure').filter({ hasText: 'INS-LIM-003' }).first();
    const exchanges = failure.locator('details.exchanges');
    expect(await exchanges.locator('.exchange').count()).toBe(0);
    await exchanges.locator('summary').click();
    const first = exchanges.locator('.exchange pre').first();
    await expect.poll(() => first.isVisible()).toBe(true);
    expect(await first.textContent()).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/insurance\/[^\n]+\n(.+\n)*authorization: Bearer \*\*\*\n/);
    expect(await exchanges.locator('.exchange pre').nth(1).textContent()).toMatch(/^HTTP 400\n/);
    // INS-AUT-002's refusals stood next to the control: a valid request served in the run.
    const refusal = page.locator('#failures article.failure').filter({ hasText: 'INS-AUT-002' }).first();
    await refusal.locator('details.exchanges summary').click();
    const control = refusal.locator('.exchange.control');
    await expect.poll(() => control.count()).toBeGreaterThan(0);
    expect(await control.first().locator('.head').textContent()).toMatch(/^control · evidence\/insurance\.har#e\d+ · /);
    expect(await control.first().locator('pre').nth(1).textContent()).toMatch(/^HTTP 201\n/);
    expect(offSite).toEqual([]);
  });

  it('filters by verdict and by area, without a server', async (ctx) => {
    if (!executablePath) return ctx.skip(NO_BROWSER);
    const inMission = results.tests.filter((t) => t.area === 'insurance');
    const failed = inMission.filter((t) => t.verdict === 'failed').length;
    expect(failed).toBeGreaterThan(0);
    expect(await shown()).toBe(inMission.length);

    await setFilter('verdict', 'none');
    await box('verdict', 'failed').check();
    expect(await shown()).toBe(failed);
    expect(await page.locator('#failures').isVisible()).toBe(true);
    expect(await filteredOut('.test[data-verdict="passed"]')).toBe(true);
    expect(await filteredOut('.test[data-verdict="failed"]')).toBe(false);
    expect(await page.locator('.test[data-verdict="failed"]').first().isVisible()).toBe(true);

    await box('area', 'insurance').uncheck();
    expect(await shown()).toBe(0);
    expect(await page.locator('#failures').isVisible()).toBe(false);

    await setFilter('area', 'all');
    await setFilter('verdict', 'all');
    expect(await shown()).toBe(inMission.length);
    expect(await filteredOut('.test[data-verdict="passed"]')).toBe(false);
  });
});
