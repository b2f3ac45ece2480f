# Two commands: `make demo` runs the main job, `make test` runs the tests. Both bootstrap .venv first
# (apt packages, pinned Python packages, the reacthuman_msgs build); a re-run with nothing changed is quick.
SHELL := /bin/bash
PY := .venv/bin/python
export OMP_WAIT_POLICY ?= PASSIVE
export ROS_AUTOMATIC_DISCOVERY_RANGE ?= LOCALHOST
export MUJOCO_GL ?= egl

.PHONY: install demo test test-fast test-fast-light lint bench clean

install:
	@bash tools/bootstrap.sh

demo: install
	@$(PY) -m reacthuman.evaluation.demo

# The static checks (lint), then two pytest-xdist workers: test/parallel_layout.py says which modules run
# together; PYTEST_ARGS="-n 0" runs serially.
test: install lint
	@$(PY) -m pytest -q -p no:cacheprovider -n 2 $(PYTEST_ARGS)

# The unit layer alone (no Genesis, no ROS 2 graph, no model server, no Ray): test/fast_layer.py lists it,
# after the static checks: ruff (ruff.toml) and the import contracts (.importlinter; docs/testing.md).
test-fast: install lint
	@$(PY) -m pytest -q -p no:cacheprovider -n 2 -m fast $(PYTEST_ARGS)

lint: install
	@.venv/bin/ruff check .
	@.venv/bin/ruff format --check .
	@$(PY) tools/import_view.py

# The unit layer in a light environment of its own (.venv-light: no Genesis, ROS 2, model server or Ray), built
# on first use from requirements.lock (docs/testing.md).
LIGHT_PY := .venv-light/bin/python
test-fast-light:
	@test -x $(LIGHT_PY) || (python3 -m venv .venv-light && $(LIGHT_PY) -m pip install -q -c requirements.lock -e '.[test-fast]' \
		&& $(LIGHT_PY) -m pip install -q --no-deps -c requirements.lock holosoma holosoma-inference dm-control)
	@$(LIGHT_PY) -m pytest -q -p no:cacheprovider -n 2 -m fast --light-install $(PYTEST_ARGS)

bench: install
	@$(PY) -m reacthuman.cli bench

clean:
	rm -rf .venv build
