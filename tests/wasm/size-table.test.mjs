// docs/embedding.md's size table against the files as built: every row tools/size-table.mjs
// measures must be in the doc, its first figure within 3 % of the measured one (the table was
// once typed by hand and went 8 % stale on the wasm, 39 % on the single file).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';

import { DOC, docTable, measure, root } from '../../tools/size-table.mjs';

const TOLERANCE = 0.03;

// "220,340 (230,635)" → 220340; "56 KB (22 files)" → 56000.
export function firstFigure(text) {
  const [, number, unit] = text.match(/^([\d,]+)\s*(KB)?/) ?? [];
  if (!number) return NaN;
  return Number(number.replaceAll(',', '')) * (unit ? 1000 : 1);
}

function docRows() {
  const table = docTable(readFileSync(path.join(root, DOC), 'utf8'));
  assert.ok(table, `${DOC} has the size-table markers`);
  return new Map(
    table
      .split('\n')
      .slice(2)
      .map((line) => line.slice(2, -2).split(' | '))
      .map(([what, text]) => [what, text]),
  );
}

test('the size table in docs/embedding.md matches the built files within 3 %', () => {
  const rows = docRows();
  for (const row of measure()) {
    assert.ok(rows.has(row.what), `the doc has the row "${row.what}" (run node tools/size-table.mjs --doc)`);
    const stated = firstFigure(rows.get(row.what));
    const drift = Math.abs(stated - row.value) / row.value;
    assert.ok(
      drift <= TOLERANCE,
      `"${row.what}": the doc says ${stated}, the files ${row.value} (${(drift * 100).toFixed(1)} % off)`,
    );
  }
});

test('the figure reader reads bytes and KB', () => {
  assert.equal(firstFigure('220,340 (230,635)'), 220340);
  assert.equal(firstFigure('56 KB (22 files)'), 56000);
  assert.ok(Number.isNaN(firstFigure('n/a')));
});
