// Minimal static file server for Attention Explorer (no dependencies).
// Usage: node scripts/serve.mjs [rootDir=web] [port=8080]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream';
import { fileURLToPath } from 'node:url';

// Sent on every response. 'wasm-unsafe-eval' is the only relaxation: it allows
// WebAssembly compilation without allowing JS eval().
export const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'";

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
  '.safetensors': 'application/octet-stream',
  '.bin': 'application/octet-stream',
};

const DEFAULT_HOST = '127.0.0.1';
const COMMON_HEADERS = {
  'Content-Security-Policy': CSP,
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
};

const mimeOf = (file) => MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
// Model weights (application/octet-stream: .safetensors) compress too: the shipped coreference
// models store 31-valued integers that gzip sends in about 4.5 bits each (docs/model-format.md).
const compressible = (type) => /^(text\/|application\/(json|wasm|octet-stream)|image\/svg\+xml)/.test(type);

// True if the client accepts gzip (and did not opt out with q=0).
function acceptsGzip(header = '') {
  return header.split(',').some((part) => {
    const [coding, ...params] = part
      .trim()
      .toLowerCase()
      .split(';')
      .map((s) => s.trim());
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

function sendStatus(res, status, message, extra = {}) {
  const body = `${status} ${message}\n`;
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...extra,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

// True if target (a real path, symlinks resolved) is root itself or lies below it.
const within = (root, target) => target === root || target.startsWith(root + path.sep);

// O_NONBLOCK: opening a FIFO in the root must not hang a thread; a regular file ignores it.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

// The real path of the file an open handle reads: Linux's /proc/self/fd names it, whatever a
// symlink on the way names by now. Without /proc, the real path of `name` if it is still the
// opened file (same device and inode), else null.
async function openedPath(handle, name, stat) {
  try {
    return await fs.promises.readlink(`/proc/self/fd/${handle.fd}`);
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
  const real = await fs.promises.realpath(name);
  const named = await fs.promises.stat(real);
  return named.dev === stat.dev && named.ino === stat.ino ? real : null;
}

// Opens the file `requested` names, then checks the file it opened: its real path must lie
// inside realRoot. Checking a path first and opening it afterwards would follow a symlink
// swapped in between (to a file outside the root). A directory serves its index.html, opened
// and checked the same way. Resolves to { handle, file, stat } (file: the real path; the caller
// closes handle), or { status } for a refusal.
async function openInsideRoot(realRoot, requested) {
  let handle;
  try {
    handle = await fs.promises.open(requested, OPEN_FLAGS);
  } catch {
    return { status: 404 };
  }
  const refuse = async (status) => {
    await handle.close();
    return { status };
  };
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) {
      await handle.close();
      return requested.endsWith(`${path.sep}index.html`)
        ? { status: 404 }
        : openInsideRoot(realRoot, path.join(requested, 'index.html')); // "/" -> index.html
    }
    if (!stat.isFile()) return refuse(404);
    const file = await openedPath(handle, requested, stat);
    if (file === null || !within(realRoot, file)) return refuse(403);
    return { handle, file, stat };
  } catch {
    return refuse(404); // e.g. removed between the open and the check
  }
}

function handler(root, realRoot) {
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendStatus(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
    }
    // Inspect the raw path, not new URL(): the URL parser silently collapses
    // "/../" (and "%2e%2e"), which would hide traversal attempts instead of rejecting them.
    let rel;
    try {
      rel = decodeURIComponent(req.url.split(/[?#]/, 1)[0]);
    } catch {
      return sendStatus(res, 400, 'Bad Request');
    }
    if (rel.includes('\0') || rel.split(/[\\/]/).includes('..')) {
      return sendStatus(res, 403, 'Forbidden');
    }
    const requested = path.join(root, rel);
    if (requested !== root && !requested.startsWith(root + path.sep)) {
      return sendStatus(res, 403, 'Forbidden'); // defence in depth
    }
    const found = await openInsideRoot(realRoot, requested);
    if (found.status === 403) return sendStatus(res, 403, 'Forbidden');
    if (found.status) return sendStatus(res, 404, 'Not Found');
    serveFile(req, res, found);
  };
}

// Sends the file openInsideRoot opened (its handle is closed here).
function serveFile(req, res, { handle, file, stat: st }) {
  const type = mimeOf(file);
  const gzip = compressible(type) && acceptsGzip(req.headers['accept-encoding']);
  const headers = { ...COMMON_HEADERS, 'Content-Type': type };
  if (compressible(type)) headers.Vary = 'Accept-Encoding';
  if (gzip) headers['Content-Encoding'] = 'gzip';
  else headers['Content-Length'] = st.size;
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    handle.close().catch(() => {});
    return res.end();
  }

  const streams = [handle.createReadStream()];
  if (gzip) streams.push(zlib.createGzip());
  pipeline(...streams, res, (e) => {
    if (e && e.code !== 'ERR_STREAM_PREMATURE_CLOSE') console.error(`serve: ${file}: ${e.message}`);
  });
}

/**
 * Start the server. Resolves to { server, port, url }.
 * portAttempts > 1: when the port is in use, try the following ports as well.
 */
export async function startServer({ root = 'web', port = 8080, host = DEFAULT_HOST, portAttempts = 1 } = {}) {
  const absRoot = path.resolve(root);
  if (!fs.statSync(absRoot, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`serve: root directory not found: ${absRoot}`);
  }
  for (let i = 0; ; i++) {
    const server = http.createServer(handler(absRoot, fs.realpathSync(absRoot)));
    try {
      await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port + i, host, resolve);
      });
      const actual = server.address().port;
      return { server, port: actual, url: `http://${host}:${actual}/` };
    } catch (e) {
      if (e.code !== 'EADDRINUSE' || i + 1 >= portAttempts || port === 0) throw e;
    }
  }
}

// Auto-start only when executed directly (not when imported by tests).
const isMain = process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const [rootArg = 'web', portArg] = process.argv.slice(2);
  const port = portArg === undefined ? 8080 : Number(portArg);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: invalid port: ${portArg}`);
    process.exit(2);
  }
  try {
    // An explicit port is a contract (e.g. Playwright waits on it): never move it.
    const { url } = await startServer({ root: rootArg, port, portAttempts: portArg === undefined ? 21 : 1 });
    console.log(`Attention Explorer: ${url}`);
  } catch (e) {
    console.error(e.code === 'EADDRINUSE' ? `serve: port ${port} is already in use` : e.message);
    process.exit(1);
  }
}
