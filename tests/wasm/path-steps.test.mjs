import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PATH_STEPS, pathStep } from '../../web/lib/path-steps.mjs';
import { PANELS } from '../../web/lib/panel-list.mjs';
import strings from '../../web/strings/path.mjs';

test('every step of the path points at a panel of the page and is worded in en and zh', () => {
  const sections = new Set(PANELS.map((p) => p.section));
  assert.equal(new Set(PATH_STEPS.map((s) => s.id)).size, PATH_STEPS.length);
  for (const step of PATH_STEPS) {
    assert.ok(sections.has(step.section), `${step.id} → ${step.section}`);
    for (const lang of ['en', 'zh']) assert.ok(strings[lang].steps[step.id], `${lang} ${step.id}`);
  }
  for (const lang of ['en', 'zh'])
    assert.deepEqual(
      Object.keys(strings[lang].steps),
      PATH_STEPS.map((s) => s.id),
    );
  assert.equal(pathStep('scaling').section, 'scaling');
  assert.equal(pathStep('nope'), null);
});

test('every step has a short name and a live figure, in en and zh', async () => {
  const { FIGURE_STEPS } = await import('../../web/lib/path-figures.mjs');
  assert.deepEqual(
    FIGURE_STEPS,
    PATH_STEPS.map((s) => s.id),
  );
  for (const lang of ['en', 'zh'])
    for (const { id } of PATH_STEPS) {
      assert.ok(strings[lang].names[id], `${lang} name of ${id}`);
      assert.ok(strings[lang].figures[id], `${lang} figure of ${id}`);
    }
});

test('a step is linked as ?step=<id> (or its number) and read back', async () => {
  const { readUrlState, urlFor } = await import('../../web/lib/url-state.mjs');
  const view = { model: 'coref-encoder', sentence: 'x', layer: 0, head: 0, causal: false, scale: true };
  const url = urlFor({ ...view, step: 'scaling' }, null);
  assert.match(url, /[?&]step=scaling(&|$)/);
  assert.equal(readUrlState(url).step, 'scaling');
  assert.equal(readUrlState('?step=4').step, '4');
  assert.equal(readUrlState('?step=%3Cx%3E').step, undefined);
  assert.doesNotMatch(urlFor(view, null), /step=/);
});
