// The causal-mask and KV-cache panels open on the decoder's coreference head, read from its
// config.json (`coreference_head`), and fall back to their old fixed heads when the key is
// missing (layer 1 head 1; layer 2 head 3). The config is served here with the key set to a
// head neither fallback uses, or removed, so the test holds whatever model ships; the link's
// layer and head still win over the default, and choosing the default leaves the link.
import fs from 'node:fs';
import { expect, openPage, test } from './fixtures.mjs';

const CONFIG = 'web/models/coref-decoder/config.json';
const shipped = fs.existsSync(CONFIG);
const causal = (page) => page.locator('ae-causal-mask');
const kv = (page) => page.locator('ae-kv-cache');
const FALLBACK = { causal: { layer: 0, head: 0 }, kv: { layer: 1, head: 2 } }; // the panels' own constants

// Serves the decoder's config.json with coreference_head set to `head` (or removed: null).
async function serveConfig(page, head) {
  const config = JSON.parse(fs.readFileSync(CONFIG, 'utf8'));
  if (head) config.coreference_head = { ...head };
  else delete config.coreference_head;
  await page.route('**/models/coref-decoder/config.json', (route) =>
    route.fulfill({ contentType: 'application/json', body: JSON.stringify(config) }),
  );
  return config;
}

async function openPanels(page, url = '/?model=untrained') {
  await openPage(page, url);
  await page.locator('#causal-mask').scrollIntoViewIfNeeded();
  await expect(causal(page)).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
  await page.locator('#kv-cache').scrollIntoViewIfNeeded();
  await expect(kv(page)).toHaveAttribute('data-status', 'ready', { timeout: 15_000 });
}

async function expectHead(panel, { layer, head }) {
  await expect(panel).toHaveAttribute('data-layer', String(layer));
  await expect(panel).toHaveAttribute('data-head', String(head));
  await expect(panel.getByLabel('Layer', { exact: true })).toHaveValue(String(layer));
  await expect(panel.getByLabel('Head', { exact: true })).toHaveValue(String(head));
}

const linked = (page, prefix) =>
  Object.fromEntries([...new URL(page.url()).searchParams].filter(([k]) => k.startsWith(prefix)));

test.describe("panels default to the decoder's coreference head", () => {
  test.skip(!shipped, 'coref-decoder is not in web/models');

  test('a coreference_head in config.json is the head both panels open on', async ({ page }) => {
    const { n_layers: nLayers, n_heads: nHeads } = JSON.parse(fs.readFileSync(CONFIG, 'utf8'));
    const named = { layer: nLayers - 1, head: nHeads - 1 }; // the last head: neither fallback
    expect(named).not.toEqual(FALLBACK.causal);
    expect(named).not.toEqual(FALLBACK.kv);
    await serveConfig(page, named);
    await openPanels(page);
    await expectHead(causal(page), named);
    await expectHead(kv(page), named);
    expect(linked(page, 'causal.')).toEqual({});
    expect(linked(page, 'kvcache.')).toEqual({});

    // Another head goes into the link (1-based); back on the default, it leaves again.
    const choose = async (panel, label, value, prefix, link) => {
      await panel.getByLabel(label, { exact: true }).selectOption({ value: String(value) });
      await expect.poll(() => linked(page, prefix)).toEqual(link);
    };
    await choose(kv(page), 'Head', 0, 'kvcache.', { 'kvcache.head': '1' });
    await choose(kv(page), 'Head', named.head, 'kvcache.', {});
    await choose(causal(page), 'Layer', 0, 'causal.', { 'causal.layer': '1' });
    await choose(causal(page), 'Layer', named.layer, 'causal.', {});
  });

  test("a link's layer and head win over the coreference head", async ({ page }) => {
    const { n_layers: nLayers, n_heads: nHeads } = JSON.parse(fs.readFileSync(CONFIG, 'utf8'));
    await serveConfig(page, { layer: nLayers - 1, head: nHeads - 1 });
    await openPanels(page, '/?model=untrained&kvcache.layer=1&kvcache.head=2&causal.layer=2&causal.head=1');
    await expectHead(kv(page), { layer: 0, head: 1 });
    await expectHead(causal(page), { layer: 1, head: 0 });
  });

  test('without coreference_head the panels keep their old heads', async ({ page }) => {
    await serveConfig(page, null);
    await openPanels(page);
    await expectHead(causal(page), FALLBACK.causal);
    await expectHead(kv(page), FALLBACK.kv);
  });

  test('a coreference_head outside the model falls back too', async ({ page }) => {
    const { n_layers: nLayers } = JSON.parse(fs.readFileSync(CONFIG, 'utf8'));
    await serveConfig(page, { layer: nLayers, head: 0 });
    await openPanels(page);
    await expectHead(causal(page), FALLBACK.causal);
    await expectHead(kv(page), FALLBACK.kv);
  });
});
