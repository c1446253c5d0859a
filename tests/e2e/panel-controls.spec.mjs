// Every declared control of every declared lesson panel (static controls, web/lib/lesson-panel.mjs),
// walked from the panels' own declarations, so a panel that declares a control is tested with no
// line written here: changing it is one history entry (typing coalesced into one) and changes the
// link; Back shows the previous value and Forward the new one again; the link reloaded shows
// the same value; Reset brings back the default and takes the control out of the link.
// A control bound to the shared store (spec.store: the main view's word or layer, chosen in a
// panel too) is the main view's: its link parameter is the main view's (tok=, layer=), a layer is
// a history entry and a word is not (pointing at a word only updates the entry shown), and the
// panel's Reset leaves it.
import fs from 'node:fs';
import { expect, openPage, test } from './fixtures.mjs';
import { LESSON } from '../../web/lib/lesson.mjs';
import { PANELS } from '../../web/lib/panel-list.mjs';

// The declared panels' tags, read from their sources (one test each); the page then gives each
// one's table. AE_PANELS=ae-positions,ae-kv-cache walks only those (while working on one). An
// element that is no panel of the page (<ae-attention-pattern>, for a site author's own data)
// has no link: own-data.spec.mjs walks its controls.
const ONLY = process.env.AE_PANELS?.split(',') ?? null;
const ON_PAGE = new Set(PANELS.map((panel) => panel.tag));
const DECLARED = fs
  .readdirSync('web/components')
  .filter((file) => file.endsWith('.mjs'))
  .map((file) => fs.readFileSync(`web/components/${file}`, 'utf8'))
  .filter((source) => /^ {2}static controls = /m.test(source))
  .map((source) => source.match(/^define\('([a-z-]+)'/m)[1])
  .filter((tag) => ON_PAGE.has(tag) && (!ONLY || ONLY.includes(tag)));
const TYPED_TAIL = 4; // the last characters of a sentence are typed one by one, pausing between keys
// The main view's link parameter of a store key (web/lib/url-state.mjs), and whether its change
// is a history entry (web/app.mjs HISTORY_KEYS).
const SHARED = { token: { param: 'tok', entry: false }, layer: { param: 'layer', entry: true } };

// {section, tag, link, state, controls: [{name, param, kind, sample, store}]} of the panel `tag` on the page.
function declaredPanel(page, tag) {
  return page.evaluate((tag) => {
    const node = document.querySelector(`main section[id] > ${tag}`);
    const type = customElements.get(tag);
    const controls = Object.entries(type.controls)
      .filter(([, spec]) => spec.kind !== 'button')
      .map(([name, spec]) => ({
        name,
        param: spec.param ?? name,
        kind: spec.kind,
        sample: spec.sample ?? null,
        store: spec.store ?? null,
      }));
    return { section: node.parentNode.id, tag, link: type.link, state: type.stateAttribute, controls };
  }, tag);
}

async function openPanel(page, url, panel) {
  await openPage(page, url);
  await page.waitForFunction((tag) => customElements.get(tag), panel.tag);
  await page.locator(`#${panel.section}`).scrollIntoViewIfNeeded();
  // ready: drawn; idle: a panel that computes only when asked (the n² cost's Measure) is waiting
  await expect(page.locator(panel.tag)).toHaveAttribute(`data-${panel.state}`, /^(ready|idle)$/, { timeout: 20_000 });
}

function valueOf(field, kind) {
  if (kind === 'toggle') return field.isChecked();
  if (kind === 'counter' || kind === 'toggles') return field.getAttribute('data-value'); // buttons: their value
  return field.inputValue();
}
const linked = (page, key) => new URL(page.url()).searchParams.get(key);
const entries = (page) => page.evaluate(() => history.length);

// A value other than `before` that the control offers.
async function otherValue(field, { kind, sample }, before) {
  if (kind === 'toggle') return !before;
  if (kind === 'counter') return String(Number(before) + 1);
  if (kind === 'sentence' || kind === 'text') {
    const wanted = sample ?? LESSON.wide;
    return wanted === before ? LESSON.tired : wanted;
  }
  if (kind === 'range') return field.evaluate((node, b) => (node.max === b ? node.min : node.max), before);
  return field.evaluate((node, b) => [...node.options].find((o) => o.value !== b)?.value ?? null, before);
}

async function setValue(field, kind, value) {
  if (kind === 'toggle') return field.setChecked(value);
  if (kind === 'counter') return field.click();
  if (kind === 'sentence' || kind === 'text') {
    await field.fill(value.slice(0, -TYPED_TAIL));
    return field.pressSequentially(value.slice(-TYPED_TAIL), { delay: 250 }); // past the panel's pause
  }
  if (kind === 'range') {
    await field.focus(); // the keys a reader would press: to one end of the slider
    return field.page().keyboard.press(value === (await field.getAttribute('min')) ? 'Home' : 'End');
  }
  return field.selectOption({ value }); // by value: a layer's option labelled 1 has the value 0
}

test('the declared panels are found', () => expect(DECLARED.length).toBeGreaterThan(0));

// One page per panel: its controls are walked one after the other in that page (a tab's history
// holds at most 50 entries; a control takes about three). Reset between controls brings every
// control back to its default, so each control starts from the page the link with no controls shows.
for (const tag of DECLARED)
  test(`${tag}: every declared control: link, reload, Back/Forward and Reset`, async ({ page }) => {
    test.setTimeout(300_000);
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await openPage(page, '/');
    await page.waitForFunction((tag) => customElements.get(tag), tag);
    const panel = await declaredPanel(page, tag);
    await openPanel(page, '/', panel);
    const view = page.locator(panel.tag);
    for (const control of panel.controls.filter((c) => !c.store)) {
      const where = `${panel.tag} ${control.name}`;
      const key = `${panel.link}.${control.param}`;
      const field = view.locator(`[data-control="${control.name}"]`);
      const before = await valueOf(field, control.kind); // the default: the link has no controls
      expect(linked(page, key), `${where}: starts at its default`).toBeNull();
      const start = await entries(page);
      let next = control.kind === 'toggles' ? undefined : await otherValue(field, control, before);
      if (next === null) {
        // a select with one choice (a one-layer model's layer) has nothing to change to
        test.info().annotations.push({ type: 'one choice', description: where });
        continue;
      }
      if (control.kind === 'toggles') {
        // the panel's own buttons: the first one pressed gives the new value
        await field.locator('button').first().click();
        await expect.poll(() => valueOf(field, control.kind), where).not.toBe(before);
        next = await valueOf(field, control.kind);
      } else await setValue(field, control.kind, next);
      await expect.poll(() => linked(page, key), where).not.toBeNull();
      await page.waitForTimeout(400); // the link is written 150 ms after the last change
      expect(await entries(page), `${where}: one history entry`).toBe(start + 1);
      expect(await valueOf(field, control.kind), where).toBe(next);

      await page.goBack();
      await expect.poll(() => valueOf(field, control.kind), `${where}: Back`).toBe(before);
      expect(linked(page, key), where).toBeNull();
      await page.goForward();
      await expect.poll(() => valueOf(field, control.kind), `${where}: Forward`).toBe(next);

      await openPanel(page, page.url(), panel); // the link, opened afresh in the same page
      expect(await valueOf(field, control.kind), `${where}: reloaded link`).toBe(next);

      await view.locator('.ae-guide-reset').click();
      await expect.poll(() => valueOf(field, control.kind), `${where}: Reset`).toBe(before);
      await expect.poll(() => linked(page, key), where).toBeNull();
      await page.waitForTimeout(400); // Reset's link written before the next control's count
    }
    for (const control of panel.controls.filter((c) => c.store)) await walkShared(page, panel, control);
    expect(errors, 'console or page errors').toEqual([]);
  });

// A control bound to the shared store: the main view's link parameter follows it, a reload of the
// link shows it again, and Back and Forward move it where its change is a history entry.
async function walkShared(page, panel, control) {
  const where = `${panel.tag} ${control.name} (the main view's ${control.store})`;
  const { param, entry } = SHARED[control.store];
  const field = page.locator(panel.tag).locator(`[data-control="${control.name}"]`);
  const before = await valueOf(field, control.kind);
  const linkedBefore = linked(page, param);
  const next = await otherValue(field, control, before);
  if (next === null) {
    test.info().annotations.push({ type: 'one choice', description: where });
    return;
  }
  const start = await entries(page);
  await setValue(field, control.kind, next);
  await expect.poll(() => linked(page, param), where).not.toBe(linkedBefore);
  await page.waitForTimeout(400); // the link is written 150 ms after the last change
  expect(await entries(page), `${where}: history entries`).toBe(start + (entry ? 1 : 0));
  expect(await valueOf(field, control.kind), where).toBe(next);
  if (entry) {
    await page.goBack();
    await expect.poll(() => valueOf(field, control.kind), `${where}: Back`).toBe(before);
    expect(linked(page, param), where).toBe(linkedBefore);
    await page.goForward();
    await expect.poll(() => valueOf(field, control.kind), `${where}: Forward`).toBe(next);
  }
  await openPanel(page, page.url(), panel);
  expect(await valueOf(field, control.kind), `${where}: reloaded link`).toBe(next);
}
