// Minimal static file server for Attention Explorer (Node's own modules; esbuild, when it is
// installed, to send the page's JavaScript minified).
// Usage: node scripts/serve.mjs [rootDir=web] [port=8080] [--no-minify] [--no-isolation]
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
  '.cjs': 'text/javascript; charset=utf-8',
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
// Cross-origin isolation: with these two headers on the page, the browser gives it
// SharedArrayBuffer (self.crossOriginIsolated), and "Train it yourself" trains on several cores
// (web/lib/train-worker-threads.js; with 3 or more, one is kept for the page). A host that does not send them gets the single-thread trainer,
// the same page otherwise (docs/embedding.md, "Training on several cores"). require-corp: every
// subresource is same-origin here, so none needs a Cross-Origin-Resource-Policy of its own.
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const mimeOf = (file) => MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
// Model weights (application/octet-stream: .safetensors) compress too: the shipped coreference
// models store 31-valued integers that gzip sends in about 4.5 bits each (docs/model-format.md).
const compressible = (type) => /^(text\/|application\/(json|wasm|octet-stream)|image\/svg\+xml)/.test(type);

// JavaScript and CSS sent minified: esbuild's whitespace, syntax and local names, file by file
// (no bundling: every module keeps its URL, its imports and its exports), about half the
// gzipped bytes of the page's scripts (docs/benchmarks.md). Each file is minified once and kept until
// its size or mtime changes. A file esbuild cannot parse is sent as it is, so that the browser
// names the error in the source. Without esbuild (node_modules not installed), files go as they are.
// An HTML page goes without its comments (notes for those who read the source; the page has no
// inline script or style, where "<!--" could mean something else).
const MINIFIABLE = /\.(m?js|css|html)$/i;
const withoutComments = (html) => html.replace(/<!--[\s\S]*?-->\n?/g, '');
let esbuild; // the module, null when it is not installed
const minifiedCache = new Map(); // real path → {size, mtimeMs, code}

async function loadEsbuild() {
  if (esbuild === undefined) {
    try {
      esbuild = await import('esbuild');
    } catch {
      esbuild = null;
      console.error('serve: esbuild is not installed (npm ci): JavaScript and CSS are sent as they are');
    }
  }
  return esbuild;
}

// The minified text of a script or stylesheet, or null to send the file as it is.
async function minifiedSource(handle, file, stat) {
  const cached = minifiedCache.get(file);
  if (cached?.size === stat.size && cached.mtimeMs === stat.mtimeMs) return cached.code;
  if (/\.html$/i.test(file)) return remember(file, stat, withoutComments(await handle.readFile('utf8')));
  const build = await loadEsbuild();
  if (!build) return null;
  let code;
  try {
    const source = await handle.readFile('utf8');
    // a module's top-level names are its own (format esm); a classic script's are globals
    const format = /\.mjs$/i.test(file) ? 'esm' : undefined;
    const loader = /\.css$/i.test(file) ? 'css' : 'js';
    ({ code } = await build.transform(source, { loader, format, minify: true, legalComments: 'none' }));
  } catch {
    return null;
  }
  return remember(file, stat, code);
}

function remember(file, stat, code) {
  const bytes = Buffer.from(code);
  minifiedCache.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, code: bytes });
  return bytes;
}

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

