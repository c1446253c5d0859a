// Two tokens, d_k = 1, through the installed core's attention. The scores q·k/√1 of the second
// query are 0 and ln 3, so its weights are 1/4 and 3/4 and its output 3/4 · 4 = 3; under the
// causal mask the first query sees only the first key: weight 1, output 0.
#include <attention_core/inference/trained_model.h>  // nested includes, and nlohmann/json
#include <attention_core/ops/attention.h>

// Only include/ is on the path: the core's generic folder names must not be visible.
#if __has_include(<util/error.h>) || __has_include(<tensor.h>) || __has_include(<model/config.h>)
#error "the installed core put its own folders (util/, model/, tensor.h) on the consumer's include path"
#endif

#include <cmath>
#include <cstdio>

int main() {
  ae::Matrix q(2, 1), k(2, 1), v(2, 1);
  q << 1, 1;
  k << 0, std::log(3.0f);
  v << 0, 4;
  ae::AttentionOptions options;
  options.mask.causal = true;
  const ae::AttentionTrace t = ae::attention_traced(q, k, v, options);
  std::printf("weights %.4f %.4f | %.4f %.4f; output %.4f %.4f\n", t.weights(0, 0), t.weights(0, 1), t.weights(1, 0),
              t.weights(1, 1), t.output(0, 0), t.output(1, 0));
}
