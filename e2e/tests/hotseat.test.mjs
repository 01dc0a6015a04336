// Hot-seat hsn-1 in the page: the lobby, the map and counters, a march made with clicks.
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

test('hot-seat: a march made with clicks moves the counter, adds fatigue and logs it', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.base}/`);
  // Lobby: the scenarios from the server, hot-seat mode, a seed.
  await page.locator('.scenario[data-scenario="hsn-1"]').click();
  await page.locator('input[name="mode"][value="hotseat"]').check();
  await page.locator('#seed').fill('3');
  await shot(page, 'lobby');
  await page.locator('#start').click();
  await page.waitForURL(/\?game=.+&token=.+/);

  // The map and the counters, drawn by the page at the hex centres.
  await page.locator('#map polygon[data-hex="1220"]').waitFor({ state: 'attached' });
  const cox = page.locator('.counter[data-unit="cox"]');
  await cox.waitFor();
  assert.equal(await cox.getAttribute('data-hex'), '1220');
  assert.match(await page.locator('#turn').textContent(), /Turn 1 of 1/);
  assert.equal(await page.locator('#roster-union tr[data-unit="cox"] td.hex').textContent(), '1220');
  assert.ok((await page.locator('#notices li').count()) > 0, 'notices shown');

  // Both Leader Transfer Phases end with the keyboard and a button.
  await page.locator('#decision[data-side="union"] [data-option="done"]').waitFor();
  await page.keyboard.press('p');
  await page.locator('#decision[data-side="confederate"] [data-option="done"]').click();

  // The Confederate action. Asking the computer marks the option it would choose and changes
  // nothing else.
  await page.locator('#decision [data-option="march:armstrong"]').waitFor();
  await page.locator('#ask-hint').click();
  await page.locator('#hint-answer', { hasText: 'The computer would choose: ' }).waitFor();
  const advised = page.locator('#decision .option.advised');
  assert.equal(await advised.count(), 1, 'one option is marked');
  const label = await advised.locator('.label').textContent();
  assert.ok((await page.locator('#hint-answer').textContent()).endsWith(label), `the answer names ${label}`);
  assert.equal(await page.locator('#log li', { hasText: 'Armstrong marches' }).count(), 0);
  await shot(page, 'hotseat-hint');

  // Click the stack in 0118, then March Armstrong in its menu.
  assert.ok(await page.locator('.counter.selectable[data-unit="armstrong"]').count(), 'armstrong highlighted');
  await page.locator('.stack[data-hex="0118"]').click();
  await page.locator('#popover [data-option="march:armstrong"]').click();

  // Possibly a force-march question; then the destination hex on the map.
  const target = page.locator('.target[data-hex="0218"]');
  const force = page.locator('#decision [data-option="no-force-march"]');
  await Promise.race([target.waitFor(), force.waitFor()]);
  if (await force.count()) await force.click();
  await target.waitFor();
  assert.match(await target.textContent(), /1 MP/, 'the cost is shown on the hex');
  await shot(page, 'hotseat-move-targets');
  await target.click();

  // The counter now stands in 0218, fatigued, and the log says so.
  const armstrong = page.locator('.counter[data-unit="armstrong"][data-hex="0218"]');
  await armstrong.waitFor();
  assert.equal(await armstrong.locator('[data-badge="fatigue"]').textContent(), 'F2');
  assert.equal(await page.locator('#roster-confederate tr[data-unit="armstrong"] td.hex').textContent(), '0218');
  await page.locator('#log li', { hasText: 'Armstrong marches' }).waitFor();
  await page.locator('#log li.has-roll', { hasText: 'Movement Allowance of Armstrong' }).waitFor();
  // The log is scrolled to its newest entry.
  const scrolled = await page.locator('#log').evaluate((ol) => ol.scrollHeight - ol.scrollTop - ol.clientHeight);
  assert.ok(scrolled < 5, `log scrolled to the bottom (${scrolled}px left)`);
  await shot(page, 'hotseat-after-move');

  // End the march with its button; the counter stays put and the Union may now act or pass.
  await page.locator('#decision [data-option="end"]').click();
  await page.locator('#decision:not([data-kind="move"])').waitFor();
  assert.equal(await page.locator('.counter[data-unit="armstrong"]').getAttribute('data-hex'), '0218');
  assert.deepEqual(page.errors, []);
});

test('hot-seat: hover names the hex, the inspector lists a stack, replay is read-only', async () => {
  const page = await newPage(browser);
  const r = await fetch(`${server.base}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scenario: 'hsn-1', seed: 3, mode: 'hotseat' }),
  });
  assert.equal(r.status, 201);
  const { game, seats } = await r.json();
  await page.goto(`${server.base}/?game=${game}&token=${seats.table}`);
  await page.locator('.counter[data-unit="rucker"]').waitFor();

  // Hover over a hex: its id and place name.
  await page.locator('.stack[data-hex="1220"]').hover();
  assert.match(await page.locator('#hover').textContent(), /^1220 .*Pleasant Grove/);
  // A roster row brings its unit into view; a stack has a count badge, and clicking it opens the
  // inspector listing everything in the hex.
  await page.locator('#roster-confederate tr[data-unit="rucker"]').click();
  const stack = page.locator('.stack[data-hex="0511"]');
  assert.equal(await stack.getAttribute('data-count'), '2');
  await stack.click();
  const insp = page.locator('#inspector[data-hex="0511"]');
  await insp.waitFor();
  for (const id of ['rucker', 'biffle']) await insp.locator(`[data-unit="${id}"]`).waitFor();
  for (const id of ['forrest', 'chalmers']) await insp.locator(`[data-leader="${id}"]`).waitFor();
  assert.equal(await page.locator('.counter[data-unit="rucker"] [data-badge="leaders"]').getAttribute('data-leaders'), 'forrest chalmers');

  // Zoom with the buttons changes the view box.
  const vb0 = await page.locator('#map svg').getAttribute('viewBox');
  await page.locator('#zoom-in').click();
  assert.notEqual(await page.locator('#map svg').getAttribute('viewBox'), vb0);

  // A choice that keeps the same side deciding can be undone.
  await page.locator('#decision [data-option="transfer:schofield"]').click();
  await page.locator('#decision [data-option="transfer:schofield"]').waitFor({ state: 'detached' });
  assert.equal(await page.locator('#undo').isEnabled(), true);
  await page.locator('#undo').click();
  await page.locator('#decision [data-option="transfer:schofield"]').waitFor();

  // Two more actions, then the replay slider back to the start: read-only, then live again.
  await page.locator('#decision[data-side="union"] [data-option="done"]').click();
  await page.locator('#decision[data-side="confederate"] [data-option="done"]').click();
  await page.locator('#decision [data-option="march:rucker"]').waitFor();
  const slider = page.locator('#replay-slider');
  assert.ok(Number(await slider.getAttribute('max')) >= 2);
  await slider.fill('0');
  await page.locator('#replay-live').waitFor();
  assert.equal(await page.locator('#decision .option').count(), 0, 'no buttons in a replay');
  assert.equal(await page.locator('#map .target').count(), 0);
  await page.locator('#replay-live').click();
  await page.locator('#decision [data-option="march:rucker"]').waitFor();
  assert.deepEqual(page.errors, []);
});

