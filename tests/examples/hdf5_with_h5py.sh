#!/usr/bin/env bash
# An example program writes HDF5 when its output ends in .h5 (docs/programs.md, "Example programs"); h5py,
# which knows nothing of hdae, reads the file and finds the ideal clutch's known answers
# (check_clutch_h5.py). hdae-compare takes the .h5 file as reference or result, and names the
# missing dataset of an HDF5 file that is not a result.
#   hdf5_with_h5py.sh <directory of the example programs> <hdae-compare>
set -euo pipefail

bin="$1"
compare="$2"
# Debian's interpreter, where python3-h5py is installed (not one first on PATH).
python=/usr/bin/python3
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
fail() {
  echo "hdf5_with_h5py.sh: $*" >&2
  exit 1
}

"${bin}/hdae-ideal-clutch" "${work}/clutch.h5" --columns 'w*,tau,u_C' --rows every:5 \
  > "${work}/out" 2> "${work}/err" || fail "the clutch run failed: $(cat "${work}/err")"
[[ ! -e "${work}/clutch.units.csv" ]] || fail "an HDF5 output got a units CSV beside it"
"${python}" "${here}/check_clutch_h5.py" "${work}/clutch.h5" || fail "h5py found the file wrong"

# The same run as CSV agrees with the HDF5 file in both roles.
"${bin}/hdae-ideal-clutch" "${work}/clutch.csv" --columns 'w*,tau,u_C' --rows every:5 \
  > /dev/null 2>&1 || fail "the clutch run to CSV failed"
"${compare}" "${work}/clutch.h5" "${work}/clutch.csv" > "${work}/cmp1" ||
  fail "hdae-compare clutch.h5 clutch.csv: $(cat "${work}/cmp1")"
"${compare}" "${work}/clutch.csv" "${work}/clutch.h5" > "${work}/cmp2" ||
  fail "hdae-compare clutch.csv clutch.h5: $(cat "${work}/cmp2")"

# An HDF5 file of another program: exit 2, the dataset named.
"${python}" -c 'import h5py, sys; f = h5py.File(sys.argv[1], "w"); f["x"] = [1.0, 2.0]' \
  "${work}/other.h5"
status=0
"${compare}" "${work}/other.h5" "${work}/clutch.h5" > /dev/null 2> "${work}/err3" || status=$?
[[ "${status}" == 2 ]] || fail "hdae-compare on a foreign HDF5 file exited with ${status}, not 2"
grep -qF "other.h5: no group 'columns' (not an hdae result file?)" "${work}/err3" ||
  fail "unexpected message: $(cat "${work}/err3")"
echo "h5py read the clutch's HDF5 result; hdae-compare agrees with its CSV twin"
