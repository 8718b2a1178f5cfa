# Bad inputs for every exported function, as one table spread over the test
# files: each topic's cases sit in its test-<topic>.R inside
# bad_input_section() (helper-bad-input.R has the fixtures and the runner);
# the cases of several topics at once are here. A new export without a case
# makes the coverage test below fail.

test_that("every exported function has bad-input cases", {
  # the functions named by err(), warn(), ok() and add_case() in any test file
  covered <- character()
  for (f in list.files(test_path(), pattern = "^test-.*\\.R$", full.names = TRUE)) {
    pd <- utils::getParseData(parse(f, keep.source = TRUE))
    calls <- which(pd$token == "SYMBOL_FUNCTION_CALL" &
                     pd$text %in% c("err", "warn", "ok", "add_case"))
    for (k in calls) {
      # the call's first argument: the first string after its opening parenthesis
      after <- pd[pd$line1 >= pd$line1[k] & pd$token == "STR_CONST", ]
      after <- after[after$line1 > pd$line1[k] | after$col1 > pd$col1[k], ]
      if (nrow(after)) covered <- c(covered, eval(parse(text = after$text[1L])))
    }
  }
  missing <- setdiff(getNamespaceExports("calm"), covered)
  expect(length(missing) == 0L,
         sprintf("exported without bad-input cases: %s", paste(sort(missing), collapse = ", ")))
})

test_that("bad inputs to knowledge, bootstrap, model methods, objects end in clear errors, warnings or results", {
  expect_bad_inputs(bad_input_section({
err("background_knowledge", "required", background_knowledge(required = "X1"),
    pattern = "one edge as a pair")
err("background_knowledge", "required", background_knowledge(required = c("X1", "X2", "X3")),
    pattern = "data.frame(from")
ok("background_knowledge", background_knowledge(required = c("X1", "X2")),
   function(k) identical(unname(k$required[1, ]), c("X1", "X2")))
err("background_knowledge", "forbidden", background_knowledge(forbidden = 1))
err("background_knowledge", "tiers", background_knowledge(tiers = list("X1", "X1")))
err("background_knowledge", "tiers", background_knowledge(tiers = "X1"))
err("calm", "knowledge", q(x, knowledge = "X1"))
err("calm", "knowledge", q(x, knowledge = list(required = cbind("X1", "X9"))))
err("calm", "knowledge", q(x, knowledge = list(required = cbind(c("X1", "X2"), c("X2", "X1")))))
err("calm", "knowledge", q(x, knowledge = list(required = cbind("X1", "X2"), forbidden = cbind("X1", "X2"))))
err("calm", "knowledge", q(x, gate = "tanh", knowledge = list(required = cbind("X1", "X2"))))
err("calm", "alpha", q(x, alpha = 0))
err("calm", "alpha", q(x, alpha = "a"))
err("calm", "na", q(x, na = "drop"))
err("calm", "x", q(with_na(x)), pattern = "na = \"complete\"")
err("calm", "whitelist", q(x, whitelist = data.frame(from = "X1", to = "X2"),
                           knowledge = background_knowledge(forbidden = c("X2", "X3"))),
    pattern = "knowledge")
err("calm", "knowledge", suppressMessages(q(x, blacklist = data.frame(from = "X1", to = "nope"))),
    pattern = "nope")
ok("calm", suppressMessages(q_ref(with_na(x, 1, 1), na = "omit")),
   function(f) fit_ok(f) && identical(f$na_dropped, 1L))
ok("calm", suppressMessages(q_ref(x, whitelist = data.frame(from = "X1", to = "X4"),
                                  blacklist = cbind("X2", "X1"))),
   function(f) fit_ok(f) && f$amat["X1", "X4"] == 1 && f$amat["X2", "X1"] == 0)
err("calm", "x", q(with_na(x, 1, 1)))
ok("calm", suppressMessages(q_ref(with_na(x, 1, 1), na = "complete")),
   function(f) fit_ok(f) && identical(f$na_dropped, 1L))
err("exact_search", "knowledge", exact_search(x, knowledge = list(tiers = list("X1", "X1"))))
err("estimate_moral_graph", "knowledge", estimate_moral_graph(x, knowledge = 1))
err("bootstrap_edges", "R", bootstrap_edges(x, R = -1))
err("bootstrap_edges", "learner", bootstrap_edges(x, R = 2, learner = 1))
err("bootstrap_edges", "threshold", bootstrap_edges(x, R = 2, threshold = NA))
err("bootstrap_edges", "x", bootstrap_edges(with_na(x), R = 2))
err("average_graph", "x", average_graph(A))
err("causal_effects", "x", causal_effects(A, "nope", data = x))
err("causal_effects", "y", causal_effects(A, "X1", "X1", data = x))
err("causal_effects", "fit", causal_effects(cyc, "a", cov = diag(3)))
# a fit keeps its covariance; one whose covariance was dropped needs data
err("causal_effects", "data", causal_effects(fit_no_sigma, "X1"))
err("causal_effects", "methd", causal_effects(fit, "X1", methd = "optimal"))
err("causal_effects", "data", causal_effects(A, "X1", data = x[, 1:3]))
err("causal_effects", "method", causal_effects(A, "X1", data = x, method = "all"))
err("causal_effects", "level", causal_effects(A, "X1", data = x, level = 2))
err("adjustment_set", "x", adjustment_set(A, 0, "X2"))
err("adjustment_set", "y", adjustment_set(A, "X1", "X1"))
err("adjustment_set", "fit", adjustment_set(cyc, "a", "b"))
err("as_bn_strength", "x", as_bn_strength(A))
err("fit_sem", "graph", fit_sem(cyc, x))
err("fit_sem", "graph", fit_sem("a", x))
err("fit_sem", "x", fit_sem(A, "a"))
ok("fit_sem", fit_sem(A, x), function(f) inherits(f, "calm_fit") && is.finite(stats::BIC(f)))
err("as_essgraph", "x", as_essgraph("a"), needs = "pcalg")
err("as_essgraph", "x", as_essgraph(cyc), needs = "pcalg")
err("logLik.calm_fit", "object", logLik(fit))
err("simulate.calm_fit", "nsim", simulate(fit, nsim = -1))
  }))
})


