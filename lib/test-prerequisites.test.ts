import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MissingPrerequisite, findChromium, onPath, requireCommands } from './test-prerequisites';

// Each test gets a PATH of one empty directory of its own (so no apt-get either: nothing is installed) and the variable unset.
describe('test prerequisites', () => {
  let dir: string;
  const saved = { PATH: process.env.PATH, PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'queuelens-prerequisites-'));
    process.env.PATH = dir;
    delete process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH;
  });
  afterEach(() => {
    process.env.PATH = saved.PATH;
    if (saved.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH === undefined) delete process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH;
    else process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH = saved.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH;
    rmSync(dir, { recursive: true, force: true });
  });

  function executable(name: string, mode = 0o755): string {
    const path = join(dir, name);
    writeFileSync(path, '#!/bin/sh\n');
    chmodSync(path, mode);
    return path;
  }

  it('finds an executable on the PATH and passes over a file that is not executable', () => {
    executable('openssl', 0o644);
    expect(onPath('openssl')).toBeNull();
    const found = executable('redis-server');
    expect(onPath('redis-server')).toBe(found);
  });

  it('stops with one line naming the missing commands and the packages to install when it may not install them', () => {
    executable('redis-server');
    const check = () =>
      requireCommands([
        { command: 'redis-server', aptPackage: 'redis-server' },
        { command: 'redis-cli', aptPackage: 'redis-tools' },
        { command: 'openssl', aptPackage: 'openssl' },
      ]);
    expect(check).toThrow(MissingPrerequisite);
    expect(check).toThrow(/^redis-cli, openssl not found on the PATH: install redis-tools openssl \(apt-get install redis-tools openssl\)$/);
  });

  it('takes the browser the variable names, then Playwright’s download, then one on the PATH', () => {
    const playwrightBuild = join(dir, 'ms-playwright', 'chrome');
    expect(findChromium(playwrightBuild)).toBeNull();
    const onThePath = executable('chromium-browser');
    expect(findChromium(playwrightBuild)).toBe(onThePath);
    const downloaded = executable('chrome');
    expect(findChromium(downloaded)).toBe(downloaded);
    const named = executable('my-chrome');
    process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH = named;
    expect(findChromium(downloaded)).toBe(named);
  });

  it('refuses a variable naming a browser that is not there, saying what to do', () => {
    process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH = join(dir, 'nothing-here');
    expect(() => findChromium(join(dir, 'chrome'))).toThrow(
      /PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH is .*nothing-here, which does not exist: install Chromium \(apt-get install chromium/,
    );
  });
});
