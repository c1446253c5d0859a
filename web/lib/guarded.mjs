// Every call into the wasm module goes through guarded() (engine.mjs and own-model.mjs), in a
// module of its own so that both can import it without importing each other.
import { EngineError, coreError } from './contract.mjs';

// The one way into the module: runs fn, and if C++ threw, leaves nothing behind.
// With -fexceptions (JS exception handling), a C++ exception is a JS throw of its address. It
// unwinds the wasm frames without running their epilogues, so the wasm stack pointer stays
// where the innermost frame put it (16–480 B lower per failed call, until the stack ran out
// after ~330,000 failures). Emscripten's own invoke_* wrappers, which catch C++ exceptions for
// C++ callers, do the same as here: stackSave() before, stackRestore() on the error path. Then
// takeException reads the core's {code, message, field} and frees the exception object
// (bindings/bindings.cpp). The argument copies
// Embind makes are freed by the C++ side (text crosses as a val, see js_values.h).
export function guarded(module, call, fn) {
  const stack = module.stackSave();
  try {
    return fn();
  } catch (thrown) {
    module.stackRestore(stack);
    throw toError(module, thrown, call);
  }
}

function toError(module, thrown, call) {
  if (typeof thrown === 'number') return coreError(module.takeException(thrown), call);
  if (thrown instanceof EngineError) return thrown;
  // Embind's own checks (BindingError, TypeError), or a trap in wasm — a bug, after which the
  // module may be broken: keep the message, add a code.
  const code = thrown instanceof WebAssembly.RuntimeError ? 'internal' : 'bad-input';
  const error = new EngineError(`${call}: ${thrown?.message ?? String(thrown)}`, code, { call });
  error.cause = thrown;
  return error;
}

// guarded() for a call that reads a text: a too-long error gets {count: the text's tokens,
// max: the tokens the model reads} in its details, so that the page can say both in words
// (the core's error carries them only in its English message, which the page never reads).
// count() is the model's own tokenizer on the same text (it reads any length).
export function guardedText(module, call, fn, count, max) {
  try {
    return guarded(module, call, fn);
  } catch (error) {
    if (error?.code === 'too-long' && error.details && !Object.hasOwn(error.details, 'count'))
      Object.assign(error.details, { count: count(), max });
    throw error;
  }
}
