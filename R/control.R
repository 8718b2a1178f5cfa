# Hyperparameters of calm(): one validated object, printed as a table.

#' Hyperparameters of CALM
#'
#' Collects and checks the tuning parameters of [calm()]. Most defaults are
#' those of the paper (Appendix A.2-A.3, A.5): Gumbel-sigmoid gates with
#' temperature 0.5, sparsity weight 0.005, Adam with learning rate 0.001,
#' and a quadratic-penalty schedule that starts at `rho = 1e-5` and ends once
#' the acyclicity function of the deterministic gate is below `1e-8` or the
#' learned graph has settled. The length of the schedule's rounds is set by
#' `schedule`:
#' - `"long"`: the paper's 40,000 steps a round with `rho` multiplied by 3
#'   between rounds (with `early_stop = TRUE`, rounds that have stopped making
#'   progress end early). [calm()] runs it when no refinement follows
#'   (`refine = "none"`), and `early_stop = FALSE` runs it in full: the
#'   paper's schedule.
#' - `"short"`: 3,000 steps a round, `rho` multiplied by 10, and the schedule
#'   ends once `h < 1e-3` (`h_tol`), or earlier once the thresholded graph is
#'   acyclic and unchanged for `settle_rounds` rounds with `h < 0.01`.
#'   [calm()] runs it when the
#'   refinement follows (the default), because the continuous phase then only
#'   has to land in the right basin. On 10 30-node ER4 graphs (n = 1000,
#'   seeds 9911-9920) the refined graphs scored exactly the same as after the
#'   long schedule on all 10, with the same SHD of CPDAG (4.0 +/- 2.0), in
#'   12 times fewer steps (55,000 against 668,000); see
#'   `inst/bench/tune_schedule.R` and the vignette for 50- and 100-node
#'   graphs. Without the refinement it leaves more cycles to the final
#'   repair, which is why `refine = "none"` keeps the long schedule. Ending
#'   at `h < 1e-3` rather than the paper's `1e-8` matters on large graphs,
#'   where edges that later rounds slowly prune keep the graph from settling
#'   and `rho` grew to `1e39` (all 45 rounds) on a 200-node ER1 graph: on 20
#'   fresh graphs (100-node ER1 and 50-node ER4, n = 1000, seeds
#'   44001-44010) the refined graphs scored exactly the same with `h_tol =
#'   1e-3` as with `1e-8`, in 0.84 and 0.60 times the steps.
#'
#' Any of `iter_per_round`, `rho_mult`, `check_every`, `patience`, `h_tol`
#' and `h_settle` given explicitly is kept under either schedule.
#'
#' @param lambda1 Weight of the (approximate) l0 penalty: the sum of the
#'   gates (`gate = "gumbel"`), of the gates' probabilities of being open
#'   (`"stg"`) or of `tanh(tanh_c * |B|)` (`"tanh"`).
#' @param tau Temperature of the Gumbel-sigmoid gate.
#' @param rho_init,rho_mult First penalty weight of the hard constraint and
#'   its factor between rounds (`rho_mult` default: 10 for the short schedule,
#'   3 for the long one).
#' @param iter_per_round Adam steps per round (subproblem) of the hard
#'   constraint (default: 3,000 for the short schedule, 40,000 for the long
#'   one). Adam's moment estimates restart with each round. Without the
#'   refinement, shorter rounds let `rho` grow faster than the optimizer can
#'   follow: below about 10,000 steps true edges start to be pruned together
#'   with the cycles they are on (e.g. two correlated variables end with no
#'   edge), and more rounds are needed to push `h` below `h_tol`; the
#'   refinement repairs such edges.
#' @param max_rounds Cap on the number of rounds. The paper runs until the
#'   constraint is met; with the default schedule `rho` reaches
#'   `1e-5 * 3^44`, about `1e16`, in round 45. Full-length rounds met `h_tol`
#'   within 12 to 20 rounds (`rho` of `1e1` to `1e4`) on the 2- to 100-node
#'   problems we ran; early-stopped rounds are shorter, so more of them are
#'   needed (16 to 21 on 50-node ER1 graphs, where the graph settles before
#'   `h_tol` is reached, and up to 42 on 50-node ER4 graphs, where the
#'   paper's schedule itself needed up to 40). A fit that hits the cap is
#'   reported as not converged.
#' @param h_tol Tolerance on the acyclicity function `h` of the
#'   deterministic gate that ends the schedule (default: `1e-3` for the short
#'   schedule, the paper's `1e-8` for the long one).
#' @param lr Adam's learning rate (its other constants are the usual
#'   `beta1 = 0.9`, `beta2 = 0.999`, `eps = 1e-8`).
#' @param threshold An entry is an edge when its deterministic gate exceeds
#'   this value (`"gumbel"`: `sigmoid(U / tau)`; `"stg"`: `clamp(mu, 0, 1)`).
#' @param lambda2 Weight of `h` with `constraint = "soft"`.
#' @param soft_iter Adam steps of the single soft-constraint run.
#' @param init_scale Initial weights `P` are uniform on
#'   `[-init_scale, init_scale]`.
#' @param stg_sigma,stg_init Noise standard deviation and initial mean of the
#'   stochastic gates (`gate = "stg"`).
#' @param tanh_c Sharpness `c` of the `tanh(c |B|)` penalty (`gate = "tanh"`).
#' @param weight_threshold With `gate = "tanh"` (no gate), an entry is an
#'   edge when `|B|` exceeds this value (0.1, as for GOLEM and NOTEARS in the
#'   paper).
#' @param acyclicity `"poly"` (default): `h(A) = tr((I + A / d)^d) - d`;
#'   `"exp"`: `h(A) = tr(exp(A)) - d`. Here `A` is the gate matrix (or
#'   `B * B` for `gate = "tanh"`).
#' @param simd Use the AVX2 build of the computational kernel when the CPU
#'   supports it (x86-64, GCC builds). It computes the same quantities about
#'   twice as fast; results agree with the baseline build to rounding error,
#'   which a long stochastic optimization can amplify, so set `FALSE` to
#'   reproduce a fit across machines with and without AVX2.
#' @param threads Threads for the matrix products of the step kernel
#'   (default 2): connected components of the moral graph with at least 180
#'   nodes have each product, and the triangular solve of the likelihood's
#'   gradient, split by columns among them (on two cores, fits about 1.2
#'   times faster at 200 nodes, 1.4 times at 500; smaller components gain
#'   nothing and are left on one thread). The result is the same bit for
#'   bit for every value, so this is a speed setting only. Use 1 when the
#'   components of the moral graph are fitted in parallel through a future
#'   plan, or on a one-core machine.
#' @param early_stop End a round of the hard constraint before
#'   `iter_per_round` steps once it has stopped making progress, and the
#'   schedule once the learned graph has settled (default `TRUE`; `FALSE`
#'   runs the paper's schedule: every round in full, until `h < h_tol`). Every
#'   `check_every` steps the objective at the deterministic gate is
#'   evaluated. The round ends at a check when, over the last `patience`
#'   checks, (a) the edge set did not change and (b) no gate parameter,
#'   drifting on at its pace over those checks, would cross the edge
#'   threshold before the round's last step; and then either (c) `h` is
#'   already below `h_tol` (the schedule has converged), or (d) the objective
#'   fell by less than `stop_tol` and `h`, extrapolated log-linearly, would
#'   not fall below `h_tol` within the round. Condition (b) keeps the long
#'   rounds in which a cycle is slowly broken: there the objective is flat
#'   for thousands of steps while a gate on the cycle drifts towards
#'   closing. Rounds alone lower `h` less than full ones, so more rounds are
#'   needed to reach `h_tol` (about 29 instead of 15 on ER1 graphs), most of
#'   them merely pushing `h` from about `1e-6` to `h_tol` while the graph no
#'   longer changes; early stopping therefore also ends the schedule once the
#'   graph has settled (`settle_rounds`, `h_settle`). On 10 50-node ER1 graphs
#'   (population covariance, true moral graph) the default took 2.7 times
#'   fewer steps than the paper's schedule and learned graphs as good:
#'   standardized, the same SHD of CPDAG on all 10 graphs (mean 8.0); not
#'   standardized, the same on 6 of 10 and a mean of 14.7 against 14.8
#'   (2.8 times fewer steps). On 10 50-node ER4 graphs it took 1.4 times
#'   fewer steps (mean SHD 116.7 against 119.2): there cycles are broken
#'   until late, and those rounds run in full. See
#'   `inst/bench/bench_early_stop.R` and the vignette "Reproducing the
#'   paper". Rounds shorter than `(patience + 1) * check_every` steps are
#'   always run in full, and so is the single run of `constraint = "soft"`.
#' @param settle_rounds,h_settle With `early_stop = TRUE`, the schedule also
#'   ends (and the fit counts as converged, with `fit$stop == "settled"`) at
#'   the end of a round when the learned graph has settled: the edge set is
#'   acyclic and the same as at the end of each of the last `settle_rounds`
#'   rounds, `h` is below `h_settle`, and no gate parameter, drifting on as
#'   over the round's last `patience` checks, would cross the edge threshold
#'   within another `iter_per_round` steps. The result depends on the edge
#'   set alone (the weights are refitted). Later rounds can still drop an edge
#'   that the sparsity penalty slowly prunes: with `h_settle = 1e-5`, one of
#'   20 50-node ER1 fits (standardized or not) kept a spurious edge that a
#'   later round removed (SHD 11 instead of 9); with the default `1e-6` all 20
#'   had the same SHD as without settling, in 1.4 times fewer steps.
#'   `settle_rounds = 0` turns settling off (rounds still end early).
#'   `h_settle` defaults to `1e-6` for the long schedule (the measurements
#'   above) and to `0.01` for the short one, where the refinement decides
#'   the edges the later rounds would still prune.
#' @param check_every Steps between two checks of the early-stopping rule
#'   (default: 500 for the short schedule, 1,000 for the long one).
#' @param patience Number of consecutive checks the rule looks back over
#'   (default: 3 for the short schedule, 5 for the long one).
#' @param stop_tol Smallest decrease of the objective (at the deterministic
#'   gate) over `patience` checks that counts as progress.
#' @param penalty_discount The sparsity knob: the penalty discount `k` of the
#'   BIC that the refinement optimises, `k log(n) / (2 n)` per edge and per
#'   sample ([bic_lambda()]); larger values give sparser graphs. A number, or
#'   `"cv"` (default): chosen from `penalty_grid` by `penalty_folds`-fold
#'   held-out log-likelihood of the graphs the order search learns on the
#'   other folds (see [select_penalty()]). The same argument of [boss()] has the same meaning.
#'   With a covariance matrix instead of data, or with no more rows than
#'   variables (`n <= d`, where folds of `n / 5` rows tell the discounts
#'   apart by chance), `"cv"` falls back to the extended BIC
#'   ([ebic_lambda()]), made for many variables. The fit records the choice
#'   in `fit$penalty`.
#' @param penalty_grid,penalty_folds The discounts `"cv"` chooses from
#'   (default 1.5, 2, 2.5, 3 and 4) and the number of folds (default 5;
#'   fewer when the data have fewer than 2 rows per fold, and the extended BIC
#'   below 4 rows).
#' @param refine_penalty The score's penalty: `"bic"` (default, with
#'   `penalty_discount`), `"ebic"` (the extended BIC, [ebic_lambda()] with
#'   `refine_gamma`), `"lambda1"` (the continuous phase's own penalty) or a
#'   number (per edge and per sample). For a population covariance (`n =
#'   Inf`) the refinement scores with `lambda1`.
#' @param refine_gamma The extended BIC's `gamma` (default 0.75), used with
#'   `refine_penalty = "ebic"`.
#' @param refine_forward Also run forward (edge insertion) moves of greedy
#'   equivalence search, inside the moral graph, after the backward and
#'   turning moves: `TRUE`, `FALSE` or `"auto"` (default: `TRUE` for a
#'   population covariance, where greedy equivalence search is consistent and
#'   the moves repair edges the continuous phase pruned, `FALSE` at finite
#'   `n`, where in our measurements they lowered the score but added false
#'   edges on dense graphs).
#' @param refine_max_moves Cap on the number of refinement moves.
#' @param refine_order After the equivalence-class moves, search over
#'   variable orders (default `TRUE`): starting from the refined graph's
#'   topological order, each variable in turn is moved to the position that
#'   most improves the score, where for a given order every node takes its best
#'   parent set among its predecessors inside the moral graph (as in BOSS,
#'   Andrews et al. 2023). Its result is refined by the equivalence-class moves
#'   again and kept only if it scores better.
#' @param refine_empty_start Also run greedy equivalence search (forward,
#'   backward and turning moves, over all pairs) from the empty graph, add the
#'   adjacencies it finds to the moral graph for the order search, and
#'   continue from whichever of its result and the refined CALM graph scores
#'   better (default `TRUE`). It costs little and protects against a
#'   continuous phase that ended in a poor basin and against true edges that
#'   IAMB missed (at n = 1000 it misses some).
#' @param refine_order_starts Number of starts of the order search (BOSS,
#'   see [boss()]): CALM's own topological order, the refined graph's, and
#'   random orders (drawn from R's random numbers) up to this number; each
#'   start's graph is pruned by backward equivalence search and the best
#'   result is kept.
#' @param refine_exact_max_d Up to this many variables (default 20, at most
#'   25) the refinement ends with the exact optimum of its score
#'   ([exact_search()], over all pairs when the moral graph was estimated
#'   with IAMB), taken when it scores better. At 20 variables it takes about
#'   2 seconds and 100 MB; each further variable doubles both. 0 turns it
#'   off.
#' @param refine_order_all_pairs Up to this many variables (default 250) the
#'   order search considers every pair, not only the moral graph: on 50-node
#'   ER4 graphs at n = 1000 the IAMB moral graph misses many true edges, and
#'   the order search from CALM's order restricted to it ended 224 edge marks
#'   from the truth on a graph where the unrestricted one recovered the truth
#'   exactly; on a 100-node ER1 graph (seed 9001) the restricted search ended
#'   at SHD 14, the unrestricted one at 0, for 0.4 s more (about 3 s more at
#'   200 variables). Above it, the moral graph plus the adjacencies found by the GES
#'   start are used. The search looks beyond the moral graph (here and in
#'   the GES start) only when `calm()` estimated it with IAMB; a moral graph
#'   given by the user, `"precision"` or `"none"` is respected.
#' @param refine_order_free_starts With a moral graph that the search must
#'   keep to (given by the user, the exact one of a population covariance, or
#'   `"precision"`) and at most `refine_order_all_pairs` variables, also start
#'   the order search from the orders where the same starts end in a search
#'   over all pairs (default `TRUE`). Only those orders are used; the result
#'   still keeps to the moral graph. Inside the mask the search's landscape is
#'   rugged on dense graphs (orders near a true one give graphs that would
#'   need edges outside it). On 10 50-node ER4 graphs with the true moral
#'   graph, fits without these starts ended 86.3 +/- 19.1 edge marks from
#'   the truth at the population covariance and 46.0 +/- 14.0 at n = 1000,
#'   with them 0.0 +/- 0.0 and 1.3 +/- 0.7, at about twice the time
#'   (`inst/bench/bench_free_start.R`); sparse graphs were unchanged.
#' @param refine_exact_limit Nodes with at most this many candidate parents
#'   in the moral graph get their exact best parent set (a table over all
#'   subsets); others are found by grow-shrink.
#' @param refine_grow_ratio In `[0, 1]` (default `0.5`): the order search
#'   runs its starts twice, with the plain grow-shrink trees of BOSS and with
#'   trees that grow a parent set while the next parent lowers the fit term
#'   by more than this fraction of the penalty (past the point where the
#'   score stops improving) before shrinking it under the full penalty
#'   (`boss(grow_ratio = )`), and keeps the better result. `1` runs them once,
#'   plain (calm before this option). For a given order the longer grow step
#'   never scores worse, but the search's landscape changes, and neither is
#'   better on every graph: on 15 50-node ER4 graphs at n = 1000 (seeds
#'   71001-71015) single starts at calm's score ended at the best score found
#'   60% of the time with 0.5 against 42% plain, yet on one 50-node ER4 graph
#'   with 222 edges (seed 63001) the plain starts did better (best of 40:
#'   -172.16 against -171.42 per sample; the true graph scores -172.25) and a
#'   fit with 0.5 alone ended 318 edge marks from the truth where the plain
#'   one found it. Hence both. On 20 fresh 50-node ER4 graphs (seeds
#'   63001-63010 and 66001-66010, `inst/bench/bench_grow_ratio.R`) the
#'   default ended at a better score than `1` on 5 graphs and a worse one on
#'   none: 0.1 +/- 0.1 and 2.1 +/- 1.3 edge marks from the truth against
#'   2.5 +/- 2.4 and 3.4 +/- 1.6, for about 65% more time per fit (17 s
#'   against 10.5 s, other jobs running). On sparse graphs it changes
#'   little (100-node ER1, seeds 69001-69010: single starts succeeded 81% of
#'   the time against 77%). Ratios below 0.5 grow deeper trees and cost more
#'   time (at 0 about 10 times the time on 50-node ER4).
#' @param refine_kicks Number of kicks after the order search's starts
#'   (default 20; `0`: none, calm before this option). A kick moves
#'   `refine_kick_size` variables of the best order found so far to random
#'   places and runs the order search (and backward equivalence search)
#'   again from there, alternating the plain grow step and
#'   `refine_grow_ratio`; a better-scoring graph replaces the best one
#'   (an iterated local search). The random places come from R's random
#'   number generator, so `set.seed()` reproduces them. On a 50-node ER4
#'   graph with 222 edges at n = 1000 (seed 63001) the ten starts at both
#'   grow ratios all ended in poor local optima and the fit 54 edge marks
#'   from the truth; 3 of the 20 kicks found better graphs and the fit ended
#'   at the truth (`inst/bench/bench_kicks.R`). On 85 other graphs (the
#'   README's accuracy sets above 20 variables, 50-node ER4 seeds
#'   84001-84010 and 100-node ER1 85001-85005) they changed no graph; on
#'   84001-84010 the fits with and
#'   without them were at the best score known (a search with 60 starts and
#'   100 kicks). They cost 10-19% more time per fit on 50-node ER4 and
#'   nothing measurable on 100-node ER1. With a given moral graph they also
#'   reach the truth where the masked search alone missed it (see
#'   `refine_order_free_starts`).
#' @param refine_kick_size Variables moved by each kick (default 5).
#' @param schedule `"short"` or `"long"` (see Description); `NULL` (default)
#'   lets [calm()] choose: short when the refinement follows, long when it
#'   does not or with `early_stop = FALSE`. Printed and stored as the
#'   object's `schedule` attribute.
#' @param split_components Fit the connected components of the moral graph
#'   (with the background knowledge) as separate problems (default `TRUE`).
#'   No directed cycle crosses two components and the score is a sum over
#'   them, so nothing couples them but the optimizer's schedule: each
#'   component of two or more variables gets its own fit, with its own number
#'   of variables `d_k` inside the acyclicity function
#'   `tr((I + A / d_k)^d_k) - d_k` (still exact), its own rounds and early
#'   stopping, and its own seed (see [calm()], "Components"); a variable
#'   alone in its component gets no parents and no fit. The components run
#'   through [future.apply::future_lapply()], so `future::plan()` can spread
#'   them over workers. When the moral graph is connected the fit is the
#'   same as with `FALSE`, bit for bit. `FALSE` fits the whole problem at
#'   once, with `d` the number of all variables in the acyclicity function,
#'   as in the paper (the benchmark method `"calm_paper"` does so).
#' @param ... Must be empty; catches misspelt arguments.
#' @return An object of class `calm_control`: a named list of the values.
#' @seealso [calm()]
#' @examples
#' calm_control()
#' calm_control(iter_per_round = 5000, acyclicity = "exp")
#' # the paper's schedule: every round runs all 40,000 steps
#' calm_control(early_stop = FALSE)
#' # the long rounds, ended early, also with the refinement
#' calm_control(schedule = "long")
#' @export
calm_control <- function(lambda1 = 0.005, tau = 0.5, rho_init = 1e-5, rho_mult = NULL,
                         iter_per_round = NULL, max_rounds = 45, h_tol = NULL,
                         lr = 1e-3, threshold = 0.5, lambda2 = 0.1, soft_iter = 40000,
                         init_scale = 1e-3, stg_sigma = 0.5, stg_init = 0.5,
                         tanh_c = 15, weight_threshold = 0.1,
                         acyclicity = c("poly", "exp"), simd = TRUE, threads = 2L,
                         early_stop = TRUE, check_every = NULL, patience = NULL,
                         stop_tol = 1e-4, settle_rounds = 2, h_settle = NULL,
                         penalty_discount = "cv", penalty_grid = c(1.5, 2, 2.5, 3, 4), penalty_folds = 5,
                         refine_penalty = "bic", refine_gamma = 0.75,
                         refine_forward = "auto",
                         refine_max_moves = 10000, refine_order = TRUE,
                         refine_order_starts = 10, refine_exact_limit = 14,
                         refine_grow_ratio = 0.5, refine_kicks = 20, refine_kick_size = 5,
                         refine_empty_start = TRUE, refine_order_all_pairs = 250,
                         refine_order_free_starts = TRUE,
                         refine_exact_max_d = 20, split_components = TRUE, schedule = NULL,
                         ...) {
  call <- environment()
  check_dots_empty(..., fn = "calm_control", call = call)
  auto <- is.null(schedule)
  schedule <- if (auto) {
    if (isTRUE(early_stop)) "short" else "long"
  } else {
    match_choice(schedule, names(schedule_presets()), "schedule", call = call)
  }
  preset <- schedule_presets()[[schedule]]
  given <- list(iter_per_round = iter_per_round, rho_mult = rho_mult, check_every = check_every,
                patience = patience, h_tol = h_tol, h_settle = h_settle)
  filled <- names(given)[vapply(given, is.null, logical(1))]
  for (f in filled) assign(f, preset[[f]])
  ctrl <- list(
    lambda1 = check_number(lambda1, "lambda1", lower = 0, call = call),
    tau = check_number(tau, "tau", lower = 0, lower_open = TRUE, call = call),
    rho_init = check_number(rho_init, "rho_init", lower = 0, lower_open = TRUE, call = call),
    rho_mult = check_number(rho_mult, "rho_mult", lower = 1, call = call),
    iter_per_round = check_count(iter_per_round, "iter_per_round", min = 1, max = 1e9, call = call),
    max_rounds = check_count(max_rounds, "max_rounds", min = 1, max = 1000, call = call),
    h_tol = check_number(h_tol, "h_tol", lower = 0, lower_open = TRUE, call = call),
    lr = check_number(lr, "lr", lower = 0, lower_open = TRUE, call = call),
    threshold = check_number(threshold, "threshold", lower = 0, upper = 1,
                             lower_open = TRUE, upper_open = TRUE, call = call),
    lambda2 = check_number(lambda2, "lambda2", lower = 0, call = call),
    soft_iter = check_count(soft_iter, "soft_iter", min = 1, max = 1e9, call = call),
    init_scale = check_number(init_scale, "init_scale", lower = 0, call = call),
    stg_sigma = check_number(stg_sigma, "stg_sigma", lower = 0, lower_open = TRUE, call = call),
    stg_init = check_number(stg_init, "stg_init", call = call),
    tanh_c = check_number(tanh_c, "tanh_c", lower = 0, lower_open = TRUE, call = call),
    weight_threshold = check_number(weight_threshold, "weight_threshold", lower = 0,
                                    call = call),
    acyclicity = match_choice(acyclicity, c("poly", "exp"), "acyclicity", call = call),
    simd = check_flag(simd, "simd", call = call),
    threads = check_count(threads, "threads", min = 1, max = 64, call = call),
    early_stop = check_flag(early_stop, "early_stop", call = call),
    check_every = check_count(check_every, "check_every", min = 1, max = 1e9, call = call),
    patience = check_count(patience, "patience", min = 1, max = 1000, call = call),
    stop_tol = check_number(stop_tol, "stop_tol", lower = 0, call = call),
    settle_rounds = check_count(settle_rounds, "settle_rounds", min = 0, max = 1000, call = call),
    h_settle = check_number(h_settle, "h_settle", lower = 0, call = call),
    refine_penalty = check_refine_penalty(refine_penalty, call = call),
    refine_gamma = check_number(refine_gamma, "refine_gamma", lower = 0, call = call),
    penalty_discount = check_penalty_discount(penalty_discount, call = call),
    penalty_grid = check_penalty_grid(penalty_grid, call = call),
    penalty_folds = check_penalty_folds(penalty_folds, call = call),
    refine_forward = if (identical(refine_forward, "auto")) "auto" else
      check_flag(refine_forward, "refine_forward", call = call),
    refine_max_moves = check_count(refine_max_moves, "refine_max_moves", min = 0, max = 1e9,
                                   call = call),
    refine_order = check_flag(refine_order, "refine_order", call = call),
    refine_empty_start = check_flag(refine_empty_start, "refine_empty_start", call = call),
    refine_exact_max_d = check_count(refine_exact_max_d, "refine_exact_max_d", min = 0, max = 25,
                                     call = call),
    refine_order_all_pairs = check_count(refine_order_all_pairs, "refine_order_all_pairs", min = 0,
                                         max = 1e6, call = call),
    refine_order_free_starts = check_flag(refine_order_free_starts, "refine_order_free_starts",
                                         call = call),
    refine_order_starts = check_count(refine_order_starts, "refine_order_starts", min = 1,
                                      max = 1e4, call = call),
    refine_exact_limit = check_count(refine_exact_limit, "refine_exact_limit", min = 0, max = 20,
                                     call = call),
    refine_grow_ratio = check_number(refine_grow_ratio, "refine_grow_ratio", lower = 0, upper = 1,
                                     call = call),
    refine_kicks = check_count(refine_kicks, "refine_kicks", min = 0, max = 1e5, call = call),
    refine_kick_size = check_count(refine_kick_size, "refine_kick_size", min = 1, max = 1e4,
                                   call = call),
    split_components = check_flag(split_components, "split_components", call = call)
  )
  structure(ctrl, class = "calm_control",
            schedule = list(name = schedule, auto = auto, filled = filled))
}

