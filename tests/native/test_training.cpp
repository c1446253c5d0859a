// Short training runs that must reach a stated loss: the trainer, backward passes and AdamW
// working together. Kept small so that npm test stays fast.
#include "io/checkpoint.h"
#include "train/corpus.h"
#include "train/recipes.h"
#include "train/tasks.h"
#include "train/trainer.h"
#include "util/rng.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <tuple>

using namespace ae;

namespace {

// "Which word came first?": the answer sits at a random earlier position, so the model must
// route it through attention from the last position.
std::vector<TrainingExample> recall_first_word_task(int count, uint64_t seed) {
  Rng rng(seed);
  std::vector<TrainingExample> out;
  for (int i = 0; i < count; ++i) {
    TrainingExample ex;
    const int n = 4 + static_cast<int>(rng.below(3));
    for (int t = 0; t < n; ++t) ex.ids.push_back(2 + static_cast<int>(rng.below(10)));
    ex.positions = {n - 1};
    ex.targets = {ex.ids[0]};
    out.push_back(ex);
  }
  return out;
}

ModelConfig tiny_config() {
  using enum PositionalEncoding;
  return {.vocab_size = 12, .d_model = 16, .n_heads = 2, .n_layers = 1, .max_len = 8, .positional = Learned};
}

float mean_loss(const Transformer& model, const std::vector<TrainingExample>& examples) {
  double sum = 0.0;
  for (const auto& ex : examples) sum += evaluate_example(model, ex, RunOptions{}).loss;
  return static_cast<float>(sum / static_cast<double>(examples.size()));
}

// Every parameter, flattened in visiting order.
std::vector<float> weights_of(Transformer& model) {
  std::vector<float> weights;
  model.visit_parameters(
      [&](const std::string&, Matrix& m) { weights.insert(weights.end(), m.data(), m.data() + m.size()); });
  return weights;
}

bool same_weights(Transformer& a, Transformer& b) { return weights_of(a) == weights_of(b); }

}  // namespace

TEST_CASE("training: a tiny model learns to recall the first word (loss < 0.05)") {
  const auto train_set = recall_first_word_task(2000, 1);
  const auto test_set = recall_first_word_task(200, 2);
  Transformer model(tiny_config());
  model.init_random(3);
  const float before = mean_loss(model, test_set);
  TrainOptions options;
  options.steps = 300;
  options.batch_size = 16;
  options.optimizer.learning_rate = 1e-2f;
  options.optimizer.warmup_steps = 20;
  train(model, train_set, options, nullptr);
  const float after = mean_loss(model, test_set);
  INFO("loss before " << before << ", after " << after);
  CHECK(before > 1.5f);  // ≈ ln 10 for a random guess among 10 words
  CHECK(after < 0.05f);
}

