#include "io/checkpoint.h"

#include "io/half.h"
#include "io/json_input.h"
#include "util/error.h"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <list>
#include <new>
#include <set>
#include <stdexcept>

namespace ae {

namespace {

using nlohmann::json;

[[noreturn]] void config_error(const std::string& why) { throw std::invalid_argument("config: " + why); }

[[noreturn]] void weights_error(const std::string& why) { throw std::invalid_argument("weights: " + why); }

// --- config.json ---------------------------------------------------------------------------

// The shortest decimal that reads back as the same float, as a double: 1e-5f is written
// 1e-05 rather than 9.99999974737875e-06. (std::to_chars for float is missing from the wasm
// toolchain's libc++; json::parse reads numbers independently of the C locale.)
double shortest_decimal(float f) {
  for (int digits = 1; digits <= 9; ++digits) {  // 9 significant digits always round-trip a float
    char text[48];
    std::snprintf(text, sizeof text, "%.*e", digits - 1, static_cast<double>(f));
    for (char& c : text)
      if (c == ',') c = '.';  // a C locale with a decimal comma
    const double d = json::parse(text).get<double>();
    if (static_cast<float>(d) == f) return d;
  }
  return static_cast<double>(f);
}

const json& required(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) config_error(std::string("missing key \"") + key + "\"");
  return *it;
}

int read_int(const json& j, const char* key) {
  const json& v = required(j, key);
  if (!v.is_number_integer()) config_error(std::string("\"") + key + "\" must be an integer, got " + describe_json(v));
  const bool fits = v.is_number_unsigned() ? v.get<uint64_t>() <= static_cast<uint64_t>(INT_MAX)
                                           : v.get<int64_t>() >= INT_MIN && v.get<int64_t>() <= INT_MAX;
  if (!fits) config_error(std::string("\"") + key + "\" = " + describe_json(v) + " is out of range");
  return static_cast<int>(v.get<int64_t>());
}

float read_float(const json& j, const char* key) {
  const json& v = required(j, key);
  if (!v.is_number()) config_error(std::string("\"") + key + "\" must be a number, got " + describe_json(v));
  const double d = v.get<double>();
  if (!(std::fabs(d) <= static_cast<double>(FLT_MAX)))
    config_error(std::string("\"") + key + "\" = " + describe_json(v) + " is out of range for a float");
  return static_cast<float>(d);
}

bool read_bool(const json& j, const char* key) {
  const json& v = required(j, key);
  if (!v.is_boolean()) config_error(std::string("\"") + key + "\" must be true or false, got " + describe_json(v));
  return v.get<bool>();
}

std::string read_string(const json& j, const char* key) {
  const json& v = required(j, key);
  if (!v.is_string()) config_error(std::string("\"") + key + "\" must be a string, got " + describe_json(v));
  return v.get<std::string>();
}

// --- parameters ------------------------------------------------------------------------------

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

bool is_scale_name(const std::string& name) { return ends_with(name, kScaleSuffix); }

std::string base_of_scale(const std::string& scale_name) {
  return scale_name.substr(0, scale_name.size() - std::strlen(kScaleSuffix));
}

// A scale tensor that belongs to an I8 tensor of the file: counted and checked with it.
bool is_scale_of_quantized(const SafetensorsFile& file, const std::string& name) {
  if (!is_scale_name(name)) return false;
  const auto base = file.tensors.find(base_of_scale(name));
  return base != file.tensors.end() && base->second.dtype == DType::I8;
}

// The values an I8 tensor stands for: its integers times its scales (io/quantize.h), after
// checking the scale tensor's presence, dtype, shape and values. The I8 tensor's own shape has
// been checked against the parameter's already.
std::vector<float> dequantized(const SafetensorsFile& file, const std::string& name, const StoredTensor& q) {
  if (q.shape.size() != 2)
    weights_error("tensor '" + name + "' is I8, but only 2-D tensors (matrices) can be quantized; store biases " +
                  "and LayerNorm parameters as F32 or F16");
  const int64_t rows = q.shape[0], cols = q.shape[1];
  const std::string scale_name = name + kScaleSuffix;
  const auto it = file.tensors.find(scale_name);
  if (it == file.tensors.end())
    weights_error("tensor '" + name + "' is I8 but its scale tensor '" + scale_name +
                  "' is missing (an I8 tensor stores value / scale; docs/model-format.md)");
  const StoredTensor& scale = it->second;
  if (scale.dtype == DType::I8) weights_error("scale tensor '" + scale_name + "' must be F32 or F16, got I8");
  ScaleAxis axis;
  if (scale.shape == std::vector<int64_t>{rows, 1}) axis = ScaleAxis::Rows;
  else if (scale.shape == std::vector<int64_t>{1, cols}) axis = ScaleAxis::Columns;
  else
    weights_error("scale tensor '" + scale_name + "' has shape " + shape_string(scale.shape) + ", expected " +
                  shape_string(std::vector<int64_t>{rows, 1}) + " (one scale per row) or " +
                  shape_string(std::vector<int64_t>{1, cols}) + " (one per column) for '" + name + "' " +
                  shape_string(q.shape));
  for (size_t i = 0; i < scale.values.size(); ++i)
    if (!std::isfinite(scale.values[i]))
      weights_error("scale tensor '" + scale_name + "' holds " + std::to_string(scale.values[i]) + " at element " +
                    std::to_string(i) + "; a scale must be a finite number");
  std::vector<float> values(q.values.size());
  dequantize_symmetric(q.values.data(), scale.values.data(), rows, cols, axis, values.data());
  return values;
}

// --- files -----------------------------------------------------------------------------------

std::string join_path(const std::string& dir, const char* file) {
  if (dir.empty()) return file;
  return dir.back() == '/' ? dir + file : dir + "/" + file;
}

[[noreturn]] void file_error(const char* verb, const std::string& path, int error) {
  throw std::runtime_error(std::string("cannot ") + verb + " " + path + ": " + std::strerror(error));
}

std::string read_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) file_error("read", path, errno);
  std::string bytes;
  char chunk[1 << 16];
  size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, f)) > 0) bytes.append(chunk, got);
  const int error = std::ferror(f) ? errno : 0;
  std::fclose(f);
  if (error) file_error("read", path, error);  // e.g. the path is a directory
  return bytes;
}

