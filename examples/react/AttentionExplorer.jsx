// <attention-explorer> as a React component: props become attributes, the element's ae-* events
// become callbacks. React 19 passes attributes to custom elements; events need the listeners below.
import { useEffect, useRef } from 'react';
import 'attention-explorer/elements';

const EVENTS = {
  onChange: 'ae-change',
  onModelLoad: 'ae-model-load',
  onError: 'ae-error',
  onTokenHover: 'ae-token-hover',
  onTokenSelect: 'ae-token-select',
};

export function AttentionExplorer({ model, sentence, layer, head, lang, modelsBase, children, ...handlers }) {
  const ref = useRef(null);
  useEffect(() => {
    const element = ref.current;
    const listeners = Object.entries(EVENTS)
      .filter(([prop]) => handlers[prop])
      .map(([prop, type]) => [type, (event) => handlers[prop](event.detail)]);
    for (const [type, listener] of listeners) element.addEventListener(type, listener);
    return () => listeners.forEach(([type, listener]) => element.removeEventListener(type, listener));
  });
  return (
    <attention-explorer
      ref={ref}
      model={model}
      sentence={sentence}
      layer={layer}
      head={head}
      lang={lang}
      models-base={modelsBase}
    >
      {children}
    </attention-explorer>
  );
}
