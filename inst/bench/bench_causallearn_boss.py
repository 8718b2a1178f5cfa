# Driver for bench_causallearn_boss.R: runs causal-learn's BOSS (Python) on
# the CSV files the R script writes, three runs per file (Python's random
# seeds 0, 1, 2; BOSS's visiting order is random), and writes each run's
# CPDAG in calm's encoding (C[i, j] = 1 and C[j, i] = 0 for i -> j, both 1
# for i - j) next to the CSV, as <file>_cl<run>.txt. Prints one line per run
# with the time of the search alone.
#   python3 bench_causallearn_boss.py <causal-learn source dir> <lambda_value> file.csv ...
import random
import sys
import time

import numpy as np

sys.path.insert(0, sys.argv[1])
from causallearn.search.PermutationBased.BOSS import boss  # noqa: E402

lambda_value = float(sys.argv[2])
for path in sys.argv[3:]:
    x = np.loadtxt(path, delimiter=",")
    for run in range(3):
        random.seed(run)
        np.random.seed(run)
        start = time.perf_counter()
        g = boss(x, "local_score_BIC_from_cov", {"lambda_value": lambda_value}, verbose=False)
        secs = time.perf_counter() - start
        # causal-learn: graph[j, i] = 1 and graph[i, j] = -1 is i -> j;
        # graph[i, j] = graph[j, i] = -1 is i - j
        a = g.graph
        cpdag = ((a.T == 1) & (a == -1)) | ((a == -1) & (a.T == -1))
        np.savetxt(path.replace(".csv", "_cl%d.txt" % run), cpdag.astype(int), fmt="%d")
        print("%s %d %.3f" % (path, run, secs), flush=True)