TEST_CASE("training: an encoder–decoder learns to copy its source through cross-attention (accuracy > 0.95)") {
  // The decoder reads <bos> s0 … s3 and must predict s0 … s4 of a random source: s_i is never in
  // its own input at position i, so only cross-attention to the encoder's output can give it.
  const auto copy_task = [](int count, uint64_t seed) {
    Rng rng(seed);
    std::vector<TranslationExample> out;
    for (int i = 0; i < count; ++i) {
      std::vector<int> source;
      for (int t = 0; t < 5; ++t) source.push_back(2 + static_cast<int>(rng.below(10)));
      out.push_back({source, {{1, source[0], source[1], source[2], source[3]}, {0, 1, 2, 3, 4}, source}});
    }
    return out;
  };
  const auto train_set = copy_task(2000, 1), test_set = copy_task(200, 2);
  ModelConfig decoder_config = tiny_config();
  decoder_config.causal = true;
  decoder_config.cross_attention = true;
  const auto fresh = [&] {
    std::pair<Transformer, Transformer> models{Transformer(tiny_config()), Transformer(decoder_config)};
    models.first.init_random(3, 0.1f);
    models.second.init_random(4, 0.1f);
    return models;
  };
  auto [encoder, decoder] = fresh();
  const EncoderDecoder pair{encoder, decoder};
  const auto accuracy = [&] {
    int correct = 0;
    for (const auto& ex : test_set) correct += evaluate_example(pair, ex.source, ex.target, {}).correct;
    return static_cast<double>(correct) / (5.0 * static_cast<double>(test_set.size()));
  };
  const double before = accuracy();
  TrainOptions o;
  o.steps = 400;
  o.batch_size = 16;
  o.seed = 5;
  o.optimizer.learning_rate = 1e-2f;
  o.optimizer.warmup_steps = 20;
  EncoderDecoderTrainer trainer(encoder, decoder, train_set, o);
  float first_loss = 0.0f;
  while (!trainer.finished()) {
    const StepReport r = trainer.step();
    if (r.step == 0) first_loss = r.loss;
  }
  CHECK_THROWS_AS(trainer.step(), std::logic_error);
  const double after = accuracy();
  INFO("accuracy before " << before << ", after " << after << "; first loss " << first_loss);
  CHECK(before < 0.3);
  CHECK(after > 0.95);

  // Greedy decoding writes the source back, one word per step, and each step's cross-attention
  // is a distribution over the source per layer and head.
  int copied = 0;
  for (const auto& ex : test_set) {
    const GreedyDecoding d = greedy_decode(pair, ex.source, 1, 0, 5);
    copied += d.tokens == ex.source;
    REQUIRE(d.cross_attention.size() == d.tokens.size());
    REQUIRE(d.probabilities.size() == d.tokens.size());
    for (const auto& layers : d.cross_attention) {
      REQUIRE(layers.size() == 1);
      REQUIRE(layers[0].size() == 2);
      for (const auto& weights : layers[0]) {
        REQUIRE(weights.size() == ex.source.size());
        CHECK(std::accumulate(weights.begin(), weights.end(), 0.0) == doctest::Approx(1.0).epsilon(1e-5));
      }
    }
    for (float p : d.probabilities) CHECK((p > 0.0f && p <= 1.0f));
  }
  INFO("greedy copies " << copied << " of " << test_set.size());
  CHECK(copied >= 180);
  // Each step's own causal self-attention: over the prefix (the start token and the words written
  // before), the rows one forward pass over the whole output gives (a later word changes no
  // earlier row).
  {
    const std::vector<int>& source = test_set[0].source;
    const GreedyDecoding d = greedy_decode(pair, source, 1, 0, 5);
    REQUIRE(d.self_attention.size() == d.tokens.size());
    const Matrix memory = encoder.forward(source, RunOptions{}, nullptr);
    RunOptions run;
    run.memory = &memory;
    std::vector<int> prefix = {1};
    prefix.insert(prefix.end(), d.tokens.begin(), d.tokens.end() - 1);
    ForwardTrace trace;
    (void)decoder.forward(prefix, run, &trace);
    for (size_t s = 0; s < d.tokens.size(); ++s) {
      REQUIRE(d.self_attention[s].size() == 1);
      REQUIRE(d.self_attention[s][0].size() == 2);
      for (size_t h = 0; h < 2; ++h) {
        const std::vector<float>& row = d.self_attention[s][0][h];
        REQUIRE(row.size() == s + 1);
        const Matrix& whole = trace.layers[0].self_attention.heads[h].attention.weights;
        for (size_t k = 0; k <= s; ++k)
          CHECK(row[k] ==
                doctest::Approx(whole(static_cast<Eigen::Index>(s), static_cast<Eigen::Index>(k))).epsilon(1e-5));
      }
    }
  }
  // It stops at the end token, which it writes: here the first word of a source.
  const GreedyDecoding stop = greedy_decode(pair, test_set[0].source, 1, test_set[0].source[0], 5);
  CHECK(stop.tokens == std::vector<int>{test_set[0].source[0]});
  CHECK_THROWS_AS(greedy_decode(pair, {}, 1, 0, 5), std::invalid_argument);

  // The same seed: the same weights, bit for bit, in both models.
  auto [encoder2, decoder2] = fresh();
  o.steps = 20;
  auto [encoder3, decoder3] = fresh();
  EncoderDecoderTrainer a(encoder2, decoder2, train_set, o), b(encoder3, decoder3, train_set, o);
  while (!a.finished()) CHECK(a.step().loss == b.step().loss);
  CHECK(same_weights(encoder2, encoder3));
  CHECK(same_weights(decoder2, decoder3));
  auto untrained = fresh();
  CHECK_FALSE(same_weights(decoder2, untrained.second));

  ModelConfig no_cross = decoder_config;
  no_cross.cross_attention = false;
  Transformer plain(no_cross);
  CHECK_THROWS_WITH_AS(EncoderDecoderTrainer(encoder2, plain, train_set, o), doctest::Contains("no cross-attention"),
                       std::invalid_argument);
}

