#include "inference/translation_model.h"

#include "text/tokenizer.h"
#include "train/trainer.h"
#include "util/error.h"

#include <fstream>
#include <sstream>

namespace ae {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::invalid_argument("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

[[noreturn]] void bad(const std::string& message) { throw InputError(ErrorCode::BadModel, message); }

}  // namespace

TranslationModel::TranslationModel(nlohmann::json pair, Checkpoint encoder, Checkpoint decoder)
    : pair_(std::move(pair)), encoder_(std::move(encoder.model)), decoder_(std::move(decoder.model)) {
  recode_input_errors(ErrorCode::BadModel, [&] {
    source_ = Vocabulary::parse(encoder.vocab_text);
    target_ = Vocabulary::parse(decoder.vocab_text);
    if (source_.size() != encoder_->config().vocab_size || target_.size() != decoder_->config().vocab_size)
      bad("a vocab.txt does not match its model's vocab_size");
    if (!decoder_->config().cross_attention) bad("decoder/config.json: the decoder has no cross-attention");
    if (decoder_->config().d_model != encoder_->config().d_model)
      bad("the encoder's d_model (" + std::to_string(encoder_->config().d_model) + ") is not the decoder's (" +
          std::to_string(decoder_->config().d_model) + ")");
    const nlohmann::json& h = pair_.at("cross_attention_head");
    head_ = {h.at("layer").get<int>(), h.at("head").get<int>()};
    if (head_.layer < 0 || head_.layer >= decoder_->config().n_layers || head_.head < 0 ||
        head_.head >= decoder_->config().n_heads)
      bad("pair.json: cross_attention_head is outside the decoder");
    start_ = pair_.value("start", static_cast<int>(Vocabulary::kCls));
    end_ = pair_.value("end", static_cast<int>(Vocabulary::kSep));
    max_output_ = pair_.value("max_output", 40);
    if (start_ < 0 || start_ >= target_.size() || end_ < 0 || end_ >= target_.size() || max_output_ < 1)
      bad("pair.json: start, end or max_output out of range");
  });
}

namespace {

nlohmann::json parse_pair(std::string_view text) {
  nlohmann::json pair;
  try {
    pair = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    bad(std::string("pair.json: ") + e.what());
  }
  if (!pair.is_object() || pair.value("format", "") != kEncoderDecoderFormat)
    bad(std::string("pair.json: \"format\" must be \"") + kEncoderDecoderFormat + "\"");
  if (!pair.contains("cross_attention_head") || !pair["cross_attention_head"].is_object())
    bad("pair.json: cross_attention_head is missing");
  return pair;
}

}  // namespace

TranslationModel TranslationModel::load(const std::string& dir) {
  return recode_input_errors(ErrorCode::BadModel, [&] {
    nlohmann::json pair = parse_pair(read_file(dir + "/pair.json"));
    const std::string encoder = dir + "/" + pair.value("encoder", "encoder");
    const std::string decoder = dir + "/" + pair.value("decoder", "decoder");
    return TranslationModel(std::move(pair), load_checkpoint(encoder), load_checkpoint(decoder));
  });
}

TranslationModel TranslationModel::from_memory(std::string_view pair_json, std::string_view encoder_config,
                                               std::string_view encoder_safetensors, std::string_view encoder_vocab,
                                               std::string_view decoder_config, std::string_view decoder_safetensors,
                                               std::string_view decoder_vocab) {
  return recode_input_errors(ErrorCode::BadModel, [&] {
    nlohmann::json pair = parse_pair(pair_json);  // first: a bad pair.json is named before the checkpoints
    return TranslationModel(std::move(pair),
                            load_checkpoint_from_memory(encoder_config, encoder_safetensors, encoder_vocab),
                            load_checkpoint_from_memory(decoder_config, decoder_safetensors, decoder_vocab));
  });
}

Translation TranslationModel::translate(std::string_view text) const {
  Translation t;
  t.source = split_words(text);
  if (t.source.empty()) throw InputError(ErrorCode::EmptyInput, "translate: the sentence has no words");
  if (static_cast<int>(t.source.size()) > encoder_->config().max_len)
    throw InputError(ErrorCode::TooLong, "translate: " + std::to_string(t.source.size()) +
                                             " words, but the encoder reads at most " +
                                             std::to_string(encoder_->config().max_len));
  std::vector<int> ids;
  for (size_t i = 0; i < t.source.size(); ++i) {
    const int id = source_.id(t.source[i]);
    if (id == Vocabulary::kUnk) t.unknown.push_back(static_cast<int>(i));
    ids.push_back(id);
  }
  const GreedyDecoding d = greedy_decode(EncoderDecoder{*encoder_, *decoder_}, ids, start_, end_, max_output_);
  for (size_t s = 0; s < d.tokens.size(); ++s) {
    TranslationStep step{target_.token(d.tokens[s]), d.tokens[s], d.probabilities[s], d.cross_attention[s],
                         d.self_attention[s]};
    if (step.id != end_) {
      t.tokens.push_back(step.token);
      t.text += step.token;
    }
    t.steps.push_back(std::move(step));
  }
  return t;
}

}  // namespace ae
