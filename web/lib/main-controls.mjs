// The main view's controls (<attention-explorer>, ../components/attention-explorer.mjs), declared
// once: each one's attribute and property, and its parameter in the page's link. The element
// makes its properties and observed attributes from this table, ./url-state.mjs reads and
// writes the link with it, and the page (../app.mjs) hands a link to the element and makes its
// history entries by it.
//   kind       model | sentence | index (layer, head: 0-based in the store, 1-based in the link,
//              the attribute and the property, as labelled) | switch (a check box: a boolean
//              attribute, 0/1 in the link) | recipe (the untrained model's: a string, as in the
//              link, that the menu must offer)
//   attribute  its attribute, if not the name; inverted: a switch whose attribute says "off"
//   param      its name in the link, if not the name
//   pattern    recipe: what a link may hold
//   history    a change the reader makes is a history entry of its own (Back undoes it); the
//              others only update the entry shown
//   default    what the view opens with and Reset returns to, where the element's markup sets no
//              attribute; without one it is the model's: the lesson's model in the element's
//              language, that model's own sentence, its coreference head (else the first), the
//              mask it was trained with
//   options    recipe: the menu's values ({value: label key} when they have words); none: a
//              number box from 0 to `max`
// The element's markup builds each control's field from its kind, labelled by the string of its
// name (../components/attention-explorer.markup.mjs).
export const MAIN_CONTROLS = {
  model: { kind: 'model', history: true },
  sentence: { kind: 'sentence', param: 's' },
  layer: { kind: 'index', history: true },
  head: { kind: 'index', history: true },
  causal: { kind: 'switch', history: true },
  scale: { kind: 'switch', attribute: 'no-scale', inverted: true, history: true, default: true },
  heads: { kind: 'recipe', pattern: /^\d{1,2}$/, options: ['1', '2', '4', '8'], default: '4' },
  layers: { kind: 'recipe', pattern: /^\d{1,2}$/, options: ['1', '2', '3', '4'], default: '2' },
  positional: {
    kind: 'recipe',
    param: 'pos',
    pattern: /^(none|sinusoidal|learned|rope)$/,
    options: { none: 'posNone', sinusoidal: 'posSinusoidal', learned: 'posLearned', rope: 'posRope' },
    default: 'sinusoidal',
  },
  seed: { kind: 'recipe', pattern: /^\d{1,10}$/, max: 0xffffffff, default: '42' },
};

export const attributeOf = (name) => MAIN_CONTROLS[name].attribute ?? name;
export const paramOf = (name) => MAIN_CONTROLS[name].param ?? name;

// The names of the controls of `kind`, in the table's order.
export const controlsOf = (kind) => Object.keys(MAIN_CONTROLS).filter((name) => MAIN_CONTROLS[name].kind === kind);

// The store keys whose change by the reader is a history entry of its own.
export const historyControls = () => Object.keys(MAIN_CONTROLS).filter((name) => MAIN_CONTROLS[name].history);

// The control whose attribute is `attribute` (no-scale → scale), or undefined.
export const controlOfAttribute = (attribute) => Object.keys(MAIN_CONTROLS).find((n) => attributeOf(n) === attribute);
