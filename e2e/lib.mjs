// Shared helpers of the end-to-end tests: a `caisson serve` on a free port with a fresh SQLite
// database, and headless Debian Chromium driven by playwright-core.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '..');
export const BIN = process.env.CAISSON_BIN || path.join(ROOT, 'target/release/caisson');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
/** Where the tests leave their screenshots (set SHOTS= to an empty string for none). */
export const SHOTS = process.env.SHOTS ?? path.join(os.tmpdir(), 'caisson-e2e');

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Starts `caisson serve` and waits until it answers; returns {base, stop}. With E2E_BASE set
 * (a URL), uses that server instead of starting one. */
export async function startServer() {
  if (process.env.E2E_BASE) return { base: process.env.E2E_BASE, stop: async () => {}, output: () => '' };
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'caisson-e2e-db-'));
  const db = path.join(dir, 'games.db');
  const child = spawn(BIN, ['serve', '--port', String(port), '--database', `sqlite:${db}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (b) => { output += b; });
  child.stderr.on('data', (b) => { output += b; });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`caisson serve exited with ${child.exitCode}:\n${output}`);
    try {
      const r = await fetch(`${base}/api/scenarios`);
      if (r.ok) break;
    } catch { /* not yet listening */ }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`caisson serve did not answer on ${base} within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => { child.once('exit', r); setTimeout(r, 3000); });
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { base, stop, output: () => output };
}

/** Headless Chromium with a fresh profile (playwright's launch makes a temporary user-data dir). */
export async function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/** A page that fails the test on any script error; console errors are collected. */
export async function newPage(browser, viewport = { width: 1600, height: 950 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return page;
}

export async function shot(page, name) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}
