// Every panel's strings (web/strings/*.mjs) and the page's (web/i18n.mjs) exist in English
// and Chinese with the same keys and the same {placeholders}, so neither page misses a label.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { messages } from '../../web/i18n.mjs';

const STRINGS = new URL('../../web/strings/', import.meta.url);

// "a.b.c" → set of placeholder names, for every leaf string.
function leaves(node, prefix = '') {
  const out = new Map();
  for (const [key, value] of Object.entries(node)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string')
      out.set(
        path,
        [...value.matchAll(/\{(\w+)\}/g)]
          .map((m) => m[1])
          .sort()
          .join(','),
      );
    else if (value && typeof value === 'object') for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

function assertSameShape(en, zh, where) {
  const [a, b] = [leaves(en), leaves(zh)];
  assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort(), `${where}: zh and en keys differ`);
  for (const [key, placeholders] of a)
    assert.equal(b.get(key), placeholders, `${where}: placeholders of ${key} differ`);
}

test('the page strings have the same keys and placeholders in en and zh', () => {
  assertSameShape(messages.en, messages.zh, 'web/i18n.mjs');
});

test('every panel strings file has the same keys and placeholders in en and zh', async () => {
  const files = readdirSync(STRINGS).filter((f) => f.endsWith('.mjs'));
  for (const file of files) {
    const { default: strings } = await import(new URL(file, STRINGS));
    assert.ok(strings.en && strings.zh, `${file}: export default {en, zh}`);
    assertSameShape(strings.en, strings.zh, `web/strings/${file}`);
  }
});
