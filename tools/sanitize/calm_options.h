// calm_control()'s defaults as a CalmOptions, for the drivers that fit.
#ifndef CALM_SANITIZE_OPTIONS_H
#define CALM_SANITIZE_OPTIONS_H
#include "calm_optimizer.h"

inline calm::CalmOptions make_options(calm::Gate gate, calm::Score score, calm::Acyclicity acyc) {
  // CalmOptions has no defaults (calm_control() holds them): every field is
  // set here, to calm_control()'s values unless a check changes them.
  calm::CalmOptions o{};
  o.gate = calm::GateParams{gate, 0.5, 0.5, 0.5, 15.0};
  o.score = score;
  o.acyclicity = acyc;
  o.hard = true;
  o.lambda1 = 0.005;
  o.rho_init = 1e-5;
  o.rho_mult = 3.0;
  o.iter_per_round = 40000;
  o.max_rounds = 45;
  o.h_tol = 1e-8;
  o.lr = 1e-3;
  o.lambda2 = 0.1;
  o.soft_iter = 40000;
  o.init_scale = 1e-3;
  o.threshold = 0.5;
  o.weight_threshold = 0.1;
  o.simd = true;
  o.seed = 1;
  o.tick_seconds = 0.25;
  o.check_every = 1000;
  o.early_stop = false;
  o.patience = 5;
  o.stop_tol = 1e-4;
  o.record_checks = false;
  o.settle_rounds = 0;
  o.h_settle = 1e-6;
  return o;
}

#endif