test_that("bad inputs to inputs that went wrong silently or with untrue errors end in clear errors, warnings or results", {
  expect_bad_inputs(bad_input_section({
# silently wrong results
ok("as_igraph", as_igraph(pc_pcalg(x)), function(g) inherits(g, "igraph") && igraph::vcount(g) == 6,
   needs = "pcalg")
ok("as_igraph", as_igraph(ges_pcalg(x)), function(g) inherits(g, "igraph") && igraph::vcount(g) == 6,
   needs = "pcalg")
err("from_pcalg_amat", "amat", from_pcalg_amat(pag_circle), pattern = "PAG")
err("as_amat", "x", as_amat(pag_circle), pattern = "PAG")
err("from_pcalg_amat", "amat", from_pcalg_amat(structure(pag_marks, class = "amat")),
    pattern = "PAG")
ok("from_pcalg_amat", from_pcalg_amat(structure(pag_marks, class = "amat", type = "pag")),
   function(m) all(m %in% c(0, 1)) && sum(m) == 2 && m["a", "b"] == 1 && m["c", "b"] == 1)
ok("as_pcalg_amat", as_pcalg_amat(A, type = "pag"),
   function(p) all((p != 0) == (t(p) != 0)) && sum(p == 2) == sum(A) && sum(p == 3) == sum(A) &&
     identical(unname(from_pcalg_amat(p)), unname(A)))
ok("as_dagitty", as_amat(as_dagitty(backslash)), function(m) identical(rownames(m), rownames(backslash)))
err("shd_cpdag", "est", shd_cpdag(dup_names, dup_names), pattern = "distinct")
err("calm", "cov", q(cov = S_rel), pattern = "row names")
err("calm", "moral", q(x, moral = A_rel + t(A_rel)), pattern = "row names")
err("topological_order", "g", topological_order(A_rel), pattern = "row names")
err("estimate_moral_graph", "cov", estimate_moral_graph(cov = S_rel), pattern = "row names")
err("simulate_sem", "noise_var",
    simulate_sem(dag = chain, weight_range = c(10, 10), noise_var = rep(1e306, 5)),
    pattern = "overflow")
ok("l1_inconsistency", l1_inconsistency(n_graphs = 1, d = 3, weight_range = c(1e-12, 2e-12), seed = 1),
   function(r) r$per_graph$l0_true == 0 && r$per_graph$l0_min == 0)
err("estimate_moral_graph", "n", estimate_moral_graph(cov = S, n = 1e300), pattern = "rounding")
ok("as_amat", as_amat(moral_rep, weighted = FALSE), function(m) all(m %in% c(0, 1)))
warn("calm", not_met, q(x, moral = moral_rep), moral_rep_ok)
err("coef.calm_fit", "type", coef(fit_no_B), pattern = "no such weights")
err("coef.calm_fit", "scale", coef(fit, scale = "std"))
err("predict.calm_fit", "newdata", predict(fit))
err("predict.calm_fit", "newdata", predict(fit, x[, 1:3]), pattern = "lacks")
err("predict.calm_fit", "newdata", predict(fit, "a"))
err("predict.calm_fit", "object", predict(fit_no_B, x), pattern = "no DAG with weights")
err("fitted.calm_fit", "x", fitted(fit), pattern = "needs the data's rows")
err("residuals.calm_fit", "x", residuals(fit), pattern = "needs the data's rows")
err("residuals.calm_fit", "x", residuals(fit, unname(x[, 1:4])), pattern = "4 unnamed columns")
err("vcov.calm_fit", "x", vcov(fit), pattern = "population covariance")
err("vcov.calm_fit", "x", vcov(fit, with_na(x)), pattern = "missing values")
# errors that said something untrue
warn("calm", not_met, q(x * 1e-170), fit_ok)
warn("calm", not_met, q(x * 1e160), fit_ok)
err("calm", "x", q(x * 1e160, standardize = FALSE), pattern = "overflow")
ok("estimate_moral_graph", estimate_moral_graph(x * 1e160), function(g) same_graph(g, mg_ref))
ok("estimate_moral_graph", estimate_moral_graph(x * 1e-170), function(g) same_graph(g, mg_ref))
err("population_cov", "B", population_cov(B * 1e200, 1), pattern = "overflow")
err("calm", "moral", q(x, moral = moral_dup_name), pattern = "distinct")
err("dag_to_cpdag", "g", dag_to_cpdag(igraph::make_ring(3, directed = FALSE)), pattern = "undirected")
# errors that were not clean package errors
err("benchmark_methods", "settings", benchmark_methods("notears", data.frame(d = 6, n = 5), reps = 1),
    pattern = "exceed")
err("l1_inconsistency", "noise_ratio", l1_inconsistency(n_graphs = 1, d = 3, noise_ratio = 1e300,
                                                        seed = 1))
err("calm", "control", q(x, control = list(calm_control())))
err("as_bn", "x", as_bn(bn_na), needs = "bnlearn", pattern = "missing")
err("as_amat", "x", as_amat(structure('dag { "" -> b }', class = "dagitty")), pattern = "empty")
# memory: checked before allocating
err("simulate_dag", "d", simulate_dag(1e5), pattern = "memory")
err("simulate_sem", "n", simulate_sem(30, n = 5e7), pattern = "memory")
  }))
})


