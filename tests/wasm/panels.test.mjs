// The panels' names agree with web/lib/panel-list.mjs, the one list of them: index.html's
// table of contents and sections, README's numbered list, each component's header comment
// ("panel N"), its strings file and the prefix of its controls in the link. Reads files only.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { PANELS, panelNumber } from '../../web/lib/panel-list.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'); // not helpers.mjs: no module needed

const read = (file) => readFileSync(path.join(root, file), 'utf8');
const html = read('web/index.html');

test('the table of contents and the sections of index.html follow the list', () => {
  const toc = [...html.slice(html.indexOf('<nav id="toc"'), html.indexOf('</nav>')).matchAll(/href="#([\w-]+)"/g)].map(
    (m) => m[1],
  );
  assert.deepEqual(
    toc,
    PANELS.map((p) => p.section),
  );
  // The main view is <attention-explorer id="result"> itself; the other panels are sections.
  const sections = [...html.matchAll(/<(?:section|attention-explorer) id="([\w-]+)"/g)]
    .map((m) => m[1])
    .filter((id) => panelNumber(id));
  assert.deepEqual(
    sections,
    PANELS.map((p) => p.section),
  );
  for (const { section, tag } of PANELS) {
    const [, element] = html.match(new RegExp(`<(section|attention-explorer) id="${section}"`));
    const body = html.slice(html.indexOf(`<${element} id="${section}"`));
    assert.ok(body.slice(0, body.indexOf(`</${element}>`)).includes(`<${tag}`), `section ${section} holds <${tag}>`);
  }
});

test("README's numbered list of the page names the tags at the list's numbers", () => {
  const items = [...read('README.md').matchAll(/^(\d+)\. \*\*[^*]+\*\*(?: \(`<(ae-[\w-]+)>`\))?/gm)];
  const byTag = new Map(items.filter((m) => m[2]).map((m) => [m[2], Number(m[1])]));
  for (const [i, { tag }] of PANELS.entries()) if (i > 0) assert.equal(byTag.get(tag), i + 1, `README: <${tag}>`);
});

test('each lesson component names its number, tag, strings file and link prefix as the list does', () => {
  for (const [i, { tag, file, link, strings }] of PANELS.entries()) {
    const source = read(`web/components/${file}.mjs`);
    assert.match(source, new RegExp(`^define\\('${tag}'`, 'm'), `${file}.mjs defines <${tag}>`);
    if (!strings) continue;
    assert.match(source.split('\n')[0], new RegExp(`^// <${tag}>: panel ${i + 1}\\b`), `${file}.mjs's header`);
    assert.match(
      source,
      new RegExp(`from '\\.\\./strings/${strings}\\.mjs'`),
      `${file}.mjs reads web/strings/${strings}.mjs`,
    );
    assert.match(
      read(`web/strings/${strings}.mjs`).split('\n')[0],
      new RegExp(`<${tag}> \\(panel ${i + 1}:`),
      `strings/${strings}.mjs's header`,
    );
    // A declared panel names its prefix once (static link); the others where they read and write it.
    const prefixes = new Set(
      [...source.matchAll(/(?:readControl|writeControl)\(this\.store, '(\w+)'|^ {2}static link = '(\w+)'/gm)].map(
        (m) => m[1] ?? m[2],
      ),
    );
    assert.deepEqual([...prefixes], link ? [link] : [], `${file}.mjs's link prefix`);
  }
});