TEST_CASE("training: the same seed gives bit-identical weights") {
  const auto train_set = recall_first_word_task(200, 4);
  auto run = [&] {
    Transformer model(tiny_config());
    model.init_random(5);
    TrainOptions options;
    options.steps = 20;
    options.batch_size = 8;
    train(model, train_set, options, nullptr);
    std::vector<float> weights;
    model.visit_parameters(
        [&](const std::string&, Matrix& m) { weights.insert(weights.end(), m.data(), m.data() + m.size()); });
    return weights;
  };
  const auto a = run();
  const auto b = run();
  REQUIRE(a.size() == b.size());
  CHECK(a == b);
}

TEST_CASE("training with dropout: deterministic for a seed, different from no dropout, still learns") {
  const auto train_set = recall_first_word_task(2000, 1);
  const auto test_set = recall_first_word_task(200, 2);
  auto run = [&](float dropout, int steps) {
    Transformer model(tiny_config());
    model.init_random(3);
    TrainOptions options;
    options.steps = steps;
    options.batch_size = 16;
    options.dropout = dropout;
    options.optimizer.learning_rate = 1e-2f;
    options.optimizer.warmup_steps = 20;
    train(model, train_set, options, nullptr);
    std::vector<float> weights;
    model.visit_parameters(
        [&](const std::string&, Matrix& m) { weights.insert(weights.end(), m.data(), m.data() + m.size()); });
    return std::make_pair(weights, mean_loss(model, test_set));
  };
  CHECK(run(0.1f, 20).first == run(0.1f, 20).first);
  CHECK(run(0.1f, 20).first != run(0.0f, 20).first);
  const float loss = run(0.1f, 300).second;
  INFO("loss after 300 steps with dropout 0.1: " << loss);
  CHECK(loss < 0.1f);
}

TEST_CASE("untied output head: trains, and a checkpoint round trip keeps it (tie_output in config.json)") {
  ModelConfig c = tiny_config();
  c.tie_output = false;
  Transformer model(c);
  model.init_random(3);
  TrainOptions options;
  options.steps = 10;
  options.batch_size = 8;
  train(model, recall_first_word_task(100, 6), options, nullptr);
  const nlohmann::json j = config_to_json(c);
  CHECK(j["tie_output"] == false);
  CHECK(config_to_json(tiny_config()).contains("tie_output") == false);  // tied: config.json as before
  CHECK(config_from_json(j).tie_output == false);
  const std::string dir = "/tmp/ae_untied_checkpoint_test";
  save_checkpoint(dir, model, "[PAD]\n", DType::F32);
  const Checkpoint back = load_checkpoint(dir);
  CHECK(back.config.tie_output == false);
  const std::vector<int> ids = {2, 5, 7, 3};
  const Matrix h = model.forward(ids, RunOptions{}, nullptr);
  CHECK(back.model->logits(back.model->forward(ids, RunOptions{}, nullptr)) == model.logits(h));
}

TEST_CASE("learning-rate schedule: warm-up, then cosine down to the floor") {
  AdamWOptions o;
  o.learning_rate = 1.0f;
  o.warmup_steps = 10;
  o.total_steps = 110;
  o.min_learning_rate_ratio = 0.1f;
  CHECK(scheduled_learning_rate(o, 0) == doctest::Approx(0.1));
  CHECK(scheduled_learning_rate(o, 9) == doctest::Approx(1.0));
  CHECK(scheduled_learning_rate(o, 60) == doctest::Approx(0.55));
  CHECK(scheduled_learning_rate(o, 110) == doctest::Approx(0.1));
}

TEST_CASE("coreference head rules: mean margin vs the worse sentence of each minimal pair") {
  // Layer 0: a large mean margin from one sentence of each pair; layer 1: follows both.
  std::vector<std::vector<PronounAttention>> probe(2, std::vector<PronounAttention>(2));
  probe[0][1] = {0.50f, 0.10f, -0.30f};
  probe[1][0] = {0.35f, 0.05f, 0.20f};
  CHECK(choose_coreference_head(probe).layer == 0);
  const HeadChoice by_pairs = choose_coreference_head_by_pairs(probe);
  CHECK(by_pairs.layer == 1);
  CHECK(by_pairs.head == 0);
}

