// A model directory's files over the network (engine.mjs: fetchModelFiles, and the engine's
// fetchTrainedModel and openTranslationModel), with a timeout and progress.
import { EngineError, callback, finite, options, refuse } from './contract.mjs';

// The three files of a model directory (a URL ending in '/', relative to the page when it is not
// absolute), as loadTrainedModel takes them; no engine needed, so that a page can download a
// model while its engine compiles. Gives up after timeoutMs (default 30 s)
// with an EngineError of code 'timeout'; an HTTP error is code 'unknown-model'.
// onProgress({loaded, total}) follows the weights' download (total: the Content-Length, or
// null when the server sends none), at least once when they have all arrived. A fetch that
// throws (no network, or the caller's fetchImpl) is code 'unknown-model' too; a relative URL
// where there is no page (Node), a fetchImpl that is no function or an onProgress that throws
// is 'bad-option'. Every failure is an EngineError, the original error in `cause`.
export function fetchModelFiles(baseUrl, fetchImpl = fetch, options = {}) {
  return downloadModelFiles('fetchModelFiles', baseUrl, fetchImpl, options);
}

const DOWNLOAD_OPTIONS = { timeoutMs: finite(1, 2 ** 31 - 1), onProgress: callback() };

export async function downloadModelFiles(call, baseUrl, fetchImpl, downloadOptions = {}) {
  const { timeoutMs: timeout = 30_000, onProgress = null } = options(call, downloadOptions, DOWNLOAD_OPTIONS);
  callback()(call, 'fetchImpl', fetchImpl);
  const base = absoluteUrl(call, baseUrl);
  const controller = new AbortController();
  const get = async (name) => {
    const url = new URL(name, base);
    let response;
    try {
      response = await fetchImpl(url, { signal: controller.signal });
    } catch (e) {
      throw new EngineError(`could not load ${name} from ${baseUrl}: ${e?.message ?? e}`, 'unknown-model', {
        call,
        url: String(url),
        cause: e,
      });
    }
    if (!response?.ok)
      throw new EngineError(`could not load ${name} from ${baseUrl}: HTTP ${response?.status}`, 'unknown-model', {
        call,
        url: String(url),
        status: response?.status,
      });
    return response;
  };
  // The body of a file whose headers arrived, read by `read`; a body that breaks off is unknown-model.
  const body = (name, read) =>
    get(name)
      .then(read)
      .catch((e) => {
        if (e instanceof EngineError) throw e;
        throw new EngineError(`could not load ${name} from ${baseUrl}: ${e?.message ?? e}`, 'unknown-model', {
          call,
          cause: e,
        });
      });
  const report = onProgress && reportingTo(call, onProgress);
  const files = Promise.all([
    body('config.json', (r) => r.text()),
    body('model.safetensors', (r) => readWithProgress(r, report)),
    body('vocab.txt', (r) => r.text()),
  ]);
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(
        new EngineError(
          `could not load the model from ${baseUrl}: no answer within ${timeout / 1000} s (${call}'s timeoutMs)`,
          'timeout',
          { call, timeoutMs: timeout },
        ),
      );
    }, timeout);
  });
  try {
    const [config, weights, vocab] = await Promise.race([files, expired]);
    return { config, weights: new Uint8Array(weights), vocab };
  } finally {
    clearTimeout(timer);
    controller.abort(); // after one file failed or the time ran out, stop the other downloads
    files.catch(() => {}); // which then reject, with nobody waiting for them
  }
}

// The caller's URL as a URL object: relative to the page, and refused where there is no page.
export function absoluteUrl(call, baseUrl) {
  try {
    return new URL(baseUrl, globalThis.location?.href);
  } catch {
    return refuse(
      call,
      'baseUrl',
      globalThis.location ? 'a URL' : 'an absolute URL (no page to resolve it against)',
      baseUrl,
    );
  }
}

// onProgress as the download calls it: an error the caller's function throws becomes an EngineError.
const reportingTo = (call, onProgress) => (progress) => {
  try {
    onProgress(progress);
  } catch (e) {
    throw new EngineError(`${call}: onProgress threw: ${e?.message ?? e}`, 'bad-option', {
      call,
      option: 'onProgress',
      expected: 'a function that returns',
      got: 'an error',
      cause: e,
    });
  }
};

// A response's body as an ArrayBuffer, reporting the bytes read so far to onProgress.
async function readWithProgress(response, onProgress) {
  if (!onProgress || !response.body) {
    const buffer = await response.arrayBuffer();
    onProgress?.({ loaded: buffer.byteLength, total: buffer.byteLength });
    return buffer;
  }
  const length = Number(response.headers.get('content-length'));
  const total = Number.isSafeInteger(length) && length > 0 ? length : null;
  const chunks = [];
  let loaded = 0;
  for (const reader = response.body.getReader(); ;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress({ loaded, total });
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  if (loaded === 0) onProgress({ loaded, total });
  return bytes.buffer;
}
