#!/bin/sh
# Plots a result CSV: scripts/plot.sh result.csv out.png [signal ...]   (PNG or SVG by extension)
# Runs scripts/plot.py with Debian's /usr/bin/python3, which has python3-matplotlib; another
# python3 earlier on PATH may not. Set HDAE_PYTHON to use a different interpreter.
set -eu
python="${HDAE_PYTHON:-/usr/bin/python3}"
if [ $# -lt 2 ]; then
  echo "usage: $0 result.csv out.png [signal ...]" >&2
  exit 2
fi
if ! "$python" -c 'import matplotlib' 2>/dev/null; then
  echo "$0: $python cannot import matplotlib (apt-get install python3-matplotlib)" >&2
  exit 2
fi
exec "$python" "$(dirname "$0")/plot.py" "$@"