# The two schedules of the hard constraint's rounds. "long" is the paper's
# (40,000 steps a round, rho times 3), with early stopping as calm() had it
# before the refinement existed; "short" lands the continuous phase in the
# right basin for the refinement that follows (see the docs of `schedule`).
schedule_presets <- function() {
  list(
    short = list(iter_per_round = 3000, rho_mult = 10, check_every = 500, patience = 3,
                 h_tol = 1e-3, h_settle = 0.01),
    long = list(iter_per_round = 40000, rho_mult = 3, check_every = 1000, patience = 5,
                h_tol = 1e-8, h_settle = 1e-6)
  )
}

# calm() runs the short schedule when the refinement follows and the long
# one when it does not, unless the user chose: a control whose schedule was
# left to calm() has its preset fields refilled from the long preset.
schedule_for_refine <- function(ctrl, refine) {
  sc <- attr(ctrl, "schedule")
  if (is.null(sc) || !isTRUE(sc$auto) || refine != "none" || sc$name == "long") return(ctrl)
  args <- unclass(ctrl)
  attr(args, "schedule") <- NULL
  args[sc$filled] <- NULL
  out <- do.call(calm_control, c(args, list(schedule = "long")))
  attr(out, "schedule")$auto <- TRUE
  out
}

#' @export
print.calm_control <- function(x, ...) {
  cat("<calm_control>\n")
  sc <- attr(x, "schedule")
  if (!is.null(sc)) {
    cat("schedule:", sc$name, if (isTRUE(sc$auto)) "(chosen by calm(): short with the refinement, long without)" else "", "\n")
  }
  vals <- vapply(unclass(x), function(v) paste(format(v, digits = 6), collapse = ", "),
                 character(1))
  vals <- vals[names(vals) != "schedule"]
  print(data.frame(value = vals, row.names = names(vals)), right = FALSE)
  invisible(x)
}

