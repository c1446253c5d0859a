// What a host places inside <attention-explorer> (./attention-explorer.mjs): its two slots' boxes
// show only when filled, and the panels placed in them share the element's store.

// The slots' boxes show only when something is placed in them (so that empty ones take no room);
// root: the shadow root's wrapper, which says which are filled (has-aside, has-below).
export function layOut(root, slots) {
  for (const slot of slots) {
    const filled = slot.assignedElements().length > 0;
    slot.parentElement.hidden = !filled;
    root.classList.toggle(slot.name ? 'has-aside' : 'has-below', filled);
  }
}

// Panels that follow a store (they have a `store` property) share `store`, the element's: those
// placed inside `host`, and its own export buttons; one whose module loads later, once its tag
// is defined.
export function shareStore(host, slots, store) {
  const inside = (panel) => host.contains(panel) || host.shadowRoot.contains(panel);
  const share = (panel) => {
    if ('store' in panel && panel.store !== store && inside(panel)) panel.store = store;
  };
  const panels = [...host.shadowRoot.querySelectorAll('ae-export-buttons')];
  for (const slot of slots)
    for (const node of slot.assignedElements({ flatten: true })) panels.push(node, ...node.querySelectorAll('*'));
  for (const panel of panels) {
    if (!panel.localName.startsWith('ae-')) continue;
    if (customElements.get(panel.localName)) share(panel);
    else customElements.whenDefined(panel.localName).then(() => share(panel));
  }
}