function sendStatus(res, common, status, message, extra = {}) {
  const body = `${status} ${message}\n`;
  res.writeHead(status, {
    ...common,
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

function handler(root, realRoot, minify, common) {
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendStatus(res, common, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
    }
    // Inspect the raw path, not new URL(): the URL parser silently collapses
    // "/../" (and "%2e%2e"), which would hide traversal attempts instead of rejecting them.
    let rel;
    try {
      rel = decodeURIComponent(req.url.split(/[?#]/, 1)[0]);
    } catch {
      return sendStatus(res, common, 400, 'Bad Request');
    }
    if (rel.includes('\0') || rel.split(/[\\/]/).includes('..')) {
      return sendStatus(res, common, 403, 'Forbidden');
    }
    const requested = path.join(root, rel);
    if (requested !== root && !requested.startsWith(root + path.sep)) {
      return sendStatus(res, common, 403, 'Forbidden'); // defence in depth
    }
    const found = await openInsideRoot(realRoot, requested);
    if (found.status === 403) return sendStatus(res, common, 403, 'Forbidden');
    if (found.status) return sendStatus(res, common, 404, 'Not Found');
    const body =
      minify && MINIFIABLE.test(found.file) ? await minifiedSource(found.handle, found.file, found.stat) : null;
    if (body) {
      found.handle.close().catch(() => {});
      return sendBody(req, res, common, found.file, body);
    }
    serveFile(req, res, common, found);
  };
}

// Sends the file openInsideRoot opened (its handle is closed here).
function serveFile(req, res, common, { handle, file, stat: st }) {
  const type = mimeOf(file);
  const gzip = compressible(type) && acceptsGzip(req.headers['accept-encoding']);
  const headers = { ...common, 'Content-Type': type };
  if (compressible(type)) headers.Vary = 'Accept-Encoding';
  if (gzip) headers['Content-Encoding'] = 'gzip';
  else headers['Content-Length'] = st.size;
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    handle.close().catch(() => {});
    return res.end();
  }

  const streams = [handle.createReadStream({ start: 0 })]; // from the start: minifiedSource may have read it
  if (gzip) streams.push(zlib.createGzip());
  pipeline(...streams, res, (e) => {
    if (e && e.code !== 'ERR_STREAM_PREMATURE_CLOSE') console.error(`serve: ${file}: ${e.message}`);
  });
}

// Sends bytes made here (a minified file), gzipped as serveFile would.
function sendBody(req, res, common, file, body) {
  const type = mimeOf(file);
  const gzip = acceptsGzip(req.headers['accept-encoding']);
  const data = gzip ? zlib.gzipSync(body) : body;
  const headers = { ...common, 'Content-Type': type, Vary: 'Accept-Encoding', 'Content-Length': data.length };
  if (gzip) headers['Content-Encoding'] = 'gzip';
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : data);
}

/**
 * Start the server. Resolves to { server, port, url }.
 * portAttempts > 1: when the port is in use, try the following ports as well.
 * minify: send .js, .mjs and .css files minified (see minifiedSource); the command line's default.
 * isolated: send ISOLATION_HEADERS (the command line's default; --no-isolation leaves them out, as
 * a host that does not send them would).
 */
export async function startServer({
  root = 'web',
  port = 8080,
  host = DEFAULT_HOST,
  portAttempts = 1,
  minify = false,
  isolated = false,
} = {}) {
  const absRoot = path.resolve(root);
  if (!fs.statSync(absRoot, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`serve: root directory not found: ${absRoot}`);
  }
  for (let i = 0; ; i++) {
    const server = http.createServer(
      handler(
        absRoot,
        fs.realpathSync(absRoot),
        minify,
        isolated ? { ...COMMON_HEADERS, ...ISOLATION_HEADERS } : COMMON_HEADERS,
      ),
    );
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
  const args = process.argv.slice(2);
  const minify = !args.includes('--no-minify');
  const isolated = !args.includes('--no-isolation');
  const [rootArg = 'web', portArg] = args.filter((a) => !a.startsWith('--'));
  const port = portArg === undefined ? 8080 : Number(portArg);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: invalid port: ${portArg}`);
    process.exit(2);
  }
  try {
    // An explicit port is a contract (e.g. Playwright waits on it): never move it.
    const { url } = await startServer({
      root: rootArg,
      port,
      portAttempts: portArg === undefined ? 21 : 1,
      minify,
      isolated,
    });
    console.log(`Attention Explorer: ${url}`);
  } catch (e) {
    console.error(e.code === 'EADDRINUSE' ? `serve: port ${port} is already in use` : e.message);
    process.exit(1);
  }
}
