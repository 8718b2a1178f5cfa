# Lists the R and C++ functions in R/ and src/ longer than a limit (default
# 80 lines), counted from the first line of the definition to its closing
# brace by counting braces outside comments, strings and character literals.
# A function may be longer when the comment block right above it says why
# in a line that mentions "80 lines" ("About 90 lines: ..."); those are
# listed as explained. Exits with status 1 when an unexplained one is left.
#   Rscript tools/long-functions.R [limit] [folders...]
args <- commandArgs(TRUE)
limit <- if (length(args) >= 1L) as.integer(args[1]) else 80L
dirs <- if (length(args) >= 2L) args[-1] else c("R", "src")

# The text with comments, strings and character literals blanked (kept as
# spaces, newlines kept), so that braces and parentheses are code only.
blank_code <- function(text, lang) {
  ch <- strsplit(text, "")[[1]]
  out <- ch
  i <- 1L
  n <- length(ch)
  state <- "code"
  quote <- ""
  while (i <= n) {
    c1 <- ch[i]
    c2 <- if (i < n) ch[i + 1L] else ""
    if (state == "code") {
      if (lang == "r" && c1 == "#") {
        state <- "line"
      } else if (lang == "cpp" && c1 == "/" && c2 == "/") {
        state <- "line"
      } else if (lang == "cpp" && c1 == "/" && c2 == "*") {
        state <- "block"
      } else if (c1 %in% c("\"", "'") || (lang == "r" && c1 == "`")) {
        state <- "string"
        quote <- c1
        i <- i + 1L
        next
      } else {
        i <- i + 1L
        next
      }
    }
    if (state == "line" && c1 == "\n") {
      state <- "code"
    } else if (state == "block" && c1 == "*" && c2 == "/") {
      out[i] <- " "
      out[i + 1L] <- " "
      i <- i + 2L
      state <- "code"
      next
    } else if (state == "string") {
      if (c1 == "\\") {
        out[i] <- " "
        if (i < n && ch[i + 1L] != "\n") out[i + 1L] <- " "
        i <- i + 2L
        next
      }
      if (c1 == quote) {
        state <- "code"
        i <- i + 1L
        next
      }
    }
    if (state != "code" && c1 != "\n") out[i] <- " "
    i <- i + 1L
  }
  paste(out, collapse = "")
}

line_of <- function(text) {
  nl <- c(0L, which(strsplit(text, "")[[1]] == "\n"))
  function(pos) findInterval(pos - 1L, nl)
}

# R: top-level `name <- function(...)` (also `name = function`); its body
# runs from the first brace after the arguments to the matching one.
r_functions <- function(file) {
  raw <- paste(readLines(file, warn = FALSE), collapse = "\n")
  code <- blank_code(raw, "r")
  lines <- strsplit(code, "\n")[[1]]
  starts <- grep("^[A-Za-z.][A-Za-z0-9._]*[[:space:]]*(<-|=)[[:space:]]*function[[:space:]]*\\(", lines)
  chars <- strsplit(code, "")[[1]]
  line_starts <- c(1L, which(chars == "\n") + 1L)
  at <- line_of(code)
  do.call(rbind, lapply(starts, function(s) {
    pos <- line_starts[s]
    depth_p <- 0L
    depth <- 0L
    seen <- FALSE
    end <- NA_integer_
    for (k in pos:length(chars)) {
      c1 <- chars[k]
      if (c1 == "(") depth_p <- depth_p + 1L
      if (c1 == ")") depth_p <- depth_p - 1L
      if (c1 == "{" ) {
        depth <- depth + 1L
        seen <- TRUE
      }
      if (c1 == "}") {
        depth <- depth - 1L
        if (seen && depth == 0L) {
          end <- at(k)
          break
        }
      }
      # a one-line body without braces ends at the end of the line
      if (!seen && c1 == "\n" && depth_p == 0L && k > pos + 1L &&
          !grepl("(function[[:space:]]*\\(.*\\)|[-+*/,(=&|]|<-)[[:space:]]*$", lines[at(k)])) {
        end <- at(k)
        break
      }
    }
    if (is.na(end)) end <- s
    data.frame(file = file, name = sub("[[:space:]]*(<-|=).*$", "", lines[s]), start = s,
               lines = end - s + 1L)
  }))
}

