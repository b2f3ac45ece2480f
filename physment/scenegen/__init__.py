"""The scene-set generator: templates x parameters, each with a reference solution written as turns of tool
calls; `physment scenes build` writes physment/scenes/, `physment scenes verify` proves each scene solvable."""
