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
