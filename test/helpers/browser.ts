/**
 * A real browser for tests: Debian's chromium (installed by .ci/run), driven by playwright-core.
 * Headless, sandbox off (tests run as root in CI containers), and quiet on the network: no
 * background services, so the only traffic is to the 127.0.0.1 servers the tests start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { ROOT } from './paths.ts';

export const CHROMIUM = '/usr/bin/chromium';
/** Screenshots and other evidence a test keeps (git-ignored). */
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');

/** `extraArgs`: more chromium flags, e.g. `--host-resolver-rules=MAP rebind.test 127.0.0.1` (a name that resolves here, as DNS rebinding makes it). */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the browser tests need Debian's chromium (apt-get install -y chromium, as .ci/run does).`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

export function artifactPath(name: string): string {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, name);
}
