// Online two-player hsn-1: two browser contexts, one per seat, updated live; a seat cannot act
// for the other side.
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

test('online: each seat sees the other side move live and cannot act for it', async () => {
  // The lobby creates the game and shows the two seat links.
  const lobby = await newPage(browser);
  await lobby.goto(`${server.base}/`);
  await lobby.locator('.scenario[data-scenario="hsn-1"]').click();
  await lobby.locator('input[name="mode"][value="online"]').check();
  await lobby.locator('#seed').fill('3');
  await lobby.locator('#start').click();
  const unionLink = await lobby.locator('#seat-links [data-seat="union"] a').getAttribute('href');
  const confLink = await lobby.locator('#seat-links [data-seat="confederate"] a').getAttribute('href');
  assert.match(unionLink, /\/\?game=[^&]+&token=.+/);
  assert.notEqual(unionLink, confLink);
  await shot(lobby, 'online-seat-links');

  // Two separate browser contexts, one per player.
  const union = await newPage(browser);
  const conf = await newPage(browser);
  await union.goto(unionLink);
  await conf.goto(confLink);

  // The Union transfers first: the Confederate seat waits and has no decision buttons.
  await union.locator('#decision [data-option="done"]').waitFor();
  await conf.locator('#waiting').waitFor();
  assert.equal(await conf.locator('#waiting').textContent(), 'Waiting for the other side (union)');
  assert.equal(await conf.locator('#decision button.option').count(), 0);
  await union.locator('#decision [data-option="done"]').click();

  // The Confederate seat gets its decision live; now the Union seat waits.
  await conf.locator('#decision [data-option="done"]').click();
  await conf.locator('#decision [data-option="march:armstrong"]').waitFor();
  await union.locator('#waiting', { hasText: '(confederate)' }).waitFor();
  assert.equal(await union.locator('#decision button.option').count(), 0);
  assert.equal(await union.locator('#map .target, #map .counter.selectable').count(), 0);

  // A forged action from the Union seat, for the Confederate decision: 403, nothing changes.
  const unionToken = new URL(unionLink).searchParams.get('token');
  const game = new URL(unionLink).searchParams.get('game');
  const forged = await union.evaluate(async ({ game, token }) => {
    const g = await (await fetch(`/api/games/${game}`, { headers: { authorization: `Bearer ${token}` } })).json();
    const r = await fetch(`/api/games/${game}/actions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ seq: g.seq, option: 'march:armstrong' }),
    });
    return { status: r.status, seq: g.seq };
  }, { game, token: unionToken });
  assert.equal(forged.status, 403);

  // The Confederate player marches Armstrong to 0218 with clicks; the Union seat sees it live.
  await conf.locator('#decision [data-option="march:armstrong"]').click();
  const target = conf.locator('.target[data-hex="0218"]');
  const force = conf.locator('#decision [data-option="no-force-march"]');
  await Promise.race([target.waitFor(), force.waitFor()]);
  if (await force.count()) await force.click();
  await target.click();
  await conf.locator('.counter[data-unit="armstrong"][data-hex="0218"]').waitFor();
  await union.locator('.counter[data-unit="armstrong"][data-hex="0218"]').waitFor();
  await union.locator('#log li', { hasText: 'Armstrong marches' }).waitFor();
  await shot(union, 'online-union-sees-march');
  await shot(conf, 'online-confederate-moving');

  // The Union seat's replay slider follows the action count.
  const seq = await conf.evaluate(() => Number(document.querySelector('#replay-slider').max));
  assert.ok(seq > forged.seq, 'the march was stored after the forged request');
  await union.waitForFunction((n) => Number(document.querySelector('#replay-slider').max) === n, seq);
  assert.deepEqual([...union.errors, ...conf.errors], []);
});