# refine_penalty: "bic", "lambda1" or a non-negative number.
check_refine_penalty <- function(x, call) {
  if (is.character(x)) return(match_choice(x, c("ebic", "bic", "lambda1"), "refine_penalty", call = call))
  check_number(x, "refine_penalty", lower = 0, call = call)
}

# The control argument of calm(): a calm_control object, or a list of
# calm_control() arguments, updated by the control values passed in `...`.
resolve_control <- function(control, dots, call = parent.frame()) {
  if (inherits(control, "calm_control")) {
    sc <- attr(control, "schedule")
    args <- unclass(control)
    attr(args, "schedule") <- NULL
    # fields the schedule filled are filled again, so that a schedule
    # changed in `...` (or by early_stop) takes effect
    if (!is.null(sc)) {
      args[sc$filled] <- NULL
      if (!isTRUE(sc$auto)) args$schedule <- sc$name
    }
  } else if (is.list(control)) {
    if (length(control) > 0L &&
        (is.null(names(control)) || any(names(control) == "") ||
         any(vapply(control, inherits, logical(1), "calm_control")))) {
      abort_arg("control", "must be the result of {.fn calm_control} or a list of its arguments by name, not a list holding unnamed values or a {.cls calm_control} object.",
                i = "Pass {.code control = calm_control(...)} itself.", call = call)
    }
    args <- control
  } else {
    abort_arg("control", "must be the result of {.fn calm_control} or a list of its arguments, not {.obj_type_friendly {control}}.",
              call = call)
  }
  if (length(dots) > 0L) {
    nm <- names(dots)
    if (is.null(nm) || any(nm == "")) {
      cli::cli_abort("Arguments in {.arg ...} must be named {.fn calm_control} arguments.",
                     class = c("calm_error_argument", "calm_error"), call = call)
    }
    if (anyDuplicated(nm)) {
      twice <- unique(nm[duplicated(nm)])
      cli::cli_abort("Control parameter{?s} {.arg {twice}} {?is/are} given more than once.",
                     class = c("calm_error_argument", "calm_error"), call = call)
    }
    args[nm] <- dots
  }
  known <- names(formals(calm_control))
  unknown <- setdiff(names(args), known)
  if (length(unknown) > 0L) {
    cli::cli_abort(c("Unknown control parameter{?s}: {.arg {unknown}}.",
                     i = "See {.fn calm_control} for the parameters of {.fn calm}."),
                   class = c("calm_error_argument", "calm_error"), call = call)
  }
  tryCatch(
    do.call(calm_control, args),
    calm_error_argument = function(e) {
      cli::cli_abort("Invalid control parameter.", parent = e,
                     class = c("calm_error_argument", "calm_error"), call = call)
    }
  )
}

check_dots_empty <- function(..., fn, call = parent.frame()) {
  dots <- list(...)
  if (length(dots) > 0L) {
    nm <- names(dots)
    nm <- if (is.null(nm)) rep("", length(dots)) else nm
    shown <- ifelse(nm == "", "(unnamed)", nm)
    cli::cli_abort(c("Unknown {cli::qty(length(shown))}argument{?s}: {.arg {shown}}.",
                     i = "See {.fn {fn}} for the valid arguments."),
                   class = c("calm_error_argument", "calm_error"), call = call)
  }
  invisible(TRUE)
}