test('hot-seat hsn-5: the seven Union blockhouses are drawn as markers on their hexes', async () => {
  const r = await fetch(`${server.base}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scenario: 'hsn-5', mode: 'hotseat', seed: 3 }),
  });
  assert.equal(r.status, 201);
  const g = await r.json();
  const page = await newPage(browser);
  await page.goto(`${server.base}/?game=${g.game}&token=${g.seats.table}`);
  await page.locator('[data-marker="blockhouse"]').first().waitFor({ state: 'attached' });
  const hexes = await page.locator('[data-marker="blockhouse"]').evaluateAll((els) => els.map((e) => e.dataset.hex));
  assert.deepEqual(hexes.sort(), ['5328', '5424', '5512', '5514', '5519', '5523', '5610']);
  await shot(page, 'hsn-5-blockhouses');
  await page.close();
});

test('hot-seat hsn-9: the Turn Track shows 32 dated boxes with the scenario markers and the current turn', async () => {
  const r = await fetch(`${server.base}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scenario: 'hsn-9', mode: 'hotseat', seed: 5 }),
  });
  assert.equal(r.status, 201);
  const g = await r.json();
  const page = await newPage(browser);
  await page.goto(`${server.base}/?game=${g.game}&token=${g.seats.table}`);
  await page.locator('#turn-track .tt-box.current').waitFor();
  assert.equal(await page.locator('#turn-track .tt-box').count(), 32);
  assert.equal(await page.locator('#turn-track .tt-box.current').getAttribute('data-turn'), '1');
  // HSN Sc 9 Turn Track Markers: Turn 10 is December 2 and holds Horses Worn Out and Smith-B.
  const t10 = await page.locator('#turn-track .tt-box[data-turn="10"]').innerText();
  assert.match(t10, /Dec 2/);
  assert.match(t10, /Horses Worn Out/);
  assert.match(t10, /Smith-B/);
  assert.match(await page.locator('#turn-track .tt-box[data-turn="32"]').innerText(), /Dec 24/);
  await shot(page, 'hsn-9-turn-track');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('hot-seat hsn-1: an attack waiting for its confirmation shows the modifiers and the odds table', async () => {
  const r = await fetch(`${server.base}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scenario: 'hsn-1', seed: 3, mode: 'hotseat' }),
  });
  assert.equal(r.status, 201);
  const { game, seats } = await r.json();
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${seats.table}` };
  let g = await (await fetch(`${server.base}/api/games/${game}`, { headers })).json();
  // Both transfer phases pass, the Confederates pass, then Capron-A marches next to Rucker in
  // 0511 and declares a column-of-route attack on him.
  for (const option of ['done', 'done', 'pass', 'march:capron-a', 'no-force-march', 'move:0710', 'move:0610',
    'attack:0511:column-of-route']) {
    const ids = g.decision.options.map((o) => o.id);
    assert.ok(ids.includes(option), `${option} among ${ids.join(' ')}`);
    const a = await fetch(`${server.base}/api/games/${game}/actions`, { method: 'POST', headers, body: JSON.stringify({ seq: g.seq, option }) });
    assert.equal(a.status, 200, option);
    g = await a.json();
  }
  assert.equal(g.decision.kind, 'attack-confirm');
  assert.equal(g.view.combat.ratio, '1-2');

  const page = await newPage(browser);
  await page.goto(`${server.base}/?game=${game}&token=${seats.table}`);
  const panel = page.locator('#decision[data-kind="attack-confirm"] #combat-preview');
  await panel.waitFor();
  assert.match(await panel.locator('.cp-ratio').textContent(), /Ratio 1-2/);
  // The modifiers with their rule sections, the artillery line, the odds with the likeliest row.
  const rules = await panel.locator('.cp-mods[data-side="attacker"] td.rule').allTextContents();
  assert.ok(rules.length > 0 && rules.every((t) => /^GCACW 7\./.test(t)), rules.join(', '));
  assert.match(await panel.locator('.cp-art').textContent(), /GCACW 7\.4/);
  const rows = panel.locator('.cp-odds tbody tr');
  assert.equal(await rows.count(), g.view.combat.rows.length);
  assert.ok(await rows.count() >= 1);
  const likeliest = panel.locator('.cp-odds tr.most-likely');
  assert.ok(await likeliest.count() >= 1, 'the most likely row is marked');
  const best = g.view.combat.rows.find((x) => x.most_likely);
  assert.equal(await likeliest.first().getAttribute('data-row'), String(best.row));
  assert.equal(await likeliest.first().locator('.chance').textContent(), `${best.percent.toFixed(1)}%`);
  assert.match(await panel.locator('.cp-expected').textContent(), /defender \d+\.\d\d, attacker \d+\.\d\d/);
  await shot(page, 'hsn-1-attack-preview');

  // The buttons are still there: calling the attack off closes the preview.
  await page.locator('#decision [data-option="commit"]').waitFor();
  await page.locator('#decision [data-option="cancel"]').click();
  await page.locator('#decision[data-kind="move"]').waitFor();
  assert.equal(await page.locator('#combat-preview').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});
