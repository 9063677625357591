#!/usr/bin/env bash
# tests/docs_lint.sh ROOT: the docs say what is true now, for users.
#
# Fails on, in README.md, docs/ and every other README of the tree:
#   - links or paths outside the repository (../ links, absolute links to
#     files, the design notes beside the checkout);
#   - issue numbers ("issue 6", "#12"), work rounds ("round 2") and commit
#     hashes (a hex word that git resolves to a commit of this repository);
# and, in build files, code and scripts, on issue and round numbers.
# History belongs in git log.
set -euo pipefail
root=${1:?usage: docs_lint.sh ROOT}
cd "$root"

problems=0
report() {
  echo "docs_lint: $1" >&2
  problems=$((problems + 1))
}

mapfile -t docs < <(find . -path ./build -prune -o -path './build-*' -prune -o -path ./fuzz/corpus -prune \
                         -o \( -name '*.md' \) -print | sed 's#^\./##' | sort)
mapfile -t code < <(find . -path ./build -prune -o -path './build-*' -prune -o -path ./fuzz/corpus -prune \
                         -o -path ./tests/docs_lint.sh -prune \
                         -o \( -name '*.cc' -o -name '*.h' -o -name '*.c' -o -name 'CMakeLists.txt' \
                               -o -name '*.cmake' -o -name '*.sh' -o -path './scripts/*' -o -path './.ci/*' \) \
                         -type f -print | sed 's#^\./##' | sort)

history_re='\b([Ii]ssues? #?[0-9]+|[Rr]ound [0-9]+)\b'
issue_ref_re='(^|[^&[:alnum:]])#[0-9]+\b'  # docs only: code has colours like "#555"
for file in "${docs[@]}" "${code[@]}"; do
  pattern=$history_re
  [[ $file == *.md ]] && pattern="$history_re|$issue_ref_re"
  while IFS= read -r hit; do
    report "$file:$hit (history belongs in git log)"
  done < <(grep -nE "$pattern" "$file" | cut -c1-160 || true)
done

outside_re='\]\((\.\./|/)[^)]*\)|\.\./shared|shared/DESIGN\.md|shared/seeds'
for file in "${docs[@]}"; do
  while IFS= read -r hit; do
    report "$file:$hit (a link outside the repository)"
  done < <(grep -nE "$outside_re" "$file" | cut -c1-160 || true)
done

# Commit hashes: only when this is a git checkout (CI's clean clone is).
if git rev-parse --git-dir >/dev/null 2>&1; then
  for file in "${docs[@]}"; do
    while IFS=: read -r line word; do
      if git cat-file -e "$word^{commit}" 2>/dev/null; then
        report "$file:$line: $word is a commit hash (history belongs in git log)"
      fi
    done < <(grep -noE '\b[0-9a-f]{7,40}\b' "$file" | grep -E ':[0-9a-f]*[a-f][0-9a-f]*$' || true)
  done
fi

if ((problems)); then
  echo "docs_lint: $problems problems" >&2
  exit 1
fi
echo "docs_lint: ${#docs[@]} docs and ${#code[@]} build and code files carry no history and link only inside the repository"