test_that("bad inputs to bad-input classes left by the adversarial run end in clear errors, warnings or results", {
  expect_bad_inputs(bad_input_section({
# scale: variances that underflow (or overflow) are handled before standardizing
ok("standardize", standardize(x * 1e-170), near_std)
ok("standardize", standardize(x * 1e160), near_std)
# names: every variable needs one, checked up front
err("calm", "x", q(x_blank), pattern = "missing or empty name")
err("calm", "x", q(x_na_name), pattern = "missing or empty name")
err("notears_linear", "x", notears_linear(x_na_name), pattern = "missing or empty name")
err("standardize", "x", standardize(x_blank), pattern = "missing or empty name")
err("estimate_moral_graph", "x", estimate_moral_graph(x_na_name), pattern = "missing or empty name")
# a threshold above every weight empties the tanh graph: said, not converged
warn("calm", "is above every weight", q(x, gate = "tanh", weight_threshold = 1e300, max_rounds = 8),
     function(f) inherits(f, "calm_fit") && isFALSE(f$converged))
# fits edited or truncated by the user: one validator for every method
err("print.calm_fit", "x", print(fit_trunc), pattern = "not a valid fit")
err("print.calm_fit", "x", print(fit_no_amat), pattern = "`amat`")
err("print.calm_fit", "x", print(fit_no_n), pattern = "`n`")
err("summary.calm_fit", "object", summary(fit_trunc), pattern = "`cpdag_amat`")
err("summary.calm_fit", "object", summary(fit_no_amat), pattern = "`amat`")
err("compare_graphs", "est", compare_graphs(fit_trunc, A), pattern = "not a valid fit")
err("compare_graphs", "truth", compare_graphs(A, fit_no_amat), pattern = "not a valid fit")
err("shd_cpdag", "est", shd_cpdag(fit_no_n, A), pattern = "not a valid fit")
err("is_dag", "g", is_dag(fit_no_amat), pattern = "not a valid fit")
err("coef.calm_fit", "object", coef(fit_trunc), pattern = "not a valid fit")
# an amat edited into a cycle: is_dag() and the metrics agree that it is one
ok("is_dag", is_dag(fit_cyc), isFALSE)
warn("compare_graphs", "has a directed cycle", compare_graphs(fit_cyc, A),
     function(r) is.data.frame(r) && r$shd >= 1)
# a PAG's matrix of marks (fci()'s @amat) is not read as a weighted graph
err("compare_graphs", "est", compare_graphs(pag_plain, chain3), pattern = "PAG")
err("shd_cpdag", "truth", shd_cpdag(chain3, pag_plain), pattern = "PAG")
# messages name the argument as the user gave it
err("simulate_sem", "weight_range", simulate_sem(5, weight_range = c(1e300, 1e308)),
    pattern = "overflow")
err("notears_linear", "lbfgsb$pgtol", suppressWarnings(notears_linear(x, lbfgsb = list(pgtol = -1))))
err("golem_nv", "threshold", suppressWarnings(golem_nv(x, threshold = -1)))
  }))
})
