// Perryville (Blind Swords) in the page: a pv-16-0 game against the random player, started from
// the lobby; the map, a counter in its set-up hex, the chits panel, choices made by clicking; and
// the Confederate (computer) side's held chits and Key Chit never reach the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, shot } from '../lib.mjs';

let server;
let browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The Confederate secrets as a table that sees everything would see them: the save imported as a
 * hot-seat game gives `view(None)`. Held chits and the Key Chit, by id. */
async function confederateSecrets(game, token) {
  const save = await (await fetch(`${server.base}/api/games/${game}/save?token=${token}`)).json();
  const r = await fetch(`${server.base}/api/games/import`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ save, mode: 'hotseat' }),
  });
  assert.equal(r.status, 201);
  const copy = await r.json();
  const g = await (await fetch(`${server.base}/api/games/${copy.game}`, { headers: { authorization: `Bearer ${copy.seats.table}` } })).json();
  const c = g.view.sides.confederate;
  assert.ok(Array.isArray(c.held), 'the hot-seat table sees the Confederate chits');
  return [...c.held.map((x) => x.id), ...(c.key ? [c.key.id] : [])];
}

test('pv-16-0 against the random player: map, counters, chits panel, clicks, no Confederate secret shown', async () => {
  const page = await newPage(browser);
  // Every game object the page receives: the computer's side comes as counts and "hidden" only.
  const seen = [];
  page.on('response', async (r) => {
    if (!/\/api\/games\/[^/]+(\/actions|\/undo)?$/.test(new URL(r.url()).pathname) || !r.ok()) return;
    try { seen.push(await r.json()); } catch { /* a redirect or no body */ }
  });
  await page.goto(`${server.base}/`);

  // Lobby: the Perryville scenarios are listed; versus the computer, the note says the computer
  // opponent plays at random here, and goes away for the random player.
  for (const id of ['pv-16-0', 'pv-16-1', 'pv-16-2', 'pv-16-3', 'pv-16-4']) {
    await page.locator(`.scenario[data-scenario="${id}"]`).waitFor();
  }
  await page.locator('.scenario[data-scenario="pv-16-0"]').click();
  await page.locator('input[name="mode"][value="computer"]').check();
  await page.locator('#play-side').selectOption('union');
  await page.locator('#bot').selectOption('ai');
  await page.locator('#bot-note').waitFor();
  await page.locator('#bot').selectOption('random');
  await page.locator('#bot-note').waitFor({ state: 'hidden' });
  await page.locator('#seed').fill('5');
  await shot(page, 'perryville-lobby');
  await page.locator('#start').click();
  await page.waitForURL(/\?game=.+&token=.+/);
  const url = new URL(page.url());
  const game = url.searchParams.get('game');
  const token = url.searchParams.get('token');

  // The Perryville map, and the 52nd Ohio in its set-up hex (EX 16.0).
  await page.locator('#map polygon[data-hex="1127"]').waitFor({ state: 'attached' });
  const ohio = page.locator('.counter[data-unit="u-52oh"]');
  await ohio.waitFor();
  assert.equal(await ohio.getAttribute('data-hex'), '1127');
  assert.equal(await ohio.getAttribute('data-face'), 'fresh');
  assert.match(await ohio.locator('.values').textContent(), /^\d+(½)?-\d+$/, 'SP-CR on the counter');
  assert.equal(await page.locator('#roster-union tr[data-unit="u-52oh"] td.hex').textContent(), '1127');
  assert.match(await page.locator('#turn').textContent(), /Turn 1 of 8 · 7:00 AM/);

  // The chits panel: the cup's size, the Buell Alert Track, the Confederate chits face down.
  const chits = page.locator('#chits-panel');
  await chits.waitFor();
  assert.match(await chits.locator('.cup').textContent(), /^Cup: \d+ chits?$/);
  assert.ok((await page.locator('#buell-track li').count()) > 1, 'the Buell Alert Track is drawn');
  const rebel = chits.locator('.chit-side[data-side="confederate"]');
  assert.equal(await rebel.getAttribute('data-own'), 'false');
  assert.equal(await rebel.locator('[data-chit]').count(), 0);
  await page.locator('#seat', { hasText: 'computer: Confederate' }).waitFor();

  // Choices by clicking: the Union Key Chit first (SR 5.1), then whatever comes: a hex target on
  // the map, else a highlighted counter, else the first button.
  await page.locator('#decision[data-kind="key-chit"] [data-option^="key:"]').first().waitFor();
  const pick = await page.locator('#decision [data-option^="key:"]').first().getAttribute('data-option');
  await click(page, page.locator(`#decision [data-option="${pick}"]`));
  await chits.locator(`.chit-side[data-side="union"] .chit.key[data-chit="${pick.slice(4)}"]`).waitFor();
  let clicks = 1;
  let onMap = 0;
  while (clicks < 8) {
    const busy = page.locator('#decision .option');
    if (!(await busy.count())) break; // the game is over, or waits (it never should against the bot)
    const target = await onScreen(page, '#map .target');
    const counter = target === null ? await onScreen(page, '#map .stack.selectable') : null;
    if (target !== null) {
      await click(page, page.locator('#map .target').nth(target));
      onMap += 1;
    } else if (counter !== null) {
      await click(page, page.locator('#map .stack.selectable').nth(counter));
      onMap += 1;
    } else {
      await click(page, busy.first());
    }
    clicks += 1;
  }
  await shot(page, 'perryville-after-clicks');
  assert.ok(clicks >= 4, `at least four choices made (${clicks})`);
  const g = seen[seen.length - 1];
  assert.ok(g.seq >= 2, `actions stored (${g.seq})`);

  // Never an opponent's chit: not in any game object the page received, not on the page.
  assert.ok(seen.length >= clicks, `${seen.length} game objects seen`);
  for (const x of seen) {
    const c = x.view.sides.confederate;
    assert.equal(c.held, undefined, 'no Confederate held chits sent');
    assert.ok(c.key === null || c.key === 'hidden', `Confederate Key Chit sent as ${JSON.stringify(c.key)}`);
    assert.equal(typeof c.held_count, 'number');
  }
  const secrets = await confederateSecrets(game, token);
  const union = g.view.sides.union;
  const visible = new Set([...union.held.map((x) => x.id), ...(union.key ? [union.key.id] : []), ...g.view.played.map((x) => x.id)]);
  for (const id of secrets.filter((s) => !visible.has(s))) {
    assert.equal(await page.locator(`[data-chit="${id}"]`).count(), 0, `Confederate chit ${id} shown`);
    assert.equal(await page.locator(`[data-option="key:${id}"]`).count(), 0);
  }
  assert.equal(await rebel.locator('[data-chit]').count(), 0);
  console.log(`pv-16-0: ${clicks} choices (${onMap} on the map), ${secrets.length} Confederate secrets kept off the page`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

/** Clicks (and, when the click opens the menu of a stack or hex, its first entry), then waits
 * until the page has the server's answer drawn. */
async function click(page, locator) {
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && /\/actions$/.test(r.url()));
  await locator.click();
  const pop = page.locator('#popover:not([hidden]) button[data-option]').first();
  if (await pop.count()) await pop.click();
  await answer;
  await settle(page);
}

/** The index of the first element matching `selector` whose centre lies inside the map's box. */
async function onScreen(page, selector) {
  return page.evaluate((sel) => {
    const box = document.querySelector('#map').getBoundingClientRect();
    const i = [...document.querySelectorAll(sel)].findIndex((e) => {
      const r = e.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      return r.width > 0 && x > box.left + 4 && x < box.right - 4 && y > box.top + 4 && y < box.bottom - 4;
    });
    return i < 0 ? null : i;
  }, selector);
}

async function settle(page) {
  await page.waitForFunction(() => !document.body.classList.contains('busy'));
}
