#include "io/safetensors.h"

#include "io/half.h"
#include "io/json_input.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace ae {

namespace {

using nlohmann::json;

constexpr char kMetadataKey[] = "__metadata__";
// The reference implementation refuses headers above 100 MB; so do we (a corrupt length field
// must not make us allocate gigabytes).
constexpr uint64_t kMaxHeaderBytes = 100'000'000;
constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();

[[noreturn]] void format_error(const std::string& why) { throw std::invalid_argument("safetensors: " + why); }

[[noreturn]] void tensor_error(const std::string& name, const std::string& why) {
  format_error("tensor '" + shorten_for_message(name) + "': " + why);
}

std::string offsets_string(uint64_t begin, uint64_t end) {
  return "[" + std::to_string(begin) + ", " + std::to_string(end) + "]";
}

// --- little-endian byte access, independent of the host's byte order ---------------------

void append_u16(std::string& out, uint16_t v) {
  out.push_back(static_cast<char>(v & 0xffu));
  out.push_back(static_cast<char>(v >> 8));
}

void append_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
}

void append_u64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
}

uint64_t read_le(const char* p, int n_bytes) {
  uint64_t v = 0;
  for (int i = n_bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

// --- reading one header entry --------------------------------------------------------------

// A JSON integer ≥ 0 (not 2.0, not "2", not true), or nothing.
bool non_negative_integer(const json& j, uint64_t* out) {
  if (j.is_number_unsigned()) {
    *out = j.get<uint64_t>();
    return true;
  }
  if (j.is_number_integer() && j.get<int64_t>() >= 0) {
    *out = static_cast<uint64_t>(j.get<int64_t>());
    return true;
  }
  return false;
}

const json& required_key(const std::string& name, const json& entry, const char* key) {
  const auto it = entry.find(key);
  if (it == entry.end()) tensor_error(name, std::string("missing \"") + key + "\" in " + describe_json(entry));
  return *it;
}

struct HeaderEntry {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;
  uint64_t begin, end;
};

HeaderEntry read_entry(const std::string& name, const json& entry, uint64_t buffer_size) {
  if (!entry.is_object())
    tensor_error(name, "the entry must be an object with dtype, shape and data_offsets, got " + describe_json(entry));
  HeaderEntry e{name, DType::F32, {}, 0, 0};

  const json& dtype = required_key(name, entry, "dtype");
  if (!dtype.is_string()) tensor_error(name, "dtype must be a string, got " + describe_json(dtype));
  const std::string dtype_name = dtype.get<std::string>();
  try {
    e.dtype = dtype_from_string(dtype_name);
  } catch (const std::invalid_argument& error) {
    tensor_error(name, error.what());
  }

  const json& shape = required_key(name, entry, "shape");
  bool shape_ok = shape.is_array();
  for (size_t i = 0; shape_ok && i < shape.size(); ++i) {
    uint64_t dim = 0;
    shape_ok = non_negative_integer(shape[i], &dim) && dim <= static_cast<uint64_t>(kMaxInt64);
    if (shape_ok) e.shape.push_back(static_cast<int64_t>(dim));
  }
  if (!shape_ok) tensor_error(name, "shape must be a list of non-negative integers, got " + describe_json(shape));

  const json& offsets = required_key(name, entry, "data_offsets");
  if (!offsets.is_array() || offsets.size() != 2 || !non_negative_integer(offsets[0], &e.begin) ||
      !non_negative_integer(offsets[1], &e.end))
    tensor_error(name,
                 "data_offsets must be [begin, end] with two non-negative integers, got " + describe_json(offsets));
  if (e.end < e.begin) tensor_error(name, "data_offsets " + offsets_string(e.begin, e.end) + " end before they begin");
  if (e.end > buffer_size)
    tensor_error(name, "data_offsets " + offsets_string(e.begin, e.end) + " lie outside the data buffer (" +
                           std::to_string(buffer_size) + " bytes)");

  // The element count cannot exceed the buffer size here unless the offsets are wrong, so
  // compare before multiplying: count · size must not overflow.
  std::string needed;
  bool matches = false;
  try {
    const uint64_t count = static_cast<uint64_t>(element_count(e.shape));
    const uint64_t size = dtype_size(e.dtype);
    if (count <= static_cast<uint64_t>(kMaxInt64) / size) {
      needed = std::to_string(count * size) + " bytes";
      matches = count * size == e.end - e.begin;
    } else {
      needed = "more than 2^63 bytes";
    }
  } catch (const std::invalid_argument&) {
    needed = "more than 2^63 elements";
  }
  if (!matches)
    tensor_error(name, "data_offsets " + offsets_string(e.begin, e.end) + " do not match dtype " + dtype_name +
                           " and shape " + shape_string(e.shape) + " (" + needed + ")");
  return e;
}

std::map<std::string, std::string> read_metadata(const json& j) {
  std::map<std::string, std::string> metadata;
  if (j.is_null()) return metadata;
  if (!j.is_object()) format_error("__metadata__ must be an object of strings, got " + describe_json(j));
  for (const auto& [key, value] : j.items()) {
    if (!value.is_string())
      format_error("__metadata__ must map strings to strings, but \"" + shorten_for_message(key) + "\" holds " +
                   describe_json(value));
    metadata[key] = value.get<std::string>();
  }
  return metadata;
}

json parse_header(std::string_view text) {
  // nlohmann keeps the last of two equal keys silently; a file with two tensors of one name is
  // ambiguous, so the parser callback looks at every key of the top-level object.
  std::set<std::string> seen;
  std::string duplicate;
  const json::parser_callback_t check_duplicates = [&](int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::key && depth == 1 && duplicate.empty()) {
      const std::string key = parsed.get<std::string>();
      if (!seen.insert(key).second) duplicate = key;
    }
    return true;
  };
  const json header = parse_json_input(text, "safetensors: invalid JSON header", check_duplicates);
  if (!duplicate.empty()) format_error("the header names '" + shorten_for_message(duplicate) + "' twice");
  if (!header.is_object()) format_error("the header must be a JSON object, got " + std::string(header.type_name()));
  return header;
}

std::string dump_string(const std::string& s, const char* what) {
  try {
    return json(s).dump();
  } catch (const json::exception&) {
    throw std::invalid_argument(std::string("safetensors: ") + what + " is not valid UTF-8");
  }
}

}  // namespace