TEST_CASE("next_epoch_order keeps groups together, is a permutation, and with groups of one is a plain shuffle") {
  std::vector<size_t> groups(50);
  std::iota(groups.begin(), groups.end(), size_t{0});
  ae::Rng rng(7);
  for (int epoch = 0; epoch < 3; ++epoch) {
    const std::vector<size_t> order = ae::next_epoch_order(groups, 2, rng);
    REQUIRE(order.size() == 100);
    std::vector<size_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i) CHECK(sorted[i] == i);
    for (size_t i = 0; i < order.size(); i += 2) {  // both members of a pair, in order, side by side
      CHECK(order[i] % 2 == 0);
      CHECK(order[i + 1] == order[i] + 1);
    }
  }
  // Group size 1: the Fisher–Yates shuffle the trainer always used, so other models are unchanged.
  std::vector<size_t> singles(20), plain(20);
  std::iota(singles.begin(), singles.end(), size_t{0});
  std::iota(plain.begin(), plain.end(), size_t{0});
  ae::Rng a(3), b(3);
  for (int epoch = 0; epoch < 2; ++epoch) {
    const std::vector<size_t> order = ae::next_epoch_order(singles, 1, a);
    for (size_t i = plain.size(); i > 1; --i) std::swap(plain[i - 1], plain[b.below(i)]);
    CHECK(order == plain);
  }
}

