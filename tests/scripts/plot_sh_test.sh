#!/bin/sh
# scripts/plot.sh on small result CSVs, one behaviour per case (tests/CMakeLists.txt registers
# each as a ctest):
#   plot_sh_test.sh <scripts/plot.sh> draws | missing-file | missing-signal | large | no-matplotlib
# Exit 0 pass, 1 fail, 77 skipped (ctest SKIP_RETURN_CODE): the cases that need matplotlib are
# skipped, with the reason, when Debian's /usr/bin/python3 cannot import it; with
# HDAE_REQUIRE_PLOTS=1 (set by .ci/run, after scripts/install-deps.sh has installed
# python3-matplotlib) that is a failure instead.
set -eu
plot_sh="$1"
case_name="$2"
unset HDAE_PYTHON  # the default interpreter, /usr/bin/python3, is the one under test
export LC_ALL=C    # system error texts in English
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

require_matplotlib() {
  if ! /usr/bin/python3 -c 'import matplotlib' > /dev/null 2>&1; then
    reason="/usr/bin/python3 cannot import matplotlib (scripts/install-deps.sh installs python3-matplotlib)"
    if [ "${HDAE_REQUIRE_PLOTS:-0}" = 1 ]; then
      fail "${reason}, and HDAE_REQUIRE_PLOTS=1"
    fi
    echo "SKIP: ${reason}"
    exit 77
  fi
}

# Width and height of a PNG: the IHDR chunk's two big-endian 32-bit integers at bytes 16..23.
png_size() {
  od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }'
}

# Checks that $1 is a PNG file (the 8-byte signature 137 P N G \r \n 26 \n) of size $2.
check_png() {
  [ -s "$1" ] || fail "$1 was not written or is empty"
  signature="$(od -An -tu1 -N8 "$1" | tr -s ' ' | sed 's/^ //; s/ $//')"
  [ "${signature}" = "137 80 78 71 13 10 26 10" ] || fail "$1 is not a PNG (starts with ${signature})"
  size="$(png_size "$1")"
  [ "${size}" = "$2" ] || fail "$1 is ${size} pixels, expected $2"
  echo "ok: $1 is a ${size} PNG of $(wc -c < "$1") bytes"
}

# A ball thrown sideways at 0.5 m/s from 1 m high, with one bounce at t = 0.5 s (two rows: left
# and right limit), as the examples write it: three signals in two units (x and h in m, v in
# m/s), the units file beside the CSV.
cat > "${work}/ball.csv" << 'EOF'
time,x,h,v
0,0,1,0
0.25,0.125,0.69,-2.45
0.5,0.25,0,-4.9
0.5,0.25,0,3.43
0.75,0.375,0.55,0.98
1,0.5,0.49,-1.47
EOF
cat > "${work}/ball.units.csv" << 'EOF'
time,s,time
x,m,state
h,m,state
v,m/s,state
EOF
mkdir "${work}/no_units"
cp "${work}/ball.csv" "${work}/no_units/ball.csv"

# Runs plot.sh with the given arguments; sets rc, out (stdout) and err (stderr).
run_plot() {
  rc=0
  sh "${plot_sh}" "$@" > "${work}/stdout" 2> "${work}/stderr" || rc=$?
  out="$(cat "${work}/stdout")"
  err="$(cat "${work}/stderr")"
}