std::string to_string(DType dtype) {
  switch (dtype) {
    case DType::F32: return "F32";
    case DType::F16: return "F16";
    case DType::I8: return "I8";
  }
  return "?";
}

size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::F32: return 4;
    case DType::F16: return 2;
    case DType::I8: return 1;
  }
  return 0;
}

DType dtype_from_string(const std::string& name) {
  if (name == "F32") return DType::F32;
  if (name == "F16") return DType::F16;
  if (name == "I8") return DType::I8;
  throw std::invalid_argument("unsupported dtype " + shorten_for_message(name) + " (expected F32, F16 or I8)");
}

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0) throw std::invalid_argument("shape " + shape_string(shape) + " has a negative dimension");
    if (dim != 0 && count > kMaxInt64 / dim)
      throw std::invalid_argument("shape " + shape_string(shape) + " has more than 2^63 elements");
    count *= dim;
  }
  return count;
}

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(shape[i]);
  }
  s += ']';
  return s;
}

std::string write_safetensors(const std::vector<NamedTensor>& tensors,
                              const std::map<std::string, std::string>& metadata) {
  std::set<std::string> names;
  std::vector<const NamedTensor*> order;
  for (const NamedTensor& t : tensors) {
    if (t.name.empty()) format_error("a tensor name is empty");
    if (t.name == kMetadataKey) format_error("\"__metadata__\" is reserved and cannot name a tensor");
    if (!names.insert(t.name).second) format_error("two tensors are named '" + t.name + "'");
    int64_t count = 0;
    try {
      count = element_count(t.shape);
    } catch (const std::invalid_argument& e) {
      tensor_error(t.name, e.what());
    }
    if (count > 0 && t.data == nullptr) tensor_error(t.name, "no data");
    if (t.dtype == DType::I8)
      for (int64_t i = 0; i < count; ++i)
        if (!(t.data[i] >= -128.0f && t.data[i] <= 127.0f && t.data[i] == std::nearbyint(t.data[i])))
          tensor_error(t.name, "I8 element " + std::to_string(i) + " = " + std::to_string(t.data[i]) +
                                   " is not an integer in -128 … 127");
    order.push_back(&t);
  }
  // The reference's order: larger elements first so every tensor starts aligned to its element
  // size (the buffer itself starts 8-byte aligned), then by name. (The reference sorts by its
  // dtype enum, descending; for F32, F16 and I8 that is the same order as by size.)
  std::sort(order.begin(), order.end(), [](const NamedTensor* a, const NamedTensor* b) {
    if (dtype_size(a->dtype) != dtype_size(b->dtype)) return dtype_size(a->dtype) > dtype_size(b->dtype);
    return a->name < b->name;
  });

  std::string header = "{";
  if (!metadata.empty()) {
    std::string metadata_json;
    try {
      metadata_json = json(metadata).dump();
    } catch (const json::exception&) {
      format_error("a metadata key or value is not valid UTF-8");
    }
    header += std::string("\"") + kMetadataKey + "\":" + metadata_json;
  }
  uint64_t offset = 0;
  for (const NamedTensor* t : order) {
    const uint64_t bytes = static_cast<uint64_t>(element_count(t->shape)) * dtype_size(t->dtype);
    if (header.size() > 1) header += ",";
    header += dump_string(t->name, "a tensor name") + ":{\"dtype\":\"" + to_string(t->dtype) +
              "\",\"shape\":" + json(t->shape).dump() + ",\"data_offsets\":[" + std::to_string(offset) + "," +
              std::to_string(offset + bytes) + "]}";
    offset += bytes;
  }
  header += "}";
  header.append((8 - header.size() % 8) % 8, ' ');

  std::string out;
  out.reserve(8 + header.size() + offset);
  append_u64(out, header.size());
  out += header;
  for (const NamedTensor* t : order) {
    const int64_t count = element_count(t->shape);
    for (int64_t i = 0; i < count; ++i) {
      if (t->dtype == DType::F32) append_u32(out, float_to_bits(t->data[i]));
      else if (t->dtype == DType::F16) append_u16(out, float_to_half(t->data[i]));
      else out.push_back(static_cast<char>(static_cast<int8_t>(t->data[i])));
    }
  }
  return out;
}

