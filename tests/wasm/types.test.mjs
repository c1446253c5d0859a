// The package's types (index.d.ts, elements.d.ts) as a TypeScript user meets them: tsc (npm's
// typescript, locked in package-lock.json) on tests/types/consumer.ts, which must compile, and
// on tests/types/wrong.ts, whose every line marked "error: TSxxxx" must fail with that code —
// and no other line (one tsc run over both).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

import { root } from './helpers.mjs';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const dir = path.join(root, 'tests/types');

// One tsc run over both files (lib.dom takes most of its time): "file(line) code" per error.
function compile() {
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.json'), '--pretty', 'false'], {
    encoding: 'utf8',
  });
  const output = r.stdout + r.stderr;
  return {
    status: r.status,
    output,
    errors: [...output.matchAll(/(\w+)\.ts\((\d+),\d+\): error (TS\d+)/g)].map((m) => `${m[1]}(${m[2]}) ${m[3]}`),
  };
}

const { status, output, errors } = compile();

test("a consumer of the package's types compiles", () => {
  assert.deepEqual(
    errors.filter((e) => e.startsWith('consumer(')),
    [],
    output,
  );
});

test('each deliberately wrong use fails to compile, with the expected error', () => {
  const expected = readFileSync(path.join(dir, 'wrong.ts'), 'utf8')
    .split('\n')
    .map((line, i) => line.match(/\/\/ error: (TS\d+)/) && `wrong(${i + 1}) ${line.match(/\/\/ error: (TS\d+)/)[1]}`)
    .filter(Boolean);
  assert.ok(expected.length >= 5, 'wrong.ts marks its errors');
  assert.notEqual(status, 0, 'tsc accepted wrong.ts');
  assert.deepEqual(
    errors.filter((e) => e.startsWith('wrong(')),
    expected,
    output,
  );
  assert.deepEqual(
    errors.filter((e) => !/^(consumer|wrong)\(/.test(e)),
    [],
    output,
  );
});

test('every JavaScript subpath of the package has types, and tests/types/subpaths.ts imports it', () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const imports = readFileSync(path.join(dir, 'subpaths.ts'), 'utf8');
  for (const [key, target] of Object.entries(pkg.exports)) {
    const file = typeof target === 'string' ? target : target.default;
    if (!file.endsWith('.mjs')) continue;
    assert.ok(typeof target === 'object' && target.types, `${key} has a "types" condition`);
    assert.ok(
      pkg.files.some((f) => target.types.slice(2).startsWith(f)),
      `${target.types} is packed`,
    );
    const name = key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`;
    assert.ok(imports.includes(`'${name}'`), `subpaths.ts imports ${name}`);
  }
});
