#!/usr/bin/env bash
# tests/include_map.sh ROOT: every #include from one folder into another is
# one that the table under "## Layout of the source" in docs/DEVELOPING.md
# allows, and every folder with C or C++ sources is in that table.
#
# The table's rows read `folder/` | concern | `prefix` `prefix` ...: a file
# under the folder may include its own folder's files, the standard library
# and third-party headers, and any path starting with one of the prefixes. A
# project path is one starting with `tilecheck/` (the public headers) or
# with the name of a folder in the table. Unit tests (*_test.cc, *_test.c)
# may also include `tilecheck/spec/`, the oracle.
set -euo pipefail
root=${1:?usage: include_map.sh ROOT}
map_doc=$root/docs/DEVELOPING.md

# folder<TAB>allowed prefixes (space-separated), from the table's rows.
map=$(awk '
  /^## Layout of the source/ { inside = 1; next }
  inside && /^## / { exit }
  inside && /^\| `/ {
    n = split($0, cell, "|")
    folder = cell[2]; gsub(/[` ]/, "", folder)
    allowed = cell[n - 1]; gsub(/`/, "", allowed); gsub(/^ +| +$/, "", allowed)
    print folder "\t" allowed
  }' "$map_doc")
if [[ -z $map ]]; then
  echo "include_map: no table under '## Layout of the source' in docs/DEVELOPING.md" >&2
  exit 1
fi

folders=$(cut -f1 <<<"$map")
# First path components that name project folders ("include" is not one:
# public headers are included as tilecheck/...).
project_roots=$(sed -E 's#/.*##' <<<"$folders" | grep -vx include | sort -u)

failures=0
# Every top-level folder with sources is on the map.
for dir in "$root"/*/; do
  name=$(basename "$dir")
  [[ $name == build* || $name == include ]] && continue
  if find "$dir" \( -name '*.cc' -o -name '*.h' -o -name '*.c' \) -print -quit | grep -q .; then
    if ! grep -qx "$name/" <<<"$folders"; then
      echo "include_map: folder $name/ has sources but no row in docs/DEVELOPING.md's table" >&2
      failures=$((failures + 1))
    fi
  fi
done

declare -A is_root
for r in $project_roots; do is_root[$r]=1; done
is_project_path() {
  local path=$1
  [[ $path == tilecheck/* ]] && return 0
  [[ $path == */* && -n ${is_root[${path%%/*}]:-} ]]
}

while IFS=$'\t' read -r folder allowed; do
  [[ -d $root/$folder ]] || { echo "include_map: docs/DEVELOPING.md names $folder, which does not exist" >&2
                              failures=$((failures + 1)); continue; }
  own=$folder
  [[ $folder == include/tilecheck/ ]] && own=tilecheck/
  while IFS= read -r -d '' file; do
    relative=${file#"$root"/}
    extra=""
    [[ $file == *_test.cc || $file == *_test.c ]] && extra="tilecheck/spec/"
    include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^>"]+)[>"]'
    while IFS= read -r line; do
      [[ $line =~ $include_re ]] || continue
      path=${BASH_REMATCH[1]}
      is_project_path "$path" || continue
      [[ $own != tilecheck/ && $path == "$own"* ]] && continue
      ok=0
      for prefix in $allowed $extra; do
        if [[ $path == "$prefix"* ]]; then ok=1; break; fi
      done
      if ((!ok)); then
        echo "include_map: $relative includes $path, which docs/DEVELOPING.md's table does not allow $folder" >&2
        failures=$((failures + 1))
      fi
    done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "$file" || true)
  done < <(find "$root/$folder" \( -name '*.cc' -o -name '*.h' -o -name '*.c' \) -print0)
done <<<"$map"

if ((failures)); then
  echo "include_map: $failures problems" >&2
  exit 1
fi
echo "include_map: every include between folders is on docs/DEVELOPING.md's map ($(wc -l <<<"$map") folders)"