// Writes path.tmp, then renames it over path.
void write_file(const std::string& path, std::string_view bytes) {
  const std::string temporary = path + ".tmp";
  std::FILE* f = std::fopen(temporary.c_str(), "wb");
  if (!f) file_error("write", path, errno);
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  int error = written ? 0 : errno;
  if (std::fclose(f) != 0 && !error) error = errno;
  if (!error && std::rename(temporary.c_str(), path.c_str()) != 0) error = errno;
  if (error) {
    std::remove(temporary.c_str());
    file_error("write", path, error);
  }
}

// A stage's refusal as bad-model (whichever code it had: a config that fails validate() is
// bad-config when built, but here the file is at fault), with "where: " in front when named.
// A new exception rather than `throw;`: the JS side frees what it catches only if it left
// C++ by a plain throw (bindings.cpp, take_exception).
[[noreturn]] void throw_bad_model(const std::string& where, const std::invalid_argument& e) {
  throw InputError(ErrorCode::BadModel, where.empty() ? e.what() : where + ": " + e.what(), error_field(e));
}

// A config.json claiming a huge model next to a small weights file must fail before the
// Transformer allocates anything (it once grew wasm memory to 1.9 GB, then threw bad_alloc), and a
// file holding more values than the config's parameters (a 400 MB extra tensor) before any value
// is decoded (decoding it first grew wasm memory to 794 MiB). index_safetensors has checked that
// the file's tensors match its bytes, so comparing counts bounds the model by the file;
// load_weights then checks every name and shape.
void check_weights_fit(const ModelConfig& config, const SafetensorsIndex& index) {
  int64_t stored = 0;
  // Scales are not parameters. Any "x_scale" next to an "x" is left out here, so that a scale
  // beside a tensor that is not I8 gets load_weights' message rather than a count mismatch.
  for (const auto& [name, tensor] : index.tensors) {
    if (is_scale_name(name) && index.tensors.count(base_of_scale(name))) continue;
    int64_t count = 1;
    for (const int64_t extent : tensor.shape) count *= extent;  // checked against the bytes: no overflow
    stored += count;
  }
  if (stored != config.parameter_count())
    weights_error("config.json describes a model of " + std::to_string(config.parameter_count()) +
                  " parameters, but the file holds " + std::to_string(stored) + " values in " +
                  std::to_string(index.tensors.size()) + " tensors (does config.json match model.safetensors?)");
}

