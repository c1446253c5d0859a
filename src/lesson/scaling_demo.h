// The lesson's "why ÷√d" experiment on random vectors, computed with the core's own attention.
//   Q: n_queries×d, K: n_keys×d, entries (2u − 1)·√3 for u = Rng(seed).uniform(), i.e. uniform on
//   [−√3, √3): mean 0 and variance 1. Q is drawn first, then K, each row-major.
//   scores  = Q·Kᵀ · s,  s = 1/√d when scaled, else 1          (n_queries×n_keys)
//   weights = softmax of each row of scores                     (n_queries×n_keys)
// Each q·k is a sum of d products of unit variance, so Var(q·k) = d: without the scale the
// scores spread like √d and, for large d, softmax puts nearly all the weight on one key;
// dividing by √d brings the variance back to 1 whatever d is.
#pragma once

#include "tensor.h"

#include <cstdint>

namespace ae {

struct ScalingDemoOptions {
  int d = 64;          // vector width, 1 … kScalingDemoMaxD
  int n_keys = 8;      // keys per query, 1 … kScalingDemoMaxKeys
  int n_queries = 64;  // independent queries the statistics average over, 1 … kScalingDemoMaxQueries
  uint64_t seed = 1;
  bool scale = true;  // divide by √d
};

constexpr int kScalingDemoMaxD = 4096;
constexpr int kScalingDemoMaxKeys = 256;
constexpr int kScalingDemoMaxQueries = 4096;

struct ScalingDemo {
  float factor = 1.0f;           // s, the factor applied to q·k
  Matrix scores;                 // n_queries×n_keys, scaled by s
  Matrix weights;                // n_queries×n_keys, rows sum to 1
  Vector entropy;                // 1×n_queries, entropy of each weight row (nats)
  Vector max_weight;             // 1×n_queries, largest weight of each row
  double score_mean = 0.0;       // over every score of the sample
  double score_variance = 0.0;   // population variance over every score of the sample
  double score_std = 0.0;        // √score_variance
  double mean_entropy = 0.0;     // average of entropy
  double mean_max_weight = 0.0;  // average of max_weight
  double uniform_entropy = 0.0;  // log(n_keys): the entropy of equal weights, the upper bound
};

// Throws std::invalid_argument when a size is outside its range.
ScalingDemo scaling_demo(const ScalingDemoOptions& options);

}  // namespace ae
