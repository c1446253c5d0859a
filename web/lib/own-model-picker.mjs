// The "Open a model…" choice of <attention-explorer>'s model menu (attribute open-files): a
// file picker and a drop zone for the four files of a GPT-2-layout checkpoint, progress while
// the weights stream into wasm memory, and the opened model handed to the element (which runs
// it like a trained next-word model). The files are read locally (File.stream / File.text);
// nothing is sent anywhere. The element imports this module when the reader first chooses it.
import { pickGpt2Files } from './own-model.mjs';
import { text } from './panel-strings.mjs';
import menuStrings from '../strings/own-model-menu.mjs';
import pickerStrings from '../strings/own-model.mjs';

// The picker shows the menu's strings (the note that nothing is uploaded) beside its own.
const strings = Object.fromEntries(
  Object.keys(pickerStrings).map((lang) => [lang, { ...menuStrings[lang], ...pickerStrings[lang] }]),
);

const FILE_NAMES = { config: 'config.json', weights: 'model.safetensors', vocab: 'vocab.json', merges: 'merges.txt' };
const MB = 1024 * 1024;

// box: the #own-model element; getEngine() → Promise<Engine>; lang() → 'en' | 'zh'; onModel(model)
// is called with each model opened, and with null when the previous one was deleted to make room
// for the next. → {current(): the model opened, or null; translate(): after a language change;
// open(files): opens a FileList or File[] as the picker and the drop zone do}.
export function setUpOwnModel({ box, getEngine, lang, onModel }) {
  const $ = (id) => box.querySelector(`#${id}`);
  const say = (key, params) => {
    $('own-status').textContent = text(strings, lang(), key, params);
  };
  let model = null;
  let statusKey = null;

  function translate() {
    for (const node of box.querySelectorAll('[data-own]')) node.textContent = text(strings, lang(), node.dataset.own);
    if (statusKey) say(...statusKey);
  }

  async function open(fileList) {
    const files = pickGpt2Files(fileList);
    const missing = Object.keys(FILE_NAMES)
      .filter((k) => !files[k])
      .map((k) => FILE_NAMES[k]);
    if (missing.length) return show('missing', { names: missing.join(', ') }, 'error');
    const progress = $('own-progress');
    progress.hidden = false;
    progress.value = 0;
    box.dataset.state = 'loading';
    const started = performance.now();
    try {
      const engine = await getEngine();
      if (model) {
        // two big models may not fit in wasm memory together: the old one goes first
        model.delete();
        model = null;
        onModel(null);
      }
      // The first model opened fetches the engine's full module (Engine.full()) first.
      if (!engine.features.full) show('preparing', {}, 'loading');
      const opened = await engine.openGpt2Model(files, {
        onProgress: ({ loaded, total }) => {
          progress.value = loaded / total;
          show(
            'reading',
            { name: files.weights.name, loaded: (loaded / MB).toFixed(0), total: (total / MB).toFixed(0) },
            'loading',
          );
          if (loaded === total) show('building', {}, 'loading');
        },
      });
      model = opened;
      show('opened', openedFacts(files, opened, started), 'ready');
      box.dataset.loadMs = String(Math.round(performance.now() - started));
      onModel(opened);
    } catch (error) {
      show('failed', { message: error.message }, 'error');
    } finally {
      progress.hidden = true;
    }
  }

  function show(key, params, state) {
    statusKey = [key, params];
    say(key, params);
    box.dataset.state = state;
  }

  $('own-files').addEventListener('change', (e) => open(e.target.files));
  acceptDrops($('own-drop'), open);
  translate();
  return { current: () => model, translate, open };
}

// What the status says of a model just opened (the 'opened' string's parameters).
function openedFacts(files, opened, started) {
  const c = opened.config;
  return {
    name: files.weights.name,
    layers: c.nLayers,
    heads: c.nHeads,
    d: c.dModel,
    params: opened.parameterCount.toLocaleString(),
    ms: Math.round(performance.now() - started),
  };
}

// Files dropped on `zone` go to open(files); the zone is marked while something is over it.
function acceptDrops(zone, open) {
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    open(e.dataTransfer.files);
  });
}