SafetensorsIndex index_safetensors(std::string_view bytes) {
  if (bytes.size() < 8)
    format_error("file shorter than 8 bytes (" + std::to_string(bytes.size()) +
                 "); a safetensors file starts with an 8-byte header length");
  const uint64_t header_size = read_le(bytes.data(), 8);
  if (header_size > bytes.size() - 8)
    format_error("header length " + std::to_string(header_size) + " exceeds the file size " +
                 std::to_string(bytes.size()) + " (is this a safetensors file?)");
  if (header_size > kMaxHeaderBytes)
    format_error("header length " + std::to_string(header_size) + " exceeds the limit of " +
                 std::to_string(kMaxHeaderBytes) + " bytes");
  const std::string_view header_text = bytes.substr(8, header_size);
  SafetensorsIndex index;
  index.data = bytes.substr(8 + header_size);

  const json header = parse_header(header_text);
  std::vector<HeaderEntry> entries;
  for (const auto& [key, value] : header.items()) {
    if (key == kMetadataKey) index.metadata = read_metadata(value);
    else entries.push_back(read_entry(key, value, index.data.size()));
  }

  // Every byte of the buffer belongs to exactly one tensor: walk the tensors in offset order.
  std::sort(entries.begin(), entries.end(), [](const HeaderEntry& a, const HeaderEntry& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    if (a.end != b.end) return a.end < b.end;
    return a.name < b.name;
  });
  uint64_t covered = 0;
  const HeaderEntry* previous = nullptr;
  for (const HeaderEntry& e : entries) {
    if (e.begin < covered)
      format_error("tensors '" + previous->name + "' " + offsets_string(previous->begin, previous->end) + " and '" +
                   e.name + "' " + offsets_string(e.begin, e.end) + " overlap");
    if (e.begin > covered)
      format_error("bytes " + std::to_string(covered) + " to " + std::to_string(e.begin) +
                   " of the data buffer belong to no tensor (before '" + e.name + "')");
    covered = e.end;
    previous = &e;
  }
  if (covered != index.data.size())
    format_error("bytes " + std::to_string(covered) + " to " + std::to_string(index.data.size()) +
                 " at the end of the data buffer belong to no tensor");
  for (const HeaderEntry& e : entries) index.tensors.emplace(e.name, TensorEntry{e.shape, e.dtype, e.begin, e.end});
  return index;
}

void read_tensor_values(const SafetensorsIndex& index, const TensorEntry& entry, float* out, size_t first,
                        size_t count) {
  const size_t total = static_cast<size_t>(element_count(entry.shape));
  if (first > total)
    throw std::out_of_range("read_tensor_values: element " + std::to_string(first) + " is past the tensor");
  if (count == SIZE_MAX) count = total - first;
  if (count > total - first) throw std::out_of_range("read_tensor_values: the range leaves the tensor");
  const char* p = index.data.data() + entry.begin + first * dtype_size(entry.dtype);
  for (size_t i = 0; i < count; ++i) {
    if (entry.dtype == DType::F32) out[i] = float_from_bits(static_cast<uint32_t>(read_le(p + 4 * i, 4)));
    else if (entry.dtype == DType::F16) out[i] = half_to_float(static_cast<uint16_t>(read_le(p + 2 * i, 2)));
    else out[i] = static_cast<float>(static_cast<int8_t>(p[i]));
  }
}

SafetensorsFile parse_safetensors(std::string_view bytes) {
  const SafetensorsIndex index = index_safetensors(bytes);
  SafetensorsFile file;
  file.metadata = index.metadata;
  for (const auto& [name, entry] : index.tensors) {
    StoredTensor t;
    t.shape = entry.shape;
    t.dtype = entry.dtype;
    t.values.resize(static_cast<size_t>(element_count(entry.shape)));
    read_tensor_values(index, entry, t.values.data());
    file.tensors.emplace(name, std::move(t));
  }
  return file;
}

}  // namespace ae
