// Trusted Types: on a page whose CSP says `require-trusted-types-for 'script'`, HTML strings and
// script URLs must come from a policy. The package has one, `attention-explorer` (a CSP that
// lists policies must name it: `trusted-types attention-explorer`), made when first needed and
// used for two of the package's own constants only: <attention-explorer>'s markup and the
// trainer's worker URL. It refuses markup with scripts or inline handlers and script URLs
// outside the package's directory, so it cannot be used to run another script.
// Without Trusted Types (most browsers, Node) the values pass through unchanged.
const NAME = 'attention-explorer';
const here = import.meta.url; // not inline: Vite rewrites new URL('…', import.meta.url) as an asset

// The package's web/ directory, or null where this module has no hierarchical URL (the single
// file's blob: modules, which run under their own CSP, without Trusted Types).
function packageDirectory() {
  try {
    return new URL('../', here).href;
  } catch {
    return null;
  }
}

let policy; // undefined: not made yet; null: no Trusted Types here

function check(ok, what) {
  if (!ok) throw new TypeError(`the ${NAME} Trusted Types policy refuses ${what}`);
}

// Made where the browser has Trusted Types (as Lit does), whether or not the page enforces them:
// there is no asking whether it does. A page whose `trusted-types` list leaves the name out makes
// createPolicy throw: the values then pass as they are, which works unless the page also
// requires Trusted Types (then the browser reports the blocked sink).
function getPolicy() {
  if (policy !== undefined) return policy;
  policy = null;
  if (!globalThis.trustedTypes) return policy;
  try {
    policy = trustedTypes.createPolicy(NAME, {
      createHTML(html) {
        check(!/<script|<iframe|<object|<embed|\son\w+\s*=|javascript:/i.test(html), 'markup with script');
        return html;
      },
      createScriptURL(url) {
        const dir = packageDirectory();
        check(dir !== null && url.startsWith(dir), `a script outside the package (${url})`);
        return url;
      },
    });
  } catch {
    // not allowed by the page's CSP (see above)
  }
  return policy;
}

// `html` as TrustedHTML where the page requires it (for template.innerHTML), else as is.
export function trustedHTML(html) {
  return getPolicy()?.createHTML(html) ?? html;
}

// `url` (a URL of the package's own module) as TrustedScriptURL where required (new Worker).
export function trustedScriptURL(url) {
  return getPolicy()?.createScriptURL(String(url)) ?? url;
}
