// scripts/serve.mjs refuses every path that resolves outside its root, through ".." or through
// symlinks (followed with realpath), and still serves files and in-root links; it gzips what
// compresses, model weights included.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { startServer } from '../../scripts/serve.mjs';

let dir, server, url;

// tmp/root/{index.html, sub/a.txt, links…} and tmp/outside/{secret.txt, index.html}.
function makeTree() {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-test-'));
  const root = path.join(dir, 'root'),
    outside = path.join(dir, 'outside');
  fs.mkdirSync(path.join(root, 'sub'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'index.html'), '<p>root</p>');
  fs.writeFileSync(path.join(root, 'sub', 'a.txt'), 'inside');
  fs.writeFileSync(path.join(root, 'sub', 'w.safetensors'), Buffer.alloc(4096, 7));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'SECRET');
  fs.writeFileSync(path.join(outside, 'index.html'), 'SECRET INDEX');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'leak.txt')); // file link out
  fs.symlinkSync('../outside', path.join(root, 'leakdir')); // relative dir link out
  fs.symlinkSync(outside, path.join(root, 'sub', 'deeper')); // nested dir link out
  fs.mkdirSync(path.join(root, 'indexlink'));
  fs.symlinkSync(path.join(outside, 'index.html'), path.join(root, 'indexlink', 'index.html')); // index out
  fs.symlinkSync('sub/a.txt', path.join(root, 'alias.txt')); // link inside: fine
  fs.symlinkSync('missing', path.join(root, 'dangling.txt'));
  return root;
}

before(async () => {
  ({ server, url } = await startServer({ root: makeTree(), port: 0 }));
});

after(() => {
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// node:http sends the path as written; fetch() would collapse a literal "/../" first.
function get(pathname, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get({ host: new URL(url).hostname, port: new URL(url).port, path: pathname, headers }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode, body: bytes.toString('utf8'), bytes, headers: res.headers });
        });
      })
      .on('error', reject);
  });
}

const statusAndBody = ({ status, body }) => ({ status, body });

test('serves files, the index and symlinks that stay inside the root', async () => {
  assert.deepEqual(statusAndBody(await get('/sub/a.txt')), { status: 200, body: 'inside' });
  assert.deepEqual(statusAndBody(await get('/')), { status: 200, body: '<p>root</p>' });
  assert.deepEqual(statusAndBody(await get('/alias.txt')), { status: 200, body: 'inside' });
});

test('model weights are sent gzipped to a client that accepts it, and whole to one that does not', async () => {
  const gzipped = await get('/sub/w.safetensors', { 'accept-encoding': 'gzip' });
  assert.equal(gzipped.headers['content-encoding'], 'gzip');
  assert.ok(gzipped.bytes.length < 100, `${gzipped.bytes.length} bytes for 4096 equal ones`);
  assert.deepEqual(zlib.gunzipSync(gzipped.bytes), Buffer.alloc(4096, 7));
  const plain = await get('/sub/w.safetensors');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.headers['content-length'], '4096');
  assert.deepEqual(plain.bytes, Buffer.alloc(4096, 7));
});

test('refuses symlinks that resolve outside the root (403, nothing of the file sent)', async () => {
  for (const p of ['/leak.txt', '/leakdir/secret.txt', '/leakdir/', '/sub/deeper/secret.txt', '/indexlink/']) {
    const { status, body } = await get(p);
    assert.equal(status, 403, p);
    assert.doesNotMatch(body, /SECRET/, p);
  }
});

test('refuses ".." in any spelling, and answers 404 for missing or dangling paths', async () => {
  for (const p of ['/../outside/secret.txt', '/%2e%2e/outside/secret.txt', '/sub/..%2f..%2foutside/secret.txt']) {
    assert.equal((await get(p)).status, 403, p);
  }
  assert.equal((await get('/nothing.txt')).status, 404);
  assert.equal((await get('/dangling.txt')).status, 404);
});

