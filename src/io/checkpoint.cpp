#include "io/checkpoint.h"

#include "io/half.h"
#include "io/json_input.h"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
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

// Adds "where: " in front of a message from a later stage.
[[noreturn]] void rethrow_with_context(const std::string& where, const std::exception& e) {
  throw std::invalid_argument(where + ": " + e.what());
}

// A config.json claiming a huge model next to a small weights file must fail before the
// Transformer allocates anything (it once grew wasm memory to 1.9 GB, then threw bad_alloc).
// parse_safetensors has checked that the file's tensors match its bytes, so comparing counts
// bounds the model by the file; load_weights then checks every name and shape.
void check_weights_fit(const ModelConfig& config, const SafetensorsFile& file) {
  int64_t stored = 0;
  for (const auto& [name, tensor] : file.tensors) stored += static_cast<int64_t>(tensor.values.size());
  if (stored != config.parameter_count())
    weights_error("config.json describes a model of " + std::to_string(config.parameter_count()) +
                  " parameters, but the file holds " + std::to_string(stored) + " values in " +
                  std::to_string(file.tensors.size()) + " tensors (does config.json match model.safetensors?)");
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
    if (config_name.empty()) throw;
    rethrow_with_context(config_name, e);
  }
  try {
    const SafetensorsFile file = parse_safetensors(safetensors);
    check_weights_fit(c.config, file);  // before the model allocates what config.json claims
    c.model = std::make_unique<Transformer>(c.config);
    load_weights(*c.model, file);
  } catch (const std::invalid_argument& e) {
    if (weights_name.empty()) throw;
    rethrow_with_context(weights_name, e);
  }
  c.vocab_text = std::string(vocab_text);
  return c;
}

Checkpoint build_checkpoint(std::string_view config_text, std::string_view safetensors, std::string_view vocab_text,
                            const std::string& config_name, const std::string& weights_name) {
  try {
    return build_checkpoint_stages(config_text, safetensors, vocab_text, config_name, weights_name);
  } catch (const std::bad_alloc&) {  // every size is checked first; this is the last resort, with a message
    throw std::runtime_error("checkpoint: out of memory while loading a " + std::to_string(safetensors.size()) +
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

std::string save_weights(Transformer& model, DType dtype) {
  std::vector<NamedTensor> tensors;
  // The matrices are members of the model, so the data pointers stay valid after the visit.
  model.visit_parameters([&](const std::string& name, Matrix& value) {
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
    tensors.push_back(NamedTensor{name, stored_shape(name, value), dtype, value.data()});
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

  if (file.tensors.size() != targets.size()) {
    std::set<std::string> expected;
    for (const Target& t : targets) expected.insert(t.name);
    std::vector<std::string> extra;
    for (const auto& [name, tensor] : file.tensors)
      if (!expected.count(name)) extra.push_back(name);
    weights_error("unexpected tensor '" + extra.front() + "'" +
                  (extra.size() > 1 ? " and " + std::to_string(extra.size() - 1) + " more" : "") +
                  ": this configuration has no such parameter" + hint);
  }

  for (const Target& t : targets)
    for (size_t i = 0; i < t.stored->values.size(); ++i)
      if (!std::isfinite(t.stored->values[i]))
        weights_error("tensor '" + t.name + "' holds " + std::to_string(t.stored->values[i]) + " at element " +
                      std::to_string(i) + "; a model with non-finite weights cannot run");

  // Everything is checked: only now does the model change.
  for (const Target& t : targets) std::copy(t.stored->values.begin(), t.stored->values.end(), t.value->data());
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

void save_checkpoint(const std::string& dir, Transformer& model, const std::string& vocab_text, DType dtype,
                     const json& extra_config) {
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
  const std::string weights = save_weights(model, dtype);

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
