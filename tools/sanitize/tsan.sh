#!/usr/bin/env bash
# ThreadSanitizer: the core built with -fsanitize=thread and the threads
# driver (driver_threads.cpp: the kernel's thread team under many
# hand-overs, 2-thread fits equal to 1-thread fits, and the search's threads
# equal to one) run; any data race or deadlock report fails the run.
# Usage: bash tools/sanitize/tsan.sh
set -euo pipefail
SANITIZER=thread exec bash "$(dirname "$0")/run.sh" driver_threads
