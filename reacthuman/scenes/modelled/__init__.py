"""Household objects modelled here, for library objects no installed catalogue draws faithfully.

Sweet Home 3D and the LIBERO wheels have no tennis ball, brick, ladder, door or wall clock. Rather than
draw those as bare primitives (which no vision model can recognise) or with a near miss (a stock pot for a
pan), each is modelled in this package from textured primitives: a tennis ball is a felt-yellow sphere with
its white seam, a ladder two rails and its rungs, a wall clock a dial with numerals and hands. The models
are built at run time (deterministic, see `textures.py`) into the mesh cache like any catalogue model, and
a scene's spec names them by this package, `modelled` and `<module>:<name>@<version>`.

A model is built at the object's physical extents (x, y, z in its body frame, metres), so it fits its
collision primitives without any scaling; twins draw their genuine object's model.
"""

from __future__ import annotations

from reacthuman.scenes.modelled.registry import (  # noqa: F401
    MODELLED_ARCHIVE,
    MODELLED_PACKAGE,
    ModelledModel,
    modelled_model,
    modelled_models,
    modelled_parts,
)
