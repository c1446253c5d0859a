// <attention-explorer>'s controls on screen (./attention-explorer.mjs; declared in
// ../lib/main-controls.mjs): what an attribute sets on them, the layer and head selectors' range
// for the model on view, and what the host set while no model was on view (`pending`), applied
// once one is.
import { coreferenceHead } from '../lib/coreference-head.mjs';
import { MAIN_CONTROLS, attributeOf } from '../lib/main-controls.mjs';

export class ViewControls {
  pending = {}; // {layer, head, causal, scale, sentence}: set by the host, applied once a model shows
  #ui;
  #t;

  // ui: the element's elements by id; t(key, params): its words.
  constructor(ui, t) {
    this.#ui = ui;
    this.#t = t;
  }

  // The attribute of the declared control `name` now says `value` (null: it was removed): the
  // sentence and the recipe go on screen at once (a recipe value the menu does not offer is
  // ignored), layer, head and the switches wait in `pending` for the model.
  take(name, value) {
    const ui = this.#ui;
    const { kind, inverted } = MAIN_CONTROLS[name];
    if (kind === 'sentence') {
      ui.sentence.value = value ?? '';
      this.pending.sentence = true;
    } else if (kind === 'index') {
      const n = Number(value);
      if (value !== null && Number.isInteger(n) && n >= 1) this.pending[name] = n - 1;
    } else if (kind === 'switch') {
      this.pending[name] = (value !== null) !== Boolean(inverted);
    } else if (kind === 'recipe' && value !== null) {
      const control = ui[name];
      if (control.tagName === 'SELECT' && ![...control.options].some((o) => o.value === value)) return;
      control.value = value;
    }
  }

  // A model comes on view (config: its config.json's, or the random model's): the mask it was
  // trained with, the selectors' range, and its coreference head when it names one.
  openOn(config, named) {
    const ui = this.#ui;
    ui.causal.checked = Boolean(config?.causal);
    if (config) this.fillRanges(config);
    const head = named && coreferenceHead(named);
    if (head) [ui.layer.value, ui.head.value] = [head.layer, head.head];
  }

  // Options 1..count for the layer and head selectors, keeping a selection that still exists;
  // the head that config.json calls the coreference head is named (short, to fit a phone).
  fillRanges(config) {
    const { nLayers, nHeads } = config;
    for (const [select, count, key] of [
      [this.#ui.layer, nLayers, 'layerN'],
      [this.#ui.head, nHeads, 'headN'],
    ]) {
      const previous = Number(select.value) || 0;
      select.replaceChildren(...Array.from({ length: count }, (_, i) => new Option(this.#t(key, { i: i + 1 }), i)));
      select.value = previous < count ? previous : 0;
    }
    const named = coreferenceHead(config);
    const option = named && this.#ui.head.options[named.head];
    if (option) option.textContent = this.#t('headNamed', { i: named.head + 1 });
  }

  // What the host set while a model loaded, now that one is on view: the sentence is the
  // model's to open with (the element's #chooseSentence); the switches at once; layer and head
  // once the selectors have the model's range (those out of range are dropped).
  applyPending() {
    const ui = this.#ui;
    const p = this.pending;
    if (p.causal !== undefined) ui.causal.checked = p.causal;
    if (p.scale !== undefined) ui.scale.checked = p.scale;
    delete p.causal;
    delete p.scale;
    if (!ui.layer.options.length) return;
    for (const key of ['layer', 'head']) {
      if (p[key] !== undefined && p[key] < ui[key].options.length) ui[key].value = p[key];
      delete p[key];
    }
  }

  // Back to what the view opens with (Reset): the host's attributes as the markup set them
  // (`authored`: {name: attribute value or null}), else each control's declared default. Layer
  // and head go to the first until the model names its coreference head (openOn); the sentence
  // is the model's own unless the markup gave one.
  reset(authored) {
    const ui = this.#ui;
    this.pending = {};
    for (const [name, { kind, default: value }] of Object.entries(MAIN_CONTROLS))
      if (value !== undefined) ui[name][kind === 'switch' ? 'checked' : 'value'] = value;
    for (const select of [ui.layer, ui.head]) if (select.options.length) select.value = 0;
    for (const [name, value] of Object.entries(authored)) if (value !== null) this.take(name, value);
  }

  // Selects `layer` and `head` (0-based) when they are another head within the selectors'
  // range; → whether they did.
  select(layer, head) {
    const ui = this.#ui;
    if (String(layer) === ui.layer.value && String(head) === ui.head.value) return false;
    if (layer >= ui.layer.options.length || head >= ui.head.options.length) return false;
    [ui.layer.value, ui.head.value] = [layer, head];
    return true;
  }

  // The untrained model's recipe as main-view.mjs's randomConfig reads it.
  recipe() {
    const { heads, layers, positional } = this.#ui;
    return { heads: heads.value, layers: layers.value, positional: positional.value };
  }

  // 0-based, as the store holds them.
  get layer() {
    return Number(this.#ui.layer.value) || 0;
  }

  get head() {
    return Number(this.#ui.head.value) || 0;
  }

  // The switches: the engine's options for the run.
  options() {
    return { causal: this.#ui.causal.checked, scale: this.#ui.scale.checked };
  }
}

// The layer or head a selector shows, 1-based; before a model gives it its range, what the
// attribute says (`attribute`: its value, or null), if it is a number from 1.
export function selectedIndex(select, attribute) {
  if (select?.options.length) return Number(select.value) + 1;
  const n = Number(attribute);
  return attribute !== null && Number.isInteger(n) && n >= 1 ? n : null;
}

// A declared control's value as the element's property gives it (`control`: its element on
// screen, if built; `model()`: the model's name): what the view shows, else the attribute. The
// sentence: what the text box holds (the reader may have typed since it was set); layer and
// head: 1-based, null until a model says which head it opens on; the recipe: strings, as in the link.
export function readControl(name, control, element, model) {
  const { kind, inverted } = MAIN_CONTROLS[name];
  const attribute = element.getAttribute(attributeOf(name));
  switch (kind) {
    case 'model':
      return model();
    case 'sentence':
      return control?.value ?? attribute ?? '';
    case 'index':
      return selectedIndex(control, attribute);
    case 'switch':
      return control?.checked ?? (attribute !== null) !== Boolean(inverted);
    default:
      return control?.value.trim() ?? attribute;
  }
}

// {control name: its attribute on `element`, or null when it has none}.
export const controlAttributes = (element) =>
  Object.fromEntries(Object.keys(MAIN_CONTROLS).map((name) => [name, element.getAttribute(attributeOf(name))]));

// Sets the controls' attributes to `values` ({name: value, or null to remove it}).
export function setAttributes(element, values) {
  for (const [name, value] of Object.entries(values))
    if (value === null) element.removeAttribute(attributeOf(name));
    else element.setAttribute(attributeOf(name), value);
}
