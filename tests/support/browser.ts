import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { describeIf } from './describe-or-skip';

/** Debian's Chromium (`apt-get install -y chromium`; `.ci/run` installs it when absent): the console's and the API reference's browser tests drive it. */
export const CHROMIUM = '/usr/bin/chromium';

/** `describe`, or, on a machine without Chromium, `describe.skip` after saying so loudly. */
export const describeInBrowser = describeIf(existsSync(CHROMIUM), 'BROWSER TESTS', `no Chromium at ${CHROMIUM}`, 'apt-get update && apt-get install -y chromium');

/** A real headless Chromium with a fresh profile of its own (run as root: no sandbox). */
export const launchBrowser = (): Promise<BrowserContext> =>
  chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'chromium-profile-')), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    viewport: { width: 1280, height: 900 },
  });

/** Screenshots go into the run's temporary directory (removed when the run ends). */
export const screenshotDir = (): string => {
  const dir = join(tmpdir(), 'console-screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
};

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/**
 * axe-core's serious and critical violations on the page as it stands. The engine is evaluated
 * through the browser's protocol, which the page's Content-Security-Policy does not govern (a
 * script tag would be refused, as it should be).
 */
export const seriousViolations = async (page: Page): Promise<string[]> => {
  await page.evaluate(axeSource);
  const violations = await page.evaluate<Violation[]>("axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)");
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
};
