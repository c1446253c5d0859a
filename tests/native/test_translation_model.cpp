// The shipped encoder–decoder (web/models/translate-en-zh): it loads, translates the lesson pair
// naming what "it" is, and its chosen cross-attention head looks at the referent at that step.
#include "inference/translation_model.h"
#include "util/error.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

using namespace ae;

namespace {

const std::string kPair = std::string(AE_SOURCE_DIR) + "/web/models/translate-en-zh";

// The source word the chosen head looks at most when the decoder writes `noun`.
std::string head_argmax_at(const TranslationModel& model, const Translation& t, const std::string& noun) {
  // The last step that writes the noun: the one after the connective, in place of 它.
  auto it = std::find_if(t.steps.rbegin(), t.steps.rend(), [&](const TranslationStep& s) { return s.token == noun; });
  REQUIRE(it != t.steps.rend());
  const std::vector<float>& w =
      it->cross_attention[static_cast<size_t>(model.head().layer)][static_cast<size_t>(model.head().head)];
  REQUIRE(w.size() == t.source.size());
  return t.source[static_cast<size_t>(std::max_element(w.begin(), w.end()) - w.begin())];
}

}  // namespace

TEST_CASE("TranslationModel: the lesson pair names the referent, and the chosen head looks at it") {
  const TranslationModel model = TranslationModel::load(kPair);
  const Translation tired = model.translate("The animal didn't cross the street because it was too tired.");
  const Translation wide = model.translate("The animal didn't cross the street because it was too wide.");
  INFO(tired.text << " / " << wide.text);
  CHECK(tired.text.find("因为动物") != std::string::npos);
  CHECK(wide.text.find("因为马路") != std::string::npos);
  CHECK(tired.steps.back().token == "[SEP]");
  CHECK(tired.steps.size() == tired.tokens.size() + 1);
  CHECK(tired.unknown.empty());
  for (const auto& step : tired.steps) {
    REQUIRE(step.cross_attention.size() == static_cast<size_t>(model.decoder_config().n_layers));
    CHECK((step.probability > 0.0f && step.probability <= 1.0f));
  }
  CHECK(head_argmax_at(model, tired, "动物") == "animal");
  CHECK(head_argmax_at(model, wide, "马路") == "street");
}

TEST_CASE("TranslationModel: refusals carry their codes") {
  const TranslationModel model = TranslationModel::load(kPair);
  try {
    model.translate("   ");
    FAIL("no throw");
  } catch (const InputError& e) {
    CHECK(e.code() == ErrorCode::EmptyInput);
  }
  std::string long_text;
  for (int i = 0; i < model.encoder_config().max_len + 1; ++i) long_text += "animal ";
  try {
    model.translate(long_text);
    FAIL("no throw");
  } catch (const InputError& e) {
    CHECK(e.code() == ErrorCode::TooLong);
  }
  // A directory without pair.json, and a coreference model's directory, are bad models.
  for (const std::string dir :
       {std::string("/nonexistent/pair"), std::string(AE_SOURCE_DIR) + "/web/models/coref-encoder"}) {
    CAPTURE(dir);
    try {
      TranslationModel::load(dir);
      FAIL("no throw");
    } catch (const InputError& e) {
      CHECK(e.code() == ErrorCode::BadModel);
      CHECK(std::string(e.what()).find("pair.json") != std::string::npos);
    }
  }
  CHECK_THROWS_WITH_AS(TranslationModel::from_memory("{}", "", "", "", "", "", ""), doctest::Contains("format"),
                       InputError);
}
