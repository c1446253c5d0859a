// A trained model on disk (or in memory, for the wasm build): a directory holding
//   config.json        the ModelConfig (config_to_json), "format": "attention-explorer/1",
//                      plus free keys the trainer adds (e.g. the task name)
//   model.safetensors  every parameter under its visit_parameters name (save_weights)
//   vocab.txt          the vocabulary, carried as text
//   metrics.json       written by the trainer; not read here
// docs/model-format.md describes the format for people writing their own exporters.
#pragma once

#include "io/quantize.h"
#include "io/safetensors.h"
#include "model/config.h"
#include "model/transformer.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ae {

inline constexpr char kCheckpointFormat[] = "attention-explorer/1";

// Every ModelConfig field under its own name (positional and norm as the strings of
// to_string), and "format": kCheckpointFormat.
nlohmann::json config_to_json(const ModelConfig& config);

// The inverse. Every field of ModelConfig is required, with its JSON type (integers must be
// JSON integers); keys it does not know are left to the caller (the trainer's extras). Throws
// std::invalid_argument("config: …") for a wrong or missing format, a missing key, a wrong type
// or a value validate() refuses.
ModelConfig config_from_json(const nlohmann::json& j);

// Shapes in the file: biases and LayerNorm gains/offsets (1×d matrices whose names end in
// "bias" — ".bias", "output_bias" — or in ".gamma" or ".beta") are stored 1-D as [d]; every
// other parameter 2-D as [rows, cols] of its row-major Matrix (weights in×out, y = x·W + b).
std::vector<int64_t> stored_shape(const std::string& parameter_name, const Matrix& value);

// How save_weights stores the parameters (docs/model-format.md, "Data types").
//   F32, F16: every tensor in that dtype.
//   I8: every 2-D parameter as a quantized tensor — its integers as I8 under the parameter's name,
//       and its scales as F32 under name + "_scale", shape [rows, 1] (one per row) or [1, cols]
//       (one per column) — and every 1-D parameter (biases, LayerNorm) as `vectors`.
// Which way an I8 matrix's scales run. Outputs: one per output feature — per column of a weight
// (stored in×out, y = x·W + b; the output head included), per row of an embedding table
// (token_embedding, position_embedding: row t is what the table gives for token t).
enum class ScaleRule { Rows, Columns, Outputs };

struct WeightFormat {
  DType dtype = DType::F32;
  int levels = 127;                       // I8: integers in −levels … levels (io/quantize.h)
  ScaleRule scales = ScaleRule::Outputs;  // I8: one F32 scale per row, per column, or per output
  DType vectors = DType::F16;             // I8: the dtype of the 1-D parameters, F32 or F16
};

// The axis of a parameter's scales under a rule (stored name, as visit_parameters gives it).
ScaleAxis scale_axis(const std::string& parameter_name, ScaleRule rule);

// The suffix of a quantized tensor's scale: "layers.0.ffn.expand.weight" → "…weight_scale".
inline constexpr char kScaleSuffix[] = "_scale";

// The model's parameters as safetensors bytes. Throws std::invalid_argument("weights: …") for a
// NaN/inf parameter, one beyond ±65504 stored as F16 (load_weights would refuse the file), or a
// format it cannot write (levels outside 1 … 127, vectors not F32/F16).
std::string save_weights(Transformer& model, const WeightFormat& format);
inline std::string save_weights(Transformer& model, DType dtype) { return save_weights(model, WeightFormat{dtype}); }

// Copies the file's tensors into the model, dequantizing I8 tensors with their scales. Every
// parameter must be present with exactly its stored_shape and finite values, and the file may
// hold no other tensor (a scale only next to its I8 tensor); on any error the model is left
// untouched and std::invalid_argument("weights: …") names the tensor.
void load_weights(Transformer& model, const SafetensorsFile& file);

// The model as it will be read back from save_weights(model, format): every parameter replaced
// by what loading that file gives. What the trainer evaluates, so its figures describe the
// stored bytes.
void round_trip_weights(Transformer& model, const WeightFormat& format);

struct Checkpoint {
  ModelConfig config;
  std::unique_ptr<Transformer> model;
  std::string vocab_text;
  nlohmann::json config_json;  // config.json as read, including the trainer's extra keys
};

// The in-memory form (the wasm build has no file system). Errors are std::invalid_argument
// whose message starts with the stage: "config.json: …", "config: …", "safetensors: …", "weights: …".
Checkpoint load_checkpoint_from_memory(std::string_view config_json, std::string_view safetensors,
                                       std::string_view vocab_text);

// Reads dir/config.json, dir/model.safetensors and dir/vocab.txt. Errors name the path:
// "cannot read /x/config.json: No such file or directory", "/x/model.safetensors: safetensors: …".
Checkpoint load_checkpoint(const std::string& dir);

// Creates dir if needed and writes the three files (each through a temporary file renamed into
// place, so a crash never leaves half a file). extra_config (a JSON object, or null) is merged
// into config.json; it may not use "format" or a ModelConfig key.
void save_checkpoint(const std::string& dir, Transformer& model, const std::string& vocab_text,
                     const WeightFormat& format, const nlohmann::json& extra_config = nlohmann::json::object());
inline void save_checkpoint(const std::string& dir, Transformer& model, const std::string& vocab_text, DType dtype,
                            const nlohmann::json& extra_config = nlohmann::json::object()) {
  save_checkpoint(dir, model, vocab_text, WeightFormat{dtype}, extra_config);
}

}  // namespace ae
