// docs/embedding.md's "engine alone" snippet in a browser without a bundler: the bare name
// `attention-explorer` resolves only through the import map the docs give. The map is read from
// the docs (its /node_modules/attention-explorer/ served from this tree), allowed by its hash in
// the server's CSP, and the snippet's calls must answer `animal`.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSP } from '../../scripts/serve.mjs';
import { LESSON } from '../../web/lib/lesson.mjs';
import { expect, test } from './fixtures.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGE = '/node_modules/attention-explorer/';

test("the docs' import map lets a plain page import the engine by the package's name", async ({ page }) => {
  const docs = readFileSync(path.join(root, 'docs/embedding.md'), 'utf8');
  const map = docs.match(/<script type="importmap">([\s\S]*?)<\/script>/)?.[1];
  expect(map, 'docs/embedding.md gives an import map').toBeTruthy();
  expect(JSON.parse(map).imports['attention-explorer']).toBe(`${PACKAGE}index.mjs`);
  const hash = createHash('sha256').update(map).digest('base64');
  const csp = CSP.replace("script-src 'self'", `script-src 'self' 'sha256-${hash}'`);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>import map</title>
    <link rel="icon" href="data:,"><script type="importmap">${map}</script></head><body></body></html>`;
  await page.route('**/import-map-test.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: html, headers: { 'Content-Security-Policy': csp } }),
  );
  // The installed package's files: this tree's.
  await page.route(`**${PACKAGE}**`, (route) => {
    const file = path.join(root, new URL(route.request().url()).pathname.slice(PACKAGE.length));
    const type = file.endsWith('.mjs') ? 'text/javascript' : file.endsWith('.wasm') ? 'application/wasm' : undefined;
    return route.fulfill({ path: file, ...(type && { contentType: type }) });
  });
  await page.goto('/import-map-test.html');
  const token = await page.evaluate(
    async ({ dir, text }) => {
      const { loadEngine } = await import('attention-explorer');
      const engine = await loadEngine();
      const model = await engine.fetchTrainedModel(`${dir}web/models/coref-encoder/`);
      return model.analyze(text).prediction.token;
    },
    { dir: PACKAGE, text: LESSON.tired },
  );
  expect(token).toBe('animal');
});