case "${case_name}" in
  draws)
    require_matplotlib
    # plot.py draws one panel per unit, each 2.2 in high plus 1 in, 8 in wide, at 120 dpi:
    # x, h [m] and v [m/s] give 960 x (1 + 2 * 2.2) * 120 = 960 x 648 pixels ...
    run_plot "${work}/ball.csv" "${work}/all.png"
    [ "${rc}" = 0 ] || fail "plot.sh exited with ${rc}: ${err}"
    check_png "${work}/all.png" 960x648
    # ... without the units file one panel per signal, 960 x (1 + 3 * 2.2) * 120 = 960 x 912 ...
    run_plot "${work}/no_units/ball.csv" "${work}/no_units.png"
    [ "${rc}" = 0 ] || fail "plot.sh exited with ${rc}: ${err}"
    check_png "${work}/no_units.png" 960x912
    # ... and a single named signal one panel, 960 x (1 + 2.2) * 120 = 960 x 384.
    run_plot "${work}/ball.csv" "${work}/h.png" h
    [ "${rc}" = 0 ] || fail "plot.sh exited with ${rc}: ${err}"
    check_png "${work}/h.png" 960x384
    ;;
  missing-file)
    require_matplotlib
    run_plot "${work}/absent.csv" "${work}/out.png"
    [ "${rc}" = 2 ] || fail "plot.sh exited with ${rc}, expected 2"
    [ "${err}" = "plot.py: ${work}/absent.csv: No such file or directory" ] || fail "message: ${err}"
    [ ! -e "${work}/out.png" ] || fail "a PNG was written for a missing input"
    echo "ok: ${err}"
    ;;
  missing-signal)
    require_matplotlib
    run_plot "${work}/ball.csv" "${work}/out.png" h speed
    [ "${rc}" = 2 ] || fail "plot.sh exited with ${rc}, expected 2"
    [ "${err}" = "plot.py: ${work}/ball.csv: no column \"speed\" (the columns are x, h, v)" ] ||
      fail "message: ${err}"
    [ ! -e "${work}/out.png" ] || fail "a PNG was written for a missing signal"
    echo "ok: ${err}"
    ;;
  large)
    # One signal of a wide table is drawn keeping only its column: 2e5 rows of 20 columns
    # (about 50 MB of text) grow the peak memory of the plot by less than half the file's size
    # over that of a 10-row table of the same columns (all of it as Python floats took 12
    # times the file).
    require_matplotlib
    awk 'BEGIN { printf "time"; for (c = 1; c <= 20; ++c) printf ",s%d", c; print "";
                 for (i = 0; i < 200000; ++i) { printf "%.6f", i * 1e-3;
                   for (c = 1; c <= 20; ++c) printf ",%.15g", sin(i * 1e-3 * c); print "" } }' \
      > "${work}/wide.csv"
    head -11 "${work}/wide.csv" > "${work}/narrow.csv"
    peak() {  # peak resident kilobytes of plot.py drawing s3 of $1
      /usr/bin/python3 -c 'import resource, subprocess, sys
subprocess.run(["/usr/bin/python3", sys.argv[1], sys.argv[2], sys.argv[3], "s3"], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
        "$(dirname "${plot_sh}")/plot.py" "$1" "${work}/out.png"
    }
    small="$(peak "${work}/narrow.csv")"
    big="$(peak "${work}/wide.csv")"
    size_kb=$(( $(wc -c < "${work}/wide.csv") / 1024 ))
    [ $(( big - small )) -lt $(( size_kb / 2 )) ] ||
      fail "the plot of ${size_kb} KB grew by $(( big - small )) KB (from ${small} KB)"
    check_png "${work}/out.png" 960x384  # one panel
    echo "ok: ${size_kb} KB of CSV, $(( big - small )) KB more memory"
    ;;
  no-matplotlib)
    # An interpreter that cannot import anything stands in for a python3 without matplotlib.
    printf '#!/bin/sh\nexit 1\n' > "${work}/python3"
    chmod +x "${work}/python3"
    rc=0
    HDAE_PYTHON="${work}/python3" sh "${plot_sh}" "${work}/ball.csv" "${work}/out.png" \
      > /dev/null 2> "${work}/stderr" || rc=$?
    err="$(cat "${work}/stderr")"
    [ "${rc}" = 2 ] || fail "plot.sh exited with ${rc}, expected 2"
    [ "${err}" = "${plot_sh}: ${work}/python3 cannot import matplotlib (apt-get install python3-matplotlib)" ] ||
      fail "message: ${err}"
    echo "ok: ${err}"
    ;;
  *)
    fail "unknown case ${case_name}"
    ;;
esac