TEST_CASE("CorefSettings::set takes key=value and names what is wrong") {
  ae::CorefSettings s;
  s.set("d_model=48");
  s.set("learning_rate=2e-3");
  s.set("positional=learned");
  CHECK(s.d_model == 48);
  CHECK(s.learning_rate == doctest::Approx(2e-3f));
  CHECK(s.positional == ae::PositionalEncoding::Learned);
  CHECK(s.to_json()["d_model"] == 48);
  CHECK_THROWS_WITH_AS(s.set("seeds=abc"), doctest::Contains("seeds must be a number"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.set("steps=1.5"), doctest::Contains("whole number"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.set("dropout=0.95"), doctest::Contains("dropout"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.set("width=3"), doctest::Contains("unknown key \"width\""), std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.set("steps"), doctest::Contains("key=value"), std::invalid_argument);
  CHECK(s.d_model == 48);  // a refused value leaves the setting as it was
  s.set("focus=0.25");
  CHECK(s.to_json()["focus"] == doctest::Approx(0.25));
  CHECK_THROWS_WITH_AS(s.set("focus=1.5"), doctest::Contains("focus"), std::invalid_argument);
  CHECK_FALSE(s.to_json().contains("relabel"));  // off: the shipped metrics.json do not name it
  s.set("relabel=0.5");
  s.set("relabel_shared=1");
  CHECK(s.to_json()["relabel"] == doctest::Approx(0.5));
  CHECK(s.to_json()["relabel_shared"] == true);
  CHECK_THROWS_WITH_AS(s.set("relabel_shared=2"), doctest::Contains("relabel_shared"), std::invalid_argument);
}

TEST_CASE("focus_on=unflipped picks exactly the training pairs with no flipped event in either sentence") {
  ae::CorefSettings s;
  s.set("extended=1");
  s.set("flip_frames=1");
  s.set("flip_share=0.5");
  const ae::CorefCorpus corpus = ae::make_coref_corpus(ae::coref_corpus_options(s));
  const auto& train = corpus.train;
  CHECK_FALSE(s.to_json().contains("focus_on"));  // the default: the shipped metrics.json do not name it
  const std::vector<size_t> ambiguous = ae::focus_pairs(s, train);
  s.set("focus_on=unflipped");
  CHECK(s.to_json()["focus_on"] == "unflipped");
  const std::vector<size_t> unflipped = ae::focus_pairs(s, train);
  CHECK(unflipped != ambiguous);
  const std::set<size_t> chosen(unflipped.begin(), unflipped.end());
  size_t flipped_pairs = 0;
  for (size_t k = 0; k + 1 < train.size(); k += 2) {
    const bool flips = train[k].flipped || train[k].polarity_pair || train[k + 1].flipped || train[k + 1].polarity_pair;
    flipped_pairs += flips;
    CHECK(chosen.count(k / 2) == (flips ? 0u : 1u));
  }
  CHECK(flipped_pairs > 0);  // the extended corpus trains flipped events, so the focus leaves some out
  CHECK(unflipped.size() + flipped_pairs == train.size() / 2);
  CHECK_THROWS_WITH_AS(s.set("focus_on=flips"), doctest::Contains("focus_on must be"), std::invalid_argument);
  CHECK(s.focus_on == "unflipped");
}

TEST_CASE("CorefSettings: a shipped recipe names its seed study; changing the recipe drops it, the seeds do not") {
  struct Recipe {
    ae::CorefReader reader;
    ae::CorefLanguage language;
    int passing;  // of 5 (docs/models.md)
  };
  for (const Recipe r : {Recipe{ae::CorefReader::Encoder, ae::CorefLanguage::English, 3},
                         Recipe{ae::CorefReader::Decoder, ae::CorefLanguage::English, 3},
                         Recipe{ae::CorefReader::Encoder, ae::CorefLanguage::Chinese, 3}}) {
    ae::CorefSettings s = ae::shipped_coref_settings(r.reader, r.language);
    CHECK(s.to_json()["seed_study"] == nlohmann::json{{"passing", r.passing}, {"trained", 5}});
    s.set("first_seed=2");
    s.set("seeds=5");
    CHECK(s.to_json().contains("seed_study"));
    CHECK_THROWS(s.set("steps=abc"));  // refused: the recipe is unchanged
    CHECK(s.to_json().contains("seed_study"));
    s.set("steps=100");
    CHECK_FALSE(s.to_json().contains("seed_study"));
  }
  CHECK_FALSE(ae::CorefSettings{}.to_json().contains("seed_study"));
}

TEST_CASE("a focus phase draws its batches only from the focus groups, then from all") {
  // Every odd example is poisoned (a prediction position past its end throws), so a step that
  // draws one fails: the focus groups are the even ones (groups of one).
  auto examples = recall_first_word_task(40, 6);
  std::vector<size_t> clean;
  for (size_t i = 0; i < examples.size(); ++i) {
    if (i % 2 == 0) clean.push_back(i);
    else examples[i].positions = {99};
  }
  auto run = [&](int steps, int focus_steps, float share) {
    Transformer model(tiny_config());
    model.init_random(7);
    const TrainOptions options{
        .steps = steps, .batch_size = 8, .focus_steps = focus_steps, .focus_groups = clean, .focus_share = share};
    Trainer trainer(model, examples, options);
    while (!trainer.finished()) trainer.step();
  };
  CHECK_NOTHROW(run(30, 30, 1.0f));                                                 // 240 draws, all from the focus
  CHECK_THROWS_WITH(run(30, 10, 1.0f), "training example: position out of range");  // after it: from all
  CHECK_THROWS_WITH(run(30, 30, 0.5f), "training example: position out of range");  // half of each batch
  TrainOptions bad;
  bad.focus_steps = 5;
  Transformer model(tiny_config());
  CHECK_THROWS_WITH(Trainer(model, examples, bad), "train: focus_steps needs focus_groups");
  bad.focus_groups = {40};
  CHECK_THROWS_WITH(Trainer(model, examples, bad), "train: focus group 40 out of range");
  bad.focus_groups = {0};
  bad.focus_share = 1.5f;
  CHECK_THROWS_WITH(Trainer(model, examples, bad), "train: focus_share must lie in [0, 1]");
}

// A small coreference corpus, its vocabulary and its training pairs as the encoder reads them.
struct SmallCoref {
  ae::CorefCorpus corpus;
  ae::Vocabulary vocab;
  std::vector<TrainingExample> natural;
  SmallCoref(ae::CorefLanguage language, int train, int heldout)
      : corpus(ae::make_coref_corpus({.language = language, .train = train, .validation = 0, .heldout = heldout})),
        vocab(ae::Vocabulary::from_words(ae::corpus_words(corpus))),
        natural(ae::examples_of(corpus.train, vocab, [](const ae::CorefExample& e, const ae::Vocabulary& v) {
          return ae::coref_example(ae::CorefReader::Encoder, e, v);
        })) {}
};

TEST_CASE("relabel_nouns: other nouns in a share of the pairs, and every held-out split still holds out") {
  const SmallCoref small(ae::CorefLanguage::English, 6000, 400);
  const auto& [corpus, vocab, natural] = small;
  const auto same = [](const std::vector<TrainingExample>& a, const std::vector<TrainingExample>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
             return x.ids == y.ids && x.targets == y.targets && x.positions == y.positions;
           });
  };
  CHECK(same(ae::relabel_nouns(corpus, natural, vocab, 0.0f, 3), natural));
  const auto relabelled = ae::relabel_nouns(corpus, natural, vocab, 0.5f, 3);
  CHECK(same(ae::relabel_nouns(corpus, natural, vocab, 0.5f, 3), relabelled));  // a function of the seed
  CHECK_FALSE(same(ae::relabel_nouns(corpus, natural, vocab, 0.5f, 4), relabelled));

  // What the relabelled training set teaches: (family, noun, role) and (family, role, noun, decider).
  std::set<std::tuple<std::string, std::string, int>> noun_roles;
  std::set<std::tuple<std::string, int, std::string, std::string>> combos;
  size_t changed = 0;
  for (size_t i = 0; i < relabelled.size(); ++i) {
    const ae::CorefExample& e = corpus.train[i];
    const auto& ids = relabelled[i].ids;
    const int other = e.referent == e.first_noun ? e.second_noun : e.first_noun;
    const std::string referent_word = vocab.token(ids[static_cast<size_t>(e.referent)]);
    const std::string other_word = vocab.token(ids[static_cast<size_t>(other)]);
    CHECK(relabelled[i].targets == std::vector<int>{vocab.id(referent_word)});  // the answer follows the noun
    CHECK(referent_word != other_word);
    changed += referent_word != e.referent_word;
    if (i % 2 == 1) {  // the pair's two sentences: one mapping, so each one's referent is the other's other noun
      CHECK(vocab.token(relabelled[i - 1].targets[0]) == other_word);
      // Only the two nouns change.
      for (size_t t = 0; t < ids.size(); ++t)
        if (t != static_cast<size_t>(e.referent) && t != static_cast<size_t>(other)) CHECK(ids[t] == natural[i].ids[t]);
    }
    noun_roles.insert({e.family, referent_word, e.referent_role});
    noun_roles.insert({e.family, other_word, 1 - e.referent_role});
    combos.insert({e.family, e.referent_role, referent_word, e.decider});
  }
  const double share = static_cast<double>(changed) / static_cast<double>(relabelled.size());
  CHECK(share > 0.3);  // half of the pairs drawn; a few kept (a held-out noun in them)
  CHECK(share < 0.55);
  for (const auto& e : corpus.heldout_noun_roles) {
    const bool referent_new = !noun_roles.count({e.family, e.referent_word, e.referent_role});
    const bool other_new = !noun_roles.count({e.family, e.other_word, 1 - e.referent_role});
    CHECK((referent_new || other_new));  // still a noun in a role it never trains in
  }
  // A pair is held out when one of its two sentences is (the other may be a trained combination).
  std::map<int, int> unseen;  // pair_id → its sentences whose noun–adjective combination training lacks
  for (const auto& e : corpus.heldout_combinations)
    unseen[e.pair_id] += !combos.count({e.family, e.referent_role, e.referent_word, e.decider});
  for (const auto& [pair_id, count] : unseen) {
    const int pair = pair_id;  // clang 14 cannot capture a structured binding
    CAPTURE(pair);
    CHECK(count >= 1);
  }
  CHECK_THROWS_WITH_AS(ae::relabel_nouns(corpus, {}, vocab, 0.5f, 3), "relabel_nouns: train_set is not corpus.train",
                       std::invalid_argument);
}

TEST_CASE("relabel_nouns in Chinese: a replacement noun takes the same measure word (那只动物, 那辆卡车)") {
  const SmallCoref small(ae::CorefLanguage::Chinese, 2000, 100);
  const auto& [corpus, vocab, natural] = small;
  std::map<std::string, std::string> measure;
  for (const auto& [noun, word] : ae::coref_lexicon(ae::CorefLanguage::Chinese).measure_words) measure[noun] = word;
  REQUIRE(!measure.empty());
  const auto relabelled = ae::relabel_nouns(corpus, natural, vocab, 1.0f, 5);
  size_t changed = 0;
  for (size_t i = 0; i < relabelled.size(); ++i) {
    const ae::CorefExample& e = corpus.train[i];
    const std::string now = vocab.token(relabelled[i].ids[static_cast<size_t>(e.referent)]);
    changed += now != e.referent_word;
    CAPTURE(e.text);
    CHECK(measure[now] == measure[e.referent_word]);
  }
  CHECK(changed > relabelled.size() / 4);  // fewer than in English: a measure word's nouns are fewer
}
