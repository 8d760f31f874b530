import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * What the test suite needs from the machine besides Node and a Redis on
 * 6379: a Chromium for Playwright, and redis-server, redis-cli and openssl
 * for the tests that start servers of their own. Found the usual ways;
 * installed with apt when the run is root on a Debian-like machine (a fresh
 * CI box); otherwise the run stops with one line saying what to install.
 */
export class MissingPrerequisite extends Error {
  override name = 'MissingPrerequisite';
}

/** The first executable called `command` on the PATH, or null. */
export function onPath(command: string): string | null {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    if (directory === '') continue;
    const candidate = join(directory, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; the next directory
    }
  }
  return null;
}

function mayInstallWithApt(): boolean {
  return process.getuid?.() === 0 && onPath('apt-get') !== null;
}

let aptUpdated = false;

/** apt-get install, once the package lists are fresh; false when apt-get fails (no network, no such package). */
function aptInstall(packages: readonly string[]): boolean {
  const quiet = { stdio: 'inherit' as const, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } };
  console.error(`Installing ${packages.join(', ')} with apt-get`);
  if (!aptUpdated) aptUpdated = spawnSync('apt-get', ['update', '-qq'], quiet).status === 0;
  return spawnSync('apt-get', ['install', '-y', '-qq', ...packages], quiet).status === 0;
}

/** Each command on the PATH, installing the package that brings it with apt when the run may; throws one line naming what is missing. */
export function requireCommands(needed: readonly { command: string; aptPackage: string }[]): void {
  const missing = needed.filter(({ command }) => onPath(command) === null);
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map(({ aptPackage }) => aptPackage))];
  if (mayInstallWithApt() && aptInstall(packages) && missing.every(({ command }) => onPath(command) !== null)) return;
  throw new MissingPrerequisite(
    `${missing.map(({ command }) => command).join(', ')} not found on the PATH: install ${packages.join(' ')} (apt-get install ${packages.join(' ')})`,
  );
}

export const SERVER_COMMANDS = [
  { command: 'redis-server', aptPackage: 'redis-server' },
  { command: 'redis-cli', aptPackage: 'redis-tools' },
  { command: 'openssl', aptPackage: 'openssl' },
] as const;

const BROWSER_VARIABLE = 'PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH';
const BROWSERS_ON_PATH = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const BROWSER_HINT = `install Chromium (apt-get install chromium, or npx playwright install chromium) or set ${BROWSER_VARIABLE}`;

/**
 * A Chromium already on the machine, without installing anything: the one
 * PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH names (which must exist), Playwright's
 * own download, then a browser on the PATH. `playwrightBuild` is where
 * Playwright keeps its download (`chromium.executablePath()`).
 */
export function findChromium(playwrightBuild: string): string | null {
  const named = process.env[BROWSER_VARIABLE];
  if (named) {
    if (!existsSync(named)) throw new MissingPrerequisite(`${BROWSER_VARIABLE} is ${named}, which does not exist: ${BROWSER_HINT}`);
    return named;
  }
  if (existsSync(playwrightBuild)) return playwrightBuild;
  for (const command of BROWSERS_ON_PATH) {
    const found = onPath(command);
    if (found) return found;
  }
  return null;
}

/**
 * A Chromium for the e2e run: one on the machine (findChromium), else
 * Playwright's download where the network allows, else Debian's chromium
 * with apt when the run may; throws one line saying what to install. A
 * browser already here is taken before downloading one: the download is a
 * few hundred MB, and a machine without the network would wait on it first.
 */
export function chromiumForTests(playwrightBuild: string): string {
  const found = findChromium(playwrightBuild);
  if (found) return found;
  console.error('No Chromium found; trying Playwright’s download');
  const download = spawnSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'inherit', timeout: 300_000 });
  if (download.status === 0 && existsSync(playwrightBuild)) return playwrightBuild;
  if (mayInstallWithApt() && aptInstall(['chromium'])) {
    const installed = findChromium(playwrightBuild);
    if (installed) return installed;
  }
  throw new MissingPrerequisite(`No Chromium for the e2e tests: ${BROWSER_HINT}`);
}
