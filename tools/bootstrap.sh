#!/usr/bin/env bash
# Builds .venv for the whole suite: apt packages, pinned Python packages, the reacthuman_msgs interfaces
# and the package itself. Each stage is skipped when its stamp (a hash of its inputs) is unchanged, so a
# second run with nothing changed takes about a second.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VENV=$ROOT/.venv
PY=${REACTHUMAN_PYTHON:-python3.11}
CACHE=${REACTHUMAN_CACHE:-$HOME/.cache/reacthuman}   # outside the clone: survives fresh clones
export PIP_CACHE_DIR=${PIP_CACHE_DIR:-$HOME/.cache/pip}

die() { echo "bootstrap: $*" >&2; exit 1; }
say() { echo "bootstrap: $*"; }
stamp_of() { cat "$@" | sha256sum | cut -c1-16; }
fresh() { [ -f "$VENV/.stamp-$1" ] && [ "$(cat "$VENV/.stamp-$1")" = "$2" ]; }
mark() { echo "$2" > "$VENV/.stamp-$1"; }

for tool in "$PY" cmake make g++ git; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' is not installed; this suite needs Python 3.11, cmake, make, g++ and git (Debian: apt-get install python3.11-venv cmake make g++ git)"
done

# --- apt: headless GL for Genesis/MuJoCo rendering, CycloneDDS 0.10 for the Unitree SDK, furniture models
# for recognisable objects, Chromium for the test that loads the HTML report in a real headless browser --
APT_PKGS="libegl1 libegl-mesa0 libgl1-mesa-dri libosmesa6 cyclonedds-dev sweethome3d-furniture chromium"
missing=$(for p in $APT_PKGS; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ]; then
  command -v apt-get >/dev/null || die "missing system packages: $missing (and no apt-get to install them)"
  [ "$(id -u)" = 0 ] || die "missing system packages: $missing; run: sudo apt-get install -y $missing"
  say "installing system packages: $missing"
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null \
    || die "apt-get install failed for: $missing"
fi

# --- Python packages --------------------------------------------------------------------------------
deps_stamp=$(stamp_of requirements.txt requirements-nodeps.txt requirements.lock tools/bootstrap.sh)
if ! fresh deps "$deps_stamp"; then
  [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV" || die "could not create $VENV (Debian: apt-get install python3.11-venv)"
  pip() { "$VENV/bin/python" -m pip -q --disable-pip-version-check "$@"; }
  say "installing Python packages into .venv (first time: several minutes)"
  # torch first, the CPU build from local disk: otherwise genesis-world pulls a multi-GB CUDA torch.
  pip install torch==2.13.0
  pip install -c requirements.lock -r requirements.txt
  # CycloneDDS 0.10.2 to talk to a real G1 (the 11.x wheel cannot); built against Debian's library.
  if ! "$VENV/bin/python" -c "import cyclonedds" 2>/dev/null; then
    cdds=$CACHE/cyclonedds-home; mkdir -p "$cdds"
    ln -sfn /usr/lib/x86_64-linux-gnu "$cdds/lib"; ln -sfn /usr/include "$cdds/include"; ln -sfn /usr/bin "$cdds/bin"
    CYCLONEDDS_HOME=$cdds pip install cyclonedds==0.10.2
  fi
  pip install --no-deps -c requirements.lock -r requirements-nodeps.txt
  mark deps "$deps_stamp"
fi

# --- reacthuman_msgs: plain CMake against the ROS 2 wheels ------------------------------------------
msgs_stamp=$(stamp_of $(find msgs -type f | sort) tools/bootstrap.sh)
if [ -d msgs ] && ! fresh msgs "$msgs_stamp"; then
  say "building reacthuman_msgs"
  pyinc=$("$VENV/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
  npinc=$("$VENV/bin/python" -c "import numpy; print(numpy.get_include())")
  # The wheels hard-code the include folders of the machine they were built on.
  for f in "$VENV"/share/*/cmake/export_*__rosidl_generator_pyExport.cmake; do
    sed -i -e "s#/opt/python/cp311-cp311/include/python3.11#$pyinc#g" \
           -e "s#/opt/python/cp311-cp311/lib/python3.11/site-packages/numpy/_core/include#$npinc#g" "$f"
  done
  build=$CACHE/msgs-build-$(echo "$ROOT" | sha256sum | cut -c1-8)
  rm -rf "$build"
  ( export AMENT_PREFIX_PATH=$VENV CMAKE_PREFIX_PATH=$VENV PATH=$VENV/bin:$PATH
    cmake -S msgs -B "$build" -DCMAKE_INSTALL_PREFIX="$VENV" -DPython3_EXECUTABLE="$VENV/bin/python3" \
          -DBUILD_TESTING=OFF >"$build.log" 2>&1 \
    && cmake --build "$build" -j2 >>"$build.log" 2>&1 && cmake --install "$build" >>"$build.log" 2>&1 ) \
    || die "building reacthuman_msgs failed; see $build.log"
  mark msgs "$msgs_stamp"
fi

# --- the package itself (editable) ------------------------------------------------------------------
pkg_stamp=$(stamp_of setup.py setup.cfg package.xml tools/bootstrap.sh 2>/dev/null || true)
if [ -f setup.py ] && ! fresh pkg "$pkg_stamp"; then
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e . >/dev/null
  mark pkg "$pkg_stamp"
fi