// The three loading stages; a non-empty name is put in front of each stage's errors.
Checkpoint build_checkpoint_stages(std::string_view config_text, std::string_view safetensors,
                                   std::string_view vocab_text, const std::string& config_name,
                                   const std::string& weights_name) {
  Checkpoint c;
  try {
    c.config_json = parse_json_input(config_text, "config: invalid JSON");
    c.config = config_from_json(c.config_json);
  } catch (const std::invalid_argument& e) {
    throw_bad_model(config_name, e);
  }
  try {
    // Before any value is decoded and before the model allocates what config.json claims.
    check_weights_fit(c.config, index_safetensors(safetensors));
    const SafetensorsFile file = parse_safetensors(safetensors);
    c.model = std::make_unique<Transformer>(c.config);
    load_weights(*c.model, file);
  } catch (const std::invalid_argument& e) {
    throw_bad_model(weights_name, e);
  }
  c.vocab_text = std::string(vocab_text);
  return c;
}

Checkpoint build_checkpoint(std::string_view config_text, std::string_view safetensors, std::string_view vocab_text,
                            const std::string& config_name, const std::string& weights_name) {
  try {
    return build_checkpoint_stages(config_text, safetensors, vocab_text, config_name, weights_name);
  } catch (const std::bad_alloc&) {  // every size is checked first; this is the last resort, with a message
    throw ResourceError(ErrorCode::OutOfMemory,
                        "checkpoint: out of memory while loading a " + std::to_string(safetensors.size()) +
                            "-byte weights file (a model of up to " + std::to_string(kMaxParameters) +
                            " parameters may need 3 times its size while loading); close other tabs or use a "
                            "smaller model");
  }
}

}  // namespace

json config_to_json(const ModelConfig& c) {
  json j{
      {"format", kCheckpointFormat},
      {"vocab_size", c.vocab_size},
      {"d_model", c.d_model},
      {"n_heads", c.n_heads},
      {"n_layers", c.n_layers},
      {"d_ff", c.d_ff},
      {"max_len", c.max_len},
      {"positional", to_string(c.positional)},
      {"norm", to_string(c.norm)},
      {"causal", c.causal},
      {"cross_attention", c.cross_attention},
      {"layer_norm_eps", shortest_decimal(c.layer_norm_eps)},
      {"rope_base", shortest_decimal(c.rope_base)},
  };
  // Written only for an untied output head, so that tied models' config.json stays as before.
  if (!c.tie_output) j["tie_output"] = false;
  return j;
}

ModelConfig config_from_json(const json& j) {
  if (!j.is_object()) config_error(std::string("expected a JSON object, got ") + j.type_name());
  const auto format = j.find("format");
  if (format == j.end())
    config_error(std::string("missing key \"format\" (expected \"") + kCheckpointFormat +
                 "\"; is this an Attention Explorer config.json?)");
  if (*format != kCheckpointFormat)
    config_error("format " + describe_json(*format) + " is not supported (expected \"" + kCheckpointFormat + "\")");

  ModelConfig c;
  c.vocab_size = read_int(j, "vocab_size");
  c.d_model = read_int(j, "d_model");
  c.n_heads = read_int(j, "n_heads");
  c.n_layers = read_int(j, "n_layers");
  c.d_ff = read_int(j, "d_ff");
  c.max_len = read_int(j, "max_len");
  c.positional = positional_encoding_from_string(read_string(j, "positional"));
  c.norm = norm_placement_from_string(read_string(j, "norm"));
  c.causal = read_bool(j, "causal");
  c.cross_attention = read_bool(j, "cross_attention");
  c.layer_norm_eps = read_float(j, "layer_norm_eps");
  c.rope_base = read_float(j, "rope_base");
  c.tie_output = j.contains("tie_output") ? read_bool(j, "tie_output") : true;  // optional: older files are tied
  c.validate();
  return c;
}