# C++: a brace opens a function body when the code before it (since the
# last ';', '{' or '}') holds a parameter list and is not a class, struct,
# enum, namespace, initializer or control statement, and no function
# encloses it (lambdas and blocks belong to their function).
cpp_functions <- function(file) {
  raw <- paste(readLines(file, warn = FALSE), collapse = "\n")
  code <- blank_code(raw, "cpp")
  # preprocessor lines are not code for this count
  code <- gsub("(^|\n)[[:space:]]*#[^\n]*", "\\1", code)
  chars <- strsplit(code, "")[[1]]
  at <- line_of(code)
  stack <- character(0)
  header_from <- 1L
  out <- list()
  open_at <- integer(0)
  names_at <- character(0)
  for (k in seq_along(chars)) {
    c1 <- chars[k]
    if (c1 == ";" ) {
      header_from <- k + 1L
    } else if (c1 == "{") {
      header <- paste(chars[header_from:max(header_from, k - 1L)], collapse = "")
      h <- gsub("[[:space:]]+", " ", header)
      kind <- if (any(stack == "fn")) {
        "block"
      } else if (grepl("^ *(namespace|extern)\\b", h)) {
        "ns"
      } else if (grepl("^ *(template *<.*> *)?(class|struct|enum|union)\\b", h) && !grepl("\\)", h)) {
        "class"
      } else if (grepl("\\)", h) && !grepl("^ *(if|for|while|switch|catch|do|else)\\b", h) &&
                 !grepl("=[^=]*$", sub("\\(.*$", "", h)) && !grepl("^ *(return)\\b", h)) {
        "fn"
      } else {
        "block"
      }
      stack <- c(stack, kind)
      if (kind == "fn") {
        first <- header_from + regexpr("[^[:space:]]", header) - 1L
        open_at <- c(open_at, at(first))
        nm <- regmatches(h, regexpr("[A-Za-z_~][A-Za-z0-9_:~<>]*(operator[^(]*)? *\\(", h))
        names_at <- c(names_at, if (length(nm)) sub(" *\\($", "", nm) else "?")
      }
      header_from <- k + 1L
    } else if (c1 == "}") {
      kind <- stack[length(stack)]
      stack <- stack[-length(stack)]
      if (identical(kind, "fn")) {
        s <- open_at[length(open_at)]
        out[[length(out) + 1L]] <- data.frame(file = file, name = names_at[length(names_at)],
                                              start = s, lines = at(k) - s + 1L)
        open_at <- open_at[-length(open_at)]
        names_at <- names_at[-length(names_at)]
      }
      header_from <- k + 1L
    }
  }
  do.call(rbind, out)
}

# Whether the comment block right above line `start` has a line that
# mentions "80 lines" (the reason the function is longer).
explained <- function(file, start) {
  lines <- readLines(file, warn = FALSE)
  k <- start - 1L
  while (k >= 1L && grepl("^[[:space:]]*(#|//)", lines[k])) {
    if (grepl("80 lines", lines[k])) return(TRUE)
    k <- k - 1L
  }
  FALSE
}

files <- unlist(lapply(dirs, list.files, pattern = "\\.(R|cpp|h)$", full.names = TRUE))
files <- files[!grepl("RcppExports", files)]
all <- do.call(rbind, lapply(files, function(f) {
  if (grepl("\\.R$", f)) r_functions(f) else cpp_functions(f)
}))
long <- all[!is.null(all) & all$lines > limit, , drop = FALSE]
long <- long[order(-long$lines), , drop = FALSE]
long$explained <- mapply(explained, long$file, long$start)
cat(sprintf("%d functions in %d files; %d over %d lines\n", nrow(all), length(files), nrow(long),
            limit))
if (nrow(long)) {
  cat(sprintf("%4d  %s:%d  %s%s\n", long$lines, long$file, long$start, long$name,
              ifelse(long$explained, "  (explained)", "")), sep = "")
}
quit(status = if (any(!long$explained)) 1L else 0L)
