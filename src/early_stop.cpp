#include "early_stop.h"

#include <cmath>

namespace calm {

EarlyStop::EarlyStop(const EarlyStopParams& p, int m)
    : p_(p), ring_(p.patience + 1, std::vector<double>(m)) {}

void EarlyStop::start_round() {
  obj_.clear();
  logh_.clear();
  last_change_ = 0;
}

void EarlyStop::record(double objective, double h, bool edges_changed,
                       const std::vector<double>& margin) {
  obj_.push_back(objective);
  logh_.push_back(h > 0.0 ? std::log(h) : -HUGE_VAL);
  const int k = checks();
  if (edges_changed) last_change_ = k;
  ring_[k % ring_.size()] = margin;
}

bool EarlyStop::crossing_ahead(long remaining) const {
  const int k = checks();
  if (k <= p_.patience) return false;
  const std::vector<double>& now = ring_[k % ring_.size()];
  const std::vector<double>& then = ring_[(k - p_.patience) % ring_.size()];
  const double per_step = 1.0 / (static_cast<double>(p_.patience) * p_.check_every);
  for (std::size_t e = 0; e < now.size(); ++e) {
    const double drift = (now[e] - then[e]) * per_step * static_cast<double>(remaining);
    if ((now[e] > 0.0) != (now[e] + drift > 0.0)) return true;
  }
  return false;
}

bool EarlyStop::round_done(long remaining) const {
  const int k = checks();
  if (k <= p_.patience || k - last_change_ < p_.patience) return false;
  const double obj = obj_[k - 1];
  if (!std::isfinite(obj) || crossing_ahead(remaining)) return false;
  const double log_tol = std::log(p_.h_tol);
  const double logh = logh_[k - 1];
  if (logh < log_tol) return true;
  if (obj_[k - 1 - p_.patience] - obj >= p_.stop_tol) return false;
  const double slope = (logh - logh_[k - 1 - p_.patience]) /
                       (static_cast<double>(p_.patience) * p_.check_every);
  return !(logh + slope * static_cast<double>(remaining) < log_tol);
}

bool SettleRule::settled(bool dag, bool edges_changed, double h, const EarlyStop& checks,
                         long round_steps) {
  unchanged_ = edges_changed ? 0 : unchanged_ + 1;
  if (rounds_ <= 0) return false;
  return dag && unchanged_ >= rounds_ && h < h_settle_ && checks.checks() > patience_ &&
         !checks.crossing_ahead(round_steps);
}

}  // namespace calm
