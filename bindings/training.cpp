// Embind layer for "Train it yourself": train/session.h's TrainingSession, driven by the page's
// worker (web/lib/train-worker.mjs) through web/lib/engine.mjs's TrainingSession, which checks
// every argument first. Nothing here trains or measures: it converts.
//
//   new TrainingSession({task, positional, seed, steps, heads, layers, batch, learningRate, threads})
//     .settings()                → the resolved settings (defaults filled in)
//     .step(n)                   → {step, ran, loss, accuracy, learningRate, finished}: the last
//                                  step run and the mean loss / batch accuracy of the n steps;
//                                  loss, accuracy and learningRate are null when none ran
//     .validationAccuracy()      → share of the validation sample right
//     .snapshot()                → {step, head: {layer, head, referent, other},
//                                   lesson: [{text, tokens, query, referent, other, rows: Float32Array
//                                   nLayers·nHeads·tokens, row-major}]}
//     .exportFiles(f16, name)    → {config, weights: Uint8Array, vocab, metrics}
#include "js_values.h"

#include "train/session.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

using emscripten::val;

namespace {

ae::SessionSettings settings_from_js(const val& o) {
  ae::SessionSettings s;
  s.task = ae::session_task_from_string(aejs::string_option(o, "task", "coref-encoder"));
  const std::string positional = aejs::string_option(o, "positional", "");
  if (!positional.empty()) s.positional = ae::positional_encoding_from_string(positional), s.positional_set = true;
  s.seed = aejs::seed_option(o);
  s.steps = aejs::int_option(o, "steps", 0);
  s.n_heads = aejs::int_option(o, "heads", 0);
  s.n_layers = aejs::int_option(o, "layers", 0);
  s.batch = aejs::int_option(o, "batch", 0);
  s.learning_rate = static_cast<float>(aejs::option<double>(o, "learningRate", 0.0));
  s.batched_rows = !aejs::option<bool>(o, "perExample", false);  // benchmarks: the per-example loop
  s.threads = aejs::int_option(o, "threads", 1);  // the same bits for any number; 1 in a module without pthreads
  return s;
}

class TrainingSession {
 public:
  explicit TrainingSession(const val& options) : session_(settings_from_js(options)) {}

  val settings() const {
    const ae::SessionSettings& s = session_.settings();
    val o = val::object();
    o.set("task", ae::to_string(s.task));
    o.set("positional", ae::to_string(s.positional));
    o.set("seed", static_cast<double>(s.seed));
    o.set("steps", s.steps);
    o.set("heads", s.n_heads);
    o.set("layers", s.n_layers);
    o.set("batch", s.batch);
    o.set("learningRate", s.learning_rate);
    o.set("trainingExamples", static_cast<double>(session_.training_examples()));
    return o;
  }

  val step(int count) {
    const std::vector<ae::StepReport> reports = session_.step(count);
    double loss = 0.0, accuracy = 0.0;
    for (const auto& r : reports) loss += r.loss, accuracy += r.accuracy;
    val o = val::object();
    o.set("step", session_.steps_done());
    o.set("ran", static_cast<int>(reports.size()));
    // No step run (step(0), or the run is over): nothing measured, so null rather than NaN.
    const auto mean_or_null = [&](double sum) { return reports.empty() ? val::null() : val(sum / reports.size()); };
    o.set("loss", mean_or_null(loss));
    o.set("accuracy", mean_or_null(accuracy));
    o.set("learningRate", reports.empty() ? val::null() : val(reports.back().learning_rate));
    o.set("finished", session_.finished());
    return o;
  }

  double validation_accuracy() const { return session_.validation_accuracy(); }

  val snapshot() const {
    const ae::SessionSnapshot s = session_.snapshot();
    val o = val::object();
    o.set("step", s.step);
    val head = val::object();
    head.set("layer", s.head.layer);
    head.set("head", s.head.head);
    head.set("referent", s.head.mean.referent);
    head.set("other", s.head.mean.other);
    o.set("head", head);
    val lesson = val::array();
    for (const auto& l : s.lesson) {
      std::vector<float> rows;
      for (const auto& layer : l.rows)
        for (const auto& h : layer) rows.insert(rows.end(), h.weights.begin(), h.weights.end());
      val item = val::object();
      item.set("text", l.text);
      item.set("tokens", aejs::to_js(l.tokens));
      item.set("query", l.query);
      item.set("referent", l.referent);
      item.set("other", l.other);
      item.set("rows", val::global("Float32Array").new_(emscripten::typed_memory_view(rows.size(), rows.data())));
      lesson.call<void>("push", item);
    }
    o.set("lesson", lesson);
    return o;
  }

  val export_files(bool f16, const val& name) const {
    const ae::SessionFiles f =
        session_.export_files(f16 ? ae::DType::F16 : ae::DType::F32, aejs::text_from_js(name, "name"));
    val o = val::object();
    o.set("config", f.config_json);
    o.set("weights", val::global("Uint8Array")
                         .new_(emscripten::typed_memory_view(f.safetensors.size(),
                                                             reinterpret_cast<const uint8_t*>(f.safetensors.data()))));
    o.set("vocab", f.vocab_text);
    o.set("metrics", f.metrics_json);
    return o;
  }

 private:
  ae::TrainingSession session_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(training) {
  emscripten::class_<TrainingSession>("TrainingSession")
      .constructor<const val&>()
      .function("settings", &TrainingSession::settings)
      .function("step", &TrainingSession::step)
      .function("validationAccuracy", &TrainingSession::validation_accuracy)
      .function("snapshot", &TrainingSession::snapshot)
      .function("exportFiles", &TrainingSession::export_files);
}