// A module and a classic script, minified when the server is asked to, and what comes back
// still runs the same (evaluated here as data: modules and a Function body).
test('minify: scripts and stylesheets are sent minified and still behave the same, pages without comments; a file esbuild cannot parse goes as it is', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-minify-'));
  const moduleSource = [
    '// a comment that goes',
    'const longLocalName = (value) => value * 2;',
    'export function doubled(list) {',
    '  const resultingValues = [];',
    '  for (const item of list) resultingValues.push(longLocalName(item));',
    '  return resultingValues;',
    '}',
    '',
  ].join('\n');
  const classic = '// classic\nfunction pageGlobal(a) {\n  return a + 1;\n}\n';
  fs.writeFileSync(path.join(root, 'm.mjs'), moduleSource);
  fs.writeFileSync(path.join(root, 'c.js'), classic);
  fs.writeFileSync(path.join(root, 'broken.mjs'), 'export const = ;\n');
  fs.writeFileSync(path.join(root, 's.css'), '/* a note */\n.card   {\n  color : red;\n  margin: 0px 0px;\n}\n');
  const minified = await startServer({ root, port: 0, minify: true });
  const plain = await startServer({ root, port: 0 });
  const fetchText = async (base, name, init) => {
    const response = await fetch(new URL(name, base), init);
    assert.equal(response.status, 200);
    return { text: await response.text(), headers: response.headers };
  };
  try {
    const small = await fetchText(minified.url, 'm.mjs');
    assert.ok(small.text.length < moduleSource.length * 0.7, small.text);
    assert.ok(!small.text.includes('longLocalName') && !small.text.includes('comment'), small.text);
    assert.match(small.headers.get('content-type'), /^text\/javascript/);
    const { doubled } = await import(`data:text/javascript,${encodeURIComponent(small.text)}`);
    assert.deepEqual(doubled([1, 2, 3]), [2, 4, 6]);
    // a classic script keeps its global names
    const script = (await fetchText(minified.url, 'c.js')).text;
    assert.match(script, /function pageGlobal\(/);
    assert.equal(new Function(`${script}; return pageGlobal(1);`)(), 2);
    // the same again (from the cache), gzipped
    const zipped = await fetchText(minified.url, 'm.mjs', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(zipped.headers.get('content-encoding'), 'gzip');
    assert.equal(zipped.text, small.text);
    assert.equal((await fetchText(minified.url, 'broken.mjs')).text, 'export const = ;\n');
    const css = await fetchText(minified.url, 's.css');
    assert.equal(css.text.trim(), '.card{color:red;margin:0}');
    assert.match(css.headers.get('content-type'), /^text\/css/);
    assert.equal((await fetchText(plain.url, 'm.mjs')).text, moduleSource);
    // a page goes without its comments, the directory's index.html too
    const page = '<!doctype html>\n<!-- a note\n  on two lines -->\n<p>kept <!-- inline --></p>\n';
    fs.writeFileSync(path.join(root, 'index.html'), page);
    assert.equal((await fetchText(minified.url, 'index.html')).text, '<!doctype html>\n<p>kept </p>\n');
    assert.equal((await fetchText(minified.url, '')).text, '<!doctype html>\n<p>kept </p>\n');
    assert.equal((await fetchText(plain.url, 'index.html')).text, page);
    // a changed file is minified again
    fs.writeFileSync(path.join(root, 'm.mjs'), moduleSource.replace('* 2', '* 3') + '\n');
    const again = (await fetchText(minified.url, 'm.mjs')).text;
    const { doubled: tripled } = await import(`data:text/javascript,${encodeURIComponent(again)}`);
    assert.deepEqual(tripled([1, 2]), [3, 6]);
  } finally {
    minified.server.close();
    plain.server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('isolated: every response, errors included, carries COOP and COEP; without it, neither', async () => {
  const isolated = await startServer({ root: path.join(dir, 'root'), port: 0, isolated: true });
  try {
    for (const pathname of ['/', '/sub/a.txt', '/missing.txt', '/leak.txt']) {
      const { headers } = await new Promise((resolve, reject) =>
        http.get(`${isolated.url}${pathname.slice(1)}`, (res) => (res.resume(), resolve(res))).on('error', reject),
      );
      assert.equal(headers['cross-origin-opener-policy'], 'same-origin', pathname);
      assert.equal(headers['cross-origin-embedder-policy'], 'require-corp', pathname);
    }
  } finally {
    isolated.server.close();
  }
  const plain = await get('/sub/a.txt'); // the default server of this file: isolated left false
  assert.equal(plain.headers['cross-origin-opener-policy'], undefined);
  assert.equal(plain.headers['cross-origin-embedder-policy'], undefined);
});
