# Shell helpers of hk's scripts (sourced, not run).

# install_missing PACKAGE...: apt-installs the Debian packages not installed
# yet (as root, or with sudo).
install_missing() {
  local missing=() p sudo=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "hk: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "hk: need root or sudo to install ${missing[*]}" >&2; return 1; }
    sudo=sudo
  fi
  $sudo apt-get update -q &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# run_lit BUILD_DIR: runs BUILD_DIR's lit suite, echoing it; sets `status`
# (lit's exit status), `passed` and `failed` (from lit's summary:
# "  Passed: 25 (100.00%)", or "  Passed     : 64" when other lines widen
# the column).
run_lit() {
  local log
  log=$(mktemp)
  /usr/lib/llvm-22/bin/lit -sv "$1/test" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  count() { sed -nE "s/^ +($1) *: +([0-9]+).*/\2/p" "$log" | awk '{n += $1} END {print n + 0}'; }
  passed=$(count 'Passed|Expectedly Failed')
  failed=$(count 'Failed|Unresolved|Timed Out|Unexpectedly Passed')
  rm -f "$log"
}
