// The main view's one progress bar while it loads: the bytes of the wasm engine and of the
// model received, of those expected (loadEngine's and fetchModelFiles' onProgress, through
// context.mjs). A part whose size is not known yet counts what has arrived of it.
export class LoadProgress {
  #bar;
  #parts = new Map(); // 'engine' | 'model' → {loaded, total}

  constructor(bar) {
    this.#bar = bar;
  }

  // Records a part's {loaded, total} and shows the sum at once.
  set(part, { loaded, total }) {
    this.#parts.set(part, { loaded, total: Math.max(total ?? 0, loaded) });
    const { loaded: sum, total: of } = this.sum();
    this.#bar.max = Math.max(of, 1);
    this.#bar.value = Math.min(sum, of);
    this.#bar.hidden = false;
  }

  // {loaded, total} over the parts so far, in bytes.
  sum() {
    let loaded = 0;
    let total = 0;
    for (const part of this.#parts.values()) {
      loaded += part.loaded;
      total += part.total;
    }
    return { loaded, total };
  }

  // Everything arrived (or failed): the bar goes; the model's part is counted again next time.
  done() {
    this.#bar.hidden = true;
    this.#parts.delete('model');
  }
}
