// scripts/serve.mjs against a symlink swapped in while it serves: a worker thread flips
// root/race.txt between a plain file and a symlink to a file outside the root as fast as it can,
// while 3,000 requests for /race.txt run on loopback. No response may carry a byte of the outside
// file; a server that checks a path (real path inside the root) and then opens that path again
// follows the link swapped in between and serves it within a few hundred requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { startServer } from '../../scripts/serve.mjs';

const REQUESTS = 3000;
const CONCURRENCY = 8;
// Of equal length, so that a leak arrives as a whole body rather than as a length mismatch.
const SECRET = 'SECRET-OUTSIDE-THE-ROOT';
const INSIDE = 'inside-the-root-file-ok';

// Replaces `name` (an atomic rename over it) by a plain file, then by a symlink to `outside`, and
// so on until stop[0] is set, or for 60 s at most, so the worker ends by itself even if the test
// fails early.
const SWAPPER = `
const fs = require('node:fs');
const { workerData } = require('node:worker_threads');
const { name, outside, inside, stopBuffer } = workerData;
const stop = new Int32Array(stopBuffer);
const tmp = name + '.tmp';
const deadline = Date.now() + 60000;
for (let i = 0; Atomics.load(stop, 0) === 0 && Date.now() < deadline; i++) {
  fs.rmSync(tmp, { force: true });
  if (i % 2) fs.symlinkSync(outside, tmp);
  else fs.writeFileSync(tmp, inside);
  fs.renameSync(tmp, name);
}
`;

function get(port, pathname) {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathname, agent: false }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      })
      .on('error', reject);
  });
}

test('a symlink swapped to a file outside the root while requests run is never served', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-race-'));
  const root = path.join(dir, 'root');
  fs.mkdirSync(root);
  fs.mkdirSync(path.join(dir, 'outside'));
  const outside = path.join(dir, 'outside', 'secret.txt');
  fs.writeFileSync(outside, SECRET);
  const name = path.join(root, 'race.txt');
  fs.writeFileSync(name, INSIDE);

  const { server, port } = await startServer({ root, port: 0 });
  const stopBuffer = new SharedArrayBuffer(4);
  const swapper = new Worker(SWAPPER, { eval: true, workerData: { name, outside, inside: INSIDE, stopBuffer } });
  t.after(() => {
    Atomics.store(new Int32Array(stopBuffer), 0, 1);
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const counts = { inside: 0, leaked: 0, refused: 0 };
  let next = 0;
  const client = async () => {
    while (next < REQUESTS) {
      next++;
      const { status, body } = await get(port, '/race.txt');
      if (body.includes('SECRET')) counts.leaked++;
      else if (status === 200 && body === INSIDE) counts.inside++;
      else if (status === 403 || status === 404) counts.refused++;
      else assert.fail(`unexpected answer ${status}: ${body}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  Atomics.store(new Int32Array(stopBuffer), 0, 1);
  await new Promise((resolve) => swapper.once('exit', resolve));

  assert.equal(counts.leaked, 0, `${counts.leaked} of ${REQUESTS} responses carried the outside file`);
  // Both outcomes occurred, so the swaps did race the requests.
  assert.ok(counts.inside > 0 && counts.refused > 0, JSON.stringify(counts));
});