std::vector<int64_t> stored_shape(const std::string& name, const Matrix& value) {
  // "bias" also covers names like "output_bias".
  const bool vector = ends_with(name, "bias") || ends_with(name, ".gamma") || ends_with(name, ".beta");
  if (vector && value.rows() == 1) return {static_cast<int64_t>(value.cols())};
  return {static_cast<int64_t>(value.rows()), static_cast<int64_t>(value.cols())};
}

ScaleAxis scale_axis(const std::string& name, ScaleRule rule) {
  switch (rule) {
    case ScaleRule::Rows: return ScaleAxis::Rows;
    case ScaleRule::Columns: return ScaleAxis::Columns;
    case ScaleRule::Outputs: break;
  }
  return ends_with(name, "embedding") ? ScaleAxis::Rows : ScaleAxis::Columns;
}

std::string save_weights(Transformer& model, const WeightFormat& format) {
  if (format.dtype == DType::I8) {
    if (format.levels < 1 || format.levels > 127)
      weights_error("cannot save as I8 with " + std::to_string(format.levels) + " levels (1 … 127)");
    if (format.vectors == DType::I8) weights_error("cannot save 1-D parameters as I8: choose F32 or F16");
  }
  std::vector<NamedTensor> tensors;
  std::list<std::vector<float>> storage;  // quantized values and scales; a list keeps them in place
  // The matrices are members of the model, so the data pointers stay valid after the visit.
  model.visit_parameters([&](const std::string& name, Matrix& value) {
    const std::vector<int64_t> shape = stored_shape(name, value);
    const bool quantize = format.dtype == DType::I8 && shape.size() == 2;
    const DType dtype = format.dtype == DType::I8 && !quantize ? format.vectors : format.dtype;
    // load_weights refuses non-finite values, so refuse to write a file it could not load.
    for (Eigen::Index i = 0; i < value.size(); ++i) {
      const float v = value.data()[i];
      if (!std::isfinite(v))
        weights_error("cannot save tensor '" + name + "': it holds " + std::to_string(v) + " at element " +
                      std::to_string(i));
      if (dtype == DType::F16 && !std::isfinite(round_to_half(v)))
        weights_error("cannot save tensor '" + name + "' as F16: element " + std::to_string(i) + " = " +
                      std::to_string(v) + " is beyond the F16 range (±65504); save as F32");
    }
    if (!quantize) {
      tensors.push_back(NamedTensor{name, shape, dtype, value.data()});
      return;
    }
    const ScaleAxis axis = scale_axis(name, format.scales);
    Quantized q = quantize_symmetric(value.data(), shape[0], shape[1], axis, format.levels);
    const std::vector<int64_t> scale_shape =
        axis == ScaleAxis::Rows ? std::vector<int64_t>{shape[0], 1} : std::vector<int64_t>{1, shape[1]};
    tensors.push_back(NamedTensor{name, shape, DType::I8, storage.emplace_back(std::move(q.q)).data()});
    tensors.push_back(
        NamedTensor{name + kScaleSuffix, scale_shape, DType::F32, storage.emplace_back(std::move(q.scale)).data()});
  });
  return write_safetensors(tensors, {{"format", kCheckpointFormat}});
}

