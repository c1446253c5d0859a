// A trained model on disk (or in memory, for the wasm build): a directory holding
//   config.json        the ModelConfig (config_to_json), "format": "attention-explorer/1",
//                      plus free keys the trainer adds (e.g. the task name)
//   model.safetensors  every parameter under its visit_parameters name (save_weights)
//   vocab.txt          the vocabulary, carried as text
//   metrics.json       written by the trainer; not read here
// docs/model-format.md describes the format for people writing their own exporters.
#pragma once

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

// The model's parameters as safetensors bytes, F32 or F16 (rounded to nearest even). Throws
// std::invalid_argument("weights: …") for a NaN/inf parameter, or one beyond ±65504 for F16:
// load_weights would refuse the file.
std::string save_weights(Transformer& model, DType dtype);

// Copies the file's tensors into the model. Every parameter must be present with exactly its
// stored_shape and finite values, and the file may hold no other tensor; on any error the
// model is left untouched and std::invalid_argument("weights: …") names the tensor.
void load_weights(Transformer& model, const SafetensorsFile& file);

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
void save_checkpoint(const std::string& dir, Transformer& model, const std::string& vocab_text, DType dtype,
                     const nlohmann::json& extra_config = nlohmann::json::object());

}  // namespace ae