void load_weights(Transformer& model, const SafetensorsFile& file) {
  struct Target {
    std::string name;
    Matrix* value;
    const StoredTensor* stored;
  };
  std::vector<Target> targets;
  std::vector<std::string> missing;
  model.visit_parameters([&](const std::string& name, Matrix& value) {
    const auto it = file.tensors.find(name);
    if (it == file.tensors.end()) missing.push_back(name);
    else targets.push_back(Target{name, &value, &it->second});
  });
  const std::string hint = " (does config.json match model.safetensors?)";
  if (!missing.empty())
    weights_error("missing tensor '" + missing.front() + "'" +
                  (missing.size() > 1 ? " and " + std::to_string(missing.size() - 1) + " more" : "") + hint);

  for (const Target& t : targets) {
    const std::vector<int64_t> needed = stored_shape(t.name, *t.value);
    if (t.stored->shape != needed)
      weights_error("tensor '" + t.name + "' has shape " + shape_string(t.stored->shape) + ", the config needs " +
                    shape_string(needed));
  }

  std::set<std::string> expected;
  for (const Target& t : targets) expected.insert(t.name);
  std::vector<std::string> extra;
  for (const auto& [name, tensor] : file.tensors)
    if (!expected.count(name) && !is_scale_of_quantized(file, name)) extra.push_back(name);
  if (!extra.empty()) {
    const std::string& first = extra.front();
    const std::string more = extra.size() > 1 ? " and " + std::to_string(extra.size() - 1) + " more" : "";
    if (is_scale_name(first) && expected.count(base_of_scale(first)))
      weights_error("unexpected tensor '" + first + "'" + more + ": a scale belongs to an I8 tensor, but '" +
                    base_of_scale(first) + "' is stored as " + to_string(file.tensors.at(base_of_scale(first)).dtype));
    weights_error("unexpected tensor '" + first + "'" + more + ": this configuration has no such parameter" + hint);
  }

  // The values each parameter takes: F32/F16 as stored (widened), I8 times its scales.
  std::vector<std::vector<float>> dequantized_values(targets.size());
  std::vector<const std::vector<float>*> values(targets.size());
  for (size_t k = 0; k < targets.size(); ++k) {
    const Target& t = targets[k];
    if (t.stored->dtype == DType::I8) {
      dequantized_values[k] = dequantized(file, t.name, *t.stored);
      values[k] = &dequantized_values[k];
    } else {
      values[k] = &t.stored->values;
    }
  }

  for (size_t k = 0; k < targets.size(); ++k)
    for (size_t i = 0; i < values[k]->size(); ++i)
      if (!std::isfinite((*values[k])[i]))
        weights_error("tensor '" + targets[k].name + "' holds " + std::to_string((*values[k])[i]) + " at element " +
                      std::to_string(i) + "; a model with non-finite weights cannot run");

  // Everything is checked: only now does the model change.
  for (size_t k = 0; k < targets.size(); ++k) std::copy(values[k]->begin(), values[k]->end(), targets[k].value->data());
}

void round_trip_weights(Transformer& model, const WeightFormat& format) {
  load_weights(model, parse_safetensors(save_weights(model, format)));
}

Checkpoint load_checkpoint_from_memory(std::string_view config_json, std::string_view safetensors,
                                       std::string_view vocab_text) {
  return build_checkpoint(config_json, safetensors, vocab_text, "", "");
}

Checkpoint load_checkpoint(const std::string& dir) {
  const std::string config_path = join_path(dir, "config.json");
  const std::string weights_path = join_path(dir, "model.safetensors");
  const std::string vocab_path = join_path(dir, "vocab.txt");
  const std::string config_text = read_file(config_path);
  const std::string weights = read_file(weights_path);
  const std::string vocab = read_file(vocab_path);
  return build_checkpoint(config_text, weights, vocab, config_path, weights_path);
}

void save_checkpoint(const std::string& dir, Transformer& model, const std::string& vocab_text,
                     const WeightFormat& format, const json& extra_config) {
  json config = config_to_json(model.config());
  if (!extra_config.is_null() && !extra_config.is_object())
    throw std::invalid_argument(std::string("save_checkpoint: extra_config must be a JSON object, got ") +
                                extra_config.type_name());
  if (extra_config.is_object())
    for (const auto& [key, value] : extra_config.items()) {
      if (config.contains(key))
        throw std::invalid_argument("save_checkpoint: extra_config key \"" + key +
                                    "\" would override the model's own config.json entry");
      config[key] = value;
    }
  const std::string weights = save_weights(model, format);

  if (!dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error) throw std::runtime_error("cannot create directory " + dir + ": " + error.message());
  }
  std::string config_text;
  try {
    config_text = config.dump(2) + "\n";
  } catch (const json::exception& e) {  // a string in extra_config that is not UTF-8
    throw std::invalid_argument(std::string("save_checkpoint: extra_config cannot be written: ") + e.what());
  }
  write_file(join_path(dir, "config.json"), config_text);
  write_file(join_path(dir, "model.safetensors"), weights);
  write_file(join_path(dir, "vocab.txt"), vocab_text);
}

}  // namespace ae
